package dev.ferry;

import dev.ferry.portals.ProcessId;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The passive-target locks of one window. At each rank, three entries of the window's portal,
 * changed only by the library's atomics (so a same-node origin may change them directly, a remote
 * one by message, and the target takes no part):
 * <pre>
 *   lock word ({@link #BITS}):        bits 0..31 the shared holders, one bit per member (windows
 *                                     of up to 32 members); bit 32 an exclusive holder, bits
 *                                     33..63 its job rank + 1
 *   holders ({@link #HOLDERS_BITS}):  larger windows: one 8-byte slot per member, 1 while it holds
 *                                     a shared lock (or is trying to)
 *   mutex ({@link #MUTEX_BITS}):      the accumulate mutex: 0 free, else its holder's job rank + 1
 * </pre>
 * Up to 32 members, one operation each way, as with a count: shared is a fetch-or of one's bit
 * that steps back (and-not) when an exclusive holder is there; exclusive a compare-and-swap of the
 * word from 0 to one's bit and rank. Larger windows: shared sets one's slot, then reads the word,
 * and clears the slot to step back (and sets it again only once the word is free); exclusive
 * takes the word the same way, then waits until no
 * live member's slot is set (a shared holder that set its slot before the swap is waited for; one
 * that comes after sees the word and steps back). All retry with the common idle strategy.
 * Because every hold names its holder, a rank that fails holding a lock never blocks the others:
 * a waiter that finds the word or the mutex held by a dead rank clears that hold (a
 * compare-and-swap of what it found), and a dead member's slot does not count (ULFM: no call
 * blocks forever after a failure; the window data the dead rank was changing is then undefined).
 * Every call waits for its own operation (and every other in flight) to complete; the window
 * library's lock is held, and let go while backing off.
 *
 * <pre>{@code
 * locks.acquire(Window.LockType.EXCLUSIVE, target);
 * ... operations, then a quiesce ...
 * locks.release(true, target);
 * }</pre>
 */
final class WindowLocks {
    /** Match bits of the lock word's list entry, of the accumulate mutex's, and of the shared holders' slots. */
    static final long BITS = 1, MUTEX_BITS = 3, HOLDERS_BITS = 5;
    static final long EXCLUSIVE_HELD = 1L << 32;
    /** The most members whose shared holds fit the lock word, a bit each. */
    static final int WORD_MEMBERS = 32;
    private static final long SHARED_MASK = 0xFFFF_FFFFL;
    private static final int HOLDER_SHIFT = 33;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG;

    private final WindowLibrary lib;
    private final int pt;
    /** The window's communicator: its members have the slots, by rank. */
    private final Comm comm;

    /** Whether shared holds are bits of the lock word (else the holders' slots). */
    private final boolean inWord;

    WindowLocks(WindowLibrary lib, int pt, Comm comm) {
        this.lib = lib;
        this.pt = pt;
        this.comm = comm;
        this.inWord = comm.size() <= WORD_MEMBERS;
    }

    /** Bytes of the shared holders' slots at each rank of a window of {@code members} (more than {@link #WORD_MEMBERS}). */
    static long holdersBytes(int members) {
        return 8L * members;
    }

    void acquire(Window.LockType type, ProcessId target) {
        if (inWord) {
            acquireInWord(type, target);
            return;
        }
        long start = System.nanoTime();
        if (type == Window.LockType.EXCLUSIVE) {
            while (true) {
                long found = swap(target, BITS, 0, exclusiveWord());
                if (found == 0) {
                    break;
                }
                if (!takeFromTheDead(target, BITS, found, holder(found))) {
                    backOff(start);
                }
            }
            while (sharedHolders(target)) { // the word is ours: the shared holders before us finish
                backOff(start);
            }
            return;
        }
        while (true) {
            add(target, HOLDERS_BITS, 8L * comm.rank(), 1);
            long found = atomic(target, BITS, 0, 0, dev.ferry.portals.Op.SUM, true);
            if ((found & EXCLUSIVE_HELD) == 0) {
                return;
            }
            add(target, HOLDERS_BITS, 8L * comm.rank(), -1); // an exclusive holder: step back and try again
            // Wait for the word to be free before setting the slot again: an exclusive holder
            // waits for every slot to be clear at once, which slots set and cleared by many
            // waiters in turn would hold off for as long as they keep trying.
            while ((found & EXCLUSIVE_HELD) != 0 && !takeFromTheDead(target, BITS, found, holder(found))) {
                backOff(start);
                found = atomic(target, BITS, 0, 0, dev.ferry.portals.Op.SUM, true);
            }
        }
    }

    /** Up to 32 members: the shared holders are bits of the word, so one operation takes a lock, and one read shows every holder. */
    private void acquireInWord(Window.LockType type, ProcessId target) {
        long start = System.nanoTime();
        long mine = 1L << comm.rank();
        while (true) {
            long found;
            if (type == Window.LockType.EXCLUSIVE) {
                found = swap(target, BITS, 0, exclusiveWord());
                if (found == 0) {
                    return;
                }
            } else {
                found = atomic(target, BITS, 0, mine, dev.ferry.portals.Op.BOR, true);
                if ((found & EXCLUSIVE_HELD) == 0) {
                    return;
                }
                atomic(target, BITS, 0, ~mine, dev.ferry.portals.Op.BAND, false); // an exclusive holder: step back
                found &= ~mine;
            }
            if ((found & EXCLUSIVE_HELD) != 0 ? takeFromTheDead(target, BITS, found, holder(found)) : clearDeadSharers(target, found)) {
                continue;
            }
            backOff(start);
        }
    }

    /** Clears the bits of shared holders that failed from the word found as {@code word}; whether it did (its compare-and-swap took). */
    private boolean clearDeadSharers(ProcessId target, long word) {
        long dead = 0;
        for (long bits = word & SHARED_MASK; bits != 0; bits &= bits - 1) {
            int r = Long.numberOfTrailingZeros(bits);
            if (r != comm.rank() && r < comm.size() && lib.ferry.messaging.failure(comm.world(r)) != null) {
                dead |= 1L << r;
            }
        }
        if (dead == 0 || swap(target, BITS, word, word & ~dead) != word) {
            return false;
        }
        lib.ferry.engine.logger().log(System.Logger.Level.INFO, "rank {0}: the shared locks of rank {1}''s window held by members that failed "
                + "(bits {2}) are released", lib.ferry.rank(), target.rank, Long.toBinaryString(dead));
        return true;
    }

    void release(boolean exclusive, ProcessId target) {
        if (exclusive) {
            add(target, BITS, 0, -exclusiveWord());
        } else if (inWord) {
            atomic(target, BITS, 0, ~(1L << comm.rank()), dev.ferry.portals.Op.BAND, false);
        } else {
            add(target, HOLDERS_BITS, 8L * comm.rank(), -1);
        }
    }

    /** What this rank sets in a target's lock word to hold it exclusively. */
    private long exclusiveWord() {
        return EXCLUSIVE_HELD | (long) (lib.ferry.rank() + 1) << HOLDER_SHIFT;
    }

    /** The job rank that holds the exclusive lock whose word was {@code word}. */
    static int holder(long word) {
        return (int) (word >>> HOLDER_SHIFT) - 1;
    }

    /** Whether a live member other than this rank holds (or is taking) a shared lock at {@code target}: one read of its slots. */
    private boolean sharedHolders(ProcessId target) {
        int n = comm.size();
        lib.stage(holdersBytes(n), target);
        MemorySegment st = lib.opMem;
        long s = lib.opOff;
        lib.ptl.get(lib.opMd, s, holdersBytes(n), target, pt, HOLDERS_BITS, 0, null);
        lib.issued(1);
        lib.flush(target.rank);
        for (int r = 0; r < n; r++) {
            if (r != comm.rank() && st.get(I64, s + 8L * r) != 0 && lib.ferry.messaging.failure(comm.world(r)) == null) {
                return true;
            }
        }
        return false;
    }

    /**
     * When {@code holder} (a job rank, found holding the word with {@code bits} as {@code word})
     * has failed: clears its hold (a compare-and-swap: if the word changed meanwhile, the next try
     * looks again); whether the hold was taken from it.
     */
    private boolean takeFromTheDead(ProcessId target, long bits, long word, int holder) {
        if (holder < 0 || holder >= lib.ferry.size() || holder == lib.ferry.rank() || lib.ferry.messaging.failure(holder) == null) {
            return false;
        }
        boolean taken = swap(target, bits, word, bits == BITS ? word & SHARED_MASK : 0) == word; // shared bits found stay
        if (taken) {
            lib.ferry.engine.logger().log(System.Logger.Level.INFO, "rank {0}: the {1} of rank {2}''s window, held by rank {3} "
                    + "which failed, is released", lib.ferry.rank(), bits == BITS ? "exclusive lock" : "accumulate mutex", target.rank, holder);
        }
        return taken;
    }

    /** Takes the target's accumulate mutex (the emulated MINLOC / MAXLOC hold it): compare-and-swap 0 to this rank until it takes. */
    void lockMutex(ProcessId target) {
        long start = System.nanoTime();
        long mine = lib.ferry.rank() + 1L;
        while (true) {
            long found = swap(target, MUTEX_BITS, 0, mine);
            if (found == 0) {
                return;
            }
            if (!takeFromTheDead(target, MUTEX_BITS, found, (int) found - 1)) {
                backOff(start);
            }
        }
    }

    void unlockMutex(ProcessId target) {
        add(target, MUTEX_BITS, 0, -(lib.ferry.rank() + 1L));
    }

    /** Lets this instance's other threads (and the progress they make) in while it waits to try again. */
    private void backOff(long start) {
        lib.lock.unlock();
        try {
            lib.ferry.engine.idleStrategy().idle(System.nanoTime() - start);
        } finally {
            lib.lock.lock();
        }
    }

    /** Compare-and-swap {@code expected} to {@code value} on the word with {@code bits}; its old value (waits). */
    private long swap(ProcessId target, long bits, long expected, long value) {
        lib.stage(16, target);
        MemorySegment st = lib.opMem;
        long s = lib.opOff;
        st.set(I64, s, value);
        MemorySegment compare = lib.operand(8);
        compare.set(I64, 0, expected);
        lib.ptl.swap(lib.opMd, s + 8, lib.opMd, s, 8, target, pt, bits, 0, null, 0, compare,
                dev.ferry.portals.Op.CSWAP, dev.ferry.portals.Datatype.INT64_T);
        lib.issued(1);
        lib.flush(target.rank);
        return st.get(I64, s + 8); // intact: nothing was staged since
    }

    /**
     * {@code op} with {@code operand} on the word at byte {@code at} of the entry with {@code bits}
     * (waits): the word's old value when {@code fetch}, else 0.
     */
    private long atomic(ProcessId target, long bits, long at, long operand, dev.ferry.portals.Op op, boolean fetch) {
        if (!fetch) {
            lib.stage(8, target);
            lib.opMem.set(I64, lib.opOff, operand);
            lib.ptl.atomic(lib.opMd, lib.opOff, 8, dev.ferry.portals.Portals.CT_ACK_REQ, target, pt, bits, at, null, 0,
                    op, dev.ferry.portals.Datatype.INT64_T);
            lib.issued(1);
            lib.flush(target.rank);
            return 0;
        }
        lib.stage(16, target);
        MemorySegment st = lib.opMem;
        long s = lib.opOff;
        st.set(I64, s, operand);
        lib.ptl.fetchAtomic(lib.opMd, s + 8, lib.opMd, s, 8, target, pt, bits, at, null, 0, op, dev.ferry.portals.Datatype.INT64_T);
        lib.issued(1);
        lib.flush(target.rank);
        return st.get(I64, s + 8);
    }

    /** Adds {@code delta} to the word at byte {@code at} of the entry with {@code bits} (waits). */
    private void add(ProcessId target, long bits, long at, long delta) {
        atomic(target, bits, at, delta, dev.ferry.portals.Op.SUM, false);
    }
}
