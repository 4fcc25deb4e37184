package dev.ferry;

import java.lang.foreign.MemorySegment;

/**
 * The collectives that pair ranks at doubling distances: the dissemination barrier, recursive
 * doubling allreduce and allgather, and the recursive doubling scan and exscan (MPICH's).
 * {@code ceil(log2 p)} rounds, each a send and a receive per rank.
 */
final class DoublingAlgorithms {
    private static final MemorySegment NOTHING = MemorySegment.ofArray(new byte[0]);

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
    static void allreduce(Schedule s, int p, int r, MemorySegment acc, Reducer red, int count) {
        int pof2 = Integer.highestOneBit(p);
        int rem = p - pof2;
        MemorySegment tmp = s.temp(red.bytes(count));
        int newRank;
        if (r < 2 * rem) {
            if (r % 2 == 0) {
                s.send(r + 1, acc).next();
                newRank = -1;
            } else {
                s.recv(r - 1, tmp).next();
                s.local(red.leftInto(tmp, acc, count));
                newRank = r / 2;
            }
        } else {
            newRank = r - rem;
        }
        if (newRank >= 0) {
            for (int mask = 1; mask < pof2; mask <<= 1) {
                int partnerNew = newRank ^ mask;
                int partner = partnerNew < rem ? partnerNew * 2 + 1 : partnerNew + rem;
                s.send(partner, acc).recv(partner, tmp).next();
                s.local(partner < r ? red.leftInto(tmp, acc, count) : red.rightInto(acc, tmp, count));
            }
        }
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
     * Inclusive ({@code exclusive} false) or exclusive prefix reduction: {@code partial} holds the
     * reduction of the ranks this one has heard from so far (its own contribution at the start),
     * {@code result} the reduction of the lower ones among them (with its own for a scan). At
     * distance {@code mask} partners swap partials; data from a lower rank goes on the left. For
     * an exscan rank 0's result is left as it was (MPI leaves it undefined).
     */
    static void scan(Schedule s, int p, int r, MemorySegment partial, MemorySegment result, Reducer red, int count, boolean exclusive) {
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
