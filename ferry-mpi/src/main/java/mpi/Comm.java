package mpi;

import java.nio.Buffer;

/**
 * A communicator: point-to-point messaging and (on an intracommunicator) collectives among its
 * members, in the Open MPI bindings' names ({@link #send(Object, int, Datatype, int, int)},
 * {@link #iRecv}, {@link #getRank()}) and mpiJava 1.2's ({@link #Send}, {@link #Irecv},
 * {@link #Rank()}). Buffers are arrays of a primitive type (also {@code boolean[]} for
 * {@link MPI#BOOLEAN} and {@code Object[]} for {@link MPI#OBJECT}) or {@code java.nio} buffers,
 * direct ones without a copy.
 *
 * <pre>{@code
 * int[] token = {0};
 * if (MPI.COMM_WORLD.getRank() == 0) MPI.COMM_WORLD.send(token, 1, MPI.INT, 1, 7);
 * else MPI.COMM_WORLD.recv(token, 1, MPI.INT, 0, 7);
 * }</pre>
 */
public class Comm extends MpiJavaPointToPoint implements Freeable, Cloneable {
    /** The split type of {@link Intracomm#splitType}: processes that share memory (one node). */
    public static final int TYPE_SHARED = 0;

    /** Ferry's communicator; null for COMM_NULL and for COMM_WORLD / COMM_SELF before MPI.Init. */
    dev.ferry.Comm comm;
    volatile Errhandler errhandler = MPI.ERRORS_ARE_FATAL;
    /** mpiJava's public view of the group. */
    public Group group;
    private String name;
    private Info info;
    private final Attributes attributes = new Attributes();
    private boolean freed;
    /** The virtual topology (grid or graph), or null. */
    Topology topology;
    /** A duplicate of {@link #comm} for the large arrays of MPI.OBJECT collectives, made at the first; null until then. */
    private dev.ferry.Comm objectLane;

    Comm(dev.ferry.Comm comm) {
        bind(comm);
    }

    final void bind(dev.ferry.Comm c) {
        this.comm = c;
        this.group = c == null ? null : new Group(c.group());
    }

    final Errhandler errhandler() {
        return errhandler;
    }

    /** Ferry's communicator, or an error naming {@code what}. */
    final dev.ferry.Comm ferry(String what) {
        dev.ferry.Comm c = comm;
        if (c == null) {
            throw new MPIException(MPI.ERR_COMM, what + ": " + (freed ? "the communicator was freed"
                    : this == MPI.COMM_NULL ? "the communicator is MPI.COMM_NULL"
                    : MPI.isFinalized() ? "MPI was finalized" : "MPI is not initialized (call MPI.Init first)"));
        }
        return c;
    }

    /** The exception to throw for {@code e}, under this communicator's handler. */
    final MPIException fail(RuntimeException e) {
        return Errors.raise(errhandler, e);
    }

    /** A communicator of this class over {@code c} (null stays null), with this one's handler. */
    Comm wrap(dev.ferry.Comm c) {
        if (c == null) {
            return null;
        }
        Comm w = new Comm(c);
        w.errhandler = errhandler;
        return w;
    }

    // --- basics --------------------------------------------------------------------------------

    @Override
    public Comm clone() {
        return dup();
    }

