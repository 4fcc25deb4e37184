package dev.ferry.driver.shm;

/**
 * The exposure slots of one side of a channel ({@code sendExpose}): each slot's generation, the
 * slots free to expose in, and those whose packet is sent but whose split pull the puller has not
 * marked yet (it still reads the slot's {@linkplain SplitPull split record}, so the slot waits).
 */
final class ExposureSlots {
    private final Channel ch;
    private final long[] generation = new long[ShmLayout.EXPOSURES];
    private final int[] free = new int[ShmLayout.EXPOSURES];
    private int freeCount;
    /** Sent, not yet marked by the puller: one bit per slot. */
    private long unreleased;

    ExposureSlots(Channel ch) {
        this.ch = ch;
        for (int i = 0; i < ShmLayout.EXPOSURES; i++) {
            free[i] = ShmLayout.EXPOSURES - 1 - i;
        }
        freeCount = ShmLayout.EXPOSURES;
    }

    /** The slot the next exposure takes, or -1 when none is free. */
    int next() {
        if (freeCount == 0 && (unreleased == 0 || !release())) {
            return -1;
        }
        return free[freeCount - 1];
    }

    /** Takes {@link #next()}'s slot for an exposure of {@code generation}. */
    void take(int slot, long generation) {
        freeCount--;
        this.generation[slot] = generation;
    }

    long generation(int slot) {
        return generation[slot];
    }

    /** Whether the puller has marked the slot's current generation pulled. */
    boolean marked(int slot) {
        return ch.exposurePulled(slot) == generation[slot];
    }

    /** The slot's packet is sent: free again if the puller marked it, else once it does. */
    void sent(int slot, boolean marked) {
        if (marked) {
            free[freeCount++] = slot;
        } else {
            unreleased |= 1L << slot;
        }
    }

    /** Frees the sent slots the puller has marked since; true if any. */
    private boolean release() {
        boolean any = false;
        for (long m = unreleased; m != 0; m &= m - 1) {
            int slot = Long.numberOfTrailingZeros(m);
            if (marked(slot)) {
                unreleased &= ~(1L << slot);
                free[freeCount++] = slot;
                any = true;
            }
        }
        return any;
    }
}
