package dev.ferry;

/**
 * The collective calls of a {@link Comm} (blocking and nonblocking forms), as Comm offers them;
 * a superclass of Comm so that the point-to-point calls and the collectives each read as one
 * family. {@link Collectives} carries them out.
 */
abstract sealed class CollectiveCalls permits PersistentCollectiveCalls {
    /** The communicator's collectives (an intercommunicator has none: it throws, naming those it has). */
    abstract Collectives collectives();

    /** An intercommunicator's collectives, or null for an intracommunicator. */
    abstract InterCollectives inter();

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
        InterCollectives i = inter();
        if (i != null) {
            i.bcast(buf, offset, count, type, root);
            return;
        }
        collectives().bcast(buf, offset, count, type, root, true).await();
    }

    public Request ibcast(Object buf, int offset, int count, Datatype type, int root) {
        return collectives().bcast(buf, offset, count, type, root, false);
    }

    /**
     * Combines every member's {@code count} elements by {@code op} into the root's receive buffer
     * (the others' is not used; the root may pass {@link Ferry#IN_PLACE} as its send buffer).
     */
    public void reduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op, int root) {
        InterCollectives i = inter();
        if (i != null) {
            i.reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root);
            return;
        }
        collectives().reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root).await();
    }

    public Request ireduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op, int root) {
        return collectives().reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root);
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
        InterCollectives i = inter();
        if (i != null) {
            i.allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
            return;
        }
        collectives().allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, true).await();
    }

    public Request iallreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        return collectives().allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, false);
    }

    /** Reduces the sum of {@code recvCounts} elements and leaves run r of the result, {@code recvCounts[r]} long, at rank r. */
    public void reduceScatter(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts, Datatype type, Op op) {
        collectives().reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, widen(recvCounts), type, op).await();
    }

    public Request ireduceScatter(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts, Datatype type, Op op) {
        return collectives().reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, widen(recvCounts), type, op);
    }

    /** {@link #reduceScatter} with {@code recvCount} elements for every rank. */
    public void reduceScatterBlock(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int recvCount, Datatype type, Op op) {
        collectives().reduceScatterBlock(sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op).await();
    }

    public Request ireduceScatterBlock(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int recvCount, Datatype type, Op op) {
        return collectives().reduceScatterBlock(sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op);
    }

    /** Rank r receives the reduction of ranks 0..r. */
    public void scan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        collectives().scan(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, false).await();
    }

    public Request iscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        return collectives().scan(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, false);
    }

    /** Rank r receives the reduction of ranks 0..r-1; rank 0's receive buffer is left as it was. */
    public void exscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        collectives().scan(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, true).await();
    }

    public Request iexscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        return collectives().scan(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, true);
    }

    /** Every member's {@code sendCount} elements, in rank order, into the root's receive buffer ({@code recvCount} per rank). */
    public void gather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                       Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        InterCollectives i = inter();
        if (i != null) {
            i.gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
            return;
        }
        collectives().gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root).await();
    }

    public Request igather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                           Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        return collectives().gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
    }

    /** {@link #gather} with rank j's {@code recvCounts[j]} elements at {@code displs[j]} extents. */
    public void gatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                        Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType, int root) {
        InterCollectives i = inter();
        if (i != null) {
            i.gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, widen(recvCounts), widen(displs), recvType, root);
            return;
        }
        collectives().gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, widen(recvCounts), widen(displs), recvType, root).await();
    }

    public Request igatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                            Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType, int root) {
        return collectives().gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, widen(recvCounts), widen(displs), recvType, root);
    }

    /** The root's blocks of {@code sendCount} elements, block j to rank j. */
    public void scatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                        Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        InterCollectives i = inter();
        if (i != null) {
            i.scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
            return;
        }
        collectives().scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root).await();
    }

    public Request iscatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                            Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        return collectives().scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
    }

    /** {@link #scatter} with rank j's {@code sendCounts[j]} elements from {@code displs[j]} extents. */
    public void scatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                         Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        InterCollectives i = inter();
        if (i != null) {
            i.scatterv(sendBuf, sendOffset, widen(sendCounts), widen(displs), sendType, recvBuf, recvOffset, recvCount, recvType, root);
            return;
        }
        collectives().scatterv(sendBuf, sendOffset, widen(sendCounts), widen(displs), sendType, recvBuf, recvOffset, recvCount, recvType, root).await();
    }

    public Request iscatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                             Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        return collectives().scatterv(sendBuf, sendOffset, widen(sendCounts), widen(displs), sendType, recvBuf, recvOffset, recvCount, recvType, root);
    }

    /** {@link #gather} with the result at every member. */
    public void allgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                          Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        InterCollectives i = inter();
        if (i != null) {
            i.allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
            return;
        }
        collectives().allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType).await();
    }

    public Request iallgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                              Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        return collectives().allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
    }

    public void allgatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                           Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType) {
        InterCollectives i = inter();
        if (i != null) {
            i.allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, widen(recvCounts), widen(displs), recvType);
            return;
        }
        collectives().allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, widen(recvCounts), widen(displs), recvType).await();
    }

    public Request iallgatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                               Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType) {
        return collectives().allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, widen(recvCounts), widen(displs), recvType);
    }

    /** Block j of every member's send buffer goes to rank j, which keeps it as block i of its receive buffer for sender i. */
    public void alltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                         Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        InterCollectives i = inter();
        if (i != null) {
            i.alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
            return;
        }
        collectives().alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType).await();
    }

    public Request ialltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                             Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        return collectives().alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
    }

    public void alltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls, Datatype sendType,
                          Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls, Datatype recvType) {
        InterCollectives i = inter();
        if (i != null) {
            i.alltoallv(sendBuf, sendOffset, widen(sendCounts), widen(sendDispls), sendType, recvBuf, recvOffset, widen(recvCounts), widen(recvDispls), recvType);
            return;
        }
        collectives().alltoallv(sendBuf, sendOffset, widen(sendCounts), widen(sendDispls), sendType, recvBuf, recvOffset, widen(recvCounts), widen(recvDispls), recvType).await();
    }

    public Request ialltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls, Datatype sendType,
                              Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls, Datatype recvType) {
        return collectives().alltoallv(sendBuf, sendOffset, widen(sendCounts), widen(sendDispls), sendType, recvBuf, recvOffset, widen(recvCounts), widen(recvDispls), recvType);
    }

    /** {@link #alltoallv} with a datatype per peer and displacements in bytes from the offset. */
    public void alltoallw(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendByteDispls, Datatype[] sendTypes,
                          Object recvBuf, int recvOffset, int[] recvCounts, int[] recvByteDispls, Datatype[] recvTypes) {
        collectives().alltoallw(sendBuf, sendOffset, widen(sendCounts), widen(sendByteDispls), sendTypes, recvBuf, recvOffset, widen(recvCounts), widen(recvByteDispls), recvTypes).await();
    }

    public Request ialltoallw(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendByteDispls, Datatype[] sendTypes,
                              Object recvBuf, int recvOffset, int[] recvCounts, int[] recvByteDispls, Datatype[] recvTypes) {
        return collectives().alltoallw(sendBuf, sendOffset, widen(sendCounts), widen(sendByteDispls), sendTypes, recvBuf, recvOffset, widen(recvCounts), widen(recvByteDispls), recvTypes);
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
