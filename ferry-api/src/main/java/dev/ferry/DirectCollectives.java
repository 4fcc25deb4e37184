package dev.ferry;

import java.lang.foreign.MemorySegment;

/**
 * Small blocking collectives run straight in the caller's thread: the same exchanges as their
 * schedules ({@link DoublingAlgorithms#allreduce}, {@link TreeAlgorithms#bcastBinomial}, or the
 * linear forms of {@link LinearAlgorithms} on a crowded node), posted
 * and awaited one step after another, with no schedule, no collective request and no progress
 * pass between steps; for the few microseconds an 8-byte collective takes, those cost as much as
 * the messages. Only for (allreduce) commutative operations, where the result is the same to the
 * bit as the schedule's: each step combines {@code received op mine}. Every transfer carries the
 * one tag {@link #TAG} rather than a number of the collectives' sequence: a blocking collective
 * starts only once this rank's previous one ended, and messages between two ranks keep their
 * order, so consecutive calls cannot take each other's messages; and a fixed key leaves no
 * matching bin behind per call. Non-contiguous data is packed first (the choice of this path
 * must not depend on a rank's own datatype layout).
 * A member's death fails the call (checked while it waits), as it fails a scheduled collective.
 *
 * <pre>{@code
 * direct.allreduce(input, result, op, type, count, false, "allreduce (recursive_doubling)");
 * }</pre>
 */
final class DirectCollectives {
    /** Largest collective (bytes) taken this way; beyond, the transfers dominate and the schedules' pipelining matters. */
    static final long MAX_BYTES = 4096;
    /** The tag of every transfer (on the communicator's internal context; the sequence numbers are never negative). */
    static final int TAG = -2;
    /** How often a wait looks whether a member died (a live partner that gave up never sends). */
    private static final long DEATH_CHECK_NANOS = 10_000_000;

    private final Comm comm;
    private final Messaging messaging;
    private final TempPool pool;

    DirectCollectives(Comm comm, Messaging messaging, TempPool pool) {
        this.comm = comm;
        this.messaging = messaging;
        this.pool = pool;
    }

    /**
     * The calling thread's scratch, taken for the whole collective (its one send and one receive
     * request are reused: no garbage), or null when a blocking call of this thread holds it already.
     */
    private Scratch take() {
        Scratch s = messaging.scratch();
        if (s.sendBusy || s.recvBusy) {
            return null;
        }
        s.sendBusy = true;
        s.recvBusy = true;
        return s;
    }

    private static void give(Scratch s) {
        if (s != null) {
            s.sendBusy = false;
            s.recvBusy = false;
        }
    }

    /**
     * Recursive doubling, folding the ranks beyond the largest power of two in first and out last:
     * {@code result} (laid out as {@code type}) gets the reduction of every rank's {@code input}
     * (the same memory for IN_PLACE). Or, {@code linear}, for a node running more ranks than it
     * has cores, where a tree's inner ranks must each be scheduled in turn: every rank sends its
     * input to rank 0, which combines them in rank order ({@code x_j op acc}) and sends the
     * result to all.
     */
    void allreduce(MemorySegment input, MemorySegment result, Op op, Datatype type, long count, boolean linear, String what) {
        checkMembers(what);
        int p = comm.size(), r = comm.rank();
        int tag = TAG;
        long bytes = (long) count * type.size;
        Scratch s = take();
        // the thread's own memory when its scratch is free (no pool traffic); a nested call takes the pool's
        MemorySegment block = s != null && 2 * bytes <= Scratch.SMALL_BYTES ? null : pool.take(2 * bytes);
        try {
            MemorySegment tmp = block == null ? s.small(bytes) : block.asSlice(0, bytes);
            MemorySegment acc;
            if (type.contiguous) {
                acc = result;
                if (!input.equals(result)) {
                    MemorySegment.copy(input, 0, result, 0, bytes);
                }
            } else {
                acc = block == null ? s.small(2 * bytes).asSlice(bytes, bytes) : block.asSlice(bytes, bytes);
                CollBuffer.pack(input, count, type, acc);
            }
            if (linear) {
                if (r == 0) {
                    for (int j = 1; j < p; j++) {
                        await(comm.collectiveRecv(tmp, j, tag, s), what); // in rank order: the same bits every run
                        op.apply(tmp, acc, count, type);
                    }
                    for (int j = 1; j < p; j++) {
                        sent(comm.collectiveSend(acc, j, tag, s), s, what);
                    }
                } else {
                    sent(comm.collectiveSend(acc, 0, tag, s), s, what);
                    await(comm.collectiveRecv(acc, 0, tag, s), what);
                }
            } else {
                recursiveDoubling(acc, tmp, op, type, count, s, what);
            }
            if (!type.contiguous) {
                CollBuffer.unpack(acc, result, count, type);
            }
        } finally {
            give(s);
            if (block != null) {
                pool.give(block);
            }
        }
    }

    /** Recursive doubling's exchanges over {@code acc} ({@code tmp}: what a partner sends). */
    private void recursiveDoubling(MemorySegment acc, MemorySegment tmp, Op op, Datatype type, long count, Scratch s, String what) {
        int p = comm.size(), r = comm.rank();
        int tag = TAG;
        int pof2 = Integer.highestOneBit(p);
        int rem = p - pof2;
        int newRank;
        if (r < 2 * rem) {
            if (r % 2 == 0) {
                sent(comm.collectiveSend(acc, r + 1, tag, s), s, what);
                newRank = -1;
            } else {
                await(comm.collectiveRecv(tmp, r - 1, tag, s), what);
                op.apply(tmp, acc, count, type);
                newRank = r / 2;
            }
        } else {
            newRank = r - rem;
        }
        if (newRank >= 0) {
            for (int mask = 1; mask < pof2; mask <<= 1) {
                int partnerNew = newRank ^ mask;
                int partner = partnerNew < rem ? partnerNew * 2 + 1 : partnerNew + rem;
                Request in = comm.collectiveRecv(tmp, partner, tag, s);
                Request out = comm.collectiveSend(acc, partner, tag, s);
                await(in, what);
                sent(out, s, what);
                op.apply(tmp, acc, count, type);
            }
        }
        if (r < 2 * rem) {
            if (r % 2 == 1) {
                sent(comm.collectiveSend(acc, r - 1, tag, s), s, what);
            } else {
                await(comm.collectiveRecv(acc, r + 1, tag, s), what);
            }
        }
    }

