package dev.ferry.portals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

import static dev.ferry.portals.DirectoryLayout.*;
import static dev.ferry.portals.Portals.*;

/**
 * The target side of direct access: this process's entry directory ({@link DirectoryLayout}), in
 * which it publishes, per portal table entry, the leading priority-list entries a same-node peer
 * may serve itself (load, store, atomic on the entry's memory) with the very outcome this
 * process's matching would give. An entry qualifies when nothing of the operation has to happen
 * here: persistent (no use-once, no locally managed offset), counting of communication events
 * only (peers count into its counting event's word of the directory, which the counter reads:
 * {@link Counter#success()}), no communication event
 * posted (no event queue, or those events disabled, and no flow control that a full queue would
 * trip), its memory one range of the shared arena ({@link Portals#memAlloc}), and a match id that
 * names one process or any. Only a prefix of the list is published, so a peer
 * that finds a match there found the first match; anything else goes by message.
 *
 * <p>While a triggered operation waits on a counting event, its entries' slots say that
 * same-node peers leave them to the message path ({@link DirectoryLayout#PEERS_SKIP}): the node
 * agent still serves them, and its count rings this process's bell; the library's progress then
 * fires what the counts reached ({@link #fireCounted}).
 *
 * <p>Retiring an entry (unlink, a disabled portal table entry, fini) first takes it out of the
 * list and marks its slot dead, then waits until no peer's hazard word names the slot (the peer
 * sets its word, then re-checks the slot: one of the two sees the other). After that no peer
 * touches the entry's memory again. Runs in the library's one thread of control.
 *
 * <pre>{@code
 * directory.republish(ni, pt);                 // after the priority list or pt's state changed
 * if (!directory.withdraw(ni, entry)) throw IN_USE;
 * }</pre>
 */
final class Directory {
    /** How long retiring a slot waits for a peer still working on it (a peer descheduled mid-copy); then IN_USE. */
    private static final long HAZARD_WAIT_NANOS = 1_000_000_000L;

    private final Library lib;
    private MemorySegment dir;
    private byte[] key;
    private boolean unavailable;
    /** Live state of each slot as the owner last wrote it. */
    private final long[] state = new long[SLOTS];
    /** Slots free to take; a slot a peer never let go of (dead peer mid-copy) is not given back. */
    private final int[] free = new int[SLOTS];
    private int freeCount;
    /** What each (ni, pt) list publishes now. */
    private final ListEntry[][][] published = new ListEntry[NIS][PTS][];
    private final ListEntry[] scratch = new ListEntry[MAX_PUBLISHED];
    /** Counter words free to give to a counting event (one kept by each counter that had a published entry, until freed). */
    private final int[] freeWords = new int[COUNTERS];
    private int freeWordCount;
    /** Counting events with a word and triggered operations waiting: progress fires what the counts made elsewhere reached. */
    private final java.util.ArrayList<Counter> watched = new java.util.ArrayList<>();
    /** A counting event whose entries are being given fresh slots: they do not qualify meanwhile. */
    private Counter reslotting;

    Directory(Library lib) {
        this.lib = lib;
        for (int s = SLOTS - 1; s >= 0; s--) {
            free[freeCount++] = s;
        }
        for (int w = COUNTERS - 1; w >= 0; w--) {
            freeWords[freeWordCount++] = w;
        }
    }

    /** The directory's share key, null when this process cannot share one. */
    private byte[] key() {
        return ensure() ? key : null;
    }

    /** A same-node peer asks for the directory (DIR_REQ): answers its share key, or none (DIR_KEY). */
    void answer(int peer) {
        byte[] k = key();
        InlineSender.Outgoing out = lib.sender.take();
        int n = k == null ? 0 : k.length;
        PtlWire.response(out.buf, PtlWire.DIR_KEY, 0, 0, 0, 0, 0, 0, n, 0);
        if (n > 0) {
            MemorySegment.copy(k, 0, out.buf, ValueLayout.JAVA_BYTE, PtlWire.HEADER, n);
        }
        lib.sender.send(peer, out, PtlWire.HEADER + n);
    }

