package dev.ferry;

import java.lang.foreign.MemorySegment;

/**
 * The collectives that follow a tree from or to a root: binomial broadcast, reduce, gather and
 * scatter, and the pipelined chain broadcast for long messages. Ranks are taken relative to the
 * root ({@code vr = (rank - root) mod p}); a rank's parent is {@code vr} with its lowest set bit
 * cleared, its children {@code vr + 2^k} below that bit: {@code ceil(log2 p)} rounds.
 */
final class TreeAlgorithms {
    private TreeAlgorithms() {
    }

    private static int abs(int vr, int root, int p) {
        return (vr + root) % p;
    }

    /** The lowest set bit of {@code vr}, or the power of two at or above {@code p} for the root. */
    private static int lowBit(int vr, int p) {
        return vr == 0 ? Integer.highestOneBit(Math.max(1, p - 1)) << 1 : Integer.lowestOneBit(vr);
    }

    /** Binomial broadcast of {@code data}: receive from the parent, then send to every child at once. */
    static void bcastBinomial(Schedule s, int p, int r, int root, MemorySegment data) {
        int vr = (r - root + p) % p;
        int low = lowBit(vr, p);
        if (vr != 0) {
            s.recv(abs(vr - low, root, p), data).next();
        }
        for (int mask = low >> 1; mask > 0; mask >>= 1) { // the biggest subtree first
            if (vr + mask < p) {
                s.send(abs(vr + mask, root, p), data);
            }
        }
        s.next();
    }

    /**
     * Chain broadcast in chunks: rank {@code vr} receives chunk k from {@code vr - 1} while it
     * passes chunk k - 1 on to {@code vr + 1}, so every link carries data at once.
     */
    static void bcastPipeline(Schedule s, int p, int r, int root, MemorySegment data, long chunk) {
        int vr = (r - root + p) % p;
        long n = data.byteSize();
        int chunks = (int) Math.max(1, (n + chunk - 1) / chunk);
        int prev = (r - 1 + p) % p, next = (r + 1) % p;
        for (int k = 0; k <= chunks; k++) {
            if (vr > 0 && k < chunks) {
                s.recv(prev, slice(data, k, chunk));
            }
            if (vr < p - 1 && k >= 1) {
                s.send(next, slice(data, k - 1, chunk));
            }
            s.next();
        }
    }

    private static MemorySegment slice(MemorySegment data, int k, long chunk) {
        long from = k * chunk;
        return data.asSlice(from, Math.min(chunk, data.byteSize() - from));
    }

    /**
     * Binomial reduce into {@code acc} (holding this rank's contribution; the result at the root):
     * each rank combines its children's partial results as they come, then sends to its parent. A
     * non-commutative operation runs on the tree rooted at rank 0 (each rank then holds a run of
     * consecutive ranks, combined in order) and rank 0 sends the result to the root.
     */
    static void reduceBinomial(Schedule s, int p, int r, int root, MemorySegment acc, MemorySegment result, Reducer red, long count) {
        boolean ordered = !red.op.isCommutative();
        int treeRoot = ordered ? 0 : root;
        int vr = (r - treeRoot + p) % p;
        long seg = red.segment(count); // a child's data comes in segments when large: one pooled temporary
        MemorySegment tmp = s.temp(red.bytes(Math.min(seg, count)));
        for (int mask = 1; mask < p; mask <<= 1) {
            if ((vr & mask) == 0) {
                int child = vr | mask;
                if (child < p) {
                    long at = 0;
                    do { // each segment's combining runs before the next one is received into the same temporary
                        long n = Math.min(seg, count - at);
                        MemorySegment in = red.slice(tmp, 0, n), part = red.slice(acc, at, n);
                        s.recv(abs(child, treeRoot, p), in).next();
                        s.local(ordered ? red.rightInto(part, in, n) : red.leftInto(in, part, n));
                        at += seg;
                    } while (at < count);
                }
            } else {
                long at = 0;
                do { // all at once, in order: the parent takes them one by one
                    s.send(abs(vr & ~mask, treeRoot, p), red.slice(acc, at, Math.min(seg, count - at)));
                    at += seg;
                } while (at < count);
                s.next();
                break;
            }
        }
        if (treeRoot != root) {
            if (r == treeRoot) {
                s.send(root, acc).next();
            } else if (r == root) {
                s.recv(treeRoot, result).next();
            }
        } else if (r == root && acc != result) {
            s.local(Reducer.copy(acc, result));
        }
    }

    /**
     * Binomial gather of {@code block}-byte blocks: each rank collects its subtree's blocks, in
     * relative rank order, behind its own in {@code tmp} and sends them to its parent at once; the
     * root ends with every block of relative rank j at {@code j * block} of its {@code tmp}.
     */
    static void gatherBinomial(Schedule s, int p, int r, int root, MemorySegment tmp, long block) {
        int vr = (r - root + p) % p;
        int low = lowBit(vr, p);
        for (int mask = 1; mask < low && vr + mask < p; mask <<= 1) {
            int child = vr + mask;
            int blocks = Math.min(mask, p - child);
            s.recv(abs(child, root, p), tmp.asSlice(mask * block, blocks * block));
        }
        s.next();
        if (vr != 0) {
            int mine = Math.min(low, p - vr);
            s.send(abs(vr - low, root, p), tmp.asSlice(0, mine * block)).next();
        }
    }

    /**
     * Binomial scatter, the gather reversed: the root's {@code tmp} holds the blocks in relative
     * rank order; each rank receives its subtree's blocks from its parent and passes on the
     * children's; its own block ends at the start of its {@code tmp}.
     */
    static void scatterBinomial(Schedule s, int p, int r, int root, MemorySegment tmp, long block) {
        int vr = (r - root + p) % p;
        int low = lowBit(vr, p);
        if (vr != 0) {
            int mine = Math.min(low, p - vr);
            s.recv(abs(vr - low, root, p), tmp.asSlice(0, mine * block)).next();
        }
        for (int mask = low >> 1; mask > 0; mask >>= 1) {
            int child = vr + mask;
            if (child < p) {
                s.send(abs(child, root, p), tmp.asSlice(mask * block, Math.min(mask, p - child) * block));
            }
        }
        s.next();
    }
}
