package dev.ferry.core.match;

/**
 * Messages that arrived before a receive asked for them, in arrival order, as MPI matches them
 * (and Portals' unexpected headers): a new receive takes the earliest one its pattern accepts.
 * Each message sits in its context's arrival list and in a hash bin by (source, bits), so an
 * exact pattern finds its message in O(1) expected however many wait; a wildcard one walks the
 * arrival list. One thread of control uses it.
 *
 * <pre>{@code
 * unexpected.add(entry.set(context, source, tag));
 * MatchEntry<Kept> e = unexpected.take(context, MatchEntry.ANY, tag);   // null: post the receive
 * }</pre>
 */
public final class UnexpectedMessages<T> {
    private final ContextQueues<T> contexts = new ContextQueues<>();

    /** Queues an arrived message (exact source and tag) behind those that came before it. */
    public void add(MatchEntry<T> e) {
        if (e.queued()) {
            throw new IllegalStateException("entry already queued: " + e);
        }
        if (!e.exact()) {
            throw new IllegalArgumentException("an arrived message has an exact source and tag: " + e);
        }
        ContextQueue<T> q = contexts.of(e.context);
        e.seq = ++contexts.seq;
        q.binFor(e.source, e.bits).add(e);
        q.list.add(e);
        contexts.size++;
    }

    /** The earliest message a receive of {@code context} for {@code source} and {@code tag} (either may be ANY) accepts, left queued; or null. */
    public MatchEntry<T> find(int context, int source, int tag) {
        return find(context, source, MatchEntry.bits(tag), tag == MatchEntry.ANY ? -1L : 0L, null);
    }

    /**
     * The earliest message of {@code context} that the pattern ({@code source}, which may be ANY;
     * {@code bits} with {@code ignore} bits) accepts and {@code eligible} (null: any) lets it take,
     * left queued; or null.
     */
    public MatchEntry<T> find(int context, int source, long bits, long ignore, Eligibility<T> eligible) {
        if (contexts.size == 0) {
            return null;
        }
        ContextQueue<T> q = contexts.find(context);
        if (q == null) {
            return null;
        }
        if (source != MatchEntry.ANY && ignore == 0) {
            EntryChain<T> b = q.bin(source, bits);
            return b == null ? null : next(b.head, true, source, bits, ignore, eligible);
        }
        return next(q.list.head, false, source, bits, ignore, eligible);
    }

    /**
     * The next message after {@code after} (still queued, found by {@link #find} with the same
     * pattern) that the pattern accepts and {@code eligible} lets it take; or null. To walk every
     * match, as a Portals search does.
     */
    public MatchEntry<T> findAfter(MatchEntry<T> after, int source, long bits, long ignore, Eligibility<T> eligible) {
        boolean inBin = source != MatchEntry.ANY && ignore == 0;
        return next(inBin ? after.binNext : after.listNext, inBin, source, bits, ignore, eligible);
    }

    private MatchEntry<T> next(MatchEntry<T> from, boolean inBin, int source, long bits, long ignore, Eligibility<T> eligible) {
        for (MatchEntry<T> e = from; e != null; e = inBin ? e.binNext : e.listNext) {
            if (e.acceptedBy(source, bits & ~ignore, ignore) && (eligible == null || eligible.eligible(e.item()))) {
                return e;
            }
        }
        return null;
    }

    /** {@link #find} and take it out of the queue. */
    public MatchEntry<T> take(int context, int source, int tag) {
        MatchEntry<T> e = find(context, source, tag);
        if (e != null) {
            remove(e);
        }
        return e;
    }

    /** Takes a message out of the queue (a matched probe's). */
    public void remove(MatchEntry<T> e) {
        if (e.bin == null) {
            throw new IllegalStateException("not queued: " + e);
        }
        e.bin.remove(e);
        e.list.remove(e);
        contexts.size--;
    }

    /** Takes every message of {@code context} out of the queue, in arrival order (its communicator was freed, its list cleared). */
    public void removeContext(int context, java.util.function.Consumer<MatchEntry<T>> removed) {
        ContextQueue<T> q = contexts.remove(context);
        if (q == null) {
            return;
        }
        for (MatchEntry<T> e = q.list.head; e != null; ) {
            MatchEntry<T> next = e.listNext;
            e.bin.remove(e);
            q.list.remove(e);
            contexts.size--;
            removed.accept(e);
            e = next;
        }
    }

    /** Messages waiting now. */
    public int size() {
        return contexts.size;
    }
}
