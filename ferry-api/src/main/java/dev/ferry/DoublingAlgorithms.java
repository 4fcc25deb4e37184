package dev.ferry;

import java.lang.foreign.MemorySegment;

/**
 * The collectives that pair ranks at doubling distances: the dissemination barrier, recursive
 * doubling allreduce and allgather, Rabenseifner's allreduce (recursive halving reduce-scatter,
 * then recursive doubling allgather), Bruck's allgather, and the recursive doubling scan and
 * exscan (MPICH's). {@code ceil(log2 p)} rounds (twice that for Rabenseifner's), each a send and a
 * receive per rank.
 */
final class DoublingAlgorithms {
    /** The empty message of barriers and notices (every algorithm's). */
    static final MemorySegment NOTHING = MemorySegment.ofArray(new byte[0]);

    private DoublingAlgorithms() {
    }

    /** Round k: a message to {@code rank + 2^k} and one from {@code rank - 2^k}; after the last every rank heard from all. */
    static void barrierDissemination(Schedule s, int p, int r) {
        for (int k = 1; k < p; k <<= 1) {
            s.recv((r - k + p) % p, NOTHING).send((r + k) % p, NOTHING).next();
        }
    }

    /**
     * Recursive doubling allreduce over {@code acc} (this rank's contribution in, the result out).
     * With p not a power of two the first {@code 2 * rem} ranks fold in pairs first (the even one
     * hands its data to the odd one, and gets the result back at the end). Partners combine lower
     * ranks' data on the left, so a non-commutative operation works as well, and both partners
     * compute the same bits.
     */
    static void allreduce(Schedule s, int p, int r, MemorySegment acc, Reducer red, long count) {
        int pof2 = Integer.highestOneBit(p);
        int rem = p - pof2;
        long seg = red.segment(count); // large data is exchanged and combined a segment at a time: one pooled temporary
        MemorySegment tmp = s.temp(red.bytes(Math.min(seg, count)));
        int newRank = fold(s, r, rem, acc, tmp, red, count, seg);
        if (newRank >= 0) {
            for (int mask = 1; mask < pof2; mask <<= 1) {
                int partnerNew = newRank ^ mask;
                int partner = folded(partnerNew, rem);
                long at = 0;
                do { // a segment is combined into acc only after its own send completed (the round before)
                    long n = Math.min(seg, count - at);
                    MemorySegment in = red.slice(tmp, 0, n), part = red.slice(acc, at, n);
                    s.send(partner, part).recv(partner, in).next();
                    s.local(partner < r ? red.leftInto(in, part, n) : red.rightInto(part, in, n));
                    at += seg;
                } while (at < count);
            }
        }
        unfold(s, r, rem, acc);
    }

    /**
     * With p not a power of two, the first {@code 2 * rem} ranks fold in pairs: the even one hands
     * its data to the odd one and sits out; the data goes {@code seg} elements at a time, each
     * part combined before the next is received into {@code tmp}. The rank's number among the
     * {@code pof2} that go on, or -1.
     */
    private static int fold(Schedule s, int r, int rem, MemorySegment acc, MemorySegment tmp, Reducer red, long count, long seg) {
        if (r >= 2 * rem) {
            return r - rem;
        }
        long at = 0;
        do {
            long n = Math.min(seg, count - at);
            if (r % 2 == 0) {
                s.send(r + 1, red.slice(acc, at, n));
            } else {
                MemorySegment in = red.slice(tmp, 0, n);
                s.recv(r - 1, in).next();
                s.local(red.leftInto(in, red.slice(acc, at, n), n));
            }
            at += seg;
        } while (at < count);
        if (r % 2 == 0) {
            s.next();
            return -1;
        }
        return r / 2;
    }

    /** The communicator rank of number {@code newRank} among those that go on after {@link #fold}. */
    private static int folded(int newRank, int rem) {
        return newRank < rem ? newRank * 2 + 1 : newRank + rem;
    }

