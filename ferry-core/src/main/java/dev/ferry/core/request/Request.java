package dev.ferry.core.request;

import dev.ferry.spi.IdleStrategy;
import dev.ferry.spi.Status;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A send or receive handed to the engine. Reusable: set it up again once it completed, so a
 * steady stream of messages allocates nothing. Completion is published with a volatile store, so
 * a request may be watched from any thread.
 */
public abstract sealed class Request permits SendRequest, RecvRequest {
    static final int IDLE = 0, PENDING = 1, COMPLETE = 2;

    private volatile int state = IDLE;
    private static final java.lang.invoke.VarHandle STATE;

    static {
        try {
            STATE = java.lang.invoke.MethodHandles.lookup().findVarHandle(Request.class, "state", int.class);
        } catch (ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }
    // written before the volatile store of state that publishes them, read after reading it
    private Status status = Status.NOT_YET;
    private String failure = "";
    private volatile Thread waiter;
    RequestHost engine;
    /**
     * How a thread waits that another thread's progress completes its request for it: completion
     * unparks it, so its naps (200 us at most) and its sleeps (1 s) only bound a late look.
     */
    private static final IdleStrategy UNPARKED = IdleStrategy.DEFAULT.withMaxNap(200_000).withSleep(IdleStrategy.park(1_000_000_000L));

    /** Whether the request has completed (successfully or not). */
    public final boolean isDone() {
        return state == COMPLETE;
    }

    /**
     * DONE, or why the request failed: BROKEN (the peer died or misbehaved), CLOSED (the peer or
     * this engine closed), INVALID (bad arguments); NOT_YET while pending.
     */
    public final Status status() {
        return state == COMPLETE ? status : Status.NOT_YET;
    }

    /** Why the request failed, or "" when it did not. */
    public final String failure() {
        return state == COMPLETE ? failure : "";
    }

    /**
     * Waits for completion, making progress in caller mode, up to {@code timeout}; answers the
     * final status, or NOT_YET when the time ran out (the request stays pending).
     */
    public final Status await(Duration timeout) {
        if (state == COMPLETE) {
            return status; // no clock read: System.nanoTime costs ~50 ns on a virtual machine, a tenth of a round trip
        }
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long now = start;
        RequestHost e = engine;
        int round = 0;
        IdleStrategy idle = e != null ? e.idleStrategy() : IdleStrategy.DEFAULT;
        while (state != COMPLETE) {
            long waited = now - start;
            if (e != null && e.callerProgress()) {
                if (!e.progress()) {
                    idle.idle(waited, deadline - now); // more ranks than cores: let the peer run; doze when long
                }
            } else if (!UNPARKED.parks(waited)) {
                UNPARKED.idle(waited);
            } else {
                waiter = Thread.currentThread();
                if (state != COMPLETE) {
                    UNPARKED.idle(waited, deadline - now);
                }
                waiter = null;
            }
            round++;
            if (idle.clockDue(round, now - start)) {
                now = System.nanoTime();
                if (now - deadline > 0) {
                    return state == COMPLETE ? status : Status.NOT_YET;
                }
            }
        }
        return status;
    }

    /** {@link #await} that throws unless the request completed with DONE. */
    public final void join(Duration timeout) {
        Status s = await(timeout);
        if (s == Status.NOT_YET) {
            throw new IllegalStateException(this + " not complete after " + timeout.toMillis() + " ms"
                    + (engine == null ? "" : "\n" + engine.stateReport()));
        }
        if (s != Status.DONE) {
            throw new IllegalStateException(this + " failed: " + s + (failure.isEmpty() ? "" : " (" + failure + ")"));
        }
    }

    public final void begin(RequestHost e) {
        start(e, Status.NOT_YET, PENDING); // only the thread that starts a request reads it pending
    }

    /** Starts and completes with DONE in one step: an immediate message received during the handler call. */
    final void completeAtOnce(RequestHost e) {
        start(e, Status.DONE, COMPLETE); // nobody waits on a request that was not pending
    }

    private void start(RequestHost e, Status s, int newState) {
        checkNotPending();
        engine = e;
        failure = "";
        status = s;
        STATE.setRelease(this, newState); // publishes the fields
    }

    final void checkNotPending() {
        if (state == PENDING) {
            throw new IllegalStateException("request still pending: " + this);
        }
    }

    final boolean pending() {
        return state == PENDING;
    }

    public final void complete(Status s, String why) {
        if (state != PENDING) {
            return;
        }
        failure = why == null ? "" : why;
        status = s;
        STATE.setRelease(this, COMPLETE); // publishes status and failure
        RequestHost e = engine;
        if (e == null || !e.callerProgress()) {
            // a waiter in another thread may park: order our store before reading whether it does
            java.lang.invoke.VarHandle.fullFence();
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }
    }

    public final void complete() {
        complete(Status.DONE, null);
    }
}
