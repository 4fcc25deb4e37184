package dev.ferry;

import java.lang.foreign.MemorySegment;

/**
 * The collectives that pass blocks around the ring of ranks, p - 1 steps each sending one block to
 * {@code rank + 1} and receiving one from {@code rank - 1}: every link busy at every step, every
 * byte crossing each link once, the choice for long messages. Reduce-scatter combines as it goes
 * (for commutative operations: a block meets the ranks in ring order); allgather passes finished
 * blocks on; allreduce is the two in turn.
 */
final class RingAlgorithms {
    private RingAlgorithms() {
    }

    /**
     * Ring reduce-scatter over {@code data}, split into p chunks of {@code counts[c]} elements at
     * element {@code starts[c]}: at step k a rank sends chunk {@code rank - k - 1} and combines
     * into chunk {@code rank - k - 2} what it receives, so that after p - 1 steps it holds chunk
     * {@code rank} reduced over all ranks.
     */
    static void reduceScatter(Schedule s, int p, int r, MemorySegment data, long[] starts, long[] counts, Reducer red) {
        long max = 0;
        for (long c : counts) {
            max = Math.max(max, c);
        }
        MemorySegment tmp = s.temp(red.bytes(max));
        int next = (r + 1) % p, prev = (r - 1 + p) % p;
        for (int k = 0; k < p - 1; k++) {
            int out = Math.floorMod(r - k - 1, p), in = Math.floorMod(r - k - 2, p);
            MemorySegment into = tmp.asSlice(0, red.bytes(counts[in]));
            s.send(next, chunk(data, red, starts, counts, out)).recv(prev, into).next();
            s.local(red.leftInto(into, chunk(data, red, starts, counts, in), counts[in]));
        }
    }

    private static MemorySegment chunk(MemorySegment data, Reducer red, long[] starts, long[] counts, int c) {
        return data.asSlice(red.bytes(starts[c]), red.bytes(counts[c]));
    }

    /**
     * Ring allgather of p blocks (any sizes, anywhere: {@code blocks[j]} is rank j's, this rank's
     * already in place): at step k a rank passes on block {@code rank - k} and receives block
     * {@code rank - k - 1}.
     */
    static void allgather(Schedule s, int p, int r, MemorySegment[] blocks) {
        int next = (r + 1) % p, prev = (r - 1 + p) % p;
        for (int k = 0; k < p - 1; k++) {
            s.send(next, blocks[Math.floorMod(r - k, p)]).recv(prev, blocks[Math.floorMod(r - k - 1, p)]).next();
        }
    }

    /** Ring allreduce of {@code count} elements in {@code data}: reduce-scatter, then allgather of the reduced chunks. */
    static void allreduce(Schedule s, int p, int r, MemorySegment data, Reducer red, long count) {
        long[] starts = new long[p], counts = new long[p];
        split(count, starts, counts);
        reduceScatter(s, p, r, data, starts, counts, red);
        MemorySegment[] blocks = new MemorySegment[p];
        for (int c = 0; c < p; c++) {
            blocks[c] = chunk(data, red, starts, counts, c);
        }
        allgather(s, p, r, blocks);
    }

    /** Splits {@code count} elements into {@code counts.length} near-equal runs. */
    static void split(long count, long[] starts, long[] counts) {
        int p = counts.length;
        long base = count / p, extra = count % p, at = 0;
        for (int c = 0; c < p; c++) {
            starts[c] = at;
            counts[c] = base + (c < extra ? 1 : 0);
            at += counts[c];
        }
    }
}
