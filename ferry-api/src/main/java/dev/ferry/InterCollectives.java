package dev.ferry;

import java.lang.foreign.MemorySegment;

/**
 * The collectives of an intercommunicator, as MPI defines them between two groups: data flows
 * from one group to the other. A rooted one names the root in the other group (its rank there);
 * in the root's group the root passes {@link Ferry#ROOT} and the others {@link Ferry#PROC_NULL}.
 * The all-to-all kinds give each group what the other contributed. Each runs as the local
 * group's own collective (on the intercommunicator's local communicator) joined with
 * point-to-point between the groups (on the intercommunicator's internal context, remote ranks
 * addressed as its point-to-point addresses them): the leaders (rank 0 of each group) carry the
 * groups' combined data across; the v forms, gather, scatter and alltoall go directly between
 * members. Blocking only.
 */
final class InterCollectives {
    private final Comm comm;
    private final Comm local;
    /** The algorithm of the last collective (what {@link Comm#lastCollectiveAlgorithm} answers). */
    String lastAlgorithm = "";

    InterCollectives(Comm comm, Comm local) {
        this.comm = comm;
        this.local = local;
    }

    /** Nobody leaves before every member of both groups entered. */
    void barrier() {
        comm.checkLive();
        int tag = comm.nextCollectiveTag();
        lastAlgorithm = "inter (local barrier, leaders, local barrier)";
        local.barrier();
        if (local.rank() == 0) {
            byte[] none = new byte[0];
            Request in = comm.internalRecv(none, 0, 0, Datatype.BYTE, 0, tag);
            comm.internalSend(none, 0, 0, Datatype.BYTE, 0, tag).await();
            in.await();
        }
        local.barrier();
    }

    /** The root's buffer reaches every member of the other group. */
    void bcast(Object buf, long offset, long count, Datatype type, int root) {
        comm.checkLive();
        int tag = comm.nextCollectiveTag();
        lastAlgorithm = "inter (root to leader, local bcast)";
        if (root == Ferry.ROOT) {
            comm.internalSend(buf, offset, count, type, 0, tag).await();
        } else if (root != Ferry.PROC_NULL) {
            checkRemoteRoot(root);
            if (local.rank() == 0) {
                comm.internalRecv(buf, offset, count, type, root, tag).await();
            }
            local.bcast(buf, offset, count, type, 0);
        }
    }

    /** The other group's elements combined by {@code op} land in the root's receive buffer. */
    void reduce(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op, int root) {
        comm.checkLive();
        int tag = comm.nextCollectiveTag();
        lastAlgorithm = "inter (local reduce, leader to root)";
        if (root == Ferry.ROOT) {
            comm.internalRecv(recvBuf, recvOffset, count, type, 0, tag).await();
        } else if (root != Ferry.PROC_NULL) {
            checkRemoteRoot(root);
            noInPlace(sendBuf, "reduce");
            MemorySegment partial = local.rank() == 0 ? temp(count, type) : null;
            try {
                local.reduce(sendBuf, sendOffset, partial, 0L, count, type, op, 0);
                if (local.rank() == 0) {
                    comm.internalSend(partial, 0, count, type, root, tag).await();
                }
            } finally {
                release(partial);
            }
        }
    }

    /** Each group's receive buffers get the other group's elements combined by {@code op}. */
    void allreduce(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op) {
        comm.checkLive();
        noInPlace(sendBuf, "allreduce");
        int tag = comm.nextCollectiveTag();
        lastAlgorithm = "inter (local reduce, leaders swap, local bcast)";
        MemorySegment partial = local.rank() == 0 ? temp(count, type) : null;
        try {
            local.reduce(sendBuf, sendOffset, partial, 0L, count, type, op, 0);
            if (local.rank() == 0) {
                swap(partial, 0, count, type, recvBuf, recvOffset, count, type, tag);
            }
        } finally {
            release(partial);
        }
        local.bcast(recvBuf, recvOffset, count, type, 0);
    }

