package dev.ferry;

/**
 * The request of a one-sided operation ({@link Window#rput} and the other {@code r} forms): it
 * completes once every operation its window library had issued to the same target up to it has
 * (its result copied out), which a poll checks with one progress pass when no window call is
 * running; it fails only when an operation to that target failed, not for another target's.
 */
final class RmaRequest extends Request {
    static final Status DONE = Status.ok(Ferry.ANY_SOURCE, Ferry.ANY_TAG, 0, 1);

    private final WindowLibrary lib;
    private final int target;
    private final long ticket;
    private final long failuresBefore;
    private final String what;

    RmaRequest(Messaging messaging, WindowLibrary lib, int target, long ticket, long failuresBefore, String what) {
        super(messaging);
        this.lib = lib;
        this.target = target;
        this.ticket = ticket;
        this.failuresBefore = failuresBefore;
        this.what = what;
    }

    @Override
    Status poll() {
        return lib.poll(target, ticket, failuresBefore, what);
    }

    @Override
    public String toString() {
        return what;
    }
}
