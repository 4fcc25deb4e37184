package dev.ferry;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link CompletableFuture} of a request: completed by the progress that finds the request
 * complete; its blocking getters wait as the request does (making progress), so that a caller
 * blocked in {@code get} is never left waiting for progress nobody makes.
 */
final class RequestFuture extends CompletableFuture<Status> {
    private final Request request;

    RequestFuture(Request request) {
        this.request = request;
    }

    /** Completes the future if the request is complete; whether it is. */
    boolean settle() {
        Status s = request.current();
        if (s == null) {
            return false;
        }
        if (s.error() != null) {
            completeExceptionally(new FerryException(s.error(), s.failure(), s));
        } else {
            complete(s);
        }
        return true;
    }

    @Override
    public Status get() throws InterruptedException, ExecutionException {
        request.awaitUntil(Long.MAX_VALUE);
        settle();
        return super.get();
    }

    @Override
    public Status get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (request.awaitUntil(System.nanoTime() + unit.toNanos(timeout))) {
            settle();
        }
        return super.get(0, TimeUnit.NANOSECONDS);
    }

    @Override
    public Status join() {
        request.awaitUntil(Long.MAX_VALUE);
        settle();
        return super.join();
    }
}
