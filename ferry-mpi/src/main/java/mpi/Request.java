package mpi;

import dev.ferry.FerryException;

import java.util.ArrayList;
import java.util.List;

/**
 * A non-blocking operation in flight: wait for it or test it, alone or in arrays, in the Open MPI
 * bindings' names ({@link #waitFor()}, {@link #test()}, {@link #waitAll(Request[])}) or mpiJava's
 * ({@link #Wait()}, {@link #Test()}, {@link #Waitall(Request[])}). A request that completed through
 * a wait or a successful test becomes inactive, as MPI's handle becomes MPI_REQUEST_NULL: the
 * array forms skip it.
 *
 * <pre>{@code
 * Request r = MPI.COMM_WORLD.iRecv(buf, n, MPI.DOUBLE, MPI.ANY_SOURCE, 0);
 * compute();
 * Status s = r.waitStatus();
 * }</pre>
 */
public class Request implements Freeable {
    /** What finishes a request once Ferry's part is complete (unpacking booleans or objects). */
    interface Finisher {
        void finish(Status status);
    }

    /** A receive that cannot be posted before its message is seen (MPI.OBJECT: its size is unknown). */
    interface Deferred {
        /** Ferry's request once the message is matched, else null; blocking when {@code block}. */
        dev.ferry.Request match(boolean block, Request owner);
    }

    dev.ferry.Request inner;
    /** Several operations completing as one (a neighbourhood collective), or null. */
    private dev.ferry.Request[] parts;
    final Errhandler handler;
    /** The receive's datatype, for mpiJava's counts; null for sends. */
    Datatype type;
    Finisher finisher;
    Deferred deferred;
    private Status done;
    private boolean inactive;

    Request(dev.ferry.Request inner, Errhandler handler, Datatype type) {
        this.inner = inner;
        this.handler = handler;
        this.type = type;
        this.inactive = inner == null;
    }

    /** One request for {@code parts}, complete when all are. */
    static Request of(dev.ferry.Request[] parts, Errhandler handler) {
        Request r = new Request(null, handler, null);
        r.parts = parts;
        r.inactive = false;
        return r;
    }

    static Request nullRequest() {
        return new Request(null, MPI.ERRORS_ARE_FATAL, null);
    }

    /** A request of the kind a receive that waits for its message to be seen is. */
    static Request deferred(Deferred d, Errhandler handler, Datatype type) {
        Request r = new Request(null, handler, type);
        r.deferred = d;
        r.inactive = false;
        return r;
    }

    /** Takes over a freshly started operation (a persistent request's start). */
    final void restartFrom(Request r) {
        inner = r.inner;
        type = r.type;
        finisher = r.finisher;
        deferred = r.deferred;
        done = null;
        inactive = false;
    }

    // --- the state machine ---------------------------------------------------------------------

    /** Whether it is complete now, making progress once (consumes nothing). */
    private boolean poll() {
        if (inactive || done != null) {
            return true;
        }
        if (parts != null) {
            return dev.ferry.Request.testAll(parts);
        }
        if (inner == null && deferred != null) {
            inner = deferred.match(false, this);
            if (inner == null) {
                return false;
            }
        }
        return inner.test();
    }

    private boolean isDeferredUnmatched() {
        return inner == null && deferred != null && !inactive;
    }

    /** The status of a complete request; raises its error through the handler. */
    private Status complete() {
        if (done != null) {
            return done;
        }
        if (inactive && inner == null && parts == null) {
            return new Status();
        }
        if (parts != null) {
            done = new Status();
            for (dev.ferry.Request p : parts) {
                dev.ferry.Status s = p.status();
                if (s.error() != null) {
                    throw Errors.raise(handler, new FerryException(s.error(), s.failure(), s));
                }
            }
            return done;
        }
        dev.ferry.Status s = inner.status();
        Status st = new Status(s);
        if (type != null) {
            st.counted(type);
        }
        if (finisher != null && s.error() == null && !s.isCancelled()) {
            finisher.finish(st);
        }
        done = st;
        if (s.error() != null) {
            throw Errors.raise(handler, new FerryException(s.error(), s.failure(), s));
        }
        return st;
    }

    /** Marks it inactive after a wait or successful test, as MPI frees the handle. */
    private Status consume() {
        Status s = complete();
        inactive = true;
        return s;
    }

