package dev.ferry.driver.ucx;

/**
 * UCP requests made through {@link Ucp}, one per slot of a ring or pool of buffers, each with
 * the status it ended with. A completed request is released as soon as it is seen, so a slot
 * holds either a live request or a known status. The context's lock guards every call.
 */
final class RequestSlots {
    /** Each slot's live request, 0 once completed (and released) or done at once. */
    private final long[] req;
    /** Each slot's last status: {@link Ucp#INPROGRESS} while UCX has the request. */
    private final int[] status;

    RequestSlots(int slots) {
        req = new long[slots];
        status = new int[slots];
    }

    /** Slot i took what a send or receive call returned (a request, NULL for done at once, or an error). */
    void started(int i, long request) {
        if (request == 0 || Ucp.isError(request)) {
            req[i] = 0;
            status[i] = (int) request;
        } else {
            req[i] = request;
            status[i] = Ucp.INPROGRESS;
        }
    }

    /** Slot i is set to an ended status without a request. */
    void ended(int i, int s) {
        req[i] = 0;
        status[i] = s;
    }

    /** Slot i's request has completed (it is released then, its status kept). */
    boolean completed(int i) {
        long r = req[i];
        if (r == 0) {
            return true;
        }
        int s = Ucp.check(r);
        if (s == Ucp.INPROGRESS) {
            return false;
        }
        Ucp.free(r);
        req[i] = 0;
        status[i] = s;
        return true;
    }

    /** Slot i's last status, as last seen (no UCP call: readable without the lock). */
    int status(int i) {
        return status[i];
    }

    /** Slot i's live request, handed over (0 when it has ended): the slot forgets it. */
    long take(int i) {
        long r = completed(i) ? 0 : req[i];
        req[i] = 0;
        return r;
    }

    /** Cancels slot i's request if it is still running; it completes on a later progress. */
    void cancel(int i, long worker) {
        if (!completed(i)) {
            Ucp.cancel(worker, req[i]);
        }
    }

    /** Some of the first {@code n} slots' requests are still in UCX's hands (completed ones are released). */
    boolean busy(int n) {
        boolean busy = false;
        for (int i = 0; i < n; i++) {
            busy |= !completed(i);
        }
        return busy;
    }
}
