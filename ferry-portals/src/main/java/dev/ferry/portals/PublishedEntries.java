package dev.ferry.portals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

import static dev.ferry.portals.DirectoryLayout.*;
import static dev.ferry.portals.Portals.ME_NO_TRUNCATE;

/**
 * Reading a process's entry directory ({@link DirectoryLayout}) from outside it: the first
 * published entry an operation matches, and the hazard word that keeps the entry's memory while
 * the reader works on it. Both readers use it: a same-node initiator ({@link DirectAccess}) and
 * the node agent serving a put from another node ({@link AgentEntryOffload}).
 *
 * <pre>{@code
 * long h = PublishedEntries.first(dir, ni, pt, bits, me, offset, length);
 * if (h >= 0 && PublishedEntries.enter(dir, hazardWord, h)) {
 *     try { ... the entry's memory ... } finally { PublishedEntries.leave(dir, hazardWord); }
 * }
 * }</pre>
 */
final class PublishedEntries {
    private static final long STATE_BITS = 0xffff_ffff_ffffL;

    private PublishedEntries() {
    }

    /**
     * The entry of (ni, pt) published in {@code d} that an operation of engine rank {@code
     * initiator} with {@code matchBits}, {@code length} bytes at {@code remoteOffset} matches
     * first, as its hazard word ({@link DirectoryLayout#hazardOf}: its slot and live state); -1
     * when none of the published ones does (the message path decides), or the list changed while
     * it was read.
     */
    static long first(MemorySegment d, int ni, int pt, long matchBits, int initiator, long remoteOffset, long length) {
        if ((int) INT.getAcquire(d, OPEN_OFFSET) == 0 || ni < 0 || ni >= NIS || pt < 0 || pt >= PTS) {
            return -1;
        }
        long list = list(ni, pt);
        long seq = (long) LONG.getAcquire(d, list + LIST_SEQ);
        if ((seq & 1) != 0) {
            return -1;
        }
        int count = d.get(ValueLayout.JAVA_INT, list + LIST_COUNT);
        long found = -1;
        for (int i = 0; i < count && i < MAX_PUBLISHED; i++) {
            int s = d.get(ValueLayout.JAVA_INT, list + LIST_SLOTS + 4L * i);
            if (s < 0 || s >= SLOTS) {
                return -1;
            }
            long at = slot(s);
            long st = (long) LONG.getAcquire(d, at + SLOT_STATE);
            if (((matchBits ^ d.get(ValueLayout.JAVA_LONG, at + SLOT_MATCH_BITS)) & ~d.get(ValueLayout.JAVA_LONG, at + SLOT_IGNORE_BITS)) != 0) {
                continue;
            }
            int who = d.get(ValueLayout.JAVA_INT, at + SLOT_MATCH_RANK);
            if (who != -1 && who != initiator) {
                continue;
            }
            if ((d.get(ValueLayout.JAVA_INT, at + SLOT_OPTIONS) & ME_NO_TRUNCATE) != 0
                    && remoteOffset + length > d.get(ValueLayout.JAVA_LONG, at + SLOT_LENGTH)) {
                continue;
            }
            found = (st & 1) == 0 ? -1 : hazardOf(s, st);
            break;
        }
        VarHandle.loadLoadFence();
        return (long) LONG.getOpaque(d, list + LIST_SEQ) == seq ? found : -1;
    }

    /** The slot of what {@link #first} found. */
    static int slotOf(long found) {
        return (int) (found >>> 48);
    }

    /**
     * Announces the work on the entry {@link #first} found in {@code hazardWord} (the reader's own
     * word of {@code d}), then checks it is still live in that state: true to go on (and {@link
     * #leave} after), false when it was retired meanwhile (the word is cleared).
     */
    static boolean enter(MemorySegment d, long hazardWord, long found) {
        LONG.setOpaque(d, hazardWord, found);
        VarHandle.fullFence(); // store-load: the owner's retire does the mirror image (store state, fence, load hazards)
        if (((long) LONG.getOpaque(d, slot(slotOf(found)) + SLOT_STATE) & STATE_BITS) != (found & STATE_BITS)) {
            LONG.setRelease(d, hazardWord, 0L);
            return false;
        }
        return true;
    }

    /** The work {@link #enter} announced is done: the owner may retire the entry. */
    static void leave(MemorySegment d, long hazardWord) {
        LONG.setRelease(d, hazardWord, 0L);
    }
}
