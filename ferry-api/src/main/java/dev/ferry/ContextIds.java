package dev.ferry;

import java.util.Arrays;

/**
 * The communicator context ids of one Ferry instance, free or taken: a new communicator's id is
 * the lowest one free at every member (the members AND their free masks, as MPICH does), so
 * traffic of one communicator never matches receives of another. Id 0 is the world's, 1 self's.
 */
final class ContextIds {
    /** Ids one instance can hold at once: each takes two header contexts (user, internal). */
    static final int MAX = 4096;
    static final int WORLD = 0, SELF = 1;
    private final long[] free = new long[MAX / 64];

    ContextIds() {
        Arrays.fill(free, -1L);
        free[0] &= ~0b11L;
    }

    synchronized long[] freeMask() {
        return free.clone();
    }

    synchronized void take(int id) {
        if ((free[id >>> 6] & 1L << id) == 0) {
            throw new FerryException(ErrorClass.INTERN, "context " + id + " agreed on is taken here already");
        }
        free[id >>> 6] &= ~(1L << id);
    }

    synchronized void release(int id) {
        free[id >>> 6] |= 1L << id;
    }

    /** The lowest id set in every mask, or -1. */
    static int lowestCommon(long[] and) {
        for (int w = 0; w < and.length; w++) {
            if (and[w] != 0) {
                return w * 64 + Long.numberOfTrailingZeros(and[w]);
            }
        }
        return -1;
    }
}
