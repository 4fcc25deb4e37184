package dev.ferry.portals;

import java.util.function.BooleanSupplier;

/**
 * The wait condition of ctWait, reused per thread: a lambda capturing the counter and the test
 * cost an allocation on every call of the most common wait.
 *
 * <pre>{@code
 * CounterReached w = CounterReached.take(counter, test);
 * try {
 *     waitFor(lib, w, -1);
 * } finally {
 *     w.release();
 * }
 * }</pre>
 */
final class CounterReached implements BooleanSupplier {
    private static final ThreadLocal<CounterReached> MINE = ThreadLocal.withInitial(CounterReached::new);
    private Counter c;
    private long test;

    static CounterReached take(Counter c, long test) {
        CounterReached w = MINE.get();
        if (w.c != null) {
            w = new CounterReached(); // a wait inside a wait on this thread: its own
        }
        w.c = c;
        w.test = test;
        return w;
    }

    void release() {
        c = null;
    }

    @Override
    public boolean getAsBoolean() {
        return c.success() >= test || c.failure != 0 || c.freed;
    }
}
