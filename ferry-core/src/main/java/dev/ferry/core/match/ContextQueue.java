package dev.ferry.core.match;

import org.agrona.collections.Long2ObjectHashMap;

/**
 * The entries of one context in one queue: exact ones in bins by (source, tag), found by hash in
 * O(1) expected; and a list in queue order (the wildcard patterns of posted receives, or every
 * arrived message). Bins stay once made (empty ones too), so a steady exchange on the same keys
 * allocates nothing.
 */
final class ContextQueue<T> {
    final Long2ObjectHashMap<EntryChain<T>> bins = new Long2ObjectHashMap<>(8, 0.5f); // short probes when thousands wait
    final EntryChain<T> list = new EntryChain<>(false);

    EntryChain<T> bin(int source, int tag) {
        return bins.get(MatchEntry.key(source, tag));
    }

    EntryChain<T> binFor(int source, int tag) {
        long k = MatchEntry.key(source, tag);
        EntryChain<T> b = bins.get(k);
        if (b == null) {
            b = new EntryChain<>(true);
            bins.put(k, b);
        }
        return b;
    }
}