    private Status block() {
        if (inactive && done == null && inner == null && parts == null) {
            return new Status();
        }
        if (done == null) {
            try {
                if (parts != null) {
                    for (dev.ferry.Request p : parts) {
                        p.await(java.time.Duration.ofDays(365 * 100));
                    }
                    return consume();
                }
                if (isDeferredUnmatched()) {
                    inner = deferred.match(true, this);
                }
                inner.await(java.time.Duration.ofDays(365 * 100));
            } catch (RuntimeException e) {
                throw Errors.raise(handler, e);
            }
        }
        return consume();
    }

    // --- Open MPI bindings -----------------------------------------------------------------------

    /** Waits for completion; its status. */
    public final Status waitStatus() {
        return block();
    }

    /** Waits for completion. */
    public final void waitFor() {
        block();
    }

    /** The status when complete (the request becomes inactive), else null. */
    public final Status testStatus() {
        return poll() ? consume() : null;
    }

    /** The status when complete, else null; the request stays as it is. */
    public final Status getStatus() {
        return poll() ? complete() : null;
    }

    /** Whether it is complete (then it becomes inactive). */
    public final boolean test() {
        if (poll()) {
            consume();
            return true;
        }
        return false;
    }

    /** Cancels a receive no message matched yet (a send is not cancelled: Ferry sends complete). */
    public final void cancel() {
        if (inner != null) {
            inner.cancel();
        } else if (deferred != null) {
            deferred = null;
            inactive = true;
            done = new Status();
            done.setCancelled(true);
        }
    }

    /** Whether it is the null request (never started, or inactive after completion). */
    public final boolean isNull() {
        return inactive;
    }

    /** Frees the handle; an operation in flight still completes. */
    @Override
    public void free() {
        inactive = true;
    }

    // --- mpiJava 1.2 ---------------------------------------------------------------------------

    public Status Wait() {
        return block();
    }

    /** Frees the handle (mpiJava's name for {@link #free()}). */
    public void Free() {
        free();
    }

    /** The status when complete, else null. */
    public Status Test() {
        return testStatus();
    }

    public void Cancel() {
        cancel();
    }

    public boolean Is_null() {
        return inactive;
    }

    // --- arrays of requests ----------------------------------------------------------------------

    private static boolean allPlain(Request[] requests) {
        for (Request r : requests) {
            if (r != null && (r.isDeferredUnmatched() || r.parts != null)) {
                return false;
            }
        }
        return true;
    }

    private static boolean active(Request r) {
        return r != null && !r.inactive;
    }

    /** Waits for one active request; its status with {@link Status#index} set, or an empty status with index UNDEFINED when none is active. */
    public static Status waitAnyStatus(Request[] requests) {
        int i = anyIndex(requests, true);
        return i == MPI.UNDEFINED ? new Status() : requests[i].consume().at(i);
    }

    public static int waitAny(Request[] requests) {
        int i = anyIndex(requests, true);
        if (i != MPI.UNDEFINED) {
            requests[i].consume();
        }
        return i;
    }

    public static Status testAnyStatus(Request[] requests) {
        int i = anyIndex(requests, false);
        return i < 0 ? null : i == MPI.UNDEFINED ? new Status() : requests[i].consume().at(i);
    }

    /** The index of a completed request, -1 when none is yet, UNDEFINED when none is active. */
    public static int testAny(Request[] requests) {
        int i = anyIndex(requests, false);
        if (i >= 0 && i != MPI.UNDEFINED) {
            requests[i].consume();
        }
        return i;
    }

