package dev.ferry.internal;

import dev.ferry.spi.IdleStrategy;

/**
 * Ferry's one idle strategy, for the {@code mpi} package's own waits (those Ferry's requests
 * cannot take), so that it needs nothing below the application API. Not part of the application
 * API: its package is exported to {@code dev.ferry.mpi} alone.
 *
 * <pre>{@code
 * long start = System.nanoTime(), now = start;
 * for (int round = 0; !done(); round++) {
 *     Idle.idle(now - start);
 *     if (Idle.clockDue(round, now - start)) now = System.nanoTime();
 * }
 * }</pre>
 */
public final class Idle {
    private Idle() {
    }

    /** Idles once, {@code waitedNanos} into a wait: spin, yield, nap, then sleep. */
    public static void idle(long waitedNanos) {
        IdleStrategy.DEFAULT.idle(waitedNanos);
    }

    /** Whether a wait in its {@code round}, {@code waitedNanos} in, should read the clock again. */
    public static boolean clockDue(int round, long waitedNanos) {
        return IdleStrategy.DEFAULT.clockDue(round, waitedNanos);
    }
}
