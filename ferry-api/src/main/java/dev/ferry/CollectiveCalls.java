package dev.ferry;

/**
 * The collective calls of a {@link Comm} (blocking and nonblocking forms), as Comm offers them;
 * a superclass of Comm so that the point-to-point calls and the collectives each read as one
 * family. {@link Collectives} carries them out. The {@code int} forms are the {@code long} forms
 * of {@link LargeCountCollectiveCalls} with their arguments widened.
 */
abstract sealed class CollectiveCalls extends LargeCountCollectiveCalls permits PersistentCollectiveCalls {
    // ---- collectives --------------------------------------------------------------------------------
    //
    // Every member calls them in the same order. The i forms start the collective and return at
    // once; it progresses while the program computes (with a progress thread; otherwise in any
    // call into Ferry) and completes through its request as point-to-point does. Offsets and
    // displacements count as in point-to-point: array elements, or bytes of a segment or byte
    // buffer; the v forms' displacements count extents of the datatype.
    //
    // On an intercommunicator (blocking barrier, bcast, reduce, allreduce, gather(v), scatter(v),
    // allgather(v), alltoall(v)) data flows between the groups as MPI defines: see InterCollectives.

    /** Returns once every member has entered the barrier. */
    public void barrier() {
        InterCollectives i = inter();
        if (i != null) {
            i.barrier();
            return;
        }
        collectives().barrier(true).await();
    }

    public Request ibarrier() {
        return collectives().barrier(false);
    }

    /** The root's {@code count} elements reach every member's buffer. */
    public void bcast(Object buf, int offset, int count, Datatype type, int root) {
        bcast(buf, (long) offset, (long) count, type, root);
    }

    public Request ibcast(Object buf, int offset, int count, Datatype type, int root) {
        return ibcast(buf, (long) offset, (long) count, type, root);
    }

    /**
     * Combines every member's {@code count} elements by {@code op} into the root's receive buffer
     * (the others' is not used; the root may pass {@link Ferry#IN_PLACE} as its send buffer).
     */
    public void reduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op, int root) {
        reduce(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) count, type, op, root);
    }

    public Request ireduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op, int root) {
        return ireduce(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) count, type, op, root);
    }

    /**
     * {@link #reduce} with the result at every member; {@link Ferry#IN_PLACE} as the send buffer
     * takes the data from the receive buffer.
     *
     * <pre>{@code
     * double[] sum = new double[n];
     * world.allreduce(mine, 0, sum, 0, n, Datatype.DOUBLE, Op.SUM);
     * }</pre>
     */
    public void allreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        allreduce(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) count, type, op);
    }

    public Request iallreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        return iallreduce(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) count, type, op);
    }

    /** Reduces the sum of {@code recvCounts} elements and leaves run r of the result, {@code recvCounts[r]} long, at rank r. */
    public void reduceScatter(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts, Datatype type, Op op) {
        reduceScatter(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, widen(recvCounts), type, op);
    }

    public Request ireduceScatter(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts, Datatype type, Op op) {
        return ireduceScatter(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, widen(recvCounts), type, op);
    }

    /** {@link #reduceScatter} with {@code recvCount} elements for every rank. */
    public void reduceScatterBlock(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int recvCount, Datatype type, Op op) {
        reduceScatterBlock(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) recvCount, type, op);
    }

    public Request ireduceScatterBlock(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int recvCount, Datatype type, Op op) {
        return ireduceScatterBlock(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) recvCount, type, op);
    }

    /** Rank r receives the reduction of ranks 0..r. */
    public void scan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        scan(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) count, type, op);
    }

    public Request iscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        return iscan(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) count, type, op);
    }

    /** Rank r receives the reduction of ranks 0..r-1; rank 0's receive buffer is left as it was. */
    public void exscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        exscan(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) count, type, op);
    }

    public Request iexscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        return iexscan(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) count, type, op);
    }

    /** Every member's {@code sendCount} elements, in rank order, into the root's receive buffer ({@code recvCount} per rank). */
    public void gather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                       Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        gather(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType, root);
    }

    public Request igather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                           Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        return igather(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType, root);
    }

    /** {@link #gather} with rank j's {@code recvCounts[j]} elements at {@code displs[j]} extents. */
    public void gatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                        Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType, int root) {
        gatherv(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, widen(recvCounts), widen(displs), recvType, root);
    }

    public Request igatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                            Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType, int root) {
        return igatherv(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, widen(recvCounts), widen(displs), recvType, root);
    }

    /** The root's blocks of {@code sendCount} elements, block j to rank j. */
    public void scatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                        Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        scatter(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType, root);
    }

    public Request iscatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                            Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        return iscatter(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType, root);
    }

    /** {@link #scatter} with rank j's {@code sendCounts[j]} elements from {@code displs[j]} extents. */
    public void scatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                         Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        scatterv(sendBuf, (long) sendOffset, widen(sendCounts), widen(displs), sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType, root);
    }

    public Request iscatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                             Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        return iscatterv(sendBuf, (long) sendOffset, widen(sendCounts), widen(displs), sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType, root);
    }

    /** {@link #gather} with the result at every member. */
    public void allgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                          Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        allgather(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType);
    }

    public Request iallgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                              Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        return iallgather(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType);
    }

    public void allgatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                           Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType) {
        allgatherv(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, widen(recvCounts), widen(displs), recvType);
    }

    public Request iallgatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                               Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType) {
        return iallgatherv(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, widen(recvCounts), widen(displs), recvType);
    }

    /** Block j of every member's send buffer goes to rank j, which keeps it as block i of its receive buffer for sender i. */
    public void alltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                         Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        alltoall(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType);
    }

    public Request ialltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                             Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        return ialltoall(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType);
    }

    public void alltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls, Datatype sendType,
                          Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls, Datatype recvType) {
        alltoallv(sendBuf, (long) sendOffset, widen(sendCounts), widen(sendDispls), sendType, recvBuf, (long) recvOffset, widen(recvCounts), widen(recvDispls), recvType);
    }

    public Request ialltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls, Datatype sendType,
                              Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls, Datatype recvType) {
        return ialltoallv(sendBuf, (long) sendOffset, widen(sendCounts), widen(sendDispls), sendType, recvBuf, (long) recvOffset, widen(recvCounts), widen(recvDispls), recvType);
    }

    /** {@link #alltoallv} with a datatype per peer and displacements in bytes from the offset. */
    public void alltoallw(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendByteDispls, Datatype[] sendTypes,
                          Object recvBuf, int recvOffset, int[] recvCounts, int[] recvByteDispls, Datatype[] recvTypes) {
        alltoallw(sendBuf, (long) sendOffset, widen(sendCounts), widen(sendByteDispls), sendTypes, recvBuf, (long) recvOffset, widen(recvCounts), widen(recvByteDispls), recvTypes);
    }

    public Request ialltoallw(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendByteDispls, Datatype[] sendTypes,
                              Object recvBuf, int recvOffset, int[] recvCounts, int[] recvByteDispls, Datatype[] recvTypes) {
        return ialltoallw(sendBuf, (long) sendOffset, widen(sendCounts), widen(sendByteDispls), sendTypes, recvBuf, (long) recvOffset, widen(recvCounts), widen(recvByteDispls), recvTypes);
    }

    /** An int array of counts or displacements as the collectives take them (null stays null: a rank that passes none). */
    static long[] widen(int[] a) {
        if (a == null) {
            return null;
        }
        long[] w = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            w[i] = a[i];
        }
        return w;
    }
}
