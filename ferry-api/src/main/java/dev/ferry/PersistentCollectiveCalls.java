package dev.ferry;

/**
 * The persistent collectives of a {@link Comm} (MPI-4's {@code MPI_Barrier_init},
 * {@code MPI_Allreduce_init} and the rest): each is collective, and returns a request whose
 * {@link PersistentRequest#start()} runs the collective once more. The schedule, its tag and its
 * temporary memory are made at init; a start allocates nothing. Every member inits its
 * collectives in the same order, and starts each of them the same number of times; between rounds
 * the buffers may change, not their place or size. The arguments are those of the nonblocking
 * forms in {@link CollectiveCalls}.
 *
 * <pre>{@code
 * double[] local = new double[1], global = new double[1];
 * PersistentRequest sum = world.allreduceInit(local, 0, global, 0, 1, Datatype.DOUBLE, Op.SUM);
 * for (int step = 0; step < steps; step++) {
 *     local[0] = residual();
 *     sum.start();
 *     sum.await();                  // global[0]: the sum over every rank
 * }
 * sum.free();
 * }</pre>
 */
abstract sealed class PersistentCollectiveCalls extends CollectiveCalls permits FaultTolerantCalls {

    public PersistentRequest barrierInit() {
        return collectives().persistent(() -> collectives().barrier(false));
    }

    public PersistentRequest bcastInit(Object buf, int offset, int count, Datatype type, int root) {
        return bcastInit(buf, (long) offset, (long) count, type, root);
    }

    public PersistentRequest reduceInit(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op, int root) {
        return reduceInit(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) count, type, op, root);
    }

    public PersistentRequest allreduceInit(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        return allreduceInit(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) count, type, op);
    }

    public PersistentRequest reduceScatterInit(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts, Datatype type, Op op) {
        return reduceScatterInit(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, widen(recvCounts), type, op);
    }

    public PersistentRequest reduceScatterBlockInit(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int recvCount, Datatype type, Op op) {
        return reduceScatterBlockInit(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) recvCount, type, op);
    }

    public PersistentRequest scanInit(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        return scanInit(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) count, type, op);
    }

    public PersistentRequest exscanInit(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        return exscanInit(sendBuf, (long) sendOffset, recvBuf, (long) recvOffset, (long) count, type, op);
    }

    public PersistentRequest gatherInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                        Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        return gatherInit(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType, root);
    }

    public PersistentRequest gathervInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                         Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType, int root) {
        return gathervInit(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, widen(recvCounts), widen(displs), recvType, root);
    }

    public PersistentRequest scatterInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                         Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        return scatterInit(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType, root);
    }

    public PersistentRequest scattervInit(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                                          Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        return scattervInit(sendBuf, (long) sendOffset, widen(sendCounts), widen(displs), sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType, root);
    }

    public PersistentRequest allgatherInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                           Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        return allgatherInit(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType);
    }

    public PersistentRequest allgathervInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                            Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType) {
        return allgathervInit(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, widen(recvCounts), widen(displs), recvType);
    }

    public PersistentRequest alltoallInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                          Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        return alltoallInit(sendBuf, (long) sendOffset, (long) sendCount, sendType, recvBuf, (long) recvOffset, (long) recvCount, recvType);
    }

    public PersistentRequest alltoallvInit(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls, Datatype sendType,
                                           Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls, Datatype recvType) {
        return alltoallvInit(sendBuf, (long) sendOffset, widen(sendCounts), widen(sendDispls), sendType, recvBuf, (long) recvOffset, widen(recvCounts), widen(recvDispls), recvType);
    }

    public PersistentRequest alltoallwInit(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendByteDispls, Datatype[] sendTypes,
                                           Object recvBuf, int recvOffset, int[] recvCounts, int[] recvByteDispls, Datatype[] recvTypes) {
        return alltoallwInit(sendBuf, (long) sendOffset, widen(sendCounts), widen(sendByteDispls), sendTypes, recvBuf, (long) recvOffset, widen(recvCounts), widen(recvByteDispls), recvTypes);
    }

    // ---- the same with long offsets, counts and displacements (MPI-4's _c forms: MPI_Allreduce_init_c and the rest) ----


    // ---- the same with long offsets, counts and displacements (MPI-4's _c forms: MPI_Allreduce_init_c and the rest) ----

    public PersistentRequest bcastInit(Object buf, long offset, long count, Datatype type, int root) {
        return collectives().persistent(() -> collectives().bcast(buf, offset, count, type, root, false));
    }

    public PersistentRequest reduceInit(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op, int root) {
        return collectives().persistent(() -> collectives().reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root));
    }

    public PersistentRequest allreduceInit(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op) {
        return collectives().persistent(() -> collectives().allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, false));
    }

    public PersistentRequest reduceScatterInit(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long[] recvCounts, Datatype type, Op op) {
        return collectives().persistent(() -> collectives().reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op));
    }

    public PersistentRequest reduceScatterBlockInit(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long recvCount, Datatype type, Op op) {
        return collectives().persistent(() -> collectives().reduceScatterBlock(sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op));
    }

    public PersistentRequest scanInit(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op) {
        return collectives().persistent(() -> collectives().scan(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, false));
    }

    public PersistentRequest exscanInit(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op) {
        return collectives().persistent(() -> collectives().scan(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, true));
    }

    public PersistentRequest gatherInit(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                                        Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
        return collectives().persistent(() -> collectives().gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    public PersistentRequest gathervInit(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                                         Object recvBuf, long recvOffset, long[] recvCounts, long[] displs, Datatype recvType, int root) {
        return collectives().persistent(() -> collectives().gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root));
    }

    public PersistentRequest scatterInit(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                                         Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
        return collectives().persistent(() -> collectives().scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    public PersistentRequest scattervInit(Object sendBuf, long sendOffset, long[] sendCounts, long[] displs, Datatype sendType,
                                          Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
        return collectives().persistent(() -> collectives().scatterv(sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    public PersistentRequest allgatherInit(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                                           Object recvBuf, long recvOffset, long recvCount, Datatype recvType) {
        return collectives().persistent(() -> collectives().allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    public PersistentRequest allgathervInit(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                                            Object recvBuf, long recvOffset, long[] recvCounts, long[] displs, Datatype recvType) {
        return collectives().persistent(() -> collectives().allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType));
    }

    public PersistentRequest alltoallInit(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                                          Object recvBuf, long recvOffset, long recvCount, Datatype recvType) {
        return collectives().persistent(() -> collectives().alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    public PersistentRequest alltoallvInit(Object sendBuf, long sendOffset, long[] sendCounts, long[] sendDispls, Datatype sendType,
                                           Object recvBuf, long recvOffset, long[] recvCounts, long[] recvDispls, Datatype recvType) {
        return collectives().persistent(() -> collectives().alltoallv(sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    public PersistentRequest alltoallwInit(Object sendBuf, long sendOffset, long[] sendCounts, long[] sendByteDispls, Datatype[] sendTypes,
                                           Object recvBuf, long recvOffset, long[] recvCounts, long[] recvByteDispls, Datatype[] recvTypes) {
        return collectives().persistent(() -> collectives().alltoallw(sendBuf, sendOffset, sendCounts, sendByteDispls, sendTypes, recvBuf, recvOffset, recvCounts, recvByteDispls, recvTypes));
    }
}
