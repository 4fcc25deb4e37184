package dev.ferry.core.match;

import org.agrona.collections.Long2ObjectHashMap;

/**
 * The entries of one context in one queue: exact ones in bins by (source, bits), found by hash in
 * O(1) expected; and a list in queue order (the wildcard patterns of posted receives, or every
 * arrived message). Bins stay once made (empty ones too), so a steady exchange on the same keys
 * allocates nothing; but keys that come and go (collectives tag each call with the next number
 * of a sequence) would pile up, so when the bins outgrow a bound the empty ones are swept out,
 * and the bound doubles from what is left (amortized O(1) per new bin).
 */
final class ContextQueue<T> {
    final Long2ObjectHashMap<EntryChain<T>> bins = new Long2ObjectHashMap<>(8, 0.5f); // short probes when thousands wait
    final EntryChain<T> list = new EntryChain<>(false);

    /**
     * The bin looked up last and its (source, bits): a steady exchange asks for the same bin when a
     * receive is posted and when its message arrives, and the key's mixing and the table's probe
     * cost more than this comparison. A miss is remembered too (a wildcard receive's message looks
     * for a bin that is not there): a bin is made only by {@link #binFor}, which remembers it, and
     * dropped only by its sweep, which forgets.
     */
    private boolean lastKnown;
    private EntryChain<T> lastBin;
    private int lastSource;
    private long lastBits;

    EntryChain<T> bin(int source, long bits) {
        if (lastKnown && source == lastSource && bits == lastBits) {
            return lastBin;
        }
        EntryChain<T> b = bins.isEmpty() ? null : bins.get(MatchEntry.key(source, bits));
        remember(source, bits, b);
        return b;
    }

    private void remember(int source, long bits, EntryChain<T> b) {
        lastKnown = true;
        lastBin = b;
        lastSource = source;
        lastBits = bits;
    }

    /** Bins at which the empty ones are swept out. */
    static final int SWEEP_MIN = 64;
    private int sweepAt = SWEEP_MIN;

    EntryChain<T> binFor(int source, long bits) {
        EntryChain<T> b = bin(source, bits);
        if (b == null) {
            if (bins.size() >= sweepAt) {
                bins.values().removeIf(c -> c.size == 0); // no entry points to an empty bin: dropping it is safe
                sweepAt = Math.max(SWEEP_MIN, 2 * bins.size());
                lastKnown = false; // it may have been one of them
            }
            b = new EntryChain<>(true);
            bins.put(MatchEntry.key(source, bits), b);
            remember(source, bits, b);
        }
        return b;
    }
}