    /** UNDEFINED when no request is active; else the index of a complete one, or -1 (only when not blocking). */
    private static int anyIndex(Request[] requests, boolean block) {
        List<Integer> live = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            if (active(requests[i])) {
                if (requests[i].done != null || requests[i].poll()) {
                    return i;
                }
                live.add(i);
            }
        }
        if (live.isEmpty()) {
            return MPI.UNDEFINED;
        }
        if (!block) {
            return -1;
        }
        Errhandler h = requests[live.get(0)].handler;
        try {
            if (allPlain(requests) && live.stream().allMatch(i -> requests[i].inner != null)) {
                dev.ferry.Request[] inner = new dev.ferry.Request[live.size()];
                for (int k = 0; k < inner.length; k++) {
                    inner[k] = requests[live.get(k)].inner;
                }
                return live.get(dev.ferry.Request.waitAny(inner));
            }
            // the few requests Ferry's own waits cannot take (an MPI.OBJECT receive whose message is not yet seen, among others)
            long start = System.nanoTime(), now = start;
            for (int round = 0; ; round++) {
                for (int i : live) {
                    if (requests[i].poll()) {
                        return i;
                    }
                }
                dev.ferry.internal.Idle.idle(now - start);
                if (dev.ferry.internal.Idle.clockDue(round, now - start)) {
                    now = System.nanoTime();
                }
            }
        } catch (RuntimeException e) {
            throw Errors.raise(h, e);
        }
    }

    public static Status[] waitAllStatus(Request[] requests) {
        matchDeferred(requests);
        Status[] out = new Status[requests.length];
        List<String> failed = new ArrayList<>();
        Errhandler h = MPI.ERRORS_ARE_FATAL;
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r == null) {
                out[i] = new Status();
                continue;
            }
            h = r.handler;
            try {
                out[i] = r.block();
            } catch (MPIException e) {
                out[i] = r.done != null ? r.done : new Status();
                failed.add("requests[" + i + "]: " + e.getMessage());
            }
        }
        if (!failed.isEmpty()) {
            throw Errors.raise(h, MPI.ERR_IN_STATUS, failed.size() + " of " + requests.length + " requests failed: "
                    + String.join("; ", failed.subList(0, Math.min(3, failed.size()))));
        }
        return out;
    }

    public static void waitAll(Request[] requests) {
        waitAllStatus(requests);
    }

    /**
     * Looks at every request in turn until no deferred receive among them is unmatched: an
     * MPI.OBJECT receive (its size unknown) is posted only once its message is seen, so waiting
     * for the requests one after another could wait on a synchronous send whose peer waits, in
     * turn, for the message this rank's own receive has not yet taken.
     */
    private static void matchDeferred(Request[] requests) {
        if (java.util.Arrays.stream(requests).noneMatch(r -> r != null && r.isDeferredUnmatched())) {
            return;
        }
        Errhandler h = MPI.ERRORS_ARE_FATAL;
        try {
            long start = System.nanoTime(), now = start;
            for (int round = 0; ; round++) {
                boolean unmatched = false;
                for (Request r : requests) {
                    if (r != null && active(r)) {
                        h = r.handler;
                        r.poll();
                        unmatched |= r.isDeferredUnmatched();
                    }
                }
                if (!unmatched) {
                    return;
                }
                dev.ferry.internal.Idle.idle(now - start);
                if (dev.ferry.internal.Idle.clockDue(round, now - start)) {
                    now = System.nanoTime();
                }
            }
        } catch (RuntimeException e) {
            throw Errors.raise(h, e);
        }
    }

    /** Every status when all are complete (all then become inactive), else null. */
    public static Status[] testAllStatus(Request[] requests) {
        for (Request r : requests) {
            if (active(r) && !r.poll()) {
                return null;
            }
        }
        Status[] out = new Status[requests.length];
        for (int i = 0; i < requests.length; i++) {
            out[i] = requests[i] == null ? new Status() : requests[i].consume();
        }
        return out;
    }

    public static boolean testAll(Request[] requests) {
        return testAllStatus(requests) != null;
    }

    /** Waits until at least one is complete; the statuses of all complete ones (index set), empty when none is active. */
    public static Status[] waitSomeStatus(Request[] requests) {
        if (anyIndex(requests, true) == MPI.UNDEFINED) {
            return new Status[0];
        }
        return testSomeStatus(requests);
    }

    public static int[] waitSome(Request[] requests) {
        Status[] s = waitSomeStatus(requests);
        int[] idx = new int[s.length];
        for (int i = 0; i < s.length; i++) {
            idx[i] = s[i].index;
        }
        return idx;
    }

    public static Status[] testSomeStatus(Request[] requests) {
        List<Status> out = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            if (active(requests[i]) && requests[i].poll()) {
                out.add(requests[i].consume().at(i));
            }
        }
        return out.toArray(new Status[0]);
    }

    public static int[] testSome(Request[] requests) {
        Status[] s = testSomeStatus(requests);
        int[] idx = new int[s.length];
        for (int i = 0; i < s.length; i++) {
            idx[i] = s[i].index;
        }
        return idx;
    }

    // mpiJava 1.2 names

    public static Status Waitany(Request[] array_of_requests) {
        return waitAnyStatus(array_of_requests);
    }

    public static Status Testany(Request[] array_of_requests) {
        return testAnyStatus(array_of_requests);
    }

    public static Status[] Waitall(Request[] array_of_requests) {
        return waitAllStatus(array_of_requests);
    }

    public static Status[] Testall(Request[] array_of_requests) {
        return testAllStatus(array_of_requests);
    }

    public static Status[] Waitsome(Request[] array_of_requests) {
        return waitSomeStatus(array_of_requests);
    }

    public static Status[] Testsome(Request[] array_of_requests) {
        return testSomeStatus(array_of_requests);
    }
}
