package dev.ferry;

/**
 * The request of a one-sided operation ({@link Window#rput} and the other {@code r} forms): it
 * completes once every operation its window library had issued up to it has (its result copied
 * out), which a poll checks with one progress pass when no window call is running.
 */
final class RmaRequest extends Request {
    static final Status DONE = Status.ok(Ferry.ANY_SOURCE, Ferry.ANY_TAG, 0, 1);

    private final WindowLibrary lib;
    private final long ticket;
    private final String what;

    RmaRequest(Messaging messaging, WindowLibrary lib, long ticket, String what) {
        super(messaging);
        this.lib = lib;
        this.ticket = ticket;
        this.what = what;
    }

    @Override
    Status poll() {
        return lib.pollThrough(ticket, what);
    }

    @Override
    public String toString() {
        return what;
    }
}