    /** The odd rank of a folded pair hands the result back to the even one. */
    private static void unfold(Schedule s, int r, int rem, MemorySegment acc) {
        if (r < 2 * rem) {
            if (r % 2 == 1) {
                s.send(r - 1, acc);
            } else {
                s.recv(r + 1, acc);
            }
            s.next();
        }
    }

    /**
     * Recursive doubling allgather for p a power of two: {@code all} holds block j at
     * {@code j * block}, this rank's in place; at distance {@code mask} a rank swaps the run of
     * {@code mask} blocks it has for its partner's.
     */
    static void allgather(Schedule s, int p, int r, MemorySegment all, long block) {
        for (int mask = 1; mask < p; mask <<= 1) {
            int partner = r ^ mask;
            long mine = (r & ~(mask - 1)) * block, theirs = (partner & ~(mask - 1)) * block;
            s.send(partner, all.asSlice(mine, mask * block)).recv(partner, all.asSlice(theirs, mask * block)).next();
        }
    }

    /**
     * Rabenseifner's allreduce over {@code acc} (MPICH's reduce_scatter_allgather), for long
     * messages: the data is split into {@code pof2} chunks; recursive halving (distance 1, 2, 4,
     * ...) leaves each rank holding one chunk reduced over all, exchanging half of what it holds at
     * each step, then recursive doubling gathers the chunks back (distances in reverse). Each rank
     * sends about {@code 2 (p - 1) / p} of the data in {@code 2 log2 p} steps, where recursive
     * doubling sends all of it {@code log2 p} times. With p not a power of two the first
     * {@code 2 * rem} ranks fold in pairs first, as in {@link #allreduce}. A chunk's partial
     * results always cover a run of consecutive ranks, and the lower run goes on the left.
     */
    static void allreduceRabenseifner(Schedule s, int p, int r, MemorySegment acc, Reducer red, long count) {
        int pof2 = Integer.highestOneBit(p);
        int rem = p - pof2;
        MemorySegment tmp = s.temp(red.bytes(count));
        int newRank = fold(s, r, rem, acc, tmp, red, count, Math.max(1, count)); // whole: its tmp holds all the data
        if (newRank >= 0) {
            long[] starts = new long[pof2 + 1], counts = new long[pof2];
            RingAlgorithms.split(count, starts, counts);
            starts[pof2] = count;
            int sendIdx = 0, recvIdx = 0, lastIdx = pof2, mask = 1;
            for (; mask < pof2; mask <<= 1) { // reduce-scatter by recursive halving
                int partnerNew = newRank ^ mask;
                int partner = folded(partnerNew, rem);
                int sendFrom, sendTo, recvFrom, recvTo;
                if (newRank < partnerNew) {
                    sendIdx = recvIdx + pof2 / (mask * 2);
                    sendFrom = sendIdx;
                    sendTo = lastIdx;
                    recvFrom = recvIdx;
                    recvTo = sendIdx;
                } else {
                    recvIdx = sendIdx + pof2 / (mask * 2);
                    sendFrom = sendIdx;
                    sendTo = recvIdx;
                    recvFrom = recvIdx;
                    recvTo = lastIdx;
                }
                long n = starts[recvTo] - starts[recvFrom];
                MemorySegment in = elements(tmp, red, starts[recvFrom], n);
                MemorySegment into = elements(acc, red, starts[recvFrom], n);
                s.send(partner, elements(acc, red, starts[sendFrom], starts[sendTo] - starts[sendFrom])).recv(partner, in).next();
                s.local(partner < r ? red.leftInto(in, into, n) : red.rightInto(into, in, n));
                sendIdx = recvIdx;
                if (mask * 2 < pof2) {
                    lastIdx = recvIdx + pof2 / (mask * 2);
                }
            }
            for (mask >>= 1; mask > 0; mask >>= 1) { // allgather by recursive doubling
                int partnerNew = newRank ^ mask;
                int partner = folded(partnerNew, rem);
                int sendFrom, sendTo, recvFrom, recvTo;
                if (newRank < partnerNew) {
                    if (mask != pof2 / 2) {
                        lastIdx += pof2 / (mask * 2);
                    }
                    recvIdx = sendIdx + pof2 / (mask * 2);
                    sendFrom = sendIdx;
                    sendTo = recvIdx;
                    recvFrom = recvIdx;
                    recvTo = lastIdx;
                } else {
                    recvIdx = sendIdx - pof2 / (mask * 2);
                    sendFrom = sendIdx;
                    sendTo = lastIdx;
                    recvFrom = recvIdx;
                    recvTo = sendIdx;
                }
                s.send(partner, elements(acc, red, starts[sendFrom], starts[sendTo] - starts[sendFrom]))
                        .recv(partner, elements(acc, red, starts[recvFrom], starts[recvTo] - starts[recvFrom])).next();
                if (newRank > partnerNew) {
                    sendIdx = recvIdx;
                }
            }
        }
        unfold(s, r, rem, acc);
    }

