package dev.ferry.core.engine;

import dev.ferry.launch.pmi.Bootstrap;
import dev.ferry.spi.IdleStrategy;

import java.time.Duration;

/**
 * The two waits of an engine's close ({@link Engine#close}) in caller mode and after: until what
 * it sent has left, and until it met the other ranks, each while serving the peers and each
 * bounded, so that a rank whose peers failed or are still at work leaves on its own.
 *
 * <pre>{@code
 * Shutdown.flush(engine, flushNanos);
 * boolean met = Shutdown.meet(engine, bootstrap, Duration.ofSeconds(3));
 * }</pre>
 */
final class Shutdown {
    private Shutdown() {
    }

    /** Makes progress until nothing is in flight, at most {@code boundNanos} (caller mode). */
    static void flush(Engine e, long boundNanos) {
        long start = System.nanoTime();
        for (long now = start; !e.quiet() && now - start < boundNanos; now = System.nanoTime()) {
            if (!e.progress()) {
                IdleStrategy.DEFAULT.idle(now - start); // a fruitless pass: let the peers run
            }
        }
    }

    /**
     * Meets the other ranks (a fence through the bootstrap, in a thread of its own) while serving
     * them, at most {@code bound}: ranks that end together leave together, so that nothing a peer
     * still needs of this rank (a driver's completion answer, a late pull) goes with it; a rank
     * whose peers are still at work, or failed, leaves on its own after the bound. True when met.
     */
    static boolean meet(Engine e, Bootstrap boot, Duration bound) {
        boolean[] done = new boolean[1];
        Thread fence = Thread.ofPlatform().daemon().name("ferry-close-meet-" + e.rank).start(() -> {
            try {
                boot.fence();
                done[0] = true;
            } catch (RuntimeException x) {
                e.log.log(System.Logger.Level.DEBUG, "rank {0}: the closing fence failed: {1}", e.rank, x.getMessage());
            }
        });
        long start = System.nanoTime();
        while (fence.isAlive()) {
            long waited = System.nanoTime() - start;
            if (waited > bound.toNanos()) {
                e.log.log(System.Logger.Level.INFO, "rank {0}: closing without meeting every rank within {1} s (some failed or are still at work)",
                        e.rank, bound.toSeconds());
                return false;
            }
            if (!e.progress()) {
                IdleStrategy.DEFAULT.idle(waited);
            }
        }
        return done[0];
    }
}