    /** The root receives every remote member's block, in their rank order. */
    void gather(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
        int q = comm.remoteSize();
        boolean root0 = root == Ferry.ROOT; // the counts are the root's alone (the others' may be anything)
        gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, root0 ? uniform(q, recvCount) : null,
                root0 ? strides(q, recvCount) : null, recvType, root);
    }

    /** Block j of the root's send buffer goes to remote rank j. */
    void scatter(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                 Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
        int q = comm.remoteSize();
        boolean root0 = root == Ferry.ROOT;
        scatterv(sendBuf, sendOffset, root0 ? uniform(q, sendCount) : null, root0 ? strides(q, sendCount) : null, sendType,
                recvBuf, recvOffset, recvCount, recvType, root);
    }

    /** Every member receives the other group's blocks, in their rank order. */
    void allgather(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                   Object recvBuf, long recvOffset, long recvCount, Datatype recvType) {
        comm.checkLive();
        noInPlace(sendBuf, "allgather");
        int tag = comm.nextCollectiveTag();
        lastAlgorithm = "inter (local gather, leaders swap, local bcast)";
        int p = local.size(), q = comm.remoteSize();
        long mineCount = Math.multiplyExact(p, sendCount), theirCount = Math.multiplyExact(q, recvCount);
        MemorySegment gathered = local.rank() == 0 ? temp(mineCount, sendType) : null;
        try {
            local.gather(sendBuf, sendOffset, sendCount, sendType, gathered, 0L, sendCount, sendType, 0);
            if (local.rank() == 0) {
                swap(gathered, 0, mineCount, sendType, recvBuf, recvOffset, theirCount, recvType, tag);
            }
        } finally {
            release(gathered);
        }
        local.bcast(recvBuf, recvOffset, theirCount, recvType, 0);
    }

    /** Block j of each member's send buffer goes to remote rank j, which keeps it as block i for sender i. */
    void alltoall(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                  Object recvBuf, long recvOffset, long recvCount, Datatype recvType) {
        int q = comm.remoteSize();
        alltoallv(sendBuf, sendOffset, uniform(q, sendCount), strides(q, sendCount), sendType,
                recvBuf, recvOffset, uniform(q, recvCount), strides(q, recvCount), recvType);
    }

    /** {@code n} counts of {@code count}. */
    private static long[] uniform(int n, long count) {
        long[] a = new long[n];
        java.util.Arrays.fill(a, count);
        return a;
    }

    /** The displacements (in extents) of {@code n} blocks of {@code count} one after another. */
    private static long[] strides(int n, long count) {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = Math.multiplyExact(i, count);
        }
        return a;
    }

    /** {@link #gather} with a count and displacement (in extents) per remote rank at the root. */
    void gatherv(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                 Object recvBuf, long recvOffset, long[] recvCounts, long[] displs, Datatype recvType, int root) {
        comm.checkLive();
        int tag = comm.nextCollectiveTag();
        lastAlgorithm = "inter (direct to the root)";
        if (root == Ferry.ROOT) {
            int q = comm.remoteSize();
            CollBuffer in = CollBuffer.of(recvBuf, recvOffset, recvCounts, displs, recvType, q, true, "receive buffer");
            Request[] r = new Request[q];
            for (int j = 0; j < q; j++) {
                r[j] = comm.internalRecv(in.block(displs[j], recvCounts[j]), 0, recvCounts[j], recvType, j, tag);
            }
            Request.waitAll(r);
        } else if (root != Ferry.PROC_NULL) {
            checkRemoteRoot(root);
            noInPlace(sendBuf, "gatherv");
            comm.internalSend(sendBuf, sendOffset, sendCount, sendType, root, tag).await();
        }
    }

    /** {@link #scatter} with a count and displacement (in extents) per remote rank at the root. */
    void scatterv(Object sendBuf, long sendOffset, long[] sendCounts, long[] displs, Datatype sendType,
                  Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
        comm.checkLive();
        int tag = comm.nextCollectiveTag();
        lastAlgorithm = "inter (direct from the root)";
        if (root == Ferry.ROOT) {
            int q = comm.remoteSize();
            CollBuffer out = CollBuffer.of(sendBuf, sendOffset, sendCounts, displs, sendType, q, false, "send buffer");
            Request[] r = new Request[q];
            for (int j = 0; j < q; j++) {
                r[j] = comm.internalSend(out.block(displs[j], sendCounts[j]), 0, sendCounts[j], sendType, j, tag);
            }
            Request.waitAll(r);
        } else if (root != Ferry.PROC_NULL) {
            checkRemoteRoot(root);
            noInPlace(recvBuf, "scatterv");
            comm.internalRecv(recvBuf, recvOffset, recvCount, recvType, root, tag).await();
        }
    }

    /** {@link #allgather} with a count and displacement (in extents) per remote rank: each member sends its block to every remote one. */
    void allgatherv(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                    Object recvBuf, long recvOffset, long[] recvCounts, long[] displs, Datatype recvType) {
        comm.checkLive();
        noInPlace(sendBuf, "allgatherv");
        int tag = comm.nextCollectiveTag();
        lastAlgorithm = "inter (direct, all pairs)";
        int q = comm.remoteSize();
        CollBuffer in = CollBuffer.of(recvBuf, recvOffset, recvCounts, displs, recvType, q, true, "receive buffer");
        Request[] r = new Request[2 * q];
        for (int j = 0; j < q; j++) {
            r[j] = comm.internalRecv(in.block(displs[j], recvCounts[j]), 0, recvCounts[j], recvType, j, tag);
        }
        for (int k = 0; k < q; k++) {
            int j = (local.rank() + k) % q;
            r[q + j] = comm.internalSend(sendBuf, sendOffset, sendCount, sendType, j, tag);
        }
        Request.waitAll(r);
    }

    /** {@link #alltoall} with a count and displacement (in extents) per remote rank on each side. */
    void alltoallv(Object sendBuf, long sendOffset, long[] sendCounts, long[] sendDispls, Datatype sendType,
                   Object recvBuf, long recvOffset, long[] recvCounts, long[] recvDispls, Datatype recvType) {
        comm.checkLive();
        noInPlace(sendBuf, "alltoallv");
        int tag = comm.nextCollectiveTag();
        lastAlgorithm = "inter (pairwise direct)";
        int q = comm.remoteSize();
        CollBuffer out = CollBuffer.of(sendBuf, sendOffset, sendCounts, sendDispls, sendType, q, false, "send buffer");
        CollBuffer in = CollBuffer.of(recvBuf, recvOffset, recvCounts, recvDispls, recvType, q, true, "receive buffer");
        Request[] r = new Request[2 * q];
        for (int j = 0; j < q; j++) {
            r[j] = comm.internalRecv(in.block(recvDispls[j], recvCounts[j]), 0, recvCounts[j], recvType, j, tag);
        }
        for (int k = 0; k < q; k++) {
            int j = (local.rank() + k) % q;
            r[q + j] = comm.internalSend(out.block(sendDispls[j], sendCounts[j]), 0, sendCounts[j], sendType, j, tag);
        }
        Request.waitAll(r);
    }

    /** The leaders' exchange: this group's data goes to the remote leader while the remote group's comes in. */
    private void swap(MemorySegment out, long outOffset, long outCount, Datatype outType,
                      Object in, long inOffset, long inCount, Datatype inType, int tag) {
        Request r = comm.internalRecv(in, inOffset, inCount, inType, 0, tag);
        comm.internalSend(out, outOffset, outCount, outType, 0, tag).await();
        r.await();
    }

    /** Memory for {@code count} elements of {@code type} laid out as in a buffer (gaps included), from the pool; {@link #release} gives it back. */
    private MemorySegment temp(long count, Datatype type) {
        return comm.ferry().temps.take(Math.max(Buffers.reach(count, type), 0));
    }

    private void release(MemorySegment temp) {
        if (temp != null) {
            comm.ferry().temps.give(temp);
        }
    }

    private void checkRemoteRoot(int root) {
        if (root < 0 || root >= comm.remoteSize()) {
            throw FerryException.arg(ErrorClass.ROOT, "root: " + root + " is neither ROOT, PROC_NULL nor a rank of the remote group (0.."
                    + (comm.remoteSize() - 1) + ")");
        }
    }

    private static void noInPlace(Object buf, String what) {
        if (buf == Ferry.IN_PLACE) {
            throw FerryException.arg(ErrorClass.BUFFER, what + " on an intercommunicator: IN_PLACE is not allowed (MPI forbids it there)");
        }
    }
}
