package dev.ferry.core.agent;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Native memory per pull slot, for the agent to reach where a message's own memory is out of its
 * reach (a heap array moves with the collector; a scattered layout is not one range): a receive
 * is pulled into it and copied out, a send is copied into it and exposed. Kept and grown, so a
 * run of such messages allocates once per slot, but only while all slots together hold at most
 * {@link #KEEP_BYTES}: past that, a slot's memory goes when its use ends, so one large message
 * does not leave its size held for the rest of the job. A channel's thread alone uses it.
 *
 * <pre>{@code
 * MemorySegment m = staging.at(slot, n);   // at least n bytes, valid until done(slot)
 * ...
 * staging.done(slot);                      // the slot's use ended: kept, or freed past the bound
 * }</pre>
 */
final class Staging implements AutoCloseable {
    /** What the slots together keep between uses. */
    static final long KEEP_BYTES = 64L << 20;

    private final MemorySegment[] memory = new MemorySegment[ChannelLayout.PULL_SLOTS];
    private final Arena[] arenas = new Arena[ChannelLayout.PULL_SLOTS];
    private final long keepBytes;
    private long held;

    Staging() {
        this(KEEP_BYTES);
    }

    /** @param keepBytes what the slots together keep between uses */
    Staging(long keepBytes) {
        this.keepBytes = keepBytes;
    }

    /** At least {@code bytes} of native memory for slot {@code slot}. */
    MemorySegment at(int slot, long bytes) {
        MemorySegment m = memory[slot];
        if (m == null || m.byteSize() < bytes) {
            free(slot);
            arenas[slot] = Arena.ofShared();
            m = memory[slot] = arenas[slot].allocate(Math.max(bytes, 64 * 1024), 64);
            held += m.byteSize();
        }
        return m;
    }

    /** Slot {@code slot}'s use ended: its memory stays for the next unless the slots hold more than they keep. */
    void done(int slot) {
        if (held > keepBytes) {
            free(slot);
        }
    }

    private void free(int slot) {
        if (arenas[slot] != null) {
            held -= memory[slot].byteSize();
            arenas[slot].close();
            arenas[slot] = null;
            memory[slot] = null;
        }
    }

    /** The bytes held now, over every slot. */
    long bytesHeld() {
        return held;
    }

    @Override
    public void close() {
        for (int s = 0; s < arenas.length; s++) {
            free(s);
        }
    }
}
