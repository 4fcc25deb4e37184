package mpi;

import java.nio.Buffer;

/**
 * The collectives of the Open MPI bindings (barrier, bcast, gather(v), scatter(v), allGather(v),
 * allToAll(v, w), the neighbourhood collectives, reduce, allReduce, reduceScatter(Block)), blocking
 * and non-blocking, in one file: {@link Comm} has them all (this class is not part of the API;
 * Comm supplies the communicator, its rank and its error handler). On an intercommunicator the
 * blocking barrier, bcast, reduce, allReduce, gather(v), scatter(v), allGather(v) and allToAll(v) move data
 * between its groups; the others answer ERR_COMM.
 *
 * <pre>{@code
 * MPI.COMM_WORLD.allReduce(local, sum, 2, MPI.DOUBLE, MPI.SUM);
 * }</pre>
 */
abstract class CommCollectives {
    CommCollectives() {
    }

    /** The collective calls of this communicator, or an error naming {@code what}. */
    abstract Collective coll(String what);

    /** The exception to throw for {@code e}, under this communicator's handler. */
    abstract MPIException fail(RuntimeException e);

    abstract Errhandler errhandler();

    public abstract int getRank();

    /** This communicator as the {@link Comm} it is. */
    abstract Comm self();



    public final void barrier() {
        try {
            coll("barrier").c.barrier();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iBarrier() {
        try {
            return new Request(coll("iBarrier").c.ibarrier(), errhandler(), null);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void bcast(Object buf, int count, Datatype type, int root) {
        try {
            coll("bcast").bcast(buf, 0, count, type, root);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iBcast(Buffer buf, int count, Datatype type, int root) {
        try {
            return coll("iBcast").ibcast(buf, 0, count, type, root);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root) {
        try {
            coll("gather").gather(sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype, root, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** In place: at the root {@code buf} receives and its own block stays; elsewhere it is what is sent. */
    public final void gather(Object buf, int count, Datatype type, int root) {
        try {
            Collective k = coll("gather");
            if (getRank() == root) {
                k.gather(MPI.IN_PLACE, 0, count, type, buf, 0, count, type, root, false);
            } else {
                k.gather(buf, 0, count, type, null, 0, count, type, root, false);
            }
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype, int root) {
        try {
            return coll("iGather").gather(sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype, root, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iGather(Buffer buf, int count, Datatype type, int root) {
        try {
            Collective k = coll("iGather");
            return getRank() == root ? k.gather(MPI.IN_PLACE, 0, count, type, buf, 0, count, type, root, true)
                    : k.gather(buf, 0, count, type, null, 0, count, type, root, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        try {
            coll("gatherv").gatherv(sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, displs, recvtype, root, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** In place at the root. */
    public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        try {
            coll("gatherv").gatherv(MPI.IN_PLACE, 0, 0, recvtype, recvbuf, 0, recvcount, displs, recvtype, root, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** In place: the sending side of a non-root. */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) {
        try {
            coll("gatherv").gatherv(sendbuf, 0, sendcount, sendtype, null, 0, null, null, sendtype, root, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        try {
            return coll("iGatherv").gatherv(sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, displs, recvtype, root, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        try {
            return coll("iGatherv").gatherv(MPI.IN_PLACE, 0, 0, recvtype, recvbuf, 0, recvcount, displs, recvtype, root, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root) {
        try {
            return coll("iGatherv").gatherv(sendbuf, 0, sendcount, sendtype, null, 0, null, null, sendtype, root, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root) {
        try {
            coll("scatter").scatter(sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype, root, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** In place: at the root {@code buf} is sent from and its own block stays; elsewhere it receives. */
    public final void scatter(Object buf, int count, Datatype type, int root) {
        try {
            Collective k = coll("scatter");
            if (getRank() == root) {
                k.scatter(buf, 0, count, type, MPI.IN_PLACE, 0, count, type, root, false);
            } else {
                k.scatter(null, 0, count, type, buf, 0, count, type, root, false);
            }
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iScatter(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype, int root) {
        try {
            return coll("iScatter").scatter(sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype, root, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iScatter(Buffer buf, int count, Datatype type, int root) {
        try {
            Collective k = coll("iScatter");
            return getRank() == root ? k.scatter(buf, 0, count, type, MPI.IN_PLACE, 0, count, type, root, true)
                    : k.scatter(null, 0, count, type, buf, 0, count, type, root, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root) {
        try {
            coll("scatterv").scatterv(sendbuf, 0, sendcount, displs, sendtype, recvbuf, 0, recvcount, recvtype, root, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** In place at the root. */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root) {
        try {
            coll("scatterv").scatterv(sendbuf, 0, sendcount, displs, sendtype, MPI.IN_PLACE, 0, 0, sendtype, root, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** In place: the receiving side of a non-root. */
    public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) {
        try {
            coll("scatterv").scatterv(null, 0, null, null, recvtype, recvbuf, 0, recvcount, recvtype, root, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype, int root) {
        try {
            return coll("iScatterv").scatterv(sendbuf, 0, sendcount, displs, sendtype, recvbuf, 0, recvcount, recvtype, root, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root) {
        try {
            return coll("iScatterv").scatterv(sendbuf, 0, sendcount, displs, sendtype, MPI.IN_PLACE, 0, 0, sendtype, root, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root) {
        try {
            return coll("iScatterv").scatterv(null, 0, null, null, recvtype, recvbuf, 0, recvcount, recvtype, root, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) {
        try {
            coll("allGather").allgather(sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void allGather(Object buf, int count, Datatype type) {
        try {
            coll("allGather").allgather(MPI.IN_PLACE, 0, count, type, buf, 0, count, type, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype) {
        try {
            return coll("iAllGather").allgather(sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iAllGather(Buffer buf, int count, Datatype type) {
        try {
            return coll("iAllGather").allgather(MPI.IN_PLACE, 0, count, type, buf, 0, count, type, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) {
        try {
            coll("allGatherv").allgatherv(sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, displs, recvtype, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) {
        try {
            coll("allGatherv").allgatherv(MPI.IN_PLACE, 0, 0, recvtype, recvbuf, 0, recvcount, displs, recvtype, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype) {
        try {
            return coll("iAllGatherv").allgatherv(sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, displs, recvtype, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iAllGatherv(Buffer buf, int[] count, int[] displs, Datatype type) {
        try {
            return coll("iAllGatherv").allgatherv(MPI.IN_PLACE, 0, 0, type, buf, 0, count, displs, type, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) {
        try {
            coll("allToAll").alltoall(sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype) {
        try {
            return coll("iAllToAll").alltoall(sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) {
        try {
            coll("allToAllv").alltoallv(sendbuf, 0, sendcount, sdispls, sendtype, recvbuf, 0, recvcount, rdispls, recvtype, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                    Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) {
        try {
            return coll("iAllToAllv").alltoallv(sendbuf, 0, sendcount, sdispls, sendtype, recvbuf, 0, recvcount, rdispls, recvtype, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** Displacements in bytes, a datatype per peer. */
    public final void allToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
                                Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) {
        allToAllw((Object) sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls, recvTypes);
    }

    /** Open MPI 5's form: arrays as well as buffers. */
    public final void allToAllw(Object sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
                                Object recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) {
        try {
            coll("allToAllw").alltoallw(sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls, recvTypes, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iAllToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
                                    Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) {
        try {
            return coll("iAllToAllw").alltoallw(sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls, recvTypes, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    // neighbourhood collectives: on a Cartesian or graph communicator, among its neighbours

    public final void neighborAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) {
        try {
            Neighbors.allGather(self(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype).waitFor();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iNeighborAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype) {
        try {
            return Neighbors.allGather(self(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void neighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) {
        try {
            Neighbors.allGatherv(self(), sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype).waitFor();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iNeighborAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype) {
        try {
            return Neighbors.allGatherv(self(), sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void neighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) {
        try {
            Neighbors.allToAll(self(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype).waitFor();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iNeighborAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype) {
        try {
            return Neighbors.allToAll(self(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void neighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                        Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) {
        try {
            Neighbors.allToAllv(self(), sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype).waitFor();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iNeighborAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                            Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) {
        try {
            return Neighbors.allToAllv(self(), sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) {
        try {
            coll("reduce").reduce(sendbuf, 0, recvbuf, 0, count, type, op, root, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** In place: at the root {@code buf} holds its contribution and receives the result. */
    public final void reduce(Object buf, int count, Datatype type, Op op, int root) {
        try {
            Collective k = coll("reduce");
            if (getRank() == root) {
                k.reduce(MPI.IN_PLACE, 0, buf, 0, count, type, op, root, false);
            } else {
                k.reduce(buf, 0, null, 0, count, type, op, root, false);
            }
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root) {
        try {
            return coll("iReduce").reduce(sendbuf, 0, recvbuf, 0, count, type, op, root, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iReduce(Buffer buf, int count, Datatype type, Op op, int root) {
        try {
            Collective k = coll("iReduce");
            return getRank() == root ? k.reduce(MPI.IN_PLACE, 0, buf, 0, count, type, op, root, true)
                    : k.reduce(buf, 0, null, 0, count, type, op, root, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        try {
            coll("allReduce").allreduce(sendbuf, 0, recvbuf, 0, count, type, op, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void allReduce(Object buf, int count, Datatype type, Op op) {
        try {
            coll("allReduce").allreduce(MPI.IN_PLACE, 0, buf, 0, count, type, op, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) {
        try {
            return coll("iAllReduce").allreduce(sendbuf, 0, recvbuf, 0, count, type, op, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iAllReduce(Buffer buf, int count, Datatype type, Op op) {
        try {
            return coll("iAllReduce").allreduce(MPI.IN_PLACE, 0, buf, 0, count, type, op, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op) {
        try {
            coll("reduceScatter").reduceScatter(sendbuf, 0, recvbuf, 0, recvcounts, type, op, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) {
        try {
            coll("reduceScatter").reduceScatter(MPI.IN_PLACE, 0, buf, 0, counts, type, op, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts, Datatype type, Op op) {
        try {
            return coll("iReduceScatter").reduceScatter(sendbuf, 0, recvbuf, 0, recvcounts, type, op, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iReduceScatter(Buffer buf, int[] counts, Datatype type, Op op) {
        try {
            return coll("iReduceScatter").reduceScatter(MPI.IN_PLACE, 0, buf, 0, counts, type, op, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op) {
        try {
            coll("reduceScatterBlock").reduceScatterBlock(sendbuf, 0, recvbuf, 0, recvcount, type, op, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) {
        try {
            coll("reduceScatterBlock").reduceScatterBlock(MPI.IN_PLACE, 0, buf, 0, count, type, op, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount, Datatype type, Op op) {
        try {
            return coll("iReduceScatterBlock").reduceScatterBlock(sendbuf, 0, recvbuf, 0, recvcount, type, op, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iReduceScatterBlock(Buffer buf, int count, Datatype type, Op op) {
        try {
            return coll("iReduceScatterBlock").reduceScatterBlock(MPI.IN_PLACE, 0, buf, 0, count, type, op, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** {@code inoutbuf[i] = inbuf[i] op inoutbuf[i]} locally, no communication. */
}
