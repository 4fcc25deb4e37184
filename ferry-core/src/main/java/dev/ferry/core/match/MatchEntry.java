package dev.ferry.core.match;

/**
 * One entry of the matching queues: a posted receive's pattern or an arrived message's envelope,
 * with what it stands for. A pattern has a source ({@link #ANY} or a rank) and 64 match bits
 * with ignore bits, as a Portals match entry has; MPI's tag is the bits' low 32 with ANY_TAG
 * ignoring them all. Intrusive: an entry carries its own links, so queueing and unqueueing
 * allocate nothing; it sits in one queue at a time and may be reused once it left it.
 *
 * <pre>{@code
 * MatchEntry<Receive> e = new MatchEntry<>(receive);
 * posted.add(e.set(context, MatchEntry.ANY, 7));                 // MPI: any source, tag 7
 * overflow.add(me.setBits(0, rank, 0x5a00L, 0xffL));            // Portals: bits 0x5aXX from rank
 * }</pre>
 */
public final class MatchEntry<T> {
    /** A wildcard source or tag (MPI's ANY_SOURCE, ANY_TAG). */
    public static final int ANY = -1;

    private final T item;
    int context;
    int source;
    long bits;
    /** Bits of {@link #bits} a match ignores; 0 for an arrived message. */
    long ignore;
    /** Order among the entries of one queue: lower came first. */
    long seq;
    /** The chain of exact entries of one (source, bits) key this entry sits in, or null. */
    EntryChain<T> bin;
    MatchEntry<T> binPrev, binNext;
    /** The context's wildcard list (posted) or arrival-order list (unexpected) this entry sits in, or null. */
    EntryChain<T> list;
    MatchEntry<T> listPrev, listNext;

    public MatchEntry(T item) {
        this.item = item;
    }

    /** Sets an MPI envelope or pattern ({@code tag} may be {@link #ANY}); only while the entry is in no queue. */
    public MatchEntry<T> set(int context, int source, int tag) {
        return setBits(context, source, bits(tag), tag == ANY ? -1L : 0L);
    }

    /**
     * Sets a pattern of match bits: it accepts the bits {@code b} when {@code ((b ^ bits) & ~ignore) == 0};
     * an arrived message has {@code ignore} 0. Only while the entry is in no queue.
     */
    public MatchEntry<T> setBits(int context, int source, long bits, long ignore) {
        if (queued()) {
            throw new IllegalStateException("entry still queued: " + this);
        }
        this.context = context;
        this.source = source;
        this.bits = bits & ~ignore;
        this.ignore = ignore;
        return this;
    }

    /** The match bits of an MPI tag. */
    static long bits(int tag) {
        return tag & 0xffff_ffffL;
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

    /** The MPI tag, or {@link #ANY} when the pattern ignores bits. */
    public int tag() {
        return ignore != 0 ? ANY : (int) bits;
    }

    public long bits() {
        return bits;
    }

    public long ignoreBits() {
        return ignore;
    }

    /** Whether the entry sits in a queue. */
    public boolean queued() {
        return bin != null || list != null;
    }

    /** Whether this pattern accepts a message from {@code src} with bits {@code b} (contexts aside). */
    boolean accepts(int src, long b) {
        return (source == ANY || source == src) && ((b ^ bits) & ~ignore) == 0;
    }

    /** Whether this arrived message is one that pattern ({@code src}, {@code b}, {@code ign}) accepts. */
    boolean acceptedBy(int src, long b, long ign) {
        return (src == ANY || source == src) && ((b ^ bits) & ~ign) == 0;
    }

    boolean exact() {
        return source != ANY && ignore == 0;
    }

    /** Whether a posted pattern sits in a bin: it ignores no bits (its source may be ANY). */
    boolean binned() {
        return ignore == 0;
    }

    /**
     * The bin key of (source, bits), mixed by MurmurHash3's finalizer because the map's own hash
     * of a long is weak, and pairs of consecutive tags and sources clustered in its table (10 000
     * posted receives made a probe 2.5x as long). For an MPI tag the pair fits in the long, so
     * distinct pairs keep distinct keys; 64 match bits with a source may share a key, so a bin's
     * entries are checked as they are walked.
     */
    static long key(int source, long bits) {
        long k = (bits >>> 32) == 0 ? ((long) source << 32) | bits : bits ^ Long.rotateLeft(source * 0x9e3779b97f4a7c15L, 32);
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    @Override
    public String toString() {
        String match = (bits >>> 32) == 0 && (ignore == 0 || ignore == -1L) ? "tag " + (ignore != 0 ? "any" : Long.toString(bits))
                : "bits " + Long.toHexString(bits) + (ignore == 0 ? "" : " ignoring " + Long.toHexString(ignore));
        return "entry (context " + context + ", source " + (source == ANY ? "any" : source) + ", " + match + ")";
    }
}
