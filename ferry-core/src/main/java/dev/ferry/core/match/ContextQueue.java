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

    EntryChain<T> bin(int source, long bits) {
        return bins.get(MatchEntry.key(source, bits));
    }

    /** Bins at which the empty ones are swept out. */
    static final int SWEEP_MIN = 64;
    private int sweepAt = SWEEP_MIN;

    EntryChain<T> binFor(int source, long bits) {
        long k = MatchEntry.key(source, bits);
        EntryChain<T> b = bins.get(k);
        if (b == null) {
            if (bins.size() >= sweepAt) {
                bins.values().removeIf(c -> c.size == 0); // no entry points to an empty bin: dropping it is safe
                sweepAt = Math.max(SWEEP_MIN, 2 * bins.size());
            }
            b = new EntryChain<>(true);
            bins.put(k, b);
        }
        return b;
    }
}
