package dev.ferry;

/**
 * The communication calls of a {@link Window} (put, get, the accumulates and atomics, and their
 * request forms), and what every family of its calls shares: the library, the window's own
 * communicator, its epochs, locks and operations. The families are superclasses of Window, one
 * file each (this one, {@link WindowSynchronization}); applications see them all on Window.
 */
abstract sealed class WindowAccess permits WindowSynchronization {
    final WindowLibrary lib;
    /** The window's own communicator (a duplicate): its synchronization traffic meets nobody else's. */
    final Comm comm;
    /** The open epochs (under the library's lock). */
    final WindowEpochs epochs;
    final WindowLocks locks;
    /** Issues the operations (under the library's lock). */
    final WindowOps ops;
    volatile boolean freed;

    WindowAccess(WindowLibrary lib, Comm comm, WindowEpochs epochs, WindowLocks locks, WindowOps ops) {
        this.lib = lib;
        this.comm = comm;
        this.epochs = epochs;
        this.locks = locks;
        this.ops = ops;
    }

    // ---- communication --------------------------------------------------------------------------

    /** Puts {@code count} elements of {@code type} from {@code origin} at displacement {@code disp} of rank {@code target}. */
    public void put(Object origin, int offset, int count, Datatype type, int target, long disp) {
        put(origin, offset, count, type, target, disp, count, type);
    }

    /**
     * {@link #put(Object, int, int, Datatype, int, long)} with a {@code long} offset and count
     * (MPI-4's {@code MPI_Put_c}); the forms with the target's layout take {@code long} counts too.
     *
     * <pre>{@code
     * w.put(big, 0L, big.byteSize(), Datatype.BYTE, 1, 0);   // a segment past 2 GiB
     * }</pre>
     */
    public void put(Object origin, long offset, long count, Datatype type, int target, long disp) {
        put(origin, offset, count, type, target, disp, count, type);
    }

    /**
     * Puts {@code count} elements of {@code type} from {@code origin} into {@code targetCount}
     * elements of {@code targetType} at displacement {@code disp} of rank {@code target} (the
     * two must hold the same number of bytes).
     */
    public void put(Object origin, long offset, long count, Datatype type, int target, long disp, long targetCount, Datatype targetType) {
        lib.lock.lock();
        try {
            checkOpen("put");
            ops.transfer(true, origin, offset, count, type, target, disp, targetCount, targetType, "put");
        } finally {
            lib.lock.unlock();
        }
    }

    /** Gets {@code count} elements of {@code type} into {@code result} from displacement {@code disp} of rank {@code target}. */
    public void get(Object result, int offset, int count, Datatype type, int target, long disp) {
        get(result, offset, count, type, target, disp, count, type);
    }

    /** {@link #get(Object, int, int, Datatype, int, long)} with a {@code long} offset and count (MPI-4's {@code MPI_Get_c}). */
    public void get(Object result, long offset, long count, Datatype type, int target, long disp) {
        get(result, offset, count, type, target, disp, count, type);
    }

    /** {@link #get} with the target's layout of its own. The result is there once the operation completes. */
    public void get(Object result, long offset, long count, Datatype type, int target, long disp, long targetCount, Datatype targetType) {
        lib.lock.lock();
        try {
            checkOpen("get");
            ops.transfer(false, result, offset, count, type, target, disp, targetCount, targetType, "get");
        } finally {
            lib.lock.unlock();
        }
    }

    /**
     * Combines {@code count} elements of {@code type} from {@code origin} into the target's with
     * {@code op} (a predefined operation, or {@link Op#REPLACE}), element by element, each
     * atomically. MINLOC and MAXLOC (on a pair type) have no atomic in the library: Ferry takes
     * the target window's accumulate mutex, reads, combines and writes back, so they are atomic
     * with respect to each other, and complete when the call returns (up to 256 KiB a call).
     */
    public void accumulate(Object origin, int offset, int count, Datatype type, int target, long disp, Op op) {
        accumulate(origin, offset, count, type, target, disp, count, type, op);
    }

    /** {@link #accumulate(Object, int, int, Datatype, int, long, Op)} with a {@code long} offset and count (MPI-4's {@code MPI_Accumulate_c}). */
    public void accumulate(Object origin, long offset, long count, Datatype type, int target, long disp, Op op) {
        accumulate(origin, offset, count, type, target, disp, count, type, op);
    }

