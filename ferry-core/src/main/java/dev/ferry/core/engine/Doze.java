package dev.ferry.core.engine;

import dev.ferry.core.rail.EngineContext;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.IdleStrategy;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.Status;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * How the engine's waiters sleep once they have found nothing for a while: in the drivers' own
 * blocking waits (futex, epoll, ucp_worker_wait), so that an idle rank costs no CPU and a packet,
 * a peer's connection request or a peer's death wakes it at once. A thread cannot block in several
 * contexts' waits, so each context has a watcher thread, started on the first doze, that blocks
 * in its {@code recvWaitAny} while someone dozes and wakes every dozing thread when it returns;
 * the dozers themselves park. A driver's wait only reports readiness: the waiters take in what
 * came with their next progress pass, as always.
 *
 * <pre>{@code
 * Doze doze = new Doze(contexts, () -> acceptsDue = true, rank);
 * if (!engine.progress() && waited > Doze.AFTER_NANOS) doze.sleep(remaining);
 * doze.close();   // before the contexts close
 * }</pre>
 */
final class Doze implements AutoCloseable {
    /** How long a waiter finds nothing before it dozes: shorter waits spin, yield and nap. */
    static final long AFTER_NANOS = 1_000_000_000L;
    /** A doze's longest sleep: bounds what a missed wake-up could cost. */
    static final long BOUND_NANOS = 1_000_000_000L;
    /** The nap instead, while some context cannot watch (no wait-any, or data nobody takes). */
    static final long NAP_NANOS = 10_000_000L;

    private static final System.Logger LOG = dev.ferry.spi.LazyLogger.of(Doze.class);

    private final Watcher[] watchers;
    /** Progress passes that did work (opaque: written by the thread in progress, read by the watchers). */
    @SuppressWarnings("unused")
    private long workPasses;
    private static final java.lang.invoke.VarHandle WORK_PASSES;

