package dev.ferry.core.match;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntPredicate;

/**
 * The receives posted and not yet matched, as MPI matches them, and a Portals list's match
 * entries as Portals matches them: an arriving message (context, source, bits) takes the earliest
 * posted pattern that accepts it. Patterns that ignore no bits sit in hash bins by (source, bits),
 * those of any source in bins by (ANY, bits), so with thousands posted a match still costs O(1)
 * expected; the others sit in one list per context, and the earliest of the two bins' first and
 * the list's first accepting entry wins (MPICH's and UCX's scheme). An {@link Eligibility} passes over entries the pattern alone
 * cannot rule out; {@link #find} leaves a persistent entry in place. One thread of control uses it.
 *
 * <pre>{@code
 * posted.add(entry.set(context, MatchEntry.ANY, tag));
 * MatchEntry<Receive> e = posted.match(context, source, tag);   // null: unexpected
 * }</pre>
 */
public final class PostedReceives<T> {
    private final ContextQueues<T> contexts = new ContextQueues<>();
    /** Patterns of any source in bins: while there are none, a match looks in one bin only. */
    private int anySourceBinned;

    /** Posts {@code e} behind every receive posted before it. */
    public void add(MatchEntry<T> e) {
        if (e.queued()) {
            throw new IllegalStateException("entry already queued: " + e);
        }
        ContextQueue<T> q = contexts.of(e.context);
        e.seq = ++contexts.seq;
        if (e.binned()) {
            q.binFor(e.source, e.bits).add(e);
            if (e.source == MatchEntry.ANY) {
                anySourceBinned++;
            }
        } else {
            q.list.add(e);
        }
        contexts.size++;
    }

    /** Takes the earliest receive that accepts a message of {@code context} from {@code source} with {@code tag}, or null. */
    public MatchEntry<T> match(int context, int source, int tag) {
        MatchEntry<T> best = find(context, source, MatchEntry.bits(tag), null);
        if (best != null) {
            remove(best);
        }
        return best;
    }

    /**
     * {@link #match}, passing over the entries {@code eligible} refuses. It is asked about the
     * first accepting entry of each queue the message may meet (an exact bin, the any-source bin,
     * the wildcard list), not only the one that wins.
     */
    public MatchEntry<T> match(int context, int source, int tag, Eligibility<T> eligible) {
        MatchEntry<T> best = find(context, source, MatchEntry.bits(tag), eligible);
        if (best != null) {
            remove(best);
        }
        return best;
    }

    /** Whether a posted receive accepts a message of {@code context} from {@code source} with {@code tag}. */
    public boolean accepts(int context, int source, int tag) {
        return find(context, source, MatchEntry.bits(tag), null) != null;
    }

    /**
     * Whether some receive posted on {@code context} accepts some message that a receive of
     * {@code source} and {@code tag} (either may be {@link MatchEntry#ANY}) accepts too: what a
     * receive must know before it is handed to the node agent alone. One bin's look for a source
     * and a tag; a walk of the context's receives for a wildcard.
     */
    public boolean overlaps(int context, int source, int tag) {
        if (source != MatchEntry.ANY && tag != MatchEntry.ANY) {
            return accepts(context, source, tag);
        }
        ContextQueue<T> q = contexts.size == 0 ? null : contexts.find(context);
        if (q == null) {
            return false;
        }
        long bits = MatchEntry.bits(tag), ignore = tag == MatchEntry.ANY ? -1L : 0L;
        for (EntryChain<T> b : q.bins.values()) {
            for (MatchEntry<T> e = b.head; e != null; e = e.binNext) {
                if (overlap(e, source, bits, ignore)) {
                    return true;
                }
            }
        }
        for (MatchEntry<T> w = q.list.head; w != null; w = w.listNext) {
            if (overlap(w, source, bits, ignore)) {
                return true;
            }
        }
        return false;
    }

    /** Whether posted {@code e} and the pattern ({@code source}, {@code bits}, {@code ignore}) accept a message in common. */
    private static boolean overlap(MatchEntry<?> e, int source, long bits, long ignore) {
        return (source == MatchEntry.ANY || e.source == MatchEntry.ANY || e.source == source) && ((e.bits ^ bits) & ~(e.ignore | ignore)) == 0;
    }

    /**
     * The earliest entry that accepts a message of {@code context} from {@code source} with
     * match bits {@code bits} and that {@code eligible} (null: any) lets take it, left posted; or null.
     */
    public MatchEntry<T> find(int context, int source, long bits, Eligibility<T> eligible) {
        if (contexts.size == 0) {
            return null;
        }
        ContextQueue<T> q = contexts.find(context);
        if (q == null) {
            return null;
        }
        MatchEntry<T> best = first(q.bin(source, bits), source, bits, eligible);
        if (anySourceBinned > 0) {
            MatchEntry<T> any = first(q.bin(MatchEntry.ANY, bits), source, bits, eligible);
            if (any != null && (best == null || any.seq < best.seq)) {
                best = any;
            }
        }
        for (MatchEntry<T> w = q.list.head; w != null; w = w.listNext) {
            if (best != null && w.seq > best.seq) {
                break; // the list is in posting order: nothing further along comes earlier
            }
            if (w.accepts(source, bits) && (eligible == null || eligible.eligible(w.item()))) {
                best = w;
                break;
            }
        }
        return best;
    }

    /** The first entry of bin {@code b} (null: none) that accepts the message and may take it. */
    private static <T> MatchEntry<T> first(EntryChain<T> b, int source, long bits, Eligibility<T> eligible) {
        if (b == null) {
            return null;
        }
        for (MatchEntry<T> e = b.head; e != null; e = e.binNext) {
            if (e.accepts(source, bits) && (eligible == null || eligible.eligible(e.item()))) { // a shared key is rare
                return e;
            }
        }
        return null;
    }

    /** Removes a posted receive (cancelled); false when it is no longer posted. */
    public boolean remove(MatchEntry<T> e) {
        if (e.bin != null) {
            e.bin.remove(e);
            if (e.source == MatchEntry.ANY) {
                anySourceBinned--;
            }
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
                for (MatchEntry<T> e = b.head; e != null; ) {
                    MatchEntry<T> next = e.binNext;
                    if (e.source == source || e.source == MatchEntry.ANY && wildcardContexts.test(context)) {
                        remove(e);
                        removed.accept(e);
                    }
                    e = next;
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

    /** Removes every receive posted on {@code context}, in posting order per queue (a revoked communicator's). */
    public void removeContext(int context, Consumer<MatchEntry<T>> removed) {
        ContextQueue<T> q = contexts.find(context);
        if (q == null) {
            return;
        }
        List<MatchEntry<T>> all = new ArrayList<>();
        for (EntryChain<T> b : q.bins.values()) {
            for (MatchEntry<T> e = b.head; e != null; e = e.binNext) {
                all.add(e);
            }
        }
        for (MatchEntry<T> w = q.list.head; w != null; w = w.listNext) {
            all.add(w);
        }
        all.sort(java.util.Comparator.comparingLong(e -> e.seq));
        for (MatchEntry<T> e : all) {
            remove(e);
            removed.accept(e);
        }
    }

    /** Receives posted now. */
    public int size() {
        return contexts.size;
    }
}