    /** {@link #accumulate} with the target's layout of its own (of the same kind of element). */
    public void accumulate(Object origin, long offset, long count, Datatype type, int target, long disp, long targetCount, Datatype targetType, Op op) {
        lib.lock.lock();
        try {
            checkOpen("accumulate");
            ops.atomics(origin, offset, count, type, null, 0, target, disp, targetCount, targetType, op, "accumulate");
        } finally {
            lib.lock.unlock();
        }
    }

    /**
     * {@link #accumulate}, first fetching the target's elements into {@code result} (as many as
     * the target's, of {@code type}'s kind), each fetch and update atomic; with
     * {@link Op#NO_OP} the target is only read (atomically) and {@code origin} is ignored.
     */
    public void getAccumulate(Object origin, int offset, Object result, int resultOffset, int count, Datatype type, int target, long disp, Op op) {
        getAccumulate(origin, offset, result, resultOffset, count, type, target, disp, count, type, op);
    }

    /** {@link #getAccumulate} with the target's layout of its own. */
    public void getAccumulate(Object origin, long offset, Object result, long resultOffset, long count, Datatype type, int target, long disp,
                              long targetCount, Datatype targetType, Op op) {
        if (result == null) {
            throw FerryException.arg(ErrorClass.BUFFER, "getAccumulate: the result buffer is null");
        }
        lib.lock.lock();
        try {
            checkOpen("getAccumulate");
            ops.atomics(origin, offset, count, type, result, resultOffset, target, disp, targetCount, targetType, op, "getAccumulate");
        } finally {
            lib.lock.unlock();
        }
    }

    /** One element: {@code result = target; target = target op origin} (MPI's fetch-and-op), atomically. */
    public void fetchAndOp(Object origin, int offset, Object result, int resultOffset, Datatype type, int target, long disp, Op op) {
        fetchAndOp(origin, (long) offset, result, (long) resultOffset, type, target, disp, op);
    }

    /** {@link #fetchAndOp(Object, int, Object, int, Datatype, int, long, Op)} with long offsets (an element past 2 GiB of a segment). */
    public void fetchAndOp(Object origin, long offset, Object result, long resultOffset, Datatype type, int target, long disp, Op op) {
        getAccumulate(origin, offset, result, resultOffset, 1, type, target, disp, 1, type, op);
    }

    /**
     * One element: {@code result = target; if (target == compare) target = origin}, atomically
     * (MPI's compare-and-swap; integer types).
     */
    public void compareAndSwap(Object origin, int offset, Object compare, int compareOffset, Object result, int resultOffset, Datatype type,
                               int target, long disp) {
        compareAndSwap(origin, (long) offset, compare, (long) compareOffset, result, (long) resultOffset, type, target, disp);
    }

    /** {@link #compareAndSwap(Object, int, Object, int, Object, int, Datatype, int, long)} with long offsets. */
    public void compareAndSwap(Object origin, long offset, Object compare, long compareOffset, Object result, long resultOffset, Datatype type,
                               int target, long disp) {
        lib.lock.lock();
        try {
            checkOpen("compareAndSwap");
            ops.compareAndSwap(origin, offset, compare, compareOffset, result, resultOffset, type, target, disp);
        } finally {
            lib.lock.unlock();
        }
    }

    /**
     * Ferry extension (seed 004's MskCmpSwap) on the 64-bit word at displacement {@code disp} of
     * {@code target}: {@code if (((compare ^ word) & compareMask) == 0) word = (word & ~swapMask)
     * | (swap & swapMask)}, atomically; answers the word's old value (waiting for it, and for every
     * operation of this instance in flight).
     *
     * <pre>{@code
     * long old = w.maskedCompareSwap(0, 0, 0L, 0xffL, 0x42L, 0xffL);   // set the low byte if it was 0
     * }</pre>
     */
    public long maskedCompareSwap(int target, long disp, long compare, long compareMask, long swap, long swapMask) {
        lib.lock.lock();
        try {
            checkOpen("maskedCompareSwap");
            return ops.maskedCompareSwap(target, disp, compare, compareMask, swap, swapMask);
        } finally {
            lib.lock.unlock();
        }
    }

