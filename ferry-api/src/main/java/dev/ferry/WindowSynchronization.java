package dev.ferry;

/**
 * The synchronization calls of a {@link Window}: fence; post, start, complete, wait (general
 * active target); lock, unlock, the flushes and sync (passive target).
 */
abstract sealed class WindowSynchronization extends WindowAccess permits Window {
    /** Point-to-point tags of the general active-target synchronization, on the window's own communicator. */
    private static final int POST_TAG = 1, COMPLETE_TAG = 2;
    private static final byte[] NOTHING = new byte[0];

    WindowSynchronization(WindowLibrary lib, Comm comm, WindowEpochs epochs, WindowLocks locks, WindowOps ops) {
        super(lib, comm, epochs, locks, ops);
    }

    // ---- synchronization ------------------------------------------------------------------------

    /**
     * Ends the current fence epoch and opens the next (collective): every operation issued by
     * any rank before it is complete, at origin and target, when it returns.
     */
    public void fence() {
        FerryEvents.WindowSync ev = FerryEvents.windowSync();
        lib.lock.lock();
        try {
            checkOpen("fence");
            epochs.checkFence();
            lib.quiesce();
        } finally {
            lib.lock.unlock();
        }
        comm.barrier();
        lib.lock.lock();
        try {
            epochs.fenced();
        } finally {
            lib.lock.unlock();
        }
        if (ev != null) {
            FerryEvents.commit(ev, this, "fence", -1);
        }
    }

    /**
     * Opens an exposure epoch for the origins in {@code group} (ranks of the window's
     * communicator's group): they may access this rank's window after their {@link #start};
     * {@link #waitFor()} ends it.
     */
    public void post(Group group) {
        FerryEvents.WindowSync ev = FerryEvents.windowSync();
        int[] ranks = ranksOf(group, "post");
        lib.lock.lock();
        try {
            checkOpen("post");
            epochs.post(ranks);
        } finally {
            lib.lock.unlock();
        }
        for (int r : ranks) {
            comm.send(NOTHING, 0, 0, Datatype.BYTE, r, POST_TAG);
        }
        if (ev != null) {
            FerryEvents.commit(ev, this, "post", -1);
        }
    }

    /** Opens an access epoch to the targets in {@code group}, once each has posted. */
    public void start(Group group) {
        FerryEvents.WindowSync ev = FerryEvents.windowSync();
        int[] ranks = ranksOf(group, "start");
        lib.lock.lock();
        try {
            checkOpen("start");
            epochs.checkAccess("start");
        } finally {
            lib.lock.unlock();
        }
        for (int r : ranks) {
            comm.recv(NOTHING, 0, 0, Datatype.BYTE, r, POST_TAG);
        }
        lib.lock.lock();
        try {
            epochs.started(ranks);
        } finally {
            lib.lock.unlock();
        }
        if (ev != null) {
            FerryEvents.commit(ev, this, "start", -1);
        }
    }

    /** Ends the access epoch {@link #start} opened: the operations are complete at the targets, which learn so. */
    public void complete() {
        FerryEvents.WindowSync ev = FerryEvents.windowSync();
        int[] ranks;
        lib.lock.lock();
        try {
            checkOpen("complete");
            ranks = epochs.complete();
            lib.quiesce();
        } finally {
            lib.lock.unlock();
        }
        for (int r : ranks) {
            comm.send(NOTHING, 0, 0, Datatype.BYTE, r, COMPLETE_TAG);
        }
        if (ev != null) {
            FerryEvents.commit(ev, this, "complete", -1);
        }
    }

    /** Ends the exposure epoch {@link #post} opened, once every origin in its group has completed (MPI's MPI_Win_wait). */
    public void waitFor() {
        FerryEvents.WindowSync ev = FerryEvents.windowSync();
        int[] ranks = exposure("waitFor");
        for (int r : ranks) {
            comm.recv(NOTHING, 0, 0, Datatype.BYTE, r, COMPLETE_TAG);
        }
        endExposure();
        if (ev != null) {
            FerryEvents.commit(ev, this, "wait", -1);
        }
    }

    /** {@link #waitFor()} without waiting: true (and the epoch ended) when every origin has completed. */
    public boolean test() {
        int[] ranks = exposure("test");
        for (int r : ranks) {
            if (comm.iprobe(r, COMPLETE_TAG) == null) {
                return false;
            }
        }
        for (int r : ranks) {
            comm.recv(NOTHING, 0, 0, Datatype.BYTE, r, COMPLETE_TAG);
        }
        endExposure();
        return true;
    }

    private int[] exposure(String what) {
        lib.lock.lock();
        try {
            checkOpen(what);
            return epochs.exposure(what);
        } finally {
            lib.lock.unlock();
        }
    }

    private void endExposure() {
        lib.lock.lock();
        try {
            epochs.exposed();
        } finally {
            lib.lock.unlock();
        }
    }

