package dev.ferry.core.match;

import java.util.function.Consumer;
import java.util.function.IntPredicate;

/**
 * The receives posted and not yet matched, as MPI matches them: an arriving message (context,
 * source, tag) takes the earliest posted receive whose pattern accepts it. Exact patterns sit in
 * hash bins by (source, tag), so with thousands posted a match still costs O(1) expected; wildcard
 * patterns sit in one list per context, and the earlier of a bin's head and the first accepting
 * wildcard wins (MPICH's and UCX's scheme). One thread of control uses it.
 *
 * <pre>{@code
 * posted.add(entry.set(context, MatchEntry.ANY, tag));
 * MatchEntry<Receive> e = posted.match(context, source, tag);   // null: unexpected
 * }</pre>
 */
public final class PostedReceives<T> {
    private final ContextQueues<T> contexts = new ContextQueues<>();

    /** Posts {@code e} behind every receive posted before it. */
    public void add(MatchEntry<T> e) {
        if (e.queued()) {
            throw new IllegalStateException("entry already queued: " + e);
        }
        ContextQueue<T> q = contexts.of(e.context);
        e.seq = ++contexts.seq;
        if (e.exact()) {
            q.binFor(e.source, e.tag).add(e);
        } else {
            q.list.add(e);
        }
        contexts.size++;
    }

    /** Takes the earliest receive that accepts a message of {@code context} from {@code source} with {@code tag}, or null. */
    public MatchEntry<T> match(int context, int source, int tag) {
        if (contexts.size == 0) {
            return null;
        }
        ContextQueue<T> q = contexts.find(context);
        if (q == null) {
            return null;
        }
        EntryChain<T> b = q.bin(source, tag);
        MatchEntry<T> best = b == null ? null : b.head;
        for (MatchEntry<T> w = q.list.head; w != null; w = w.listNext) {
            if (best != null && w.seq > best.seq) {
                break; // the list is in posting order: nothing further along comes earlier
            }
            if (w.accepts(source, tag)) {
                best = w;
                break;
            }
        }
        if (best != null) {
            remove(best);
        }
        return best;
    }

    /** Removes a posted receive (cancelled); false when it is no longer posted. */
    public boolean remove(MatchEntry<T> e) {
        if (e.bin != null) {
            e.bin.remove(e);
        } else if (e.list != null) {
            e.list.remove(e);
        } else {
            return false;
        }
        contexts.size--;
        return true;
    }

    /**
     * Removes the receives a dead {@code source} concerns, in posting order per queue: those for it,
     * and the wildcard-source ones of the contexts {@code wildcardContexts} accepts (those it is a
     * member of).
     */
    public void removeFor(int source, IntPredicate wildcardContexts, Consumer<MatchEntry<T>> removed) {
        contexts.forEach((context, q) -> {
            for (EntryChain<T> b : q.bins.values()) {
                while (b.head != null && b.head.source == source) {
                    MatchEntry<T> e = b.head;
                    remove(e);
                    removed.accept(e);
                }
            }
            for (MatchEntry<T> w = q.list.head; w != null; ) {
                MatchEntry<T> next = w.listNext;
                if (w.source == source || w.source == MatchEntry.ANY && wildcardContexts.test(context)) {
                    remove(w);
                    removed.accept(w);
                }
                w = next;
            }
        });
    }

    /** Receives posted now. */
    public int size() {
        return contexts.size;
    }
}