    private boolean ensure() {
        if (dir != null) {
            return true;
        }
        if (unavailable) {
            return false;
        }
        MemorySegment m = lib.engine.memory().allocate(bytes(lib.size));
        byte[] k = lib.engine.memory().shareKey(m);
        if (k == null || k.length > 255) {
            unavailable = true; // no local driver with a shared arena: every operation goes by message
            return false;
        }
        m.fill((byte) 0);
        m.set(ValueLayout.JAVA_LONG, MAGIC_OFFSET, MAGIC);
        m.set(ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION);
        m.set(ValueLayout.JAVA_INT, RANKS_OFFSET, lib.size);
        INT.setRelease(m, OPEN_OFFSET, 1);
        dir = m;
        key = k;
        // the node agent (agent mode) serves operations from other nodes on what is published here too
        lib.engine.memory().offloadTable(AGENT_KIND, m);
        return true;
    }

    /** Whether peers may be working on {@code e}'s memory now (its atomics must then be atomic instructions here too). */
    static boolean published(ListEntry e) {
        return e.slot >= 0;
    }

    /**
     * Publishes the leading entries of {@code pt}'s priority list that qualify (none while the
     * entry is disabled), retiring those no longer there. Call after any change to the list or
     * to the portal table entry's state. False when a retired slot was still held by a peer
     * after the bounded wait (it stays dead and unused).
     */
    boolean republish(Ni ni, PtEntry pt) {
        return republish(ni, pt, null);
    }

    /** Takes {@code e} out of what is published before it is unlinked; false when a peer still works on it (IN_USE). */
    boolean withdraw(Ni ni, ListEntry e) {
        if (e.slot < 0) {
            return true;
        }
        return republish(ni, e.pt, e);
    }

    private boolean republish(Ni ni, PtEntry pt, ListEntry exclude) {
        int n = 0;
        if (pt.enabled && pt.allocated && !ni.closed) {
            for (ListEntry e : pt.priority) {
                if (e == exclude) {
                    continue;
                }
                if (n == MAX_PUBLISHED || !qualifies(ni, pt, e)) {
                    break;
                }
                scratch[n++] = e;
            }
        }
        ListEntry[] old = published[ni.index][pt.index];
        if (n == 0 && (old == null || old.length == 0)) {
            return true;
        }
        if (n > 0 && !ensure()) {
            return true;
        }
        ListEntry[] now = java.util.Arrays.copyOf(scratch, n);
        for (int i = 0; i < now.length; i++) {
            if (now[i].slot < 0 && !assign(now[i])) {
                now = java.util.Arrays.copyOf(now, i); // out of slots: a shorter prefix
                break;
            }
        }
        long at = list(ni.index, pt.index);
        long seq = (long) LONG.getOpaque(dir, at + LIST_SEQ);
        LONG.setOpaque(dir, at + LIST_SEQ, seq + 1); // odd: readers retry or go by message
        VarHandle.storeStoreFence();
        dir.set(ValueLayout.JAVA_INT, at + LIST_COUNT, now.length);
        for (int i = 0; i < now.length; i++) {
            dir.set(ValueLayout.JAVA_INT, at + LIST_SLOTS + 4L * i, now[i].slot);
        }
        LONG.setRelease(dir, at + LIST_SEQ, seq + 2);
        published[ni.index][pt.index] = now;
        boolean ok = true;
        if (old != null) {
            for (ListEntry e : old) {
                if (e.slot >= 0 && !contains(now, e)) {
                    ok &= retire(e);
                }
            }
        }
        return ok;
    }

    private static boolean contains(ListEntry[] a, ListEntry e) {
        for (ListEntry x : a) {
            if (x == e) {
                return true;
            }
        }
        return false;
    }

    /** Whether operations on {@code e} count into its counting event. */
    private static boolean counts(ListEntry e) {
        return e.ct != null && e.has(ME_EVENT_CT_COMM);
    }

