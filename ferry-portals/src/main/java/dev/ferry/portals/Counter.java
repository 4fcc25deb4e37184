package dev.ferry.portals;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * A counting event (library side): success and failure counts, and the triggered operations
 * waiting for the success count to reach their thresholds. Only the library's thread changes
 * it, but for what same-node peers and the node agent count into its word of the entry directory
 * for entries they serve (while triggered operations wait here, only the agent, whose count wakes
 * this process to fire them: {@link Directory#fireCounted}); the counts are volatile so that a
 * waiter in another thread sees them. They
 * are written with release stores, not volatile ones: with one writer nothing needs the full
 * fence a volatile store costs (about 20 ns here, twice on every ack and reply), and waiters
 * only poll them.
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
    /** The success count this library added; the whole count is {@link #success()}. */
    volatile long counted;
    volatile long failure;
    /**
     * The counter word in the entry directory into which same-node peers and the node agent count
     * the operations they do on published entries counting here ({@link DirectoryLayout#count});
     * null until such an entry is first published. The counter keeps it until it is freed, so
     * that its count never seems to go back (a waiter in another thread reads it).
     */
    private volatile MemorySegment shared;
    /** Which word it is (-1: none), and how many published entries count into it. */
    int word = -1, publishedEntries;
    volatile boolean freed;
    /** Whether the directory looks at it on each progress pass ({@link Directory#fireCounted}). */
    boolean watched;
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
            SUCCESS = l.findVarHandle(Counter.class, "counted", long.class);
            FAILURE = l.findVarHandle(Counter.class, "failure", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The success count: this library's part, and what peers and the agent counted in the directory. */
    long success() {
        MemorySegment d = shared;
        return counted + (d == null ? 0 : (long) DirectoryLayout.LONG.getAcquire(d, DirectoryLayout.counter(word)));
    }

    /** Peers and the agent count into word {@code w} of directory {@code d} from now on (it holds 0). */
    void share(MemorySegment d, int w) {
        word = w;
        shared = d; // after word: a reader that sees the directory sees which word
    }

    void add(long s, long f) {
        if (s != 0) {
            SUCCESS.setRelease(this, counted + s);
        }
        if (f != 0) {
            FAILURE.setRelease(this, failure + f);
        }
        fire();
    }

    void set(long s, long f) {
        SUCCESS.setRelease(this, s - (success() - counted)); // what peers count from now on comes on top
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

    /** Runs the triggered operations whose thresholds are reached now (also after counts made elsewhere). */
    void fire() {
        if (firing || triggered.isEmpty()) {
            return; // an action that changes this counter: the loop below sees it
        }
        firing = true;
        try {
            while (!triggered.isEmpty() && triggered.get(0).threshold <= success()) {
                Triggered t = triggered.remove(0);
                t.action.run();
            }
        } finally {
            firing = false;
        }
    }

    /** Success and failure together (each read once; both only grow, so a sum that reaches a total is true). */
    long total() {
        return success() + failure;
    }

    CtEvent event() {
        return new CtEvent(success(), failure);
    }

    @Override
    public String toString() {
        return "#" + System.identityHashCode(this) + " {" + success() + ", " + failure + "}";
    }
}
