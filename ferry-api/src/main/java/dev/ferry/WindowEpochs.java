package dev.ferry;

/**
 * Which epochs of one window are open at this rank, and what each allows: the rules of MPI's
 * one-sided synchronization as checks that throw {@code RMA_SYNC} naming the call. An access
 * epoch is a fence epoch (from a fence on, until another kind opens), a start .. complete to
 * some targets, a lock per target, or a lockAll; an exposure epoch is a post .. wait. Used under
 * the window library's lock; the traffic of each call (barriers, POST and COMPLETE messages, lock
 * words) is the window's.
 *
 * <pre>{@code
 * epochs.startLock("lock", target);      // throws when another access epoch is in the way
 * ... acquire the lock word ...
 * epochs.locked(target, exclusive);
 * if (!epochs.mayAccess(target)) throw ...;
 * }</pre>
 */
final class WindowEpochs {
    private boolean fenceOpen;
    /** Per target: 0 unlocked, 1 shared, 2 exclusive. */
    private final byte[] locked;
    private int lockedCount;
    private boolean lockedAll;
    private boolean[] access;
    private int[] accessRanks;
    private int[] exposureRanks;

    WindowEpochs(int size) {
        this.locked = new byte[size];
    }

    /** Whether an operation may go to {@code target} now. */
    boolean mayAccess(int target) {
        return fenceOpen || lockedAll || locked[target] != 0 || (access != null && access[target]);
    }

    private static FerryException sync(String message) {
        return FerryException.arg(ErrorClass.RMA_SYNC, message);
    }

    /** A fence: no other epoch may be open. */
    void checkFence() {
        if (lockedAll || lockedCount > 0 || accessRanks != null || exposureRanks != null) {
            throw sync("fence inside a lock, lockAll, start or post epoch");
        }
    }

    void fenced() {
        fenceOpen = true;
    }

    void post(int[] origins) {
        if (exposureRanks != null) {
            throw sync("post: an exposure epoch is open already (waitFor ends it)");
        }
        exposureRanks = origins;
        fenceOpen = false;
    }

    /** The origins of the open exposure epoch. */
    int[] exposure(String what) {
        if (exposureRanks == null) {
            throw sync(what + " without post");
        }
        return exposureRanks;
    }

    void exposed() {
        exposureRanks = null;
    }

    /** No other access epoch may be open when one begins (start, lock, lockAll). */
    void checkAccess(String what) {
        if (accessRanks != null || lockedAll) {
            throw sync(what + ": a start or lockAll epoch is open");
        }
    }

    void started(int[] targets) {
        if (lockedCount > 0) {
            throw sync("start: a lock epoch is open");
        }
        fenceOpen = false;
        access = new boolean[locked.length];
        for (int r : targets) {
            access[r] = true;
        }
        accessRanks = targets;
    }

    /** Ends the start epoch; its targets. */
    int[] complete() {
        if (accessRanks == null) {
            throw sync("complete without start");
        }
        int[] t = accessRanks;
        accessRanks = null;
        access = null;
        return t;
    }

    void checkLock(int target) {
        checkAccess("lock");
        if (locked[target] != 0) {
            throw sync("lock: rank " + target + " is locked already");
        }
    }

    void locked(int target, boolean exclusive) {
        locked[target] = (byte) (exclusive ? 2 : 1);
        lockedCount++;
        fenceOpen = false;
    }

    /** Whether {@code target}'s lock is exclusive; throws when it is not locked. */
    boolean checkUnlock(int target) {
        if (locked[target] == 0) {
            throw sync("unlock: rank " + target + " is not locked");
        }
        return locked[target] == 2;
    }

    void unlocked(int target) {
        locked[target] = 0;
        lockedCount--;
    }

    void checkLockAll() {
        checkAccess("lockAll");
        if (lockedCount > 0) {
            throw sync("lockAll: a lock epoch is open");
        }
    }

    void lockedAll() {
        lockedAll = true;
        fenceOpen = false;
    }

    void checkUnlockAll() {
        if (!lockedAll) {
            throw sync("unlockAll without lockAll");
        }
    }

    void unlockedAll() {
        lockedAll = false;
    }

    /** A flush needs a passive-target epoch. */
    void checkFlush() {
        if (!lockedAll && lockedCount == 0) {
            throw sync("flush outside a lock or lockAll epoch");
        }
    }

    /** Freeing needs every epoch closed (a fence epoch ends with the window). */
    void checkFree() {
        if (lockedAll || lockedCount > 0 || accessRanks != null || exposureRanks != null) {
            throw sync("free: an epoch is still open (unlock, unlockAll, complete or waitFor first)");
        }
    }
}