    private boolean qualifies(Ni ni, PtEntry pt, ListEntry e) {
        if (e.has(ME_USE_ONCE) || e.has(ME_MANAGE_LOCAL)) {
            return false;
        }
        if (counts(e) && (e.ct.freed || e.ct == reslotting || e.ct.word < 0 && freeWordCount == 0)) {
            return false;
        }
        if (pt.eq != null && ((pt.options & PT_FLOWCTRL) != 0 || !e.has(ME_EVENT_COMM_DISABLE) && !e.has(ME_EVENT_SUCCESS_DISABLE))) {
            return false;
        }
        if (e.region.length() == 0 || matchRank(ni, e) == NOBODY) {
            return false;
        }
        if (e.shareKey == null) {
            MemorySegment m = e.region.single();
            byte[] k = m == null ? null : lib.engine.memory().shareKey(m);
            e.shareKey = k == null || k.length > MAX_KEY ? ListEntry.NO_KEY : k;
        }
        return e.shareKey != ListEntry.NO_KEY;
    }

    private static final int NOBODY = -2;

    /** The engine rank whose operations {@code e} admits, -1 for any, NOBODY when it cannot be said as one. */
    private int matchRank(Ni ni, ListEntry e) {
        if (!e.matching) {
            return -1;
        }
        ProcessId m = e.matchId;
        if (ni.logical) {
            if (m.rank == RANK_ANY) {
                return -1;
            }
            return m.rank >= 0 && m.rank < ni.rankToEngine.length ? ni.rankToEngine[m.rank] : NOBODY;
        }
        if (m.phys.pid == PID_ANY) {
            return m.phys.nid == NID_ANY ? -1 : NOBODY;
        }
        int pid = m.phys.pid;
        return pid >= 0 && pid < lib.size && (m.phys.nid == NID_ANY || m.phys.nid == lib.nid[pid]) ? pid : NOBODY;
    }

    private boolean assign(ListEntry e) {
        if (freeCount == 0) {
            return false;
        }
        int s = free[--freeCount];
        long at = slot(s);
        dir.set(ValueLayout.JAVA_LONG, at + SLOT_MATCH_BITS, e.matching ? e.matchBits : 0);
        dir.set(ValueLayout.JAVA_LONG, at + SLOT_IGNORE_BITS, e.matching ? e.ignoreBits : -1L);
        dir.set(ValueLayout.JAVA_INT, at + SLOT_MATCH_RANK, matchRank(e.ni, e));
        dir.set(ValueLayout.JAVA_INT, at + SLOT_UID, e.uid);
        dir.set(ValueLayout.JAVA_INT, at + SLOT_OPTIONS, e.options);
        dir.set(ValueLayout.JAVA_INT, at + SLOT_KEY_LENGTH, e.shareKey.length);
        dir.set(ValueLayout.JAVA_LONG, at + SLOT_LENGTH, e.region.length());
        dir.set(ValueLayout.JAVA_LONG, at + SLOT_ADDRESS, e.region.single().address());
        if (counts(e)) {
            if (e.ct.word < 0) {
                int w = freeWords[--freeWordCount]; // qualifies saw one free
                dir.set(ValueLayout.JAVA_LONG, counter(w), 0);
                e.ct.share(dir, w);
            }
            e.ct.publishedEntries++;
        }
        dir.set(ValueLayout.JAVA_INT, at + SLOT_COUNTER, counts(e) ? e.ct.word + 1 : 0);
        boolean triggers = counts(e) && e.ct.triggeredCount() > 0;
        dir.set(ValueLayout.JAVA_INT, at + SLOT_FLAGS, triggers ? PEERS_SKIP : 0);
        if (triggers) {
            watch(e.ct);
        }
        MemorySegment.copy(e.shareKey, 0, dir, ValueLayout.JAVA_BYTE, at + SLOT_KEY, e.shareKey.length);
        long live = state[s] + 1; // dead states are even: a new generation, odd
        state[s] = live;
        LONG.setRelease(dir, at + SLOT_STATE, live);
        e.slot = s;
        return true;
    }

