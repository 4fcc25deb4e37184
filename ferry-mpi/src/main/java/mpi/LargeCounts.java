package mpi;

import dev.ferry.Ferry;

/**
 * MPI-4's large-count calls ({@code MPI_Send_c}, {@code MPI_Bcast_c}, {@code MPI_Allreduce_c},
 * {@code MPI_Gatherv_c} and the rest), which Open MPI's Java bindings never had, as Ferry
 * extensions of {@link Comm}: each takes a {@code long} count (and {@code long[]} counts and
 * displacements for the v and w forms). Java's arrays and NIO buffers hold at most 2^31 - 1
 * elements, so what needs these forms is a {@link java.lang.foreign.MemorySegment} buffer, which
 * every one of them takes beside arrays and direct buffers, from its start. {@code MPI.OBJECT} and
 * {@code MPI.BOOLEAN} data take the int forms. The blocking collectives work on intercommunicators
 * too; the nonblocking ones on intracommunicators. (This class is not part of the API.)
 *
 * <pre>{@code
 * MemorySegment big = Arena.ofShared().allocate(3L << 30);             // 3 GiB
 * MPI.COMM_WORLD.bcast(big, big.byteSize(), MPI.BYTE, 0);
 * MPI.COMM_WORLD.allReduce(big, big.byteSize() / 8, MPI.DOUBLE, MPI.SUM);           // in place
 * if (rank == 0) MPI.COMM_WORLD.send(big, big.byteSize(), MPI.BYTE, 1, 0);
 * if (rank == 1) { Status s = MPI.COMM_WORLD.recv(big, big.byteSize(), MPI.BYTE, 0, 0); long n = s.getCountLong(MPI.BYTE); }
 * }</pre>
 */
abstract class LargeCounts extends CommCollectives {
    LargeCounts() {
    }

    /** Ferry's communicator, or an error naming {@code what}. */
    abstract dev.ferry.Comm ferry(String what);

    /** One call on Ferry's communicator. */
    @FunctionalInterface
    private interface Call<T> {
        T on(dev.ferry.Comm c);
    }