    private static MemorySegment elements(MemorySegment data, Reducer red, long from, long n) {
        return data.asSlice(red.bytes(from), red.bytes(n));
    }

    /**
     * Bruck's allgather, for any number of ranks: {@code ceil(log2 p)} rounds. A temporary holds
     * the blocks rotated so that this rank's comes first; at distance d a rank sends its first
     * {@code min(d, p - d)} blocks to {@code rank - d} and receives as many from {@code rank + d}
     * behind them, so that block i of the temporary is rank {@code rank + i}'s; at the end they
     * are copied into place in {@code all} (block j at {@code j * block}, this rank's given).
     */
    static void allgatherBruck(Schedule s, int p, int r, MemorySegment all, long block) {
        MemorySegment tmp = s.temp(p * block);
        s.local(() -> MemorySegment.copy(all, r * block, tmp, 0, block));
        for (int d = 1; d < p; d <<= 1) {
            int n = Math.min(d, p - d);
            s.send((r - d + p) % p, tmp.asSlice(0, n * block)).recv((r + d) % p, tmp.asSlice(d * block, n * block)).next();
        }
        s.local(() -> {
            MemorySegment.copy(tmp, 0, all, r * block, (p - r) * block); // blocks of ranks r .. p - 1
            MemorySegment.copy(tmp, (p - r) * block, all, 0, r * block); // then 0 .. r - 1
        });
    }

    /**
     * Inclusive ({@code exclusive} false) or exclusive prefix reduction: {@code partial} holds the
     * reduction of the ranks this one has heard from so far (its own contribution at the start),
     * {@code result} the reduction of the lower ones among them (with its own for a scan). At
     * distance {@code mask} partners swap partials; data from a lower rank goes on the left. For
     * an exscan rank 0's result is left as it was (MPI leaves it undefined).
     */
    static void scan(Schedule s, int p, int r, MemorySegment partial, MemorySegment result, Reducer red, long count, boolean exclusive) {
        MemorySegment tmp = s.temp(red.bytes(count));
        boolean haveLower = false;
        if (!exclusive && partial != result) {
            s.local(Reducer.copy(partial, result));
        }
        for (int mask = 1; mask < p; mask <<= 1) {
            int partner = r ^ mask;
            if (partner >= p) {
                continue;
            }
            s.send(partner, partial).recv(partner, tmp).next();
            if (partner < r) {
                if (exclusive && !haveLower) {
                    s.local(Reducer.copy(tmp, result));
                } else {
                    s.local(red.leftInto(tmp, result, count));
                }
                haveLower = true;
                s.local(red.leftInto(tmp, partial, count));
            } else {
                s.local(red.rightInto(partial, tmp, count));
            }
        }
    }
}