    /** Marks {@code e}'s slot dead and waits until no peer works on it; false when one still did after the bounded wait. */
    private boolean retire(ListEntry e) {
        int s = e.slot;
        long was = state[s];
        long dead = was + 1;
        state[s] = dead;
        LONG.setVolatile(dir, slot(s) + SLOT_STATE, dead);
        VarHandle.fullFence();
        e.slot = -1;
        long h = hazardOf(s, was);
        long start = 0;
        for (int r = 0; r < lib.size; r++) {
            while (r != lib.rank && !lib.failedRank[r] && (long) LONG.getVolatile(dir, hazard(r)) == h) {
                long waited = 0;
                if (start == 0) {
                    start = System.nanoTime();
                } else if ((waited = System.nanoTime() - start) > HAZARD_WAIT_NANOS) {
                    lib.log.log(System.Logger.Level.WARNING, "rank {0}: rank {1} still works on the memory of entry {2} after 1 s; the entry stays linked (IN_USE)",
                            lib.rank, r, e);
                    return false; // the slot is dead and not given back
                }
                dev.ferry.spi.IdleStrategy.DEFAULT.idle(waited);
            }
        }
        free[freeCount++] = s;
        if (counts(e) && --e.ct.publishedEntries == 0 && e.ct.freed) {
            freeWords[freeWordCount++] = e.ct.word;
        }
        return true;
    }

    /**
     * A triggered operation now waits on {@code c}: the entries counting into it that peers may
     * serve get fresh slots that they leave to the message path (retiring the old ones waits
     * for the peers at work: every count a peer made is in the word once this returns, but a
     * stuck peer's, which retiring logs), and progress fires what the agent's counts reach.
     */
    void triggered(Counter c) {
        for (Ni ni : lib.nis) {
            ListEntry[][] lists = ni == null ? null : published[ni.index];
            for (int pt = 0; lists != null && pt < Math.min(PTS, ni.pt.length); pt++) {
                if (peersServe(lists[pt], c)) {
                    reslotting = c;
                    try {
                        republish(ni, ni.pt[pt]); // without them: their slots retired
                    } finally {
                        reslotting = null;
                    }
                    republish(ni, ni.pt[pt]); // with them again, in fresh slots
                }
            }
        }
        if (c.publishedEntries > 0) {
            watch(c);
        }
    }

    /** Whether {@code list} has an entry counting into {@code c} whose slot peers serve. */
    private boolean peersServe(ListEntry[] list, Counter c) {
        if (list != null) {
            for (ListEntry e : list) {
                if (e.ct == c && counts(e) && e.slot >= 0 && (dir.get(ValueLayout.JAVA_INT, slot(e.slot) + SLOT_FLAGS) & PEERS_SKIP) == 0) {
                    return true;
                }
            }
        }
        return false;
    }

    private void watch(Counter c) {
        if (!c.watched) {
            c.watched = true;
            watched.add(c);
        }
    }

    /**
     * Fires the triggered operations whose thresholds the counts made elsewhere (the node
     * agent's) reached: the library's progress calls it, and the agent rings the bell when it
     * counts. True when one fired. Counting events with none left waiting are no longer looked at.
     */
    boolean fireCounted() {
        boolean fired = false;
        for (int i = watched.size() - 1; i >= 0; i--) {
            Counter c = watched.get(i);
            int before = c.triggeredCount();
            if (before > 0 && !c.freed) {
                c.fire();
                fired |= c.triggeredCount() != before;
            }
            if (c.triggeredCount() == 0 || c.freed) {
                c.watched = false;
                watched.remove(i);
            }
        }
        return fired;
    }

    /** {@code c} was freed: its counter word is given back once no published entry counts into it. */
    void freed(Counter c) {
        if (c.word >= 0 && c.publishedEntries == 0) {
            freeWords[freeWordCount++] = c.word;
        }
    }

    /** Retires everything of {@code ni}; call once it is marked closed (fini of the interface), so that nothing qualifies. */
    void withdrawAll(Ni ni) {
        if (dir == null) {
            return;
        }
        for (PtEntry p : ni.pt) {
            republish(ni, p);
        }
    }

    /** The library is finishing: peers stop serving themselves here. */
    Void close() {
        if (dir != null) {
            INT.setVolatile(dir, OPEN_OFFSET, 0);
            VarHandle.fullFence();
        }
        return null;
    }
}
