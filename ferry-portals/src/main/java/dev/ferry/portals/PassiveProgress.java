package dev.ferry.portals;

import dev.ferry.core.engine.Engine;
import dev.ferry.spi.ProgressLock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Progress for a process that makes no Portals call (application bypass): a daemon thread that
 * serves the library's peers, under the caller dispatch's lock, whenever the program has not been
 * inside the library since the thread last looked. While the program calls (and so makes progress
 * itself) it only looks, 0.2 ms after a call at first, then less and less often while the calls go
 * on (at most every 10 ms); once the program has stopped calling, it serves, idling as every wait
 * does ({@link Engine#idleStrategy}: spins, yields and naps) but dozing in the drivers' blocking
 * waits, which a packet ends at once, after {@link #DOZE_AFTER_NANOS} rather than a second. So a computing process is served from a fraction
 * of a millisecond after its last call on; an idle one costs about what its JVM costs asleep
 * (docs/performance.md).
 * The program's own calls stay
 * as fast as in caller mode: the thread never competes with a caller for the lock.
 *
 * <pre>{@code
 * PassiveProgress p = new PassiveProgress(engine, lock, rank);
 * p.start();                 // once the library can handle what the thread takes in
 * ... p.touch() on each entry into the library ...
 * p.stop();
 * }</pre>
 */
final class PassiveProgress implements Runnable {
    private static final VarHandle ACTIVITY;

    static {
        try {
            ACTIVITY = MethodHandles.lookup().findVarHandle(PassiveProgress.class, "activity", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * How long the thread leaves a program that called the library to itself before it looks
     * again, at first: the program makes progress itself meanwhile (every call leaves the library
     * having made a pass), so the thread serves once a look finds no new call. While the program
     * keeps calling, each look finding a new call doubles the hold-off, up to
     * {@link #MAX_HOLD_OFF_NANOS}: looking every millisecond for good cost a waiting rank about 2%
     * of a core, while a program that stops calling is served within a fraction of a millisecond.
     */
    static final long MIN_HOLD_OFF_NANOS = 200_000;
    static final long MAX_HOLD_OFF_NANOS = 10_000_000;

    private final Engine engine;
    private final ProgressLock lock;
    private final Thread thread;
    /** Bumped by the program on each entry into the library (opaque: no fence on its hot path). */
    @SuppressWarnings("unused")
    private long activity;
    private volatile boolean stop;
    /** How the thread idles when it finds nothing to do: the engine's phases, dozing early ({@link #DOZE_AFTER_NANOS}). */
    private final dev.ferry.spi.IdleStrategy idle;

    /**
     * After this long without work the thread sleeps in the drivers' blocking waits, which a
     * packet ends at once, rather than napping a millisecond at a time until the engine's own
     * doze (after a second): a program computing between its peers' operations is served within a
     * fraction of a millisecond, and an idle one costs nothing.
     */
    static final long DOZE_AFTER_NANOS = 10_000_000;

    /** {@code lock} is the caller dispatch's, or null for a hosted library (the engine's thread of control serializes). */
    PassiveProgress(Engine engine, ProgressLock lock, int rank) {
        this.engine = engine;
        this.lock = lock;
        this.thread = Thread.ofPlatform().daemon().name("ferry-passive-progress-" + rank).unstarted(this);
        this.idle = engine.idleStrategy().withSleep(engine.idleStrategy().sleep(), DOZE_AFTER_NANOS);
    }

    void start() {
        thread.start();
    }

    /** The program entered the library: it makes progress itself for now. */
    void touch() {
        ACTIVITY.setOpaque(this, (long) ACTIVITY.getOpaque(this) + 1);
    }

    @Override
    public void run() {
        long seen = (long) ACTIVITY.getOpaque(this);
        long lastWork = System.nanoTime();
        long holdOff = MIN_HOLD_OFF_NANOS;
        while (!stop) {
            long a = (long) ACTIVITY.getOpaque(this);
            if (a != seen) {
                seen = a;
                // the idle time runs on from this thread's own last work: once the program stops
                // calling, a thread long idle dozes at once, and data wakes a doze as fast as a spin
                LockSupport.parkNanos(this, holdOff);
                holdOff = Math.min(2 * holdOff, MAX_HOLD_OFF_NANOS);
                continue;
            }
            holdOff = MIN_HOLD_OFF_NANOS; // the program stopped calling: look soon after its next call
            boolean worked = false;
            try {
                if (lock == null) {
                    worked = !stop && engine.progress(); // hosted: the engine's own thread of control is the lock
                } else if (lock.tryLock()) {
                    try {
                        if (!stop) {
                            worked = engine.progress();
                        }
                    } finally {
                        lock.unlock();
                    }
                }
            } catch (RuntimeException e) {
                // a handler's failure must not end the serving of every peer from now on
                engine.logger().log(System.Logger.Level.ERROR, "rank " + engine.rank() + ": passive progress: " + e, e);
            }
            long now = System.nanoTime();
            if (worked) {
                lastWork = now;
            } else {
                idle.idle(now - lastWork);
            }
        }
    }

    /** Ends the thread (before the engine closes), waiting for it. */
    void stop() {
        stop = true;
        if (!thread.isAlive()) {
            return;
        }
        LockSupport.unpark(thread);
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
