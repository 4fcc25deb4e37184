package dev.ferry;


import dev.ferry.core.engine.Engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A non-blocking operation in flight (MPI's request): test it, wait for it (with or without a
 * bound), wait for several at once, or take a {@link CompletableFuture} of it. Waiting makes
 * progress in the calling thread, spins briefly, then yields and naps, and after a second dozes
 * in the drivers' own blocking waits: a rank blocked for long costs about no CPU, and wakes when
 * its message comes. Any thread may test or wait.
 *
 * <pre>{@code
 * Request r = comm.irecv(buf, 0, n, Datatype.DOUBLE, 0, 7);
 * Request s = comm.isend(out, 0, n, Datatype.DOUBLE, 1, 7);
 * Request.waitAll(r, s);
 * comm.irecv(buf, 0, n, Datatype.DOUBLE, 0, 8).toFuture().thenAccept(st -> System.out.println(st));
 * }</pre>
 */
public abstract sealed class Request permits SendOp, RecvOp, CollOp, RmaRequest, AgreeOp, PersistentRequest {
    final Messaging messaging;
    /** Set once, when the request is seen complete (any thread may be first). */
    private volatile Status status;
    private static final java.lang.invoke.VarHandle STATUS;

    static {
        try {
            STATUS = java.lang.invoke.MethodHandles.lookup().findVarHandle(Request.class, "status", Status.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    Request(Messaging messaging) {
        this.messaging = messaging;
    }

    /** Forgets the last completion, for a request set up again. */
    final void reset() {
        STATUS.setRelease(this, (Status) null); // a release store: no fence on the hot path (readers read it volatile)
        testedSince = 0; // a reused request's tests count from its new start
    }

    /** The status if the request is complete now, else null; no progress. */
    abstract Status poll();

    /** A request that is complete from the start (an operation on {@link Ferry#PROC_NULL}). */
    static Request completed(Messaging messaging, Status status) {
        SendOp op = new SendOp(messaging, null, Ferry.PROC_NULL, Ferry.ANY_TAG, false);
        op.finish(status);
        return op;
    }

    /** Whether the request is complete (successfully or not), without making progress. */
    public final boolean isDone() {
        return current() != null;
    }

    final Status current() {
        Status s = status;
        if (s == null) {
            s = poll();
            if (s != null) {
                STATUS.setRelease(this, s); // a cache: whoever computes it computes the same
            }
        }
        return s;
    }

    /** Makes progress once; whether the request is complete. */
    public final boolean test() {
        if (current() != null) {
            return true;
        }
        messaging.progress();
        if (current() != null) {
            return true;
        }
        if (messaging.stallNanos != Long.MAX_VALUE && (++tests & 1023) == 0) {
            testedLong(); // a loop of tests is a wait too: it reports a stall as a blocking wait does
        }
        return false;
    }

    /** Tests of this request that found it incomplete (wrapping), and when the clock was first read for them (0: not yet). */
    private int tests;
    private long testedSince;

    private void testedLong() {
        long now = System.nanoTime();
        if (testedSince == 0) {
            testedSince = now;
        } else if (testedSince != Long.MIN_VALUE && now - testedSince >= messaging.stallNanos) {
            long waited = now - testedSince;
            testedSince = Long.MIN_VALUE; // once
            messaging.reportStall(this, waited);
        }
    }

    /**
     * Waits until the request completes and answers its status; throws a {@link FerryException}
     * carrying the status when it failed (a truncated receive, a dead peer).
     */
    public final Status await() {
        if (current() == null) {
            awaitUntil(Long.MAX_VALUE);
        }
        return result();
    }

    /**
     * Waits up to {@code timeout}; true when the request completed (then {@link #status()} tells
     * how), false when the time ran out (it stays in flight).
     */
    public final boolean await(Duration timeout) {
        return awaitUntil(System.nanoTime() + Math.max(0, Math.min(timeout.toNanos(), Long.MAX_VALUE / 4)));
    }

    /** The status once complete, else null. */
    public final Status status() {
        return current();
    }

    /**
     * Cancels a receive that no message matched yet: it completes with a status that says
     * {@linkplain Status#isCancelled() cancelled}. True when it was cancelled; false for a receive
     * already matched, and for a send (Ferry does not cancel sends).
     */
    public boolean cancel() {
        return false;
    }

    /**
     * A future that completes with the status when the request does (exceptionally with a
     * {@link FerryException} when it fails). It completes on whichever thread makes the progress
     * that finds it complete; its {@code get} and {@code join} themselves wait as {@link #await}
     * does.
     */
    public final CompletableFuture<Status> toFuture() {
        RequestFuture f = new RequestFuture(this);
        if (!f.settle()) {
            messaging.watch(f);
        }
        return f;
    }

    /** The status of a complete request; throws when it failed. */
    final Status result() {
        Status s = current();
        if (s.error() != null) {
            throw new FerryException(s.error(), s.failure(), s);
        }
        return s;
    }

    /** Waits until complete or {@code deadline} (System.nanoTime); whether it completed. */
    final boolean awaitUntil(long deadline) {
        return waitUntil(deadline, -1);
    }

    /**
     * Waits until complete or for about {@code nanos} (counted from the wait's first reading of
     * the clock, a few passes in: a wait that ends sooner never reads it); whether it completed.
     */
    final boolean awaitFor(long nanos) {
        return waitUntil(0, nanos);
    }

    /** {@link #awaitUntil}, or with {@code within >= 0}, {@link #awaitFor} that long. */
    private boolean waitUntil(long deadline, long within) {
        if (current() != null) {
            return true;
        }
        Engine e = messaging.engine();
        // the clock is first read when it is first due (reading it costs ~25 ns here, as much as
        // a pass): a wait that ends within a few passes, as a ping-pong's mostly do, never reads it
        long start = 0;
        long now = 0;
        // idle time counts from the last pass that did work: a waiter that serves peers meanwhile
        // (one-sided operations on its windows, rendezvous pulls) stays responsive to them
        long idleSince = 0;
        boolean clockRead = false;
        boolean worked = false;
        boolean stallReported = false;
        try {
            for (int round = 1; current() == null; round++) {
                if (messaging.progress()) {
                    worked = true;
                } else {
                    if (now - start >= WATCHED_AFTER_NANOS && waiter == null) {
                        waiter = Thread.currentThread(); // from now on a completion elsewhere unparks us
                        continue; // look once more before sleeping: it may have completed meanwhile
                    }
                    e.idleStrategy().idle(now - idleSince, clockRead ? deadline - now : Long.MAX_VALUE);
                }
                if (dev.ferry.spi.IdleStrategy.DEFAULT.clockDue(round, now - idleSince)) {
                    now = System.nanoTime();
                    if (!clockRead) {
                        clockRead = true;
                        start = idleSince = now;
                        if (within >= 0) {
                            deadline = now + within;
                        }
                    }
                    if (worked) {
                        idleSince = now;
                        worked = false;
                    }
                    if (now - deadline > 0) {
                        return current() != null;
                    }
                    if (now - start >= messaging.stallNanos && !stallReported) {
                        stallReported = true; // once per wait
                        messaging.reportStall(this, now - start);
                    }
                    if (e.isClosed() && current() == null) { // nothing completes it any more
                        throw new FerryException(ErrorClass.INTERN, "the Ferry instance closed while " + this + " was waited for");
                    }
                }
            }
            return true;
        } finally {
            if (waiter != null) {
                waiter = null;
            }
        }
    }

    /**
     * How long a waiter spins and yields before it asks to be woken: after that its idling naps and
     * dozes, and a completion found by another thread's progress (a second caller's, or the
     * progress thread's) unparks it rather than leave it to its nap's end.
     */
    private static final long WATCHED_AFTER_NANOS = 1_000_000;
    private volatile Thread waiter;

    /** Wakes a thread that waits for this request (called when it completes). */
    final void wake() {
        Thread w = waiter;
        if (w != null) {
            java.util.concurrent.locks.LockSupport.unpark(w);
        }
    }

    // ---- several requests ---------------------------------------------------------------------

    /** Waits for every request; their statuses in order. Throws (IN_STATUS, naming the failed ones) when any failed, after all completed. */
    public static Status[] waitAll(Request... requests) {
        Status[] out = new Status[requests.length];
        for (int i = 0; i < requests.length; i++) {
            requests[i].awaitUntil(Long.MAX_VALUE);
        }
        List<String> failed = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            out[i] = requests[i].current();
            if (out[i].error() != null) {
                failed.add("requests[" + i + "]: " + out[i].error() + " (" + out[i].failure() + ")");
            }
        }
        if (failed.size() == 1 && requests.length == 1) {
            throw new FerryException(out[0].error(), out[0].failure(), out[0]);
        }
        if (!failed.isEmpty()) {
            String list = String.join("; ", failed.subList(0, Math.min(3, failed.size())))
                    + (failed.size() > 3 ? "; and " + (failed.size() - 3) + " more" : "");
            throw new FerryException(ErrorClass.IN_STATUS, failed.size() + " of " + requests.length + " requests failed: " + list);
        }
        return out;
    }

    /** Whether every request is complete (making progress once). */
    public static boolean testAll(Request... requests) {
        if (requests.length > 0 && !allDone(requests)) {
            requests[0].messaging.progress();
        }
        return allDone(requests);
    }

    private static boolean allDone(Request[] requests) {
        for (Request r : requests) {
            if (r.current() == null) {
                return false;
            }
        }
        return true;
    }

    /** Waits until one request is complete; its index (-1 for none given). */
    public static int waitAny(Request... requests) {
        if (requests.length == 0) {
            return -1;
        }
        Engine e = requests[0].messaging.engine();
        long start = System.nanoTime(), now = start;
        for (int round = 1; ; round++) {
            for (int i = 0; i < requests.length; i++) {
                if (requests[i].current() != null) {
                    return i;
                }
            }
            if (!e.progress()) {
                e.idleStrategy().idle(now - start);
            }
            if (dev.ferry.spi.IdleStrategy.DEFAULT.clockDue(round, now - start)) {
                now = System.nanoTime();
            }
        }
    }

    /** The index of a complete request after one progress pass, or -1 when none is. */
    public static int testAny(Request... requests) {
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < requests.length; i++) {
                if (requests[i].current() != null) {
                    return i;
                }
            }
            if (pass == 0 && requests.length > 0) {
                requests[0].messaging.progress();
            }
        }
        return -1;
    }

    /** Waits until at least one request is complete; the indices of all complete ones. */
    public static int[] waitSome(Request... requests) {
        if (requests.length == 0) {
            return new int[0];
        }
        waitAny(requests);
        return done(requests);
    }

    /** The indices of the complete requests after one progress pass (maybe none). */
    public static int[] testSome(Request... requests) {
        if (requests.length > 0) {
            requests[0].messaging.progress();
        }
        return done(requests);
    }

    private static int[] done(Request[] requests) {
        int n = 0;
        int[] idx = new int[requests.length];
        for (int i = 0; i < requests.length; i++) {
            if (requests[i].current() != null) {
                idx[n++] = i;
            }
        }
        return java.util.Arrays.copyOf(idx, n);
    }
}
