package dev.ferry.portals;

import dev.ferry.core.engine.Engine;
import dev.ferry.spi.ProgressLock;

import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The one way API calls reach the library (seed 003's forward -> lib_dispatch): {@link #call}
 * runs a library function where the library lives. In caller mode that is the calling thread,
 * under the library's lock (seed 003's cli / sti), which also covers the engine's progress and
 * so the handling of incoming messages. With {@code FERRY_PROGRESS=thread} it is the engine's
 * progress thread: the call is handed over and the caller waits for its result, so the library
 * only ever runs in one thread and needs no lock. The same library code runs either way.
 *
 * <pre>{@code
 * MdHandle h = dispatch.call(() -> lib.mdBind(ni, md));
 * }</pre>
 */
abstract sealed class Dispatch permits Dispatch.Caller, Dispatch.Hosted, Dispatch.Thread {
    final Engine engine;

    Dispatch(Engine engine) {
        this.engine = engine;
    }

    /**
     * The engine's progress thread when it has one; else the caller's thread, with
     * {@code passive} a {@link PassiveProgress} thread serving peers while the program makes no call.
     */
    static Dispatch of(Engine engine, boolean passive) {
        return engine.progressThreadMode() ? new Thread(engine) : new Caller(engine, passive);
    }

    /**
     * For a library hosted on an engine another layer owns and makes progress on (the
     * application API): the engine's own thread of control serializes, as the host's state does.
     */
    static Dispatch hosted(Engine engine, boolean passive) {
        return engine.progressThreadMode() ? new Thread(engine) : new Hosted(engine, passive);
    }

    /** Serves peers while the program makes no call (caller and hosted modes); null without one. */
    PassiveProgress passive;

    /** Starts what the dispatch runs of its own, once the library is built. */
    void start() {
        if (passive != null) {
            passive.start();
        }
    }

    /** Ends what the dispatch runs of its own (before the engine closes). */
    void stop() {
        if (passive != null) {
            passive.stop();
        }
    }

    /** The program is active in the library (or its host): the passive thread keeps out of its way. */
    void touch() {
        if (passive != null) {
            passive.touch();
        }
    }

    /** Runs {@code f} in the library, answers its result, rethrows its exception. */
    abstract <T> T call(Supplier<T> f);

    /**
     * Whether the calling thread may run the library itself now (caller mode: the lock is taken;
     * thread mode: it is the progress thread); if so it must {@link #leave} after. The data
     * operations use this rather than {@link #call}, so as to make no lambda on their hot path
     * (Portals.enter says why).
     */
    abstract boolean enter();

    /** Ends what {@link #enter} began. */
    abstract void leave();

    /**
     * One round of a wait: true when {@code done} holds. In caller mode it makes progress first
     * (under the lock); in thread mode it only looks, the progress thread does the work.
     */
    abstract boolean poll(java.util.function.BooleanSupplier done);

    /**
     * {@link #poll} for {@code c}'s success and failure counts together reaching {@code total}.
     * The counts are volatile: outside caller mode, looking at them takes neither the lock nor the
     * thread of control, only a progress pass does.
     */
    abstract boolean pollTotal(Counter c, long total);

    /** Whether the last {@link #poll} moved anything (a waiter that serves peers stays awake while it does). */
    boolean worked;

    /** An operation entered now targets this process itself (set and read under the library's lock). */
    boolean selfPending;

    /** The operation being started targets this process itself: its call delivers it before it returns (caller mode). */
    void selfTargeted() {
        selfPending = true;
    }

    /** Caller mode: the caller's thread, under the lock. */
    static final class Caller extends Dispatch {
        /** The most passes a call makes to deliver its operations on this process itself: a get takes three (request, target, reply). */
        static final int SELF_PASSES = 4;
        final ProgressLock lock = new ProgressLock();

        Caller(Engine engine, boolean passive) {
            super(engine);
            this.passive = passive ? new PassiveProgress(engine, lock, engine.rank()) : null;
        }

        @Override
        <T> T call(Supplier<T> f) {
            touch();
            lock.lock();
            try {
                return f.get();
            } finally {
                try {
                    // every call leaves the library having made a pass: a program that only binds,
                    // releases and retries still has its answers processed (its MDs freed)
                    engine.progress();
                    deliverSelfTargeted();
                } finally {
                    lock.unlock();
                }
            }
        }

        @Override
        boolean enter() {
            touch();
            lock.lock();
            return true;
        }

        @Override
        void leave() {
            try {
                deliverSelfTargeted();
            } finally {
                lock.unlock();
            }
        }

        /**
         * Delivers the operations on this process itself that this call started, before it returns,
         * as a target elsewhere would take them in: a program that computes next still sees them
         * land (its own passive-progress thread would come only once the scheduler lets it run).
         */
        private void deliverSelfTargeted() {
            if (selfPending) {
                selfPending = false;
                for (int pass = 0; pass < SELF_PASSES && engine.progress(); pass++) {
                    // again, while passes work
                }
            }
        }

