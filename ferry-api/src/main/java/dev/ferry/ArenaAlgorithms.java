package dev.ferry;

import java.lang.foreign.MemorySegment;

/**
 * Collectives among the ranks of one node through their {@link NodeArena} slots: data is copied
 * into one's own slot once, then read in place by the others. The rounds between the steps are
 * empty messages (dissemination barriers, or the bcast's one-way notices), which also order the
 * memory (a slot's writes happen before the message that says they are done); the last round
 * keeps the slots of one collective from being overwritten by the next while a slower member
 * still reads them.
 */
final class ArenaAlgorithms {
    private ArenaAlgorithms() {
    }

    /**
     * Allreduce: every rank copies its data to the first half of its slot; rank r then reduces
     * chunk r over all ranks, reading their slots, into the second half of its own, folding from
     * the right ({@code x0 op (x1 op (... op x(p-1)))}, rank order kept, so non-commutative
     * operations work); then every rank copies every chunk from its owner's slot.
     */
    static void allreduce(Schedule s, int p, int r, MemorySegment[] slots, MemorySegment input, MemorySegment output,
                          Reducer red, long count) {
        s.local(reduceChunks(s, p, r, slots, input, red, count, output));
        DoublingAlgorithms.barrierDissemination(s, p, r);
    }

    /**
     * Reduce to {@code root}: as {@link #allreduce}, but the root alone copies the chunks out. No
     * last barrier: the others write their slots again only where the root does not read (a first
     * half), or after a later barrier the root must pass first.
     */
    static void reduce(Schedule s, int p, int r, int root, MemorySegment[] slots, MemorySegment input, MemorySegment output,
                       Reducer red, long count) {
        Runnable copyOut = reduceChunks(s, p, r, slots, input, red, count, output);
        if (r == root) {
            s.local(copyOut);
        }
    }

    /**
     * The common part of {@link #allreduce} and {@link #reduce}: the data into the first half of
     * this rank's slot, a barrier, this rank's chunk reduced into the second half, a barrier.
     * Answers the step that copies every reduced chunk into {@code output}.
     */
    private static Runnable reduceChunks(Schedule s, int p, int r, MemorySegment[] slots, MemorySegment input, Reducer red, long count,
                                         MemorySegment output) {
        long n = red.bytes(count);
        long[] starts = new long[p], counts = new long[p];
        RingAlgorithms.split(count, starts, counts);
        s.local(Reducer.copy(input, slots[r].asSlice(0, n)));
        DoublingAlgorithms.barrierDissemination(s, p, r);
        long off = red.bytes(starts[r]), len = red.bytes(counts[r]);
        long mine = counts[r];
        s.local(() -> {
            MemorySegment acc = slots[r].asSlice(n + off, len);
            MemorySegment.copy(slots[p - 1], off, acc, 0, len);
            for (int j = p - 2; j >= 0; j--) {
                red.op.apply(slots[j].asSlice(off, len), acc, mine, red.type);
            }
        });
        DoublingAlgorithms.barrierDissemination(s, p, r);
        return () -> {
            for (int j = 0; j < p; j++) {
                long o = red.bytes(starts[j]);
                MemorySegment.copy(slots[j], n + o, output, o, red.bytes(counts[j]));
            }
        };
    }

    /**
     * Bcast: the root copies the data into its slot and tells every other rank, chunk by chunk;
     * each copies the chunks out as their words come and tells the root, which waits for all of
     * them before it leaves (its slot is free again). One-way words only, where barriers would take
     * two dissemination rounds each: the others write their own slots next, which nobody reads,
     * and read another's only after its owner says so. (Within a node-aware bcast; a bcast of its own leaves the root at once,
     * {@link #bcastRoot}.)
     */
    static void bcast(Schedule s, int p, int r, int root, MemorySegment[] slots, MemorySegment data) {
        if (r == root) {
            bcastRoot(s, p, r, slots, data);
            copiedOut(s, p, r);
        } else {
            bcastLeaf(s, root, slots, data);
        }
    }

    /**
     * The root's part of a bcast: the data into its slot chunk by chunk
     * ({@link CollectiveTuning#BCAST_ARENA_CHUNK}), with a word to every other rank after each, so
     * that they copy one chunk out while it copies the next in. Its buffer is free once the last
     * copy is done, so it may leave then, as an eager send's sender does; the others' word that
     * they have copied out ({@link #copiedOut}) is awaited before it next writes its slot
     * ({@link NodeArena#settle}).
     */
    static void bcastRoot(Schedule s, int p, int r, MemorySegment[] slots, MemorySegment data) {
        long n = data.byteSize();
        for (long at = 0; at == 0 || at < n; at += CollectiveTuning.BCAST_ARENA_CHUNK) {
            long len = Math.min(CollectiveTuning.BCAST_ARENA_CHUNK, n - at);
            s.local(Reducer.copy(data.asSlice(at, len), slots[r].asSlice(at, len)));
            for (int j = 0; j < p; j++) {
                if (j != r) {
                    s.send(j, DoublingAlgorithms.NOTHING);
                }
            }
            s.next();
        }
    }

    /** The root's receipt of every other rank's word that it has copied the data out of the root's slot. */
    static void copiedOut(Schedule s, int p, int r) {
        for (int j = 0; j < p; j++) {
            if (j != r) {
                s.recv(j, DoublingAlgorithms.NOTHING);
            }
        }
        s.next();
    }

    /**
     * A non-root rank's part of a bcast: for each chunk, the root's word, then the copy out of its
     * slot (in the round that awaits the next word); a word back once all is copied.
     */
    static void bcastLeaf(Schedule s, int root, MemorySegment[] slots, MemorySegment data) {
        long n = data.byteSize();
        for (long at = 0; at == 0 || at < n; at += CollectiveTuning.BCAST_ARENA_CHUNK) {
            long from = at, len = Math.min(CollectiveTuning.BCAST_ARENA_CHUNK, n - at);
            s.recv(root, DoublingAlgorithms.NOTHING).next();
            s.local(() -> MemorySegment.copy(slots[root], from, data, from, len));
        }
        s.send(root, DoublingAlgorithms.NOTHING).next();
    }
}