    /** Runs {@code call}, its errors raised under this communicator's handler. */
    private <T> T call(String what, Call<T> call) {
        try {
            return call.on(ferry(what));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** Starts {@code call}: its request. */
    private Request start(String what, Call<dev.ferry.Request> call) {
        return call(what, c -> new Request(call.on(c), errhandler(), null));
    }

    /** The memory a large-count call moves: a segment, a primitive array or a direct buffer, from its start; null stays null. */
    static Object b(Object buf, Datatype type, String what) {
        if (buf == null) {
            return null;
        }
        if (buf == MPI.IN_PLACE) {
            return Ferry.IN_PLACE;
        }
        if (type == null || MpiJavaPointToPoint.special(buf, type)) {
            throw new MPIException(MPI.ERR_TYPE, what + ": a long count takes a memory segment, a primitive array or a direct buffer of a basic or "
                    + "derived type, not " + (type == null ? "a null datatype" : "MPI.OBJECT or MPI.BOOLEAN data (their int forms take those)"));
        }
        return Buf.target(buf);
    }

    /** Where {@link #b} of {@code buf} starts, as Ferry's calls count offsets. */
    static long o(Object buf) {
        return buf == null || buf == MPI.IN_PLACE ? 0 : Buf.offset(buf, 0);
    }

    private static dev.ferry.Datatype t(Datatype type, String what) {
        return type == null ? null : MpiJavaPointToPoint.t(type, what);
    }

    private static dev.ferry.Datatype[] t(Datatype[] types, String what) {
        if (types == null) {
            throw new MPIException(MPI.ERR_TYPE, what + " is null");
        }
        dev.ferry.Datatype[] out = new dev.ferry.Datatype[types.length];
        for (int i = 0; i < types.length; i++) {
            out[i] = MpiJavaPointToPoint.t(types[i], what + "[" + i + "]");
        }
        return out;
    }

    private static dev.ferry.Op op(Op op, Datatype type) {
        if (op == null) {
            throw new MPIException(MPI.ERR_OP, "op is null");
        }
        return op.ferry(type);
    }

    // ---- point-to-point ------------------------------------------------------------------------------

    /**
     * {@code send(buf, count, type, dest, tag)} with a {@code long} count (MPI-4's {@code MPI_Send_c}):
     * a segment of more than 2^31 elements, say.
     */
    public final void send(Object buf, long count, Datatype type, int dest, int tag) {
        call("send", c -> {
            c.send(b(buf, type, "send"), o(buf), count, t(type, "type"), dest, tag);
            return null;
        });
    }

    /** A synchronous send with a {@code long} count (MPI-4's {@code MPI_Ssend_c}). */
    public final void sSend(Object buf, long count, Datatype type, int dest, int tag) {
        call("sSend", c -> {
            c.ssend(b(buf, type, "sSend"), o(buf), count, t(type, "type"), dest, tag);
            return null;
        });
    }

    /** A buffered send with a {@code long} count (MPI-4's {@code MPI_Bsend_c}): the attached buffer must hold it. */
    public final void bSend(Object buf, long count, Datatype type, int dest, int tag) {
        call("bSend", c -> {
            c.bsend(b(buf, type, "bSend"), o(buf), count, t(type, "type"), dest, tag);
            return null;
        });
    }

    /** A receive with a {@code long} count (MPI-4's {@code MPI_Recv_c}); see {@link Status#getCountLong}. */
    public final Status recv(Object buf, long count, Datatype type, int source, int tag) {
        return call("recv", c -> new Status(c.recv(b(buf, type, "recv"), o(buf), count, t(type, "type"), source, tag)).counted(type));
    }

    /** {@code iSend} with a {@code long} count (MPI-4's {@code MPI_Isend_c}). */
    public final Request iSend(Object buf, long count, Datatype type, int dest, int tag) {
        return start("iSend", c -> c.isend(b(buf, type, "iSend"), o(buf), count, t(type, "type"), dest, tag));
    }

    /** {@code iSsend} with a {@code long} count (MPI-4's {@code MPI_Issend_c}). */
    public final Request iSsend(Object buf, long count, Datatype type, int dest, int tag) {
        return start("iSsend", c -> c.issend(b(buf, type, "iSsend"), o(buf), count, t(type, "type"), dest, tag));
    }

    /** {@code iRecv} with a {@code long} count (MPI-4's {@code MPI_Irecv_c}); the request's status counts in long. */
    public final Request iRecv(Object buf, long count, Datatype type, int source, int tag) {
        return call("iRecv", c -> new Request(c.irecv(b(buf, type, "iRecv"), o(buf), count, t(type, "type"), source, tag), errhandler(), type));
    }

    /** {@code sendRecv} with {@code long} counts (MPI-4's {@code MPI_Sendrecv_c}). */
    public final Status sendRecv(Object sendbuf, long sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, long recvcount, Datatype recvtype, int source, int recvtag) {
        return call("sendRecv", c -> new Status(c.sendrecv(b(sendbuf, sendtype, "sendRecv"), o(sendbuf), sendcount, t(sendtype, "sendtype"), dest, sendtag,
                b(recvbuf, recvtype, "sendRecv"), o(recvbuf), recvcount, t(recvtype, "recvtype"), source, recvtag)).counted(recvtype));
    }

    /** {@code sendRecvReplace} with a {@code long} count (MPI-4's {@code MPI_Sendrecv_replace_c}). */
    public final Status sendRecvReplace(Object buf, long count, Datatype type, int dest, int sendtag, int source, int recvtag) {
        return call("sendRecvReplace", c -> new Status(c.sendrecvReplace(b(buf, type, "sendRecvReplace"), o(buf), count, t(type, "type"), dest, sendtag,
                source, recvtag)).counted(type));
    }

    /** {@code pack} with a {@code long} count into a segment (MPI-4's {@code MPI_Pack_c}); the position after the packed bytes. */
    public final long pack(Object inbuf, long incount, Datatype type, java.lang.foreign.MemorySegment outbuf, long position) {
        return call("pack", c -> t(type, "type").pack(b(inbuf, type, "pack"), o(inbuf), incount, outbuf, position));
    }

    /** {@code unpack} with a {@code long} count from a segment (MPI-4's {@code MPI_Unpack_c}); the position after the bytes read. */
    public final long unpack(java.lang.foreign.MemorySegment inbuf, long position, Object outbuf, long outcount, Datatype type) {
        return call("unpack", c -> t(type, "type").unpack(inbuf, position, b(outbuf, type, "unpack"), o(outbuf), outcount));
    }

    /** {@code reduceLocal} with a {@code long} count (MPI-4's {@code MPI_Reduce_local_c}). */
    public static void reduceLocal(Object inbuf, Object inoutbuf, long count, Datatype datatype, Op op) {
        try {
            if (op == null) {
                throw new MPIException(MPI.ERR_OP, "op is null");
            }
            op.ferry(datatype).reduceLocal(b(inbuf, datatype, "reduceLocal"), o(inbuf), b(inoutbuf, datatype, "reduceLocal"), o(inoutbuf), count,
                    t(datatype, "datatype"));
        } catch (RuntimeException e) {
            throw Errors.raise(MPI.COMM_WORLD.errhandler(), e);
        }
    }

    // ---- collectives ---------------------------------------------------------------------------------

    /** {@code bcast} with a {@code long} count (MPI-4's {@code MPI_Bcast_c}). */
    public final void bcast(Object buf, long count, Datatype type, int root) {
        call("bcast", c -> {
            c.bcast(b(buf, type, "bcast"), o(buf), count, t(type, "type"), root);
            return null;
        });
    }

    public final Request iBcast(Object buf, long count, Datatype type, int root) {
        return start("iBcast", c -> c.ibcast(b(buf, type, "iBcast"), o(buf), count, t(type, "type"), root));
    }

    /** {@code reduce} with a {@code long} count (MPI-4's {@code MPI_Reduce_c}). */
    public final void reduce(Object sendbuf, Object recvbuf, long count, Datatype type, Op op, int root) {
        call("reduce", c -> {
            c.reduce(b(sendbuf, type, "reduce"), o(sendbuf), b(recvbuf, type, "reduce"), o(recvbuf), count, t(type, "type"), op(op, type), root);
            return null;
        });
    }

    public final Request iReduce(Object sendbuf, Object recvbuf, long count, Datatype type, Op op, int root) {
        return start("iReduce", c -> c.ireduce(b(sendbuf, type, "iReduce"), o(sendbuf), b(recvbuf, type, "iReduce"), o(recvbuf), count,
                t(type, "type"), op(op, type), root));
    }

    /** {@code allReduce} with a {@code long} count (MPI-4's {@code MPI_Allreduce_c}). */
    public final void allReduce(Object sendbuf, Object recvbuf, long count, Datatype type, Op op) {
        call("allReduce", c -> {
            c.allreduce(b(sendbuf, type, "allReduce"), o(sendbuf), b(recvbuf, type, "allReduce"), o(recvbuf), count, t(type, "type"), op(op, type));
            return null;
        });
    }

    public final Request iAllReduce(Object sendbuf, Object recvbuf, long count, Datatype type, Op op) {
        return start("iAllReduce", c -> c.iallreduce(b(sendbuf, type, "iAllReduce"), o(sendbuf), b(recvbuf, type, "iAllReduce"), o(recvbuf), count,
                t(type, "type"), op(op, type)));
    }

    /** {@code reduceScatter} with {@code long} counts (MPI-4's {@code MPI_Reduce_scatter_c}). */
    public final void reduceScatter(Object sendbuf, Object recvbuf, long[] recvcounts, Datatype type, Op op) {
        iReduceScatter(sendbuf, recvbuf, recvcounts, type, op).waitFor();
    }

    public final Request iReduceScatter(Object sendbuf, Object recvbuf, long[] recvcounts, Datatype type, Op op) {
        return start("reduceScatter", c -> c.ireduceScatter(b(sendbuf, type, "reduceScatter"), o(sendbuf), b(recvbuf, type, "reduceScatter"), o(recvbuf),
                recvcounts, t(type, "type"), op(op, type)));
    }

    /** {@code reduceScatterBlock} with a {@code long} count (MPI-4's {@code MPI_Reduce_scatter_block_c}). */
    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, long recvcount, Datatype type, Op op) {
        iReduceScatterBlock(sendbuf, recvbuf, recvcount, type, op).waitFor();
    }

    public final Request iReduceScatterBlock(Object sendbuf, Object recvbuf, long recvcount, Datatype type, Op op) {
        return start("reduceScatterBlock", c -> c.ireduceScatterBlock(b(sendbuf, type, "reduceScatterBlock"), o(sendbuf),
                b(recvbuf, type, "reduceScatterBlock"), o(recvbuf), recvcount, t(type, "type"), op(op, type)));
    }

    /** {@code scan} with a {@code long} count (MPI-4's {@code MPI_Scan_c}). */
    public final void scan(Object sendbuf, Object recvbuf, long count, Datatype type, Op op) {
        iScan(sendbuf, recvbuf, count, type, op).waitFor();
    }

    public final Request iScan(Object sendbuf, Object recvbuf, long count, Datatype type, Op op) {
        return start("scan", c -> c.iscan(b(sendbuf, type, "scan"), o(sendbuf), b(recvbuf, type, "scan"), o(recvbuf), count, t(type, "type"),
                op(op, type)));
    }

    /** {@code exScan} with a {@code long} count (MPI-4's {@code MPI_Exscan_c}). */
    public final void exScan(Object sendbuf, Object recvbuf, long count, Datatype type, Op op) {
        iExScan(sendbuf, recvbuf, count, type, op).waitFor();
    }

    public final Request iExScan(Object sendbuf, Object recvbuf, long count, Datatype type, Op op) {
        return start("exScan", c -> c.iexscan(b(sendbuf, type, "exScan"), o(sendbuf), b(recvbuf, type, "exScan"), o(recvbuf), count, t(type, "type"),
                op(op, type)));
    }

    /** {@code gather} with {@code long} counts (MPI-4's {@code MPI_Gather_c}). */
    public final void gather(Object sendbuf, long sendcount, Datatype sendtype, Object recvbuf, long recvcount, Datatype recvtype, int root) {
        call("gather", c -> {
            c.gather(b(sendbuf, sendtype, "gather"), o(sendbuf), sendcount, t(sendtype, "sendtype"), b(recvbuf, recvtype, "gather"), o(recvbuf),
                    recvcount, t(recvtype, "recvtype"), root);
            return null;
        });
    }

    public final Request iGather(Object sendbuf, long sendcount, Datatype sendtype, Object recvbuf, long recvcount, Datatype recvtype, int root) {
        return start("iGather", c -> c.igather(b(sendbuf, sendtype, "iGather"), o(sendbuf), sendcount, t(sendtype, "sendtype"),
                b(recvbuf, recvtype, "iGather"), o(recvbuf), recvcount, t(recvtype, "recvtype"), root));
    }

    /** {@code gatherv} with {@code long} counts and displacements (MPI-4's {@code MPI_Gatherv_c}). */
    public final void gatherv(Object sendbuf, long sendcount, Datatype sendtype, Object recvbuf, long[] recvcount, long[] displs, Datatype recvtype, int root) {
        call("gatherv", c -> {
            c.gatherv(b(sendbuf, sendtype, "gatherv"), o(sendbuf), sendcount, t(sendtype, "sendtype"), b(recvbuf, recvtype, "gatherv"), o(recvbuf),
                    recvcount, displs, t(recvtype, "recvtype"), root);
            return null;
        });
    }

    public final Request iGatherv(Object sendbuf, long sendcount, Datatype sendtype, Object recvbuf, long[] recvcount, long[] displs, Datatype recvtype,
                                  int root) {
        return start("iGatherv", c -> c.igatherv(b(sendbuf, sendtype, "iGatherv"), o(sendbuf), sendcount, t(sendtype, "sendtype"),
                b(recvbuf, recvtype, "iGatherv"), o(recvbuf), recvcount, displs, t(recvtype, "recvtype"), root));
    }

    /** {@code scatter} with {@code long} counts (MPI-4's {@code MPI_Scatter_c}). */
    public final void scatter(Object sendbuf, long sendcount, Datatype sendtype, Object recvbuf, long recvcount, Datatype recvtype, int root) {
        call("scatter", c -> {
            c.scatter(b(sendbuf, sendtype, "scatter"), o(sendbuf), sendcount, t(sendtype, "sendtype"), b(recvbuf, recvtype, "scatter"), o(recvbuf),
                    recvcount, t(recvtype, "recvtype"), root);
            return null;
        });
    }

    public final Request iScatter(Object sendbuf, long sendcount, Datatype sendtype, Object recvbuf, long recvcount, Datatype recvtype, int root) {
        return start("iScatter", c -> c.iscatter(b(sendbuf, sendtype, "iScatter"), o(sendbuf), sendcount, t(sendtype, "sendtype"),
                b(recvbuf, recvtype, "iScatter"), o(recvbuf), recvcount, t(recvtype, "recvtype"), root));
    }

    /** {@code scatterv} with {@code long} counts and displacements (MPI-4's {@code MPI_Scatterv_c}). */
    public final void scatterv(Object sendbuf, long[] sendcount, long[] displs, Datatype sendtype, Object recvbuf, long recvcount, Datatype recvtype, int root) {
        call("scatterv", c -> {
            c.scatterv(b(sendbuf, sendtype, "scatterv"), o(sendbuf), sendcount, displs, t(sendtype, "sendtype"), b(recvbuf, recvtype, "scatterv"),
                    o(recvbuf), recvcount, t(recvtype, "recvtype"), root);
            return null;
        });
    }

    public final Request iScatterv(Object sendbuf, long[] sendcount, long[] displs, Datatype sendtype, Object recvbuf, long recvcount, Datatype recvtype,
                                   int root) {
        return start("iScatterv", c -> c.iscatterv(b(sendbuf, sendtype, "iScatterv"), o(sendbuf), sendcount, displs, t(sendtype, "sendtype"),
                b(recvbuf, recvtype, "iScatterv"), o(recvbuf), recvcount, t(recvtype, "recvtype"), root));
    }

    /** {@code allGather} with {@code long} counts (MPI-4's {@code MPI_Allgather_c}). */
    public final void allGather(Object sendbuf, long sendcount, Datatype sendtype, Object recvbuf, long recvcount, Datatype recvtype) {
        call("allGather", c -> {
            c.allgather(b(sendbuf, sendtype, "allGather"), o(sendbuf), sendcount, t(sendtype, "sendtype"), b(recvbuf, recvtype, "allGather"),
                    o(recvbuf), recvcount, t(recvtype, "recvtype"));
            return null;
        });
    }

    public final Request iAllGather(Object sendbuf, long sendcount, Datatype sendtype, Object recvbuf, long recvcount, Datatype recvtype) {
        return start("iAllGather", c -> c.iallgather(b(sendbuf, sendtype, "iAllGather"), o(sendbuf), sendcount, t(sendtype, "sendtype"),
                b(recvbuf, recvtype, "iAllGather"), o(recvbuf), recvcount, t(recvtype, "recvtype")));
    }

    /** {@code allGatherv} with {@code long} counts and displacements (MPI-4's {@code MPI_Allgatherv_c}). */
    public final void allGatherv(Object sendbuf, long sendcount, Datatype sendtype, Object recvbuf, long[] recvcount, long[] displs, Datatype recvtype) {
        call("allGatherv", c -> {
            c.allgatherv(b(sendbuf, sendtype, "allGatherv"), o(sendbuf), sendcount, t(sendtype, "sendtype"), b(recvbuf, recvtype, "allGatherv"),
                    o(recvbuf), recvcount, displs, t(recvtype, "recvtype"));
            return null;
        });
    }

    public final Request iAllGatherv(Object sendbuf, long sendcount, Datatype sendtype, Object recvbuf, long[] recvcount, long[] displs, Datatype recvtype) {
        return start("iAllGatherv", c -> c.iallgatherv(b(sendbuf, sendtype, "iAllGatherv"), o(sendbuf), sendcount, t(sendtype, "sendtype"),
                b(recvbuf, recvtype, "iAllGatherv"), o(recvbuf), recvcount, displs, t(recvtype, "recvtype")));
    }

    // the in-place forms, as the int forms have them

    /** In place: at the root {@code buf} holds its contribution and receives the result. */
    public final void reduce(Object buf, long count, Datatype type, Op op, int root) {
        if (getRank() == root) {
            reduce(MPI.IN_PLACE, buf, count, type, op, root);
        } else {
            reduce(buf, null, count, type, op, root);
        }
    }

    /** In place: {@code buf} holds this member's contribution and receives the result. */
    public final void allReduce(Object buf, long count, Datatype type, Op op) {
        allReduce(MPI.IN_PLACE, buf, count, type, op);
    }

    public final Request iAllReduce(Object buf, long count, Datatype type, Op op) {
        return iAllReduce(MPI.IN_PLACE, buf, count, type, op);
    }

    /** In place: {@code buf} holds every member's blocks and receives this member's. */
    public final void reduceScatterBlock(Object buf, long count, Datatype type, Op op) {
        reduceScatterBlock(MPI.IN_PLACE, buf, count, type, op);
    }

    public final void reduceScatter(Object buf, long[] counts, Datatype type, Op op) {
        reduceScatter(MPI.IN_PLACE, buf, counts, type, op);
    }

    /** In place: at the root {@code buf} receives and its own block stays; elsewhere it is what is sent. */
    public final void gather(Object buf, long count, Datatype type, int root) {
        if (getRank() == root) {
            gather(MPI.IN_PLACE, count, type, buf, count, type, root);
        } else {
            gather(buf, count, type, null, count, type, root);
        }
    }

    /** In place at the root. */
    public final void gatherv(Object recvbuf, long[] recvcount, long[] displs, Datatype recvtype, int root) {
        gatherv(MPI.IN_PLACE, 0L, recvtype, recvbuf, recvcount, displs, recvtype, root);
    }

    /** In place: the sending side of a non-root. */
    public final void gatherv(Object sendbuf, long sendcount, Datatype sendtype, int root) {
        gatherv(sendbuf, sendcount, sendtype, null, null, null, sendtype, root);
    }

    /** In place: at the root {@code buf} is sent from and its own block stays; elsewhere it receives. */
    public final void scatter(Object buf, long count, Datatype type, int root) {
        if (getRank() == root) {
            scatter(buf, count, type, MPI.IN_PLACE, count, type, root);
        } else {
            scatter(null, count, type, buf, count, type, root);
        }
    }

    /** In place at the root. */
    public final void scatterv(Object sendbuf, long[] sendcount, long[] displs, Datatype sendtype, int root) {
        scatterv(sendbuf, sendcount, displs, sendtype, MPI.IN_PLACE, 0L, sendtype, root);
    }

    /** In place: the receiving side of a non-root. */
    public final void scatterv(Object recvbuf, long recvcount, Datatype recvtype, int root) {
        scatterv(null, null, null, recvtype, recvbuf, recvcount, recvtype, root);
    }

    /** In place: {@code buf} holds this member's block at its place and receives the others'. */
    public final void allGather(Object buf, long count, Datatype type) {
        allGather(MPI.IN_PLACE, count, type, buf, count, type);
    }

    public final void allGatherv(Object recvbuf, long[] recvcount, long[] displs, Datatype recvtype) {
        allGatherv(MPI.IN_PLACE, 0L, recvtype, recvbuf, recvcount, displs, recvtype);
    }

    /** {@code allToAll} with {@code long} counts (MPI-4's {@code MPI_Alltoall_c}). */
    public final void allToAll(Object sendbuf, long sendcount, Datatype sendtype, Object recvbuf, long recvcount, Datatype recvtype) {
        call("allToAll", c -> {
            c.alltoall(b(sendbuf, sendtype, "allToAll"), o(sendbuf), sendcount, t(sendtype, "sendtype"), b(recvbuf, recvtype, "allToAll"),
                    o(recvbuf), recvcount, t(recvtype, "recvtype"));
            return null;
        });
    }

    public final Request iAllToAll(Object sendbuf, long sendcount, Datatype sendtype, Object recvbuf, long recvcount, Datatype recvtype) {
        return start("iAllToAll", c -> c.ialltoall(b(sendbuf, sendtype, "iAllToAll"), o(sendbuf), sendcount, t(sendtype, "sendtype"),
                b(recvbuf, recvtype, "iAllToAll"), o(recvbuf), recvcount, t(recvtype, "recvtype")));
    }

    /** {@code allToAllv} with {@code long} counts and displacements (MPI-4's {@code MPI_Alltoallv_c}). */
    public final void allToAllv(Object sendbuf, long[] sendcount, long[] sdispls, Datatype sendtype,
                                Object recvbuf, long[] recvcount, long[] rdispls, Datatype recvtype) {
        call("allToAllv", c -> {
            c.alltoallv(b(sendbuf, sendtype, "allToAllv"), o(sendbuf), sendcount, sdispls, t(sendtype, "sendtype"), b(recvbuf, recvtype, "allToAllv"),
                    o(recvbuf), recvcount, rdispls, t(recvtype, "recvtype"));
            return null;
        });
    }

    public final Request iAllToAllv(Object sendbuf, long[] sendcount, long[] sdispls, Datatype sendtype,
                                    Object recvbuf, long[] recvcount, long[] rdispls, Datatype recvtype) {
        return start("iAllToAllv", c -> c.ialltoallv(b(sendbuf, sendtype, "iAllToAllv"), o(sendbuf), sendcount, sdispls, t(sendtype, "sendtype"),
                b(recvbuf, recvtype, "iAllToAllv"), o(recvbuf), recvcount, rdispls, t(recvtype, "recvtype")));
    }

    /** {@code allToAllw} with {@code long} counts and byte displacements (MPI-4's {@code MPI_Alltoallw_c}). */
    public final void allToAllw(Object sendBuf, long[] sendCount, long[] sDispls, Datatype[] sendTypes,
                                Object recvBuf, long[] recvCount, long[] rDispls, Datatype[] recvTypes) {
        iAllToAllw(sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls, recvTypes).waitFor();
    }

    public final Request iAllToAllw(Object sendBuf, long[] sendCount, long[] sDispls, Datatype[] sendTypes,
                                    Object recvBuf, long[] recvCount, long[] rDispls, Datatype[] recvTypes) {
        Datatype any = sendTypes != null && sendTypes.length > 0 ? sendTypes[0] : MPI.BYTE; // the buffer's kind: each block has its own type
        return start("allToAllw", c -> c.ialltoallw(b(sendBuf, any, "allToAllw"), o(sendBuf), sendCount, sDispls, t(sendTypes, "sendTypes"),
                b(recvBuf, recvTypes != null && recvTypes.length > 0 ? recvTypes[0] : MPI.BYTE, "allToAllw"), o(recvBuf), recvCount, rDispls,
                t(recvTypes, "recvTypes")));
    }
}