    static {
        try {
            WORK_PASSES = java.lang.invoke.MethodHandles.lookup().findVarHandle(Doze.class, "workPasses", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How long a waiter spins before it starts yielding. */
    private static final long SPIN_NANOS = IdleStrategy.DEFAULT.spinNanos();
    /**
     * The same on a node running more ranks than it has cores, or whose agent carries the rank's
     * traffic: spinning long there only keeps the process being waited for off the core.
     */
    private static final long BRIEF_SPIN_NANOS = 2_000;
    private final Runnable acceptsDue;
    private final int rank;
    private final Set<Thread> sleepers = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicLong dozes = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean closed;

    /**
     * @param contexts   the contexts to watch (one without wait-any makes every doze a nap)
     * @param acceptsDue tells the engine to look for connection requests on its next pass
     * @param rank       for the threads' names
     */
    Doze(java.util.List<EngineContext> contexts, Runnable acceptsDue, int rank) {
        this.watchers = new Watcher[contexts.size()];
        for (EngineContext c : contexts) {
            watchers[c.id()] = new Watcher(c.context(), c.caps().supportsWaitAny(), c.id());
        }
        this.acceptsDue = acceptsDue;
        this.rank = rank;
    }

    /** Progress passes that did work so far (any thread). */
    private long workPasses() {
        return (long) WORK_PASSES.getOpaque(this);
    }

    /** A progress pass did work (single writer: the thread in progress). */
    void worked() {
        WORK_PASSES.setOpaque(this, workPasses + 1);
    }

    /**
     * The engine's idle strategy: {@code base}'s phases, spinning only briefly ({@code spinBriefly})
     * on a node that runs more ranks than it has cores or where a node agent carries the rank's
     * traffic, then after {@link #AFTER_NANOS} sleeping here, in the drivers' blocking waits.
     */
    IdleStrategy strategy(IdleStrategy base, boolean spinBriefly) {
        return base.withSpin(spinBriefly ? BRIEF_SPIN_NANOS : SPIN_NANOS).withSleep(this::sleep, AFTER_NANOS);
    }

    /**
     * Sleeps until a watched context has something, the thread is unparked, or {@link #BOUND_NANOS}
     * (at most {@code maxNanos}) pass; a nap of {@link #NAP_NANOS} when some context cannot be
     * watched now.
     */
    void sleep(long maxNanos) {
        long bound = Math.max(1, Math.min(maxNanos, BOUND_NANOS));
        if (closed) {
            LockSupport.parkNanos(this, Math.min(bound, NAP_NANOS));
            return;
        }
        Thread me = Thread.currentThread();
        dozes.incrementAndGet();
        sleepers.add(me);
        try {
            boolean all = true;
            for (Watcher w : watchers) {
                all &= w.arm();
            }
            LockSupport.parkNanos(this, all ? bound : Math.min(bound, NAP_NANOS));
        } finally {
            sleepers.remove(me);
        }
    }

    /** Dozes begun so far (tests see a waiter asleep by it). */
    long count() {
        return dozes.get();
    }

    private void wakeSleepers() {
        for (Thread t : sleepers) {
            LockSupport.unpark(t);
        }
    }

    /** Ends the watchers (before the contexts close) and wakes the sleepers. */
    @Override
    public void close() {
        closed = true;
        for (Watcher w : watchers) {
            w.stop();
        }
        wakeSleepers();
    }

    /** Blocks in one context's wait-any while someone dozes. */
    private final class Watcher implements Runnable {
        final DriverContext ctx;
        final int index;
        final InstanceRef ready = new InstanceRef();
        final InstanceRef probe = new InstanceRef();
        /** False when the context has no wait-any, or its wait failed: dozes nap. */
        volatile boolean usable;
        final java.util.concurrent.atomic.AtomicBoolean armed = new java.util.concurrent.atomic.AtomicBoolean();
        volatile Thread thread;
        /** The engine's work passes when this watcher last reported data. */
        volatile long reportedAt = -1;

        Watcher(DriverContext ctx, boolean canWait, int index) {
            this.ctx = ctx;
            this.usable = canWait;
            this.index = index;
        }

        /** Arms the watcher (starting it the first time); false when it cannot watch now. */
        boolean arm() {
            if (!usable) {
                return false;
            }
            if (!armed.get() && reportedAt == workPasses() && stillReady()) {
                return false; // what it reported has not been taken in (held back): it would wake us at once
            }
            armed.set(true);
            Thread t = thread;
            if (t == null) {
                synchronized (this) {
                    if (thread == null && !closed) {
                        thread = Thread.ofPlatform().daemon().name("ferry-doze-" + rank + "-" + index).start(this);
                    }
                }
            } else {
                LockSupport.unpark(t);
            }
            return true;
        }

        private synchronized boolean stillReady() {
            boolean ready = ctx.recvProbeAny(probe) == Status.DONE;
            probe.instance = null;
            return ready;
        }

        @Override
        public void run() {
            while (!closed) {
                if (!armed.get()) {
                    LockSupport.park(this);
                    continue;
                }
                Status s;
                try {
                    s = ctx.recvWaitAny(ready);
                } catch (RuntimeException e) {
                    s = Status.BROKEN;
                    LOG.log(System.Logger.Level.DEBUG, "rank {0}: wait-any of context {1} failed: {2}", rank, index, e.toString());
                }
                ready.instance = null;
                armed.getAndSet(false); // reads what a sleeper armed during the wait: that sleeper is seen below
                switch (s) {
                    case DONE -> reportedAt = workPasses();
                    case NOT_YET -> acceptsDue.run(); // a peer asks to connect, or moved a send of ours on: a pass looks
                    case CANCELED -> {
                        // the engine closes, or a stale cancel: look at closed again
                    }
                    default -> usable = false; // closed or broken: nap instead from now on
                }
                wakeSleepers();
                if (!usable) {
                    return;
                }
            }
        }

        void stop() {
            Thread t;
            synchronized (this) {
                t = thread;
            }
            if (t == null) {
                return;
            }
            ctx.recvCancelAny();
            LockSupport.unpark(t);
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
