package dev.ferry.portals;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * A counting event (library side): success and failure counts, and the triggered operations
 * waiting for the success count to reach their thresholds. Only the library's thread changes
 * it; the counts are volatile so that a waiter in another thread sees them. They are written with
 * release stores, not volatile ones: with one writer nothing needs the full fence a volatile store
 * costs (about 20 ns here, twice on every ack and reply), and waiters only poll them.
 *
 * <pre>{@code
 * Counter c = new Counter(ni);
 * c.addTriggered(10, () -> ...);   // runs when success reaches 10
 * c.add(1, 0);
 * }</pre>
 */
final class Counter {
    final Ni ni;
    final CtHandle handle;
    volatile long success;
    volatile long failure;
    volatile boolean freed;
    /** Triggered operations by threshold, in the order they were posted among equal thresholds. */
    private final List<Triggered> triggered = new ArrayList<>();

    record Triggered(long threshold, Runnable action) {
    }

    Counter(Ni ni) {
        this.ni = ni;
        this.handle = new CtHandle(this);
    }

    private static final VarHandle SUCCESS;
    private static final VarHandle FAILURE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SUCCESS = l.findVarHandle(Counter.class, "success", long.class);
            FAILURE = l.findVarHandle(Counter.class, "failure", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    void add(long s, long f) {
        if (s != 0) {
            SUCCESS.setRelease(this, success + s);
        }
        if (f != 0) {
            FAILURE.setRelease(this, failure + f);
        }
        fire();
    }

    void set(long s, long f) {
        SUCCESS.setRelease(this, s);
        FAILURE.setRelease(this, f);
        fire();
    }

    int triggeredCount() {
        return triggered.size();
    }

    /** Adds a triggered operation; it runs at once when the threshold is already reached. */
    void addTriggered(long threshold, Runnable action) {
        int i = triggered.size();
        while (i > 0 && triggered.get(i - 1).threshold > threshold) {
            i--;
        }
        triggered.add(i, new Triggered(threshold, action));
        fire();
    }

    /** Drops every triggered operation not yet run; answers how many. */
    int cancelTriggered() {
        int n = triggered.size();
        triggered.clear();
        return n;
    }

    private boolean firing;

    private void fire() {
        if (firing || triggered.isEmpty()) {
            return; // an action that changes this counter: the loop below sees it
        }
        firing = true;
        try {
            while (!triggered.isEmpty() && triggered.get(0).threshold <= success) {
                Triggered t = triggered.remove(0);
                t.action.run();
            }
        } finally {
            firing = false;
        }
    }

    /** Success and failure together (each read once; both only grow, so a sum that reaches a total is true). */
    long total() {
        return success + failure;
    }

    CtEvent event() {
        return new CtEvent(success, failure);
    }

    @Override
    public String toString() {
        return "#" + System.identityHashCode(this) + " {" + success + ", " + failure + "}";
    }
}