    private int[] ranksOf(Group group, String what) {
        if (group == null) {
            throw FerryException.arg(ErrorClass.GROUP, what + ": the group is null");
        }
        int[] out = new int[group.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = comm.local(group.members[i]);
            if (out[i] < 0) {
                throw FerryException.arg(ErrorClass.GROUP, what + ": the group's rank " + i + " (job rank " + group.members[i]
                        + ") is not in the window's communicator");
            }
        }
        return out;
    }

    /**
     * Opens a passive-target access epoch to {@code target}: waits until the lock is had
     * (EXCLUSIVE: nobody else holds it; SHARED: no exclusive holder). The target takes no part.
     */
    public void lock(Window.LockType type, int target) {
        FerryEvents.WindowSync ev = FerryEvents.windowSync();
        lib.lock.lock();
        try {
            checkOpen("lock");
            ops.checkRank(target, "lock");
            if (type == null) {
                throw FerryException.arg(ErrorClass.ARG, "lock: the lock type is null");
            }
            epochs.checkLock(target);
            locks.acquire(type, ops.id(target));
            epochs.locked(target, type == Window.LockType.EXCLUSIVE);
        } finally {
            lib.lock.unlock();
        }
        if (ev != null) {
            FerryEvents.commit(ev, this, "lock", target);
        }
    }

    /** Ends the epoch {@link #lock} opened: every operation to {@code target} is complete there, then the lock is let go. */
    public void unlock(int target) {
        FerryEvents.WindowSync ev = FerryEvents.windowSync();
        lib.lock.lock();
        try {
            checkOpen("unlock");
            ops.checkRank(target, "unlock");
            boolean exclusive = epochs.checkUnlock(target);
            epochs.unlocked(target);
            try {
                lib.flush(ops.id(target).rank);
            } finally {
                locks.release(exclusive, ops.id(target)); // let go even when an operation failed
            }
        } finally {
            lib.lock.unlock();
        }
        if (ev != null) {
            FerryEvents.commit(ev, this, "unlock", target);
        }
    }

    /** A shared lock on every rank (MPI's lockAll). */
    public void lockAll() {
        FerryEvents.WindowSync ev = FerryEvents.windowSync();
        lib.lock.lock();
        try {
            checkOpen("lockAll");
            epochs.checkLockAll();
            int r = 0;
            try {
                for (; r < comm.size(); r++) {
                    locks.acquire(Window.LockType.SHARED, ops.id(r));
                }
            } catch (RuntimeException e) { // a dead rank among them: the locks taken go back, or they would block the others
                for (int k = 0; k < r; k++) {
                    try {
                        locks.release(false, ops.id(k));
                    } catch (RuntimeException alsoDead) {
                        e.addSuppressed(alsoDead);
                    }
                }
                throw e;
            }
            epochs.lockedAll();
        } finally {
            lib.lock.unlock();
        }
        if (ev != null) {
            FerryEvents.commit(ev, this, "lockAll", -1);
        }
    }

    /** Ends {@link #lockAll()}'s epoch. */
    public void unlockAll() {
        FerryEvents.WindowSync ev = FerryEvents.windowSync();
        lib.lock.lock();
        try {
            checkOpen("unlockAll");
            epochs.checkUnlockAll();
            epochs.unlockedAll();
            try {
                lib.quiesce();
            } finally {
                for (int r = 0; r < comm.size(); r++) {
                    locks.release(false, ops.id(r));
                }
            }
        } finally {
            lib.lock.unlock();
        }
        if (ev != null) {
            FerryEvents.commit(ev, this, "unlockAll", -1);
        }
    }

    /**
     * Completes every operation issued to {@code target}, at the target too, inside a passive
     * epoch; operations to other targets go on (their failures are not this flush's).
     */
    public void flush(int target) {
        FerryEvents.WindowSync ev = FerryEvents.windowSync();
        lib.lock.lock();
        try {
            checkOpen("flush");
            ops.checkRank(target, "flush");
            epochs.checkFlush();
            lib.flush(ops.id(target).rank);
        } finally {
            lib.lock.unlock();
        }
        if (ev != null) {
            FerryEvents.commit(ev, this, "flush", target);
        }
    }

    /** {@link #flush} for every target. */
    public void flushAll() {
        FerryEvents.WindowSync ev = FerryEvents.windowSync();
        lib.lock.lock();
        try {
            checkOpen("flushAll");
            epochs.checkFlush();
            lib.quiesce();
        } finally {
            lib.lock.unlock();
        }
        if (ev != null) {
            FerryEvents.commit(ev, this, "flushAll", -1);
        }
    }

    /**
     * Completes the operations to {@code target} at this rank: origin buffers reusable, results
     * here. (Origin data is staged at issue, so this is when the results are in: the same wait as
     * {@link #flush}.)
     */
    public void flushLocal(int target) {
        flush(target);
    }

    /** {@link #flushLocal} for every target. */
    public void flushLocalAll() {
        flushAll();
    }

    /** Orders this rank's loads and stores on the window memory (and shared windows' peers') with the window's other accesses: a full fence. */
    public void sync() {
        checkOpen("sync");
        java.lang.invoke.VarHandle.fullFence();
    }
}