    /**
     * Ferry extension (seed 004's MFetchAdd) on the 64-bit word at displacement {@code disp} of
     * {@code target}: adds {@code addend} field by field, a bit set in {@code boundaries} ending a
     * field (no carry passes from that bit to the next), atomically; answers the word's old value
     * (waiting for it, and for every operation of this instance in flight).
     *
     * <pre>{@code
     * long old = w.maskedFetchAdd(0, 0, 0x0001_0001L, 0x8000_8000L);   // two 16-bit counters += 1
     * }</pre>
     */
    public long maskedFetchAdd(int target, long disp, long addend, long boundaries) {
        lib.lock.lock();
        try {
            checkOpen("maskedFetchAdd");
            return ops.maskedFetchAdd(target, disp, addend, boundaries);
        } finally {
            lib.lock.unlock();
        }
    }

    // ---- request forms --------------------------------------------------------------------------

    /** {@link #put}, with a request that completes when the put has (at the target too). */
    public Request rput(Object origin, int offset, int count, Datatype type, int target, long disp) {
        return rput(origin, offset, count, type, target, disp, count, type);
    }

    /** {@link #rput(Object, int, int, Datatype, int, long)} with a {@code long} offset and count. */
    public Request rput(Object origin, long offset, long count, Datatype type, int target, long disp) {
        return rput(origin, offset, count, type, target, disp, count, type);
    }

    /** {@link #get}, with a request that completes when the result is in {@code result}. */
    public Request rget(Object result, int offset, int count, Datatype type, int target, long disp) {
        return rget(result, offset, count, type, target, disp, count, type);
    }

    /** {@link #rget(Object, int, int, Datatype, int, long)} with a {@code long} offset and count. */
    public Request rget(Object result, long offset, long count, Datatype type, int target, long disp) {
        return rget(result, offset, count, type, target, disp, count, type);
    }

    /** {@link #accumulate}, with a request that completes when it has. */
    public Request raccumulate(Object origin, int offset, int count, Datatype type, int target, long disp, Op op) {
        return raccumulate(origin, offset, count, type, target, disp, count, type, op);
    }

    /** {@link #getAccumulate}, with a request that completes when the result is in {@code result}. */
    public Request rgetAccumulate(Object origin, int offset, Object result, int resultOffset, int count, Datatype type, int target, long disp,
                                  Op op) {
        return rgetAccumulate(origin, offset, result, resultOffset, count, type, target, disp, count, type, op);
    }

    /** {@link #rput} with the target's layout of its own. */
    public Request rput(Object origin, long offset, long count, Datatype type, int target, long disp, long targetCount, Datatype targetType) {
        lib.lock.lock();
        try {
            put(origin, offset, count, type, target, disp, targetCount, targetType);
            return lib.request("rput to rank " + target);
        } finally {
            lib.lock.unlock();
        }
    }

    /** {@link #rget} with the target's layout of its own. */
    public Request rget(Object result, long offset, long count, Datatype type, int target, long disp, long targetCount, Datatype targetType) {
        lib.lock.lock();
        try {
            get(result, offset, count, type, target, disp, targetCount, targetType);
            return lib.request("rget from rank " + target);
        } finally {
            lib.lock.unlock();
        }
    }

    /** {@link #raccumulate} with the target's layout of its own. */
    public Request raccumulate(Object origin, long offset, long count, Datatype type, int target, long disp, long targetCount, Datatype targetType, Op op) {
        lib.lock.lock();
        try {
            accumulate(origin, offset, count, type, target, disp, targetCount, targetType, op);
            return lib.request("raccumulate to rank " + target);
        } finally {
            lib.lock.unlock();
        }
    }

    /** {@link #rgetAccumulate} with the target's layout of its own. */
    public Request rgetAccumulate(Object origin, long offset, Object result, long resultOffset, long count, Datatype type, int target, long disp,
                                  long targetCount, Datatype targetType, Op op) {
        lib.lock.lock();
        try {
            getAccumulate(origin, offset, result, resultOffset, count, type, target, disp, targetCount, targetType, op);
            return lib.request("rgetAccumulate at rank " + target);
        } finally {
            lib.lock.unlock();
        }
    }

    final void checkOpen(String what) {
        if (freed) {
            throw FerryException.arg(ErrorClass.WIN, what + ": the window was freed");
        }
    }
}
