package dev.ferry;

import dev.ferry.portals.ProcessId;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The passive-target locks of one window: at each rank a 64-bit lock word in the shared arena,
 * exposed as the window's list entry with {@link #BITS}, changed only by the library's atomics
 * (so a same-node origin changes it directly, a remote one by message, and the target takes no
 * part). The word's layout:
 * <pre>
 *   bits  0..31  shared holders (a count)
 *   bit   32     an exclusive holder
 *   bits 33..63  the exclusive holder's job rank + 1
 * </pre>
 * Exclusive: compare-and-swap 0 to {@link #EXCLUSIVE_HELD} with the holder's rank; shared:
 * fetch-add 1, stepping back (add -1) when the exclusive bit was set. Both retry with the common
 * idle strategy. A waiter that finds the exclusive lock held by a rank that failed takes it from
 * the dead rank (compare-and-swap of what it found to the shared count alone), so a rank that dies
 * inside an exclusive epoch does not leave the lock held forever (ULFM: no call blocks forever
 * after a failure; the window's data it was changing is then undefined). Every call waits for its
 * own operation (and every other in flight) to complete; the window library's lock is held, and
 * let go while backing off.
 *
 * <pre>{@code
 * locks.acquire(Window.LockType.EXCLUSIVE, target);
 * ... operations, then a quiesce ...
 * locks.release(true, target);
 * }</pre>
 */
final class WindowLocks {
    /** Match bits of the lock word's list entry, and of the accumulate mutex's (a second word: 0 free, 1 held). */
    static final long BITS = 1, MUTEX_BITS = 3;
    static final long EXCLUSIVE_HELD = 1L << 32;
    private static final int HOLDER_SHIFT = 33;
    /** The exclusive bit and the holder's rank: what an exclusive holder set. */
    private static final long EXCLUSIVE_MASK = -1L << 32;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG;

    private final WindowLibrary lib;
    private final int pt;

    WindowLocks(WindowLibrary lib, int pt) {
        this.lib = lib;
        this.pt = pt;
    }

    void acquire(Window.LockType type, ProcessId target) {
        long start = System.nanoTime();
        while (true) {
            long found;
            if (type == Window.LockType.EXCLUSIVE) {
                found = swap(target, BITS, 0, exclusiveWord());
                if (found == 0) {
                    return;
                }
            } else {
                found = fetchAdd(target, BITS, 1);
                if ((found & EXCLUSIVE_HELD) == 0) {
                    return;
                }
                add(target, BITS, -1); // an exclusive holder: step back and try again
            }
            if ((found & EXCLUSIVE_HELD) != 0 && takeFromTheDead(target, found)) {
                continue; // at once: the lock is free of it now
            }
            backOff(start);
        }
    }

    void release(boolean exclusive, ProcessId target) {
        add(target, BITS, exclusive ? -exclusiveWord() : -1);
    }

    /** What this rank sets in a target's lock word to hold it exclusively. */
    private long exclusiveWord() {
        return EXCLUSIVE_HELD | (long) (lib.ferry.rank() + 1) << HOLDER_SHIFT;
    }

    /** The job rank that holds the exclusive lock whose word was {@code word}. */
    static int holder(long word) {
        return (int) (word >>> HOLDER_SHIFT) - 1;
    }

    /**
     * When the exclusive holder found in {@code word} has failed: clears its hold, keeping the
     * shared count as found (a compare-and-swap: if the word changed meanwhile, the next try looks
     * again); whether the lock was taken from it.
     */
    private boolean takeFromTheDead(ProcessId target, long word) {
        int holder = holder(word);
        if (holder < 0 || holder >= lib.ferry.size() || holder == lib.ferry.rank() || lib.ferry.messaging.failure(holder) == null) {
            return false;
        }
        boolean taken = swap(target, BITS, word, word & ~EXCLUSIVE_MASK) == word;
        if (taken) {
            lib.ferry.engine.logger().log(System.Logger.Level.INFO, "rank {0}: the exclusive lock of rank {1}''s window, held by rank {2} "
                    + "which failed, is released", lib.ferry.rank(), target.rank, holder);
        }
        return taken;
    }

    /** Takes the target's accumulate mutex (the emulated MINLOC / MAXLOC hold it): compare-and-swap 0 to 1 until it takes. */
    void lockMutex(ProcessId target) {
        long start = System.nanoTime();
        while (swap(target, MUTEX_BITS, 0, 1) != 0) {
            backOff(start);
        }
    }

    void unlockMutex(ProcessId target) {
        add(target, MUTEX_BITS, -1);
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

    /** Fetch-and-add on the word with {@code bits}; its old value (waits). */
    private long fetchAdd(ProcessId target, long bits, long delta) {
        lib.stage(16, target);
        MemorySegment st = lib.opMem;
        long s = lib.opOff;
        st.set(I64, s, delta);
        lib.ptl.fetchAtomic(lib.opMd, s + 8, lib.opMd, s, 8, target, pt, bits, 0, null, 0,
                dev.ferry.portals.Op.SUM, dev.ferry.portals.Datatype.INT64_T);
        lib.issued(1);
        lib.flush(target.rank);
        return st.get(I64, s + 8);
    }

    /** Adds {@code delta} to the word with {@code bits} (waits). */
    private void add(ProcessId target, long bits, long delta) {
        lib.stage(8, target);
        lib.opMem.set(I64, lib.opOff, delta);
        lib.ptl.atomic(lib.opMd, lib.opOff, 8, dev.ferry.portals.Portals.CT_ACK_REQ, target, pt, bits, 0, null, 0,
                dev.ferry.portals.Op.SUM, dev.ferry.portals.Datatype.INT64_T);
        lib.issued(1);
        lib.flush(target.rank);
    }
}
