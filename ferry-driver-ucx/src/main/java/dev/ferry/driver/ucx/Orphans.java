package dev.ferry.driver.ucx;

import java.util.Arrays;

/**
 * UCP requests nobody waits for any more but that UCX still holds: cancelled receives of an
 * abandoned pull, and the empty receives that consume a BULK message after a pull by gets. Each is
 * released once it has ended; a context is not destroyed under one (see
 * {@link UcxContext#close()}). The context's lock guards every call.
 */
final class Orphans {
    private long[] requests = new long[8];
    private int count;

    /** Takes what a UCP call returned: a live request is kept until it ends, anything else needs nothing. */
    void adopt(long request) {
        if (request == 0 || Ucp.isError(request)) {
            return;
        }
        if (count == requests.length) {
            requests = Arrays.copyOf(requests, count * 2);
        }
        requests[count++] = request;
    }

    boolean any() {
        return count > 0;
    }

    int size() {
        return count;
    }

    /** Releases the requests that have ended; answers whether some still run. */
    boolean sweep() {
        int kept = 0;
        for (int i = 0; i < count; i++) {
            long r = requests[i];
            if (Ucp.check(r) == Ucp.INPROGRESS) {
                requests[kept++] = r;
            } else {
                Ucp.free(r);
            }
        }
        count = kept;
        return count > 0;
    }
}
