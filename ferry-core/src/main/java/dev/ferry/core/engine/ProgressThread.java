package dev.ferry.core.engine;

import dev.ferry.core.request.Message;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.SendRequest;
import dev.ferry.spi.IdleStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * The background thread of {@code FERRY_PROGRESS=thread} (seed 004's offload): it holds the
 * engine's thread of control for good and makes progress passes; other threads hand it their
 * sends, receives and tasks through a queue ({@link #forward}), which it runs first on each pass.
 * Idle, it spins, yields, naps 50 us at a time (a command unparks it at once), and after a
 * second without work dozes in the drivers' waits, which data itself ends.
 *
 * <pre>{@code
 * ProgressThread t = new ProgressThread(engine, strategy);
 * t.forward(sendRequest);          // from any thread
 * t.stop(flushNanos);              // at close: it flushes, then ends
 * }</pre>
 */
final class ProgressThread {
    /** How long the thread spins after its last work before it yields (then naps, then dozes). */
    private static final long SPIN_NANOS = 100_000;

    private final Engine engine;
    private final Thread thread;
    private final CommandQueue commands = new CommandQueue(4096);
    private final IdleStrategy idle;
    /** Set by {@link #stop}: the thread flushes, then ends (by {@link #stopBy} at the latest). */
    private volatile boolean stop;
    private volatile long stopBy;
    private volatile boolean parked;

    /** @param idle the engine's strategy, which this thread's own is made from */
    ProgressThread(Engine engine, IdleStrategy idle) {
        this.engine = engine;
        this.idle = idle.withSpin(SPIN_NANOS).withYieldUntil(2 * SPIN_NANOS).withMaxNap(50_000);
        this.thread = Thread.ofPlatform().daemon().name("ferry-progress-" + engine.rank).unstarted(this::loop);
    }

    void start() {
        thread.start();
    }

    boolean isCurrent() {
        return Thread.currentThread() == thread;
    }

    /**
     * Why this thread cannot reach the memory of {@code layout}, or null when it can: memory of a
     * confined arena is reachable by its owner thread alone.
     */
    String unreachable(dev.ferry.spi.DataLayout layout) {
        if (layout == null || layout.segmentCount() == 0 || layout.segmentBase(0).isAccessibleBy(thread)) {
            return null;
        }
        return "memory of a confined arena (Arena.ofConfined) is reachable by its own thread alone, and with FERRY_PROGRESS=thread "
                + thread.getName() + " moves the bytes: use a shared or automatic arena (Arena.ofShared, Arena.ofAuto)";
    }

    /** Hands {@code c} (a send, a receive, a consumed message, a task) to the thread, which runs it on its next pass. */
    void forward(Object c) {
        long start = 0;
        while (!commands.offer(c)) { // full: the thread is behind, and takes one soon
            if (start == 0) {
                start = System.nanoTime();
            }
            IdleStrategy.DEFAULT.idle(System.nanoTime() - start);
        }
        java.lang.invoke.VarHandle.fullFence(); // the offer before reading parked (it sets that, then looks at the queue)
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Hands {@code task} to the thread and waits until it ran (at most {@code bound}); a
     * RuntimeException it threw is thrown here.
     */
    void runAndWait(Runnable task, java.time.Duration bound) {
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        RuntimeException[] failure = new RuntimeException[1];
        forward((Runnable) () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                failure[0] = e;
            } finally {
                done.countDown();
            }
        });
        try {
            if (!done.await(bound.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
                throw new IllegalStateException("rank " + engine.rank + ": the progress thread did not run a task within " + bound.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the progress thread ran a task", e);
        }
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    /** Runs a command another thread handed over: a send, a rendezvous receive, a consumed message, a task. */
    private void run(Object c) {
        if (c instanceof SendRequest s) {
            engine.doSend(s);
        } else if (c instanceof RecvRequest r) {
            Message m = r.pendingMessage;
            r.pendingMessage = null;
            engine.receiveRendezvous(m, r);
        } else if (c instanceof Message m) {
            engine.consumed(m);
        } else if (c instanceof Runnable task) {
            task.run();
        }
    }

    /** Runs what other threads handed over; true when there was something. On the thread only. */
    boolean runCommands() {
        boolean work = false;
        Object c;
        while ((c = commands.poll()) != null) {
            run(c);
            work = true;
        }
        return work;
    }

    private void loop() {
        engine.holdControlForGood();
        long idleSince = 0;
        long now = 0;
        int round = 0;
        while (!stop || !engine.quiet() && System.nanoTime() - stopBy < 0) {
            boolean work;
            try {
                work = engine.progressOnce();
            } catch (RuntimeException | Error e) {
                // no request may wait for a thread that is gone: every peer's requests fail with the
                // cause, and the thread goes on (later calls to them fail at once)
                engine.log.log(System.Logger.Level.ERROR, "rank " + engine.rank + ": a progress pass failed; every peer's requests fail", e);
                engine.failAll("the progress thread failed: " + e);
                work = false; // idles as after a quiet pass: a fault that comes back on every pass does not spin the thread
            }
            if (work) {
                round = 0;
                continue;
            }
            if (round == 0) {
                idleSince = now = System.nanoTime();
            } else if (idle.clockDue(round, now - idleSince)) {
                now = System.nanoTime();
            }
            round++;
            long waited = now - idleSince;
            if (!idle.parks(waited)) {
                idle.idle(waited);
                continue;
            }
            parked = true;
            if (commands.isEmpty()) {
                // a stopping thread naps rather than dozes: it ends within the flush bound
                idle.idle(stop ? Math.min(waited, idle.sleepAfterNanos() - 1) : waited);
            }
            parked = false;
        }
    }

    /** Asks the thread to flush what it holds, within {@code flushNanos}, and end; waits for it a little longer than that. */
    void stop(long flushNanos) {
        stopBy = System.nanoTime() + flushNanos;
        stop = true;
        LockSupport.unpark(thread);
        try {
            thread.join(flushNanos / 1_000_000 + 10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