    /**
     * Binomial tree from {@code root}: receive from the parent, then send to each child, largest
     * subtree first; or, {@code linear} (see {@link #allreduceLinear}), the root sends to every
     * other rank itself.
     */
    void bcast(MemorySegment buffer, long count, Datatype type, int root, boolean linear, String what) {
        checkMembers(what);
        int p = comm.size(), r = comm.rank();
        int tag = TAG;
        int vr = back(r, root, p);
        long bytes = (long) count * type.size;
        MemorySegment block = type.contiguous ? null : pool.take(bytes);
        MemorySegment data = type.contiguous ? buffer : block.asSlice(0, bytes);
        if (!type.contiguous && r == root) {
            CollBuffer.pack(buffer, count, type, data);
        }
        Scratch s = take();
        try {
            if (linear) {
                for (int j = 0; j < p; j++) {
                    if (r == root && j != r) {
                        sent(comm.collectiveSend(data, j, tag, s), s, what);
                    }
                }
                if (r != root) {
                    await(comm.collectiveRecv(data, root, tag, s), what);
                }
            } else {
                int mask = 1;
                while (mask < p) {
                    if ((vr & mask) != 0) {
                        await(comm.collectiveRecv(data, back(r, mask, p), tag, s), what);
                        break;
                    }
                    mask <<= 1;
                }
                for (mask >>= 1; mask > 0; mask >>= 1) {
                    if (vr + mask < p) {
                        sent(comm.collectiveSend(data, ahead(r, mask, p), tag, s), s, what);
                    }
                }
            }
            if (!type.contiguous && r != root) {
                CollBuffer.unpack(data, buffer, count, type);
            }
        } finally {
            give(s);
            if (block != null) {
                pool.give(block);
            }
        }
    }

    /**
     * The dissemination barrier ({@link DoublingAlgorithms#barrierDissemination}: round k, an
     * empty message to rank + 2^k and one from rank - 2^k); or, {@code linear}, every rank tells
     * rank 0, which then answers each ({@link LinearAlgorithms#barrier}). With the one tag, a
     * round's receive cannot take another round's message: rank - 2^k sends to this rank in round
     * k only.
     */
    void barrier(boolean linear, String what) {
        checkMembers(what);
        int p = comm.size(), r = comm.rank();
        MemorySegment none = DoublingAlgorithms.NOTHING;
        Scratch s = take();
        try {
            if (linear && r == 0) {
                for (int j = 1; j < p; j++) {
                    await(comm.collectiveRecv(none, j, TAG, s), what);
                }
                for (int j = 1; j < p; j++) {
                    sent(comm.collectiveSend(none, j, TAG, s), s, what);
                }
            } else if (linear) {
                sent(comm.collectiveSend(none, 0, TAG, s), s, what);
                await(comm.collectiveRecv(none, 0, TAG, s), what);
            } else {
                for (int k = 1; k < p; k <<= 1) {
                    Request in = comm.collectiveRecv(none, back(r, k, p), TAG, s);
                    sent(comm.collectiveSend(none, ahead(r, k, p), TAG, s), s, what);
                    await(in, what);
                }
            }
        } finally {
            give(s);
        }
    }

    /**
     * A member known dead fails the collective before it starts, as it fails a scheduled one: a
     * linear exchange may not touch that member, but the collective still involves it.
     */
    private void checkMembers(String what) {
        String dead = messaging.deadMember(comm);
        if (dead != null) {
            throw new FerryException(ErrorClass.PROC_FAILED, what + " on " + comm + " failed: " + dead);
        }
    }

    /** {@code (r - k) mod p} for {@code 0 <= r, k < p}, without a division: a few ns of an 8-byte collective's few hundred. */
    private static int back(int r, int k, int p) {
        return r >= k ? r - k : r - k + p;
    }

    /** {@code (r + k) mod p} for {@code 0 <= r, k < p}, likewise. */
    private static int ahead(int r, int k, int p) {
        return r + k < p ? r + k : r + k - p;
    }

    /** Waits for send {@code q} unless it left in the engine's call, as a blocking send does (small: eager, mostly complete at once). */
    private void sent(Request q, Scratch s, String what) {
        if (s == null || !s.sentAtOnce(q)) {
            await(q, what);
        }
    }

    /** Waits for {@code q}; a failed transfer, or a member's death seen while waiting, is an error naming the collective. */
    private void await(Request q, String what) {
        while (!q.awaitFor(DEATH_CHECK_NANOS)) {
            String dead = messaging.deadMember(comm);
            if (dead != null) {
                q.cancel(); // a receive: nothing lands in the program's buffer after the failure
                throw new FerryException(ErrorClass.PROC_FAILED, what + " on " + comm + " failed: " + dead);
            }
        }
        Status s = q.current();
        if (s.error() != null) {
            throw new FerryException(s.error(), what + " on " + comm + " failed: " + s.failure(), s);
        }
    }
}
