package dev.ferry.core.match;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntObjConsumer;

/**
 * The per-context queues of one matching queue, by context id, with the last one looked up kept
 * at hand (a program mostly talks on one communicator at a time), and the queue's order and size.
 */
final class ContextQueues<T> {
    final Int2ObjectHashMap<ContextQueue<T>> byContext = new Int2ObjectHashMap<>();
    private int lastContext = -1;
    private ContextQueue<T> last;
    /** The next entry's place in the queue's order. */
    long seq;
    /** Entries queued. */
    int size;

    /** The queue of {@code context}, or null when it has none. */
    ContextQueue<T> find(int context) {
        if (context == lastContext) {
            return last;
        }
        ContextQueue<T> q = byContext.get(context);
        if (q != null) {
            lastContext = context;
            last = q;
        }
        return q;
    }

    /** The queue of {@code context}, made when it has none. */
    ContextQueue<T> of(int context) {
        ContextQueue<T> q = find(context);
        if (q == null) {
            q = new ContextQueue<>();
            byContext.put(context, q);
        }
        return q;
    }

    /** Takes the queue of {@code context} out, or null. */
    ContextQueue<T> remove(int context) {
        if (context == lastContext) {
            lastContext = -1;
            last = null;
        }
        return byContext.remove(context);
    }

    void forEach(IntObjConsumer<ContextQueue<T>> each) {
        byContext.forEachInt(each);
    }
}
