package dev.ferry.core.match;

/**
 * One entry of the matching queues: a posted receive's pattern (source and tag may be
 * {@link #ANY}) or an arrived message's envelope, with what it stands for. Intrusive: an entry
 * carries its own links, so queueing and unqueueing allocate nothing; it sits in one queue at a
 * time and may be reused once it left it.
 *
 * <pre>{@code
 * MatchEntry<Receive> e = new MatchEntry<>(receive);
 * posted.add(e.set(context, MatchEntry.ANY, 7));
 * }</pre>
 */
public final class MatchEntry<T> {
    /** A wildcard source or tag (MPI's ANY_SOURCE, ANY_TAG). */
    public static final int ANY = -1;

    private final T item;
    int context;
    int source;
    int tag;
    /** Order among the entries of one queue: lower came first. */
    long seq;
    /** The chain of exact entries of one (source, tag) this entry sits in, or null. */
    EntryChain<T> bin;
    MatchEntry<T> binPrev, binNext;
    /** The context's wildcard list (posted) or arrival-order list (unexpected) this entry sits in, or null. */
    EntryChain<T> list;
    MatchEntry<T> listPrev, listNext;

    public MatchEntry(T item) {
        this.item = item;
    }

    /** Sets the envelope or pattern; only while the entry is in no queue. */
    public MatchEntry<T> set(int context, int source, int tag) {
        if (queued()) {
            throw new IllegalStateException("entry still queued: " + this);
        }
        this.context = context;
        this.source = source;
        this.tag = tag;
        return this;
    }

    public T item() {
        return item;
    }

    public int context() {
        return context;
    }

    public int source() {
        return source;
    }

    public int tag() {
        return tag;
    }

    /** Whether the entry sits in a queue. */
    public boolean queued() {
        return bin != null || list != null;
    }

    /** Whether this pattern accepts a message from {@code src} with {@code t} (contexts aside). */
    boolean accepts(int src, int t) {
        return (source == ANY || source == src) && (tag == ANY || tag == t);
    }

    boolean exact() {
        return source != ANY && tag != ANY;
    }

    /**
     * The bin key of (source, tag): the pair, mixed by MurmurHash3's finalizer (a bijection, so
     * distinct pairs keep distinct keys) because the map's own hash of a long is weak, and pairs
     * of consecutive tags and sources clustered in its table (10 000 posted receives made a probe
     * 2.5x as long).
     */
    static long key(int source, int tag) {
        long k = ((long) source << 32) | (tag & 0xffff_ffffL);
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    @Override
    public String toString() {
        return "entry (context " + context + ", source " + (source == ANY ? "any" : source) + ", tag " + (tag == ANY ? "any" : tag) + ")";
    }
}
