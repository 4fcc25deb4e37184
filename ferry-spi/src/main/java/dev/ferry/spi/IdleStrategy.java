package dev.ferry.spi;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * How a thread waits for work another thread or process does, by how long it has waited so far
 * (Agrona's {@code BackoffIdleStrategy} is the model, phased by time rather than by count): it
 * spins while the work is usually that close, then yields (with more threads than cores, the one
 * being waited for may need this core), then naps in parks that grow with the wait, then sleeps
 * in a wait that the work itself ends: the drivers' blocking waits (futex, epoll) where the
 * engine has them, else a park that a producer unparks. So a short wait costs no kernel call and
 * a long one costs no CPU. Immutable: one object per kind of waiter, composed from the default
 * with its {@code with...} methods; every wait of every layer goes through one.
 *
 * <pre>{@code
 * IdleStrategy idle = IdleStrategy.DEFAULT.withSleep(doze::sleep);
 * long start = System.nanoTime(), now = start;
 * for (int round = 0; !done(); round++) {
 *     if (!progress()) idle.idle(now - start, deadline - now);
 *     if (IdleStrategy.clockDue(round, now - start)) now = System.nanoTime();
 * }
 * }</pre>
 *
 * @param spinNanos  spin ({@code Thread.onSpinWait}) while the wait is shorter than this
 * @param yieldNanos then yield while it is shorter than this
 * @param sleepAfterNanos then nap while it is shorter than this, and sleep from then on
 * @param maxNapNanos the longest nap: naps are 20 us for the first 10 ms, 1 ms until 1 s, 10 ms after,
 *                   at most this (a waiter that is unparked when its work comes may nap long)
 * @param sleep      the last phase, given the most it may sleep
 */
public record IdleStrategy(long spinNanos, long yieldNanos, long sleepAfterNanos, long maxNapNanos, Sleep sleep) {
    /** The last phase of a wait: block until woken, or at most {@code maxNanos}. */
    @FunctionalInterface
    public interface Sleep {
        void sleep(long maxNanos);
    }

    /** A park of at most 10 ms, which an unpark ends: the sleep of a waiter that its producer wakes. */
    public static final Sleep PARK = park(10_000_000L);

    /** A park of at most {@code boundNanos}, which an unpark ends (the bound only caps a lost wake-up). */
    public static Sleep park(long boundNanos) {
        return maxNanos -> LockSupport.parkNanos(Math.max(1, Math.min(maxNanos, boundNanos)));
    }

    /**
     * Spins for 200 us (a message is usually that close), yields until 1 ms, naps until 1 s, then
     * parks 10 ms at a time: a pass over a mixed job's rails every millisecond cost ~2.5% of a
     * core; a wait that long notices its work up to 10 ms late, 1% of the wait.
     */
    public static final IdleStrategy DEFAULT = new IdleStrategy(200_000, 1_000_000, 1_000_000_000, 10_000_000, PARK);

    public IdleStrategy {
        if (spinNanos < 0 || yieldNanos < spinNanos || sleepAfterNanos < yieldNanos || maxNapNanos < 1) {
            throw new IllegalArgumentException("idle phases out of order: spin " + spinNanos + ", yield " + yieldNanos
                    + ", sleep after " + sleepAfterNanos + ", nap at most " + maxNapNanos + " ns");
        }
        java.util.Objects.requireNonNull(sleep, "sleep");
    }

    /** This strategy spinning for {@code nanos} (yields start there if they would start earlier). */
    public IdleStrategy withSpin(long nanos) {
        return new IdleStrategy(nanos, Math.max(nanos, yieldNanos), Math.max(nanos, sleepAfterNanos), maxNapNanos, sleep);
    }

    /** This strategy yielding until the wait is {@code nanos} long. */
    public IdleStrategy withYieldUntil(long nanos) {
        return new IdleStrategy(Math.min(spinNanos, nanos), nanos, Math.max(nanos, sleepAfterNanos), maxNapNanos, sleep);
    }

    /** This strategy napping at most {@code nanos} at a time. */
    public IdleStrategy withMaxNap(long nanos) {
        return new IdleStrategy(spinNanos, yieldNanos, sleepAfterNanos, nanos, sleep);
    }

    /** This strategy ending in {@code s} once the wait is {@code afterNanos} long. */
    public IdleStrategy withSleep(Sleep s, long afterNanos) {
        return new IdleStrategy(Math.min(spinNanos, afterNanos), Math.min(yieldNanos, afterNanos), afterNanos, maxNapNanos, s);
    }

    /** This strategy ending in {@code s} where it sleeps now. */
    public IdleStrategy withSleep(Sleep s) {
        return new IdleStrategy(spinNanos, yieldNanos, sleepAfterNanos, maxNapNanos, s);
    }

    /** Idles once, {@code waitedNanos} into a wait with no deadline. */
    public void idle(long waitedNanos) {
        idle(waitedNanos, Long.MAX_VALUE);
    }

    /** Idles once, {@code waitedNanos} into a wait whose deadline is {@code remainingNanos} away (never blocking past it). */
    public void idle(long waitedNanos, long remainingNanos) {
        if (waitedNanos < spinNanos) {
            Thread.onSpinWait();
        } else if (waitedNanos < yieldNanos) {
            Thread.yield();
        } else if (waitedNanos < sleepAfterNanos) {
            long nap = waitedNanos < 10_000_000 ? 20_000 : waitedNanos < 1_000_000_000 ? 1_000_000 : 10_000_000;
            LockSupport.parkNanos(this, Math.max(1, Math.min(Math.min(nap, maxNapNanos), remainingNanos)));
        } else {
            sleep.sleep(Math.max(1, remainingNanos));
        }
    }

    /**
     * Whether {@link #idle} blocks the thread at this point of a wait (naps or sleeps): a waiter
     * that a producer unparks publishes itself only then, not on every spin.
     */
    public boolean parks(long waitedNanos) {
        return waitedNanos >= yieldNanos;
    }

    /**
     * Whether a waiter should read the clock again after its {@code round}th look,
     * {@code waitedNanos} into its wait: every 64th look while it spins (System.nanoTime costs
     * about 50 ns on a virtual machine, as much as a pass of progress, and would slow noticing a
     * message), every look once it yields or naps.
     */
    public boolean clockDue(int round, long waitedNanos) {
        return (round & 63) == 0 || waitedNanos >= spinNanos;
    }

    /**
     * Waits until {@code done} holds, idling between looks; false when {@code timeoutNanos}
     * passed first (Long.MAX_VALUE: no bound). For waits off the hot paths (the answer is a lambda).
     */
    public boolean await(BooleanSupplier done, long timeoutNanos) {
        long start = System.nanoTime(), now = start;
        for (int round = 0; !done.getAsBoolean(); round++) {
            if (timeoutNanos != Long.MAX_VALUE && now - start >= timeoutNanos) {
                return done.getAsBoolean();
            }
            idle(now - start, timeoutNanos == Long.MAX_VALUE ? Long.MAX_VALUE : timeoutNanos - (now - start));
            if (clockDue(round, now - start)) {
                now = System.nanoTime();
            }
        }
        return true;
    }

    /**
     * Looks until {@code look} answers something other than NOT_YET, idling between looks, and
     * answers that: the loop of a driver's connect wait, whose {@code look} moves the connection
     * on and maps its state to a status (its own deadline included). For waits off the hot paths.
     *
     * <pre>{@code
     * return IdleStrategy.DEFAULT.until(() -> state == UP ? Status.DONE : Status.NOT_YET);
     * }</pre>
     */
    public Status until(java.util.function.Supplier<Status> look) {
        long start = System.nanoTime(), now = start;
        for (int round = 0; ; round++) {
            Status s = look.get();
            if (s != Status.NOT_YET) {
                return s;
            }
            idle(now - start);
            if (clockDue(round, now - start)) {
                now = System.nanoTime();
            }
        }
    }
}
