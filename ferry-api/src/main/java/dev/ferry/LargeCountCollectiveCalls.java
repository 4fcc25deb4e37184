package dev.ferry;

/**
 * The collectives with {@code long} offsets, counts and displacements (MPI-4's {@code _c}
 * bindings: {@code MPI_Bcast_c}, {@code MPI_Allreduce_c}, {@code MPI_Gatherv_c} and the rest), as
 * {@link Comm} offers them; the {@code int} forms of {@link CollectiveCalls}, its subclass, are
 * these with the arguments widened. A buffer of more than 2^31 elements takes part whole. The blocking
 * forms of the collectives an intercommunicator has take long counts there too.
 *
 * <pre>{@code
 * MemorySegment weights = arena.allocate(3L << 30);      // 3 GiB of floats
 * world.allreduce(Ferry.IN_PLACE, 0L, weights, 0L, weights.byteSize() / 4, Datatype.FLOAT, Op.SUM);
 * }</pre>
 */
abstract sealed class LargeCountCollectiveCalls permits CollectiveCalls {
    /** The communicator's collectives (an intercommunicator has none: it throws, naming those it has). */
    abstract Collectives collectives();

    /** An intercommunicator's collectives, or null for an intracommunicator. */
    abstract InterCollectives inter();

    public void bcast(Object buf, long offset, long count, Datatype type, int root) {
        InterCollectives i = inter();
        if (i != null) {
            i.bcast(buf, offset, count, type, root);
            return;
        }
        collectives().bcast(buf, offset, count, type, root, true).await();
    }

    public Request ibcast(Object buf, long offset, long count, Datatype type, int root) {
        return collectives().bcast(buf, offset, count, type, root, false);
    }

    public void reduce(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op, int root) {
        InterCollectives i = inter();
        if (i != null) {
            i.reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root);
            return;
        }
        collectives().reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root).await();
    }

    public Request ireduce(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op, int root) {
        return collectives().reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root);
    }

    public void allreduce(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op) {
        InterCollectives i = inter();
        if (i != null) {
            i.allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
            return;
        }
        collectives().allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, true).await();
    }

    public Request iallreduce(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op) {
        return collectives().allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, false);
    }

    public void reduceScatter(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long[] recvCounts, Datatype type, Op op) {
        collectives().reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op).await();
    }

    public Request ireduceScatter(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long[] recvCounts, Datatype type, Op op) {
        return collectives().reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op);
    }

    public void reduceScatterBlock(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long recvCount, Datatype type, Op op) {
        collectives().reduceScatterBlock(sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op).await();
    }

    public Request ireduceScatterBlock(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long recvCount, Datatype type, Op op) {
        return collectives().reduceScatterBlock(sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op);
    }

    public void scan(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op) {
        collectives().scan(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, false).await();
    }

    public Request iscan(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op) {
        return collectives().scan(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, false);
    }

    public void exscan(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op) {
        collectives().scan(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, true).await();
    }

    public Request iexscan(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op) {
        return collectives().scan(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, true);
    }

    public void gather(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                       Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
        InterCollectives i = inter();
        if (i != null) {
            i.gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
            return;
        }
        collectives().gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root).await();
    }

    public Request igather(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                           Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
        return collectives().gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
    }

    public void gatherv(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                        Object recvBuf, long recvOffset, long[] recvCounts, long[] displs, Datatype recvType, int root) {
        InterCollectives i = inter();
        if (i != null) {
            i.gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root);
            return;
        }
        collectives().gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root).await();
    }

    public Request igatherv(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                            Object recvBuf, long recvOffset, long[] recvCounts, long[] displs, Datatype recvType, int root) {
        return collectives().gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root);
    }

    public void scatter(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                        Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
        InterCollectives i = inter();
        if (i != null) {
            i.scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
            return;
        }
        collectives().scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root).await();
    }

    public Request iscatter(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                            Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
        return collectives().scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
    }

    public void scatterv(Object sendBuf, long sendOffset, long[] sendCounts, long[] displs, Datatype sendType,
                         Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
        InterCollectives i = inter();
        if (i != null) {
            i.scatterv(sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root);
            return;
        }
        collectives().scatterv(sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root).await();
    }

    public Request iscatterv(Object sendBuf, long sendOffset, long[] sendCounts, long[] displs, Datatype sendType,
                             Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
        return collectives().scatterv(sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root);
    }

    public void allgather(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                          Object recvBuf, long recvOffset, long recvCount, Datatype recvType) {
        InterCollectives i = inter();
        if (i != null) {
            i.allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
            return;
        }
        collectives().allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType).await();
    }

    public Request iallgather(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                              Object recvBuf, long recvOffset, long recvCount, Datatype recvType) {
        return collectives().allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
    }

    public void allgatherv(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                           Object recvBuf, long recvOffset, long[] recvCounts, long[] displs, Datatype recvType) {
        InterCollectives i = inter();
        if (i != null) {
            i.allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType);
            return;
        }
        collectives().allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType).await();
    }

    public Request iallgatherv(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                               Object recvBuf, long recvOffset, long[] recvCounts, long[] displs, Datatype recvType) {
        return collectives().allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType);
    }

    public void alltoall(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                         Object recvBuf, long recvOffset, long recvCount, Datatype recvType) {
        InterCollectives i = inter();
        if (i != null) {
            i.alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
            return;
        }
        collectives().alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType).await();
    }

    public Request ialltoall(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                             Object recvBuf, long recvOffset, long recvCount, Datatype recvType) {
        return collectives().alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
    }

    public void alltoallv(Object sendBuf, long sendOffset, long[] sendCounts, long[] sendDispls, Datatype sendType,
                          Object recvBuf, long recvOffset, long[] recvCounts, long[] recvDispls, Datatype recvType) {
        InterCollectives i = inter();
        if (i != null) {
            i.alltoallv(sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType);
            return;
        }
        collectives().alltoallv(sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType).await();
    }

    public Request ialltoallv(Object sendBuf, long sendOffset, long[] sendCounts, long[] sendDispls, Datatype sendType,
                              Object recvBuf, long recvOffset, long[] recvCounts, long[] recvDispls, Datatype recvType) {
        return collectives().alltoallv(sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType);
    }

    /** {@link #alltoallv} with a datatype per peer and displacements in bytes from the offset. */
    public void alltoallw(Object sendBuf, long sendOffset, long[] sendCounts, long[] sendByteDispls, Datatype[] sendTypes,
                          Object recvBuf, long recvOffset, long[] recvCounts, long[] recvByteDispls, Datatype[] recvTypes) {
        collectives().alltoallw(sendBuf, sendOffset, sendCounts, sendByteDispls, sendTypes, recvBuf, recvOffset, recvCounts, recvByteDispls, recvTypes).await();
    }

    public Request ialltoallw(Object sendBuf, long sendOffset, long[] sendCounts, long[] sendByteDispls, Datatype[] sendTypes,
                              Object recvBuf, long recvOffset, long[] recvCounts, long[] recvByteDispls, Datatype[] recvTypes) {
        return collectives().alltoallw(sendBuf, sendOffset, sendCounts, sendByteDispls, sendTypes, recvBuf, recvOffset, recvCounts, recvByteDispls, recvTypes);
    }
}
