package dev.ferry;

import java.lang.foreign.MemorySegment;

/**
 * The collectives where ranks talk to the others directly: linear bcast, allreduce (to the root
 * and back), gather and scatter (the root posts one transfer per rank, all at once), and
 * all-to-all either at once or in pairwise steps
 * (step k: send to {@code rank + k}, receive from {@code rank - k}; one peer at a time, so no
 * rank is flooded). Blocks may have any sizes: the v and w forms use these.
 */
final class LinearAlgorithms {
    private LinearAlgorithms() {
    }

    /** Every rank tells rank 0 it arrived; rank 0, once all did, tells every rank. */
    static void barrier(Schedule s, int p, int r) {
        if (r == 0) {
            for (int j = 1; j < p; j++) {
                s.recv(j, DoublingAlgorithms.NOTHING);
            }
            s.next();
            for (int j = 1; j < p; j++) {
                s.send(j, DoublingAlgorithms.NOTHING);
            }
        } else {
            s.send(0, DoublingAlgorithms.NOTHING).recv(0, DoublingAlgorithms.NOTHING);
        }
        s.next();
    }

    /** The root receives {@code blocks[j]} from every rank j (its own copied from {@code mine} unless null: in place); the others send {@code mine}. */
    static void gather(Schedule s, int p, int r, int root, MemorySegment mine, MemorySegment[] blocks) {
        if (r == root) {
            if (mine != null) {
                s.local(Reducer.copy(mine, blocks[r]));
            }
            for (int j = 0; j < p; j++) {
                if (j != r) {
                    s.recv(j, blocks[j]);
                }
            }
        } else {
            s.send(root, mine);
        }
        s.next();
    }

    /** The root sends {@code blocks[j]} to every rank j (its own copied into {@code mine} unless null: in place); the others receive into {@code mine}. */
    static void scatter(Schedule s, int p, int r, int root, MemorySegment[] blocks, MemorySegment mine) {
        if (r == root) {
            if (mine != null) {
                s.local(Reducer.copy(blocks[r], mine));
            }
            for (int j = 0; j < p; j++) {
                if (j != r) {
                    s.send(j, blocks[j]);
                }
            }
        } else {
            s.recv(root, mine);
        }
        s.next();
    }

    /** The root sends {@code data} to every other rank at once; they receive it. */
    static void bcast(Schedule s, int p, int r, int root, MemorySegment data) {
        if (r == root) {
            for (int j = 0; j < p; j++) {
                if (j != r) {
                    s.send(j, data);
                }
            }
        } else {
            s.recv(root, data);
        }
        s.next();
    }

    /**
     * Every rank sends {@code acc} to rank 0, which folds them in rank order ({@code x0 op x1 op
     * ...}: a non-commutative operation works) and sends the result back to all.
     */
    static void allreduce(Schedule s, int p, int r, MemorySegment acc, Reducer red, long count) {
        if (r == 0) {
            MemorySegment[] in = new MemorySegment[p];
            for (int j = 1; j < p; j++) {
                in[j] = s.temp(red.bytes(count));
                s.recv(j, in[j]);
            }
            s.next();
            for (int j = 1; j < p; j++) {
                s.local(red.rightInto(acc, in[j], count));
            }
        } else {
            s.send(0, acc).next();
        }
        bcast(s, p, r, 0, acc);
    }

    /** Every transfer at once: {@code out[j]} goes to rank j, {@code in[j]} comes from it. */
    static void alltoall(Schedule s, int p, int r, MemorySegment[] out, MemorySegment[] in) {
        s.local(Reducer.copy(out[r], in[r]));
        for (int k = 1; k < p; k++) { // in pairwise order, so that ranks do not all send to rank 0 first
            int from = (r - k + p) % p;
            s.recv(from, in[from]);
        }
        for (int k = 1; k < p; k++) {
            int to = (r + k) % p;
            s.send(to, out[to]);
        }
        s.next();
    }

    /** p - 1 steps of one send and one receive each. */
    static void alltoallPairwise(Schedule s, int p, int r, MemorySegment[] out, MemorySegment[] in) {
        s.local(Reducer.copy(out[r], in[r]));
        for (int k = 1; k < p; k++) {
            int to = (r + k) % p, from = (r - k + p) % p;
            s.send(to, out[to]).recv(from, in[from]).next();
        }
    }
}