        /** Polls since the last progress pass. */
        private int pollsSinceProgress;

        @Override
        boolean poll(java.util.function.BooleanSupplier done) {
            touch();
            lock.lock();
            try {
                // a process that never has to wait (its operations complete at once: direct access)
                // must still serve its peers, so a poll whose condition already holds still makes
                // progress, every 8th time: a pass costs more than a direct operation
                if ((++pollsSinceProgress & 7) != 0 && done.getAsBoolean()) {
                    worked = false;
                    return true;
                }
                pollsSinceProgress = 0;
                worked = engine.progress();
                return done.getAsBoolean();
            } finally {
                lock.unlock();
            }
        }

        @Override
        boolean pollTotal(Counter c, long total) {
            touch();
            lock.lock();
            try {
                if ((++pollsSinceProgress & 7) != 0 && c.total() >= total) { // as poll: serve peers every 8th time
                    worked = false;
                    return true;
                }
                pollsSinceProgress = 0;
                worked = engine.progress();
                return c.total() >= total;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Caller mode on a host's engine: the calling thread holds the engine's thread of control
     * ({@link Engine#holdControl}), which the host's own progress (and so the library's handler)
     * also needs; no lock of the library's own.
     */
    static final class Hosted extends Dispatch {
        /** Whether each nested {@link #enter} took the control (bit 0 the innermost); only its holder touches it. */
        private long took;
        private int pollsSinceProgress;

        Hosted(Engine engine, boolean passive) {
            super(engine);
            this.passive = passive ? new PassiveProgress(engine, null, engine.rank()) : null;
        }

        @Override
        <T> T call(Supplier<T> f) {
            touch();
            boolean t = engine.holdControl();
            try {
                return f.get();
            } finally {
                engine.releaseControl(t);
            }
        }

        @Override
        boolean enter() {
            touch();
            boolean t = engine.holdControl();
            took = took << 1 | (t ? 1 : 0);
            return true;
        }

        @Override
        void leave() {
            boolean t = (took & 1) != 0;
            took >>>= 1;
            engine.releaseControl(t);
        }

        @Override
        boolean poll(java.util.function.BooleanSupplier done) {
            touch();
            if ((++pollsSinceProgress & 7) != 0 && holding(done)) { // as Caller.poll: serve peers every 8th time
                worked = false;
                return true;
            }
            pollsSinceProgress = 0;
            worked = engine.progress();
            return holding(done);
        }

        @Override
        boolean pollTotal(Counter c, long total) {
            touch();
            if ((++pollsSinceProgress & 7) != 0 && c.total() >= total) { // as poll, without taking the control to look
                worked = false;
                return true;
            }
            pollsSinceProgress = 0;
            worked = engine.progress();
            return c.total() >= total;
        }

        private boolean holding(java.util.function.BooleanSupplier done) {
            boolean t = engine.holdControl();
            try {
                return done.getAsBoolean();
            } finally {
                engine.releaseControl(t);
            }
        }
    }

    /** Thread mode: handed to the engine's progress thread. */
    static final class Thread extends Dispatch {
        private static final dev.ferry.spi.IdleStrategy CALLER_WAIT =
                dev.ferry.spi.IdleStrategy.DEFAULT.withMaxNap(50_000).withSleep(dev.ferry.spi.IdleStrategy.park(50_000));
        Thread(Engine engine) {
            super(engine);
        }

        private static final class Call<T> implements Runnable {
            final Supplier<T> f;
            final java.lang.Thread caller = java.lang.Thread.currentThread();
            T result;
            RuntimeException failure;
            volatile boolean done;

            Call(Supplier<T> f) {
                this.f = f;
            }

            @Override
            public void run() {
                try {
                    result = f.get();
                } catch (RuntimeException e) {
                    failure = e;
                }
                done = true;
                LockSupport.unpark(caller);
            }
        }

        @Override
        <T> T call(Supplier<T> f) {
            if (engine.isEngineThread()) {
                return f.get(); // from the library itself (a handler, a triggered operation)
            }
            Call<T> c = new Call<>(f);
            engine.execute(c);
            // the progress thread unparks this caller when the call ran: a nap only bounds a lost wake-up
            long start = System.nanoTime(), now = start;
            for (int round = 0; !c.done; round++) {
                CALLER_WAIT.idle(now - start);
                if (CALLER_WAIT.clockDue(round, now - start)) {
                    now = System.nanoTime();
                }
            }
            if (c.failure != null) {
                throw c.failure;
            }
            return c.result;
        }

        @Override
        boolean enter() {
            return engine.isEngineThread(); // from the library itself (a handler, a triggered operation)
        }

        @Override
        void leave() {
        }

        @Override
        boolean poll(java.util.function.BooleanSupplier done) {
            return done.getAsBoolean();
        }

        @Override
        boolean pollTotal(Counter c, long total) {
            return c.total() >= total;
        }
    }
}