    /** A communicator with the same members and a new context (collective). */
    public Comm dup() {
        try {
            Comm c = wrap(ferry("comm").dup());
            c.info = info == null ? null : info.dup();
            return c;
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** {@link #dup()}; Ferry makes the communicator before returning, so the request is already complete. */
    public Comm iDup() {
        Comm c = dup();
        c.pendingDup = Request.nullRequest();
        return c;
    }

    private Request pendingDup;

    /** The request of an {@link #iDup()} (complete). */
    public final Request getRequest() {
        return pendingDup == null ? Request.nullRequest() : pendingDup;
    }

    public Comm dupWithInfo(Info info) {
        Comm c = dup();
        c.info = info == null ? null : info.dup();
        return c;
    }

    public final int getSize() {
        try {
            return ferry("getSize").size();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final int getRank() {
        try {
            return ferry("getRank").rank();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** {@link MPI#IDENT}, {@link MPI#CONGRUENT}, {@link MPI#SIMILAR} or {@link MPI#UNEQUAL}. */
    public static int compare(Comm comm1, Comm comm2) {
        try {
            return MPI.comparison(comm1.ferry("comm1").compare(comm2.ferry("comm2")));
        } catch (RuntimeException e) {
            throw comm1.fail(e);
        }
    }

    @Override
    public final void free() {
        if (this == MPI.COMM_WORLD || this == MPI.COMM_SELF) {
            throw fail(new MPIException(MPI.ERR_COMM, "comm: " + name + " cannot be freed"));
        }
        dev.ferry.Comm c = comm;
        if (c != null) {
            if (objectLane != null) {
                objectLane.free();
                objectLane = null;
            }
            c.free();
            comm = null;
            freed = true;
        }
    }

    /**
     * The lane of MPI.OBJECT collectives' large arrays: a duplicate of this communicator (so that
     * those messages meet none of the program's receives), made at the first such collective,
     * which every member calls, so every member makes it there.
     */
    final synchronized dev.ferry.Comm objectLane() {
        if (objectLane == null) {
            objectLane = ferry("objectLane").dup();
        }
        return objectLane;
    }

    public final boolean isNull() {
        return comm == null;
    }

    public final void setInfo(Info info) {
        this.info = info == null ? null : info.dup();
    }

    public final Info getInfo() {
        return info == null ? new Info() : info.dup();
    }

    /** Frees the communicator (Ferry's free already waits for nothing pending). */
    public final void disconnect() {
        free();
    }

    public final Group getGroup() {
        try {
            return new Group(ferry("getGroup").group());
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final boolean isInter() {
        return this instanceof Intercomm;
    }

    // --- fault tolerance: ULFM, a Ferry extension (Open MPI's C names: MPIX_Comm_revoke and the rest) ---

    /**
     * Revokes the communicator at every member (MPIX_Comm_revoke; one member calls it): pending
     * and later operations on it fail with {@link MPI#ERR_REVOKED}, except the calls below.
     *
     * <pre>{@code
     * try { comm.allReduce(part, sum, 1, MPI.DOUBLE, MPI.SUM); }
     * catch (MPIException e) {
     *     comm.revoke();
     *     Intracomm survivors = comm.shrink();
     * }
     * }</pre>
     */
    public final void revoke() {
        try {
            ferry("revoke").revoke();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** Whether a member revoked it (MPIX_Comm_is_revoked). */
    public final boolean isRevoked() {
        return ferry("isRevoked").isRevoked();
    }

    /**
     * A communicator of the live members (MPIX_Comm_shrink; collective over the survivors, and
     * it works on a revoked communicator), agreed by all of them even when more fail meanwhile.
     */
    public final Intracomm shrink() {
        try {
            Intracomm c = new Intracomm(ferry("shrink").shrink());
            c.errhandler = errhandler;
            return c;
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /**
     * The bitwise AND of {@code flag} over the live members, the same at every survivor
     * (MPIX_Comm_agree; collective, also on a revoked communicator). Raises
     * {@link MPI#ERR_PROC_FAILED} at every survivor alike when a member failed whose failure not
     * all had acknowledged ({@link #ackFailed}).
     */
    public final int agree(int flag) {
        try {
            return ferry("agree").agree(flag);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** Starts {@link #agree} (MPIX_Comm_iagree): {@code flag[0]} in, and the agreed flags once the request completes. */
    public final Request iAgree(int[] flag) {
        try {
            return new Request(ferry("iAgree").iagree(flag), errhandler(), null);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** The members known here to have failed, in the order this process heard of them (MPIX_Comm_get_failed). */
    public final Group getFailed() {
        try {
            return new Group(ferry("getFailed").getFailed());
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /**
     * Acknowledges the first {@code numToAck} failures of {@link #getFailed()} (MPIX_Comm_ack_failed):
     * receives from {@link MPI#ANY_SOURCE} work again and {@link #agree} stops raising for them.
     * Returns how many are acknowledged.
     */
    public final int ackFailed(int numToAck) {
        try {
            return ferry("ackFailed").ackFailed(numToAck);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /**
     * An intercommunicator between {@code localComm}'s members and another, disjoint group
     * (MPI_Intercomm_create; collective over both groups), called on the peer communicator, in which
     * the leaders meet: {@code localLeader} is the local leader's rank in {@code localComm},
     * {@code remoteLeader} the remote leader's rank in this communicator (significant at the local
     * leader only), {@code tag} their messages' tag.
     */
    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag) {
        try {
            if (localComm == null) {
                throw new MPIException(MPI.ERR_COMM, "createIntercomm: localComm is null");
            }
            Intercomm c = new Intercomm(localComm.ferry("createIntercomm").createIntercomm(localLeader, comm, remoteLeader, tag));
            c.errhandler = localComm.errhandler;
            return c;
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    // --- point-to-point (Open MPI bindings) ----------------------------------------------------

    public final void send(Object buf, int count, Datatype type, int dest, int tag) {
        Send(buf, 0, count, type, dest, tag);
    }

    public final Status recv(Object buf, int count, Datatype type, int source, int tag) {
        return Recv(buf, 0, count, type, source, tag);
    }

    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag) {
        return Sendrecv(sendbuf, 0, sendcount, sendtype, dest, sendtag, recvbuf, 0, recvcount, recvtype, source, recvtag);
    }

    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source, int recvtag) {
        return Sendrecv_replace(buf, 0, count, type, dest, sendtag, source, recvtag);
    }

    /** A buffered send: copies the message into the buffer attached with {@link MPI#attachBuffer} and returns. */
    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) {
        Bsend(buf, 0, count, type, dest, tag);
    }

    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) {
        Ssend(buf, 0, count, type, dest, tag);
    }

    /** A ready send: the receive is posted already, so a standard send is one. */
    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) {
        Send(buf, 0, count, type, dest, tag);
    }

    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) {
        return Isend(buf, 0, count, type, dest, tag);
    }

    public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) {
        return Ibsend(buf, 0, count, type, dest, tag);
    }

    public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) {
        return Issend(buf, 0, count, type, dest, tag);
    }

    public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) {
        return Isend(buf, 0, count, type, dest, tag);
    }

    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) {
        return Irecv(buf, 0, count, type, source, tag);
    }

    public final Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag) {
        return Send_init(buf, 0, count, type, dest, tag);
    }

    public final Prequest bSendInit(Buffer buf, int count, Datatype type, int dest, int tag) {
        return Bsend_init(buf, 0, count, type, dest, tag);
    }

    public final Prequest sSendInit(Buffer buf, int count, Datatype type, int dest, int tag) {
        return Ssend_init(buf, 0, count, type, dest, tag);
    }

    public final Prequest rSendInit(Buffer buf, int count, Datatype type, int dest, int tag) {
        return Send_init(buf, 0, count, type, dest, tag);
    }

    public final Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag) {
        return Recv_init(buf, 0, count, type, source, tag);
    }

    /** Packs {@code incount} elements into {@code outbuf} from {@code position}; the position after them. */
    public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) {
        try {
            return Packing.pack(inbuf, 0, incount, type, outbuf, position);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** Unpacks {@code outcount} elements from {@code inbuf} at {@code position}; the position after them. */
    public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type) {
        try {
            return Packing.unpack(inbuf, position, outbuf, 0, outcount, type);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** Bytes {@link #pack} takes for {@code incount} elements. */
    public final int packSize(int incount, Datatype type) {
        try {
            return Math.toIntExact(incount * t(type, "type").size());
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Status iProbe(int source, int tag) {
        return Iprobe(source, tag);
    }

    public final Status probe(int source, int tag) {
        return Probe(source, tag);
    }

    // --- attributes, topology, errors, names ---------------------------------------------------

    public static int createKeyval() {
        return Attributes.createKeyval();
    }

    public static void freeKeyval(int keyval) {
        Attributes.freeKeyval(keyval);
    }

    public final void setAttr(int keyval, Object value) {
        attributes.set(keyval, value);
    }

    /** A cached attribute; for the predefined keys ({@link MPI#TAG_UB}, ...) their value. */
    public final Object getAttr(int keyval) {
        Object v = MPI.predefinedAttribute(keyval);
        return v != null ? v : attributes.get(keyval);
    }

    public final void deleteAttr(int keyval) {
        attributes.delete(keyval);
    }

    public Object Attr_get(int keyval) {
        return getAttr(keyval);
    }

    public void Attr_delete(int keyval) {
        deleteAttr(keyval);
    }

    /** {@link MPI#CART}, {@link MPI#GRAPH} or {@link MPI#UNDEFINED}. */
    public int getTopology() {
        return topology == null ? MPI.UNDEFINED : topology.kind;
    }

    public int Topo_test() {
        return getTopology();
    }

    /** Ends the whole job with {@code errorcode} as its exit status. */
    public final void abort(int errorcode) {
        MPI.abortJob(errorcode, "MPI abort on " + this + " with error code " + errorcode, null);
    }

    public void Abort(int errorcode) {
        abort(errorcode);
    }

    public final void setErrhandler(Errhandler errhandler) {
        this.errhandler = java.util.Objects.requireNonNull(errhandler, "errhandler");
    }

    public final Errhandler getErrhandler() {
        return errhandler;
    }

    public void Errhandler_set(Errhandler errhandler) {
        setErrhandler(errhandler);
    }

    public Errhandler Errhandler_get() {
        return errhandler;
    }

    /** Raises error class {@code errorCode} through this communicator's handler. */
    public void callErrhandler(int errorCode) {
        throw fail(new MPIException(errorCode, "error " + MPI.errorName(errorCode) + " raised by the program on " + this));
    }

    public final void setName(String name) {
        this.name = name;
    }

    public final String getName() {
        return name == null ? "" : name;
    }

    // --- mpiJava 1.2 basics --------------------------------------------------------------------

    public int Size() {
        return getSize();
    }

    public int Rank() {
        return getRank();
    }

    public Group Group() {
        return getGroup();
    }

    public static int Compare(Comm comm1, Comm comm2) {
        return compare(comm1, comm2);
    }

    public void Free() {
        free();
    }

    public boolean Test_inter() {
        return isInter();
    }

    public Intercomm Create_intercomm(Comm local_comm, int local_leader, int remote_leader, int tag) {
        return createIntercomm(local_comm, local_leader, remote_leader, tag);
    }

    // --- mpiJava's collectives: these on intracommunicators and intercommunicators alike, ---------
    // --- the others on Intracomm ------------------------------------------------------------------

    public void Barrier() {
        barrier();
    }

    public void Bcast(Object buf, int offset, int count, Datatype type, int root) {
        try {
            coll("bcast").bcast(buf, offset, count, type, root);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void Gather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                       Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        try {
            coll("gather").gather(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount, recvtype, root, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void Scatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                        Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        try {
            coll("scatter").scatter(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount, recvtype, root, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void Allgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                          Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        try {
            coll("allgather").allgather(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount, recvtype, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void Alltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        try {
            coll("alltoall").alltoall(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount, recvtype, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void Reduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype, Op op, int root) {
        try {
            coll("reduce").reduce(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, root, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void Allreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype, Op op) {
        try {
            coll("allreduce").allreduce(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void Gatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                        Object recvbuf, int recvoffset, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        try {
            coll("gatherv").gatherv(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount, displs, recvtype, root, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void Scatterv(Object sendbuf, int sendoffset, int[] sendcount, int[] displs, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        try {
            coll("scatterv").scatterv(sendbuf, sendoffset, sendcount, displs, sendtype, recvbuf, recvoffset, recvcount, recvtype, root, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void Allgatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                           Object recvbuf, int recvoffset, int[] recvcount, int[] displs, Datatype recvtype) {
        try {
            coll("allgatherv").allgatherv(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount, displs, recvtype, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void Alltoallv(Object sendbuf, int sendoffset, int[] sendcount, int[] sdispls, Datatype sendtype,
                          Object recvbuf, int recvoffset, int[] recvcount, int[] rdispls, Datatype recvtype) {
        try {
            coll("alltoallv").alltoallv(sendbuf, sendoffset, sendcount, sdispls, sendtype, recvbuf, recvoffset, recvcount, rdispls, recvtype, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    // --- collectives: the Open MPI bindings' are in CommCollectives ----------------------------

    @Override
    final Comm self() {
        return this;
    }

    @Override
    final Collective coll(String what) {
        return new Collective(this, ferry(what));
    }

    public static void reduceLocal(Object inbuf, Object inoutbuf, int count, Datatype datatype, Op op) {
        try {
            Collective.reduceLocal(inbuf, inoutbuf, count, datatype, op);
        } catch (RuntimeException e) {
            throw Errors.raise(MPI.COMM_WORLD.errhandler(), e);
        }
    }

    @Override
    public String toString() {
        return name != null ? name : comm == null ? "MPI.COMM_NULL" : comm.toString();
    }
}
