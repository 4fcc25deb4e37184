package dev.ferry;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.match.MatchEntry;
import dev.ferry.spi.DataLayout;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * A communicator: a group of ranks with a context of its own, so that its messages never match
 * receives of another. Point-to-point messaging has MPI's semantics: tags and the wildcards
 * {@link Ferry#ANY_SOURCE} and {@link Ferry#ANY_TAG}, {@link Ferry#PROC_NULL}, messages from one
 * sender on one communicator matched in the order sent, truncation reported, never written past
 * the buffer.
 *
 * <p>A buffer is a {@link MemorySegment}, a {@link java.nio.ByteBuffer} or a primitive array; the
 * offset counts array elements for an array, bytes for the others; the count counts elements of the
 * datatype. The forms without a datatype take the array's own element type (bytes for segments
 * and byte buffers).
 *
 * <pre>{@code
 * Comm world = ferry.world();
 * if (world.rank() == 0) {
 *     world.send(new int[] {1, 2, 3}, 0, 3, 1, 99);
 * } else if (world.rank() == 1) {
 *     int[] got = new int[3];
 *     Status s = world.recv(got, 0, 3, Ferry.ANY_SOURCE, 99);
 * }
 * Comm row = world.split(world.rank() / 4, world.rank());
 * }</pre>
 */
public final class Comm extends FaultTolerantCalls implements AutoCloseable {

    private final Ferry ferry;
    private final Messaging messaging;
    private final Engine engine;
    private final int id;
    /** The header contexts of this communicator's messages, and of its internal ones (collectives, creation). */
    final int context;
    private final int internal;
    private final int[] members;
    private final int[] localOf;
    /**
     * Whom point-to-point ranks name, by rank, and the reverse map from job ranks: the members,
     * or for an intercommunicator the remote group's.
     */
    private final int[] peers;
    private final int[] peerOf;
    /** An intercommunicator's local group as a communicator of its own (its collectives' local steps); null for an intracommunicator. */
    private final Comm localComm;
    private final int rank;
    private final Group group;
    private volatile boolean freed;
    /** The collectives (null for an intercommunicator: {@link #inter} does them). */
    private final Collectives collectives;
    private final InterCollectives inter;
    /** Collectives started on this communicator: the next one's tag. */
    private int collectiveSeq;

    Comm(Ferry ferry, int id, int[] members) {
        this(ferry, id, members, null, null);
    }

    /** An intercommunicator when {@code remote} (the remote group's job ranks) is given, with {@code localComm} over {@code members}. */
    Comm(Ferry ferry, int id, int[] members, int[] remote, Comm localComm) {
        this.ferry = ferry;
        this.messaging = ferry.messaging;
        this.engine = ferry.engine;
        this.id = id;
        this.context = 2 * id;
        this.internal = 2 * id + 1;
        this.members = members;
        this.localOf = new int[engine.size()];
        Arrays.fill(localOf, -1);
        for (int i = 0; i < members.length; i++) {
            localOf[members[i]] = i;
        }
        this.rank = localOf[engine.rank()];
        this.group = new Group(members, engine.rank());
        this.localComm = localComm;
        if (remote == null) {
            peers = members;
            peerOf = localOf;
            collectives = new Collectives(this, messaging, ferry.tuning, ferry.temps);
            inter = null;
        } else {
            peers = remote;
            peerOf = new int[engine.size()];
            Arrays.fill(peerOf, -1);
            for (int i = 0; i < remote.length; i++) {
                peerOf[remote[i]] = i;
            }
            collectives = null;
            inter = new InterCollectives(this, localComm);
        }
        messaging.register(this);
    }

    /** This process's rank in the communicator. */
    public int rank() {
        return rank;
    }

    public int size() {
        return members.length;
    }

    /** The members, as a group. */
    public Group group() {
        return group;
    }

    Messaging messaging() {
        return messaging;
    }

    Ferry ferry() {
        return ferry;
    }

    /** The job (world) rank of the peer that point-to-point rank {@code r} names (the remote group's for an intercommunicator). */
    int world(int r) {
        return peers[r];
    }

    /** The point-to-point rank here of job rank {@code worldRank} (in the remote group for an intercommunicator), or -1. */
    int local(int worldRank) {
        return worldRank < 0 ? worldRank : peerOf[worldRank];
    }

    /** How many ranks point-to-point addresses: the size, or an intercommunicator's remote size. */
    int peerCount() {
        return peers.length;
    }

    /**
     * How this rank reaches point-to-point rank {@code rank} (of the remote group for an
     * intercommunicator): its node, locality, drivers and protocols. See {@link Route}.
     *
     * @throws FerryException RANK when {@code rank} is not one of the communicator's
     */
    public Route route(int rank) {
        if (rank < 0 || rank >= peerCount()) {
            throw new FerryException(ErrorClass.RANK, "route: " + rank + " is outside the " + (isInter() ? "remote group's" : "communicator's")
                    + " ranks 0.." + (peerCount() - 1));
        }
        return Route.of(ferry.engine, rank, world(rank));
    }

    /** Whether this is an intercommunicator: point-to-point ranks name the remote group. */
    public boolean isInter() {
        return localComm != null;
    }

    /** The remote group's size (an intercommunicator's); the size for an intracommunicator. */
    public int remoteSize() {
        return peers.length;
    }

    /** The remote group (an intercommunicator's); the group for an intracommunicator. */
    public Group remoteGroup() {
        return localComm == null ? group : new Group(peers, engine.rank());
    }

    // ---- point-to-point ---------------------------------------------------------------------------

    /** Sends {@code count} elements of {@code type} from {@code buf} at {@code offset}; returns when the buffer may be reused. */
    public void send(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        blockingSend(buf, offset, count, type, dest, tag, false);
    }

    private void blockingSend(Object buf, long offset, long count, Datatype type, int dest, int tag, boolean sync) {
        FerryEvents.Send ev = FerryEvents.send();
        sendAndWait(buf, offset, count, type, dest, tag, sync);
        if (ev != null) {
            FerryEvents.commit(ev, this, dest, tag, count * type.size, true, sync);
        }
    }

    private void sendAndWait(Object buf, long offset, long count, Datatype type, int dest, int tag, boolean sync) {
        Scratch s = messaging.scratch();
        if (s.sendBusy) { // a blocking call inside another of this thread's (a future's callback)
            startSend(context, buf, offset, count, type, dest, tag, sync, null).await();
            return;
        }
        s.sendBusy = true;
        try {
            Request r = startSend(context, buf, offset, count, type, dest, tag, sync, s);
            if (!s.sentAtOnce(r)) { // most eager sends left in the engine's call: no wait to set up
                r.await();
            }
        } finally {
            s.sendBusy = false;
        }
    }

    /** {@link #send(Object, int, int, Datatype, int, int)} with the array's own element type. */
    public void send(Object buf, int offset, int count, int dest, int tag) {
        send(buf, offset, count, Buffers.typeOf(buf, "buffer"), dest, tag);
    }

    /** Starts a send; the buffer must not change until the request completes. */
    public Request isend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return isend(buf, (long) offset, count, type, dest, tag);
    }

    public Request isend(Object buf, int offset, int count, int dest, int tag) {
        return isend(buf, offset, count, Buffers.typeOf(buf, "buffer"), dest, tag);
    }

    /** A synchronous send: returns once a receive at {@code dest} has matched the message. */
    public void ssend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        blockingSend(buf, offset, count, type, dest, tag, true);
    }

    public void ssend(Object buf, int offset, int count, int dest, int tag) {
        ssend(buf, offset, count, Buffers.typeOf(buf, "buffer"), dest, tag);
    }

    /** Starts a synchronous send: the request completes once a receive at {@code dest} matched it. */
    public Request issend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return issend(buf, (long) offset, count, type, dest, tag);
    }

    public Request issend(Object buf, int offset, int count, int dest, int tag) {
        return issend(buf, offset, count, Buffers.typeOf(buf, "buffer"), dest, tag);
    }

    // ---- large counts (MPI-4's _c forms): the same calls with a long offset and count -----------------
    //
    // A segment may hold more than 2^31 elements, or 2^32 bytes: these forms send and receive all of
    // it in one message. The int forms above are these with the arguments widened.

    /**
     * {@link #send(Object, int, int, Datatype, int, int)} with a {@code long} offset and count (MPI's
     * {@code MPI_Send_c}): a message of any length the buffer holds.
     *
     * <pre>{@code
     * MemorySegment big = arena.allocate(3L << 30);        // 3 GiB
     * world.send(big, 0L, big.byteSize(), Datatype.BYTE, 1, 0);
     * // at rank 1:
     * Status s = world.recv(in, 0L, in.byteSize(), Datatype.BYTE, 0, 0);
     * long got = s.countLong();
     * }</pre>
     */
    public void send(Object buf, long offset, long count, Datatype type, int dest, int tag) {
        blockingSend(buf, offset, count, type, dest, tag, false);
    }

    /** {@link #isend(Object, int, int, Datatype, int, int)} with a long offset and count. */
    public Request isend(Object buf, long offset, long count, Datatype type, int dest, int tag) {
        return startRecorded(buf, offset, count, type, dest, tag, false);
    }

    /** {@link #ssend(Object, int, int, Datatype, int, int)} with a long offset and count. */
    public void ssend(Object buf, long offset, long count, Datatype type, int dest, int tag) {
        blockingSend(buf, offset, count, type, dest, tag, true);
    }

    /** {@link #issend(Object, int, int, Datatype, int, int)} with a long offset and count. */
    public Request issend(Object buf, long offset, long count, Datatype type, int dest, int tag) {
        return startRecorded(buf, offset, count, type, dest, tag, true);
    }

    /** A nonblocking send of the user's, with its Flight Recorder event when sends are recorded. */
    private Request startRecorded(Object buf, long offset, long count, Datatype type, int dest, int tag, boolean sync) {
        FerryEvents.Send ev = FerryEvents.send();
        Request r = startSend(context, buf, offset, count, type, dest, tag, sync, null);
        if (ev != null) {
            FerryEvents.commit(ev, this, dest, tag, count * type.size, false, sync);
        }
        return r;
    }

    /** {@link #recv(Object, int, int, Datatype, int, int)} with a long offset and count; {@link Status#countLong()} tells the length. */
    public Status recv(Object buf, long offset, long count, Datatype type, int source, int tag) {
        return blockingRecv(buf, offset, count, type, source, tag);
    }

    /** {@link #irecv(Object, int, int, Datatype, int, int)} with a long offset and count. */
    public Request irecv(Object buf, long offset, long count, Datatype type, int source, int tag) {
        FerryEvents.Receive ev = FerryEvents.receive();
        Request r = startRecv(context, buf, offset, count, type, source, tag, null);
        if (ev != null) {
            FerryEvents.commit(ev, this, source, tag, count * type.size, false);
        }
        return r;
    }

    /** {@link #sendrecv} with long offsets and counts. */
    public Status sendrecv(Object sendBuf, long sendOffset, long sendCount, Datatype sendType, int dest, int sendTag,
                           Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int source, int recvTag) {
        Request r = irecv(recvBuf, recvOffset, recvCount, recvType, source, recvTag);
        Request s = isend(sendBuf, sendOffset, sendCount, sendType, dest, sendTag);
        s.await();
        return r.await();
    }

    /**
     * A buffered send: copies the message into the buffer attached with {@link Ferry#attachBuffer}
     * and returns, whatever the receiver does (MPI's {@code MPI_Bsend}); the copy is sent from
     * there, and its space freed once it has gone.
     *
     * <pre>{@code
     * ferry.attachBuffer(new byte[400_000 + Ferry.BSEND_OVERHEAD]);
     * world.bsend(block, 0, 100_000, Datatype.INT, peer, 0); // both ranks: no deadlock
     * world.recv(got, 0, 100_000, Datatype.INT, peer, 0);
     * ferry.detachBuffer();
     * }</pre>
     *
     * @throws FerryException {@link ErrorClass#BUFFER} when no buffer is attached, or when the
     *         message's packed size plus {@link Ferry#BSEND_OVERHEAD} does not fit in its free space
     */
    public void bsend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        ibsend(buf, offset, count, type, dest, tag);
    }

    public void bsend(Object buf, int offset, int count, int dest, int tag) {
        bsend(buf, offset, count, Buffers.typeOf(buf, "buffer"), dest, tag);
    }

    /**
     * Starts a buffered send (MPI's {@code MPI_Ibsend}): as {@link #bsend}, the message is copied
     * into the attached buffer before this returns, so the request is complete at once.
     */
    public Request ibsend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return ibsend(buf, (long) offset, count, type, dest, tag);
    }

    /** {@link #bsend(Object, int, int, Datatype, int, int)} with a long offset and count (MPI's {@code MPI_Bsend_c}). */
    public void bsend(Object buf, long offset, long count, Datatype type, int dest, int tag) {
        ibsend(buf, offset, count, type, dest, tag);
    }

    /** {@link #ibsend(Object, int, int, Datatype, int, int)} with a long offset and count (MPI's {@code MPI_Ibsend_c}). */
    public Request ibsend(Object buf, long offset, long count, Datatype type, int dest, int tag) {
        checkLive();
        checkDest(dest);
        checkSendTag(tag);
        MemorySegment from = Buffers.elements(buf, offset, count, type, false, "buffer");
        if (dest == Ferry.PROC_NULL) {
            return Request.completed(messaging, Status.ok(Ferry.PROC_NULL, Ferry.ANY_TAG, 0, 1));
        }
        return ferry.bsends.send(this, from, count, type, dest, tag);
    }

    public Request ibsend(Object buf, int offset, int count, int dest, int tag) {
        return ibsend(buf, offset, count, Buffers.typeOf(buf, "buffer"), dest, tag);
    }

    /**
     * Receives into {@code buf} the earliest message from {@code source} (or {@link Ferry#ANY_SOURCE})
     * with {@code tag} (or {@link Ferry#ANY_TAG}). Throws with {@link ErrorClass#TRUNCATE} when the
     * message is longer than {@code count} elements (the buffer then holds its first part).
     */
    public Status recv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return blockingRecv(buf, offset, count, type, source, tag);
    }

    private Status blockingRecv(Object buf, long offset, long count, Datatype type, int source, int tag) {
        FerryEvents.Receive ev = FerryEvents.receive();
        Status st = receiveAndWait(buf, offset, count, type, source, tag);
        if (ev != null) {
            FerryEvents.commit(ev, this, st.source(), st.tag(), st.bytes(), true);
        }
        return st;
    }

    private Status receiveAndWait(Object buf, long offset, long count, Datatype type, int source, int tag) {
        Scratch s = messaging.scratch();
        try {
            if (s.recvBusy) {
                return startRecv(context, buf, offset, count, type, source, tag, null).await();
            }
            s.recvBusy = true;
            try {
                return startRecv(context, buf, offset, count, type, source, tag, s).await();
            } finally {
                s.recvBusy = false;
            }
        } catch (FerryException e) {
            if (e.errorClass() == ErrorClass.PROC_FAILED_PENDING) { // nothing stays pending after a blocking call: ULFM says PROC_FAILED
                throw new FerryException(ErrorClass.PROC_FAILED, e.getMessage());
            }
            throw e;
        }
    }

    public Status recv(Object buf, int offset, int count, int source, int tag) {
        return recv(buf, offset, count, Buffers.typeOf(buf, "buffer"), source, tag);
    }

    /** Posts a receive; see {@link #recv(Object, int, int, Datatype, int, int)}. */
    public Request irecv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return irecv(buf, (long) offset, count, type, source, tag);
    }

    public Request irecv(Object buf, int offset, int count, int source, int tag) {
        return irecv(buf, offset, count, Buffers.typeOf(buf, "buffer"), source, tag);
    }

    /** Sends and receives at once (no deadlock between two ranks that exchange); the receive's status. */
    public Status sendrecv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, int dest, int sendTag,
                           Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int source, int recvTag) {
        return sendrecv(sendBuf, (long) sendOffset, sendCount, sendType, dest, sendTag, recvBuf, (long) recvOffset, recvCount, recvType, source, recvTag);
    }

    /** Sends the buffer's elements and replaces them with those received. */
    public Status sendrecvReplace(Object buf, int offset, int count, Datatype type, int dest, int sendTag, int source, int recvTag) {
        return sendrecvReplace(buf, (long) offset, (long) count, type, dest, sendTag, source, recvTag);
    }

    /** {@link #sendrecvReplace(Object, int, int, Datatype, int, int, int, int)} with a long offset and count. */
    public Status sendrecvReplace(Object buf, long offset, long count, Datatype type, int dest, int sendTag, int source, int recvTag) {
        checkLive();
        MemorySegment region = Buffers.contiguous(buf, offset, count, type, true, "buffer"); // all the elements reach, gaps included
        long n = region.byteSize();
        java.lang.foreign.Arena large = n > Integer.MAX_VALUE - 16 ? java.lang.foreign.Arena.ofShared() : null; // past an array: off-heap, freed here
        Request r = null;
        try {
            MemorySegment copy = large == null ? MemorySegment.ofArray(new byte[(int) n]) : large.allocate(n, 8);
            MemorySegment.copy(region, 0, copy, 0, n); // the gaps of a derived type stay as they were
            r = irecv(copy, 0L, count, type, source, recvTag);
            Request s = isend(buf, offset, count, type, dest, sendTag);
            s.await();
            Status st = r.await();
            MemorySegment.copy(copy, 0, region, 0, n);
            return st;
        } finally {
            if (large != null && (r == null || r.isDone())) { // a receive still pending (the send failed) keeps its memory
                large.close();
            }
        }
    }

    /** Waits for a message from {@code source} with {@code tag} (wildcards allowed) without receiving it. */
    public Status probe(int source, int tag) {
        return waitFor(() -> iprobe(source, tag));
    }

    /** Polls {@code look} (which makes progress) until it answers, idling between looks as every wait does. */
    private <T> T waitFor(java.util.function.Supplier<T> look) {
        long start = System.nanoTime(), now = start;
        for (int round = 1; ; round++) {
            T found = look.get();
            if (found != null) {
                return found;
            }
            engine.idleStrategy().idle(now - start);
            if (dev.ferry.spi.IdleStrategy.DEFAULT.clockDue(round, now - start)) {
                now = System.nanoTime();
            }
        }
    }

    /** The status of a waiting message from {@code source} with {@code tag}, or null when none is there. */
    public Status iprobe(int source, int tag) {
        dev.ferry.core.request.Message m = find(source, tag, false);
        if (source == Ferry.PROC_NULL) {
            return Status.ok(Ferry.PROC_NULL, Ferry.ANY_TAG, 0, 1);
        }
        return m == null ? null : Status.ok(local(m.source()), Envelope.tag(m.header()), m.length(), 1);
    }

    /** Waits for a message as {@link #probe} does and takes it: only {@link Message#recv} receives it now. */
    public Message mprobe(int source, int tag) {
        return waitFor(() -> improbe(source, tag));
    }

    /** A waiting message taken for {@link Message#recv}, or null when none is there. */
    public Message improbe(int source, int tag) {
        dev.ferry.core.request.Message m = find(source, tag, true);
        if (source == Ferry.PROC_NULL) {
            return new Message(this, null, Ferry.PROC_NULL, Ferry.ANY_TAG);
        }
        return m == null ? null : new Message(this, m, local(m.source()), Envelope.tag(m.header()));
    }

    private dev.ferry.core.request.Message find(int source, int tag, boolean take) {
        checkLive();
        checkSource(source);
        checkRecvTag(tag);
        if (source == Ferry.PROC_NULL) {
            return null;
        }
        int sw = source == Ferry.ANY_SOURCE ? MatchEntry.ANY : peers[source];
        messaging.progress();
        dev.ferry.core.request.Message[] found = new dev.ferry.core.request.Message[1];
        engine.runSerialized(() -> found[0] = take ? messaging.take(context, sw, tag) : messaging.peek(context, sw, tag));
        if (found[0] == null && sw >= 0 && messaging.failure(sw) != null) {
            throw new FerryException(ErrorClass.PROC_FAILED, "probe for rank " + source + ": " + messaging.failure(sw));
        }
        return found[0];
    }

    /** Receives a matched probe's message (package use by {@link Message}). */
    Request receiveMatched(dev.ferry.core.request.Message m, Object buf, long offset, long count, Datatype type) {
        RecvOp op = newRecv(context, buf, offset, count, type, MatchEntry.ANY, MatchEntry.ANY);
        op.matchedMessage = m;
        engine.runSerialized(op);
        return op;
    }

    // ---- persistent point-to-point -----------------------------------------------------------------

    /**
     * A persistent send (MPI's {@code MPI_Send_init}): checked and mapped now, sent anew by each
     * {@link PersistentRequest#start()}; the buffer may change between rounds, not during one.
     *
     * <pre>{@code
     * PersistentRequest s = world.sendInit(halo, 0, n, Datatype.DOUBLE, right, 0);
     * PersistentRequest r = world.recvInit(ghost, 0, n, Datatype.DOUBLE, left, 0);
     * for (int step = 0; step < steps; step++) {
     *     PersistentRequest.startAll(r, s);
     *     Request.waitAll(r, s);
     * }
     * }</pre>
     */
    public PersistentRequest sendInit(Object buf, long offset, long count, Datatype type, int dest, int tag) {
        return persistentSend(buf, offset, count, type, dest, tag, false);
    }

    /** A persistent synchronous send (MPI's {@code MPI_Ssend_init}): each round completes once a receive matched it. */
    public PersistentRequest ssendInit(Object buf, long offset, long count, Datatype type, int dest, int tag) {
        return persistentSend(buf, offset, count, type, dest, tag, true);
    }

    private PersistentRequest persistentSend(Object buf, long offset, long count, Datatype type, int dest, int tag, boolean sync) {
        checkLive();
        checkDest(dest);
        checkSendTag(tag);
        Object data = type == null || !type.contiguous ? Buffers.layout(buf, offset, count, type, false, "buffer")
                : Buffers.contiguous(buf, offset, count, type, false, "buffer");
        return new PersistentSend(this, data, dest, tag, sync);
    }

    /** A persistent receive (MPI's {@code MPI_Recv_init}); see {@link #sendInit}. */
    public PersistentRequest recvInit(Object buf, long offset, long count, Datatype type, int source, int tag) {
        checkLive();
        checkSource(source);
        checkRecvTag(tag);
        Object data = type == null || !type.contiguous ? Buffers.layout(buf, offset, count, type, true, "buffer")
                : Buffers.contiguous(buf, offset, count, type, true, "buffer");
        return new PersistentRecv(this, data, type.size(), source, tag);
    }

    // ---- partitioned communication (MPI-4) ------------------------------------------------------------

    /**
     * A partitioned send (MPI's {@code MPI_Psend_init}) of {@code partitions} parts of {@code count}
     * elements of {@code type} from the start of {@code buf}: see {@link PartitionedRequest}. It is
     * matched with the receiver's {@link #precvInit} by source and tag, in the order of the calls;
     * the tag is within 0..2^30 - 1.
     */
    public PartitionedRequest psendInit(Object buf, int partitions, long count, Datatype type, int dest, int tag) {
        return new PartitionedSend(this, buf, partitions, count, type, dest, tag);
    }

    /** A partitioned receive (MPI's {@code MPI_Precv_init}) from {@code source} (not {@link Ferry#ANY_SOURCE}); see {@link #psendInit}. */
    public PartitionedRequest precvInit(Object buf, int partitions, long count, Datatype type, int source, int tag) {
        return new PartitionedRecv(this, buf, partitions, count, type, source, tag);
    }

    // ---- the machinery ------------------------------------------------------------------------------

    /** Starts a send; {@code s}: the calling thread's scratch for a blocking one (its send and slice reused), or null. */
    private Request startSend(int ctx, Object buf, long offset, long count, Datatype type, int dest, int tag, boolean sync, Scratch s) {
        checkLive();
        checkDest(dest);
        if (ctx == context) {
            checkSendTag(tag);
        }
        Object data = type == null || !type.contiguous ? Buffers.layout(buf, offset, count, type, false, "buffer")
                : s != null ? Buffers.contiguous(buf, offset, count, type, false, "buffer", s.sendSlice)
                : Buffers.contiguous(buf, offset, count, type, false, "buffer");
        if (dest == Ferry.PROC_NULL) {
            return Request.completed(messaging, Status.ok(Ferry.PROC_NULL, Ferry.ANY_TAG, 0, 1));
        }
        SendOp op = s != null ? s.send.set(this, dest, tag, sync) : new SendOp(messaging, this, dest, tag, sync);
        if (sync) {
            long h = Envelope.header(ctx, tag, Envelope.SYNC, 0);
            engine.runSerialized(() -> messaging.startSynchronous(op, h, data));
        } else {
            sendStandard(op, ctx, data);
        }
        return op;
    }

    /** Hands a standard send of {@code data} (a segment or a layout) to the engine, or fails it when its peer is dead. */
    private void sendStandard(SendOp op, int ctx, Object data) {
        long h = Envelope.header(ctx, op.tag, Envelope.STANDARD, 0);
        String dead = messaging.failure(op.destWorld);
        if (dead != null) {
            op.finish(Status.failed(op.dest, op.tag, ErrorClass.PROC_FAILED, op + ": " + dead));
        } else if (data instanceof MemorySegment m) {
            engine.send(op.engineSend.to(op.destWorld, h, m));
        } else {
            engine.send(op.engineSend.to(op.destWorld, h, (DataLayout) data));
        }
    }

    /** A standard send of {@code data} on this communicator's context, on {@code op} (set up): a buffered send's copy. */
    void sendCopy(SendOp op, MemorySegment data) {
        sendStandard(op, context, data);
    }

    /** Starts a receive; {@code s}: the calling thread's scratch for a blocking one, or null. */
    private Request startRecv(int ctx, Object buf, long offset, long count, Datatype type, int source, int tag, Scratch s) {
        checkLive();
        checkSource(source);
        if (ctx == context) {
            checkRecvTag(tag);
        }
        int sw = source == Ferry.ANY_SOURCE ? MatchEntry.ANY : source == Ferry.PROC_NULL ? Ferry.PROC_NULL : peers[source];
        RecvOp op = s != null && type != null && type.contiguous
                ? s.recv.set(this, ctx, Buffers.contiguous(buf, offset, count, type, true, "buffer", s.recvSlice), null, type.size(), sw, tag)
                : newRecv(ctx, buf, offset, count, type, sw, tag);
        if (source == Ferry.PROC_NULL) {
            op.finish(Status.ok(Ferry.PROC_NULL, Ferry.ANY_TAG, 0, type.size()));
            return op;
        }
        return post(op, s != null);
    }

    /** Runs a receive's matching in the engine's thread of control; a {@code blocking} one looks at once: one hold of the engine, not two. */
    private RecvOp post(RecvOp op, boolean blocking) {
        if (blocking) {
            engine.runSerializedThenProgress(op);
        } else {
            engine.runSerialized(op);
        }
        return op;
    }

    private RecvOp newRecv(int ctx, Object buf, long offset, long count, Datatype type, int sourceWorld, int tag) {
        if (type != null && type.contiguous) {
            return new RecvOp(messaging, this, ctx, Buffers.contiguous(buf, offset, count, type, true, "buffer"), null, type.size(), sourceWorld, tag);
        }
        DataLayout l = Buffers.layout(buf, offset, count, type, true, "buffer");
        return new RecvOp(messaging, this, ctx, null, l, type.size(), sourceWorld, tag);
    }

    void checkLive() {
        if (freed) {
            throw new FerryException(ErrorClass.COMM, this + " was freed");
        }
        if (revoked) {
            throw new FerryException(ErrorClass.REVOKED, this + " was revoked: only revoke, agree, shrink, getFailed, ackFailed and free work on it");
        }
    }

    /** Whether job rank {@code worldRank} is a member, or of an intercommunicator's remote group. */
    boolean reaches(int worldRank) {
        return localOf[worldRank] >= 0 || peerOf[worldRank] >= 0;
    }

    /** Every job rank it reaches: the members, and an intercommunicator's remote group. */
    int[] everyone() {
        if (peers == members) {
            return members;
        }
        return IntStream.concat(Arrays.stream(members), Arrays.stream(peers)).toArray();
    }


    void checkDest(int dest) {
        if (dest != Ferry.PROC_NULL && (dest < 0 || dest >= peers.length)) {
            throw new FerryException(ErrorClass.RANK, "dest: " + dest + " is outside the " + (isInter() ? "remote group's" : "communicator's")
                    + " ranks 0.." + (peers.length - 1));
        }
    }

    void checkSource(int source) {
        if (source != Ferry.PROC_NULL && source != Ferry.ANY_SOURCE && (source < 0 || source >= peers.length)) {
            throw new FerryException(ErrorClass.RANK, "source: " + source + " is outside the " + (isInter() ? "remote group's" : "communicator's")
                    + " ranks 0.." + (peers.length - 1));
        }
    }

    private static void checkSendTag(int tag) {
        if (tag < 0) {
            throw new FerryException(ErrorClass.TAG, "tag: " + tag + " is negative (a send's tag is 0.." + Ferry.TAG_UB + ")");
        }
    }

    private static void checkRecvTag(int tag) {
        if (tag < 0 && tag != Ferry.ANY_TAG) {
            throw new FerryException(ErrorClass.TAG, "tag: " + tag + " is negative and not ANY_TAG");
        }
    }

    /** A collective's send of packed bytes on the internal context (engine's thread of control or any thread). */
    Request collectiveSend(MemorySegment m, int dest, int tag) {
        return startSend(internal, m, 0, m.byteSize(), Datatype.BYTE, dest, tag, false, null);
    }

    Request collectiveRecv(MemorySegment m, int source, int tag) {
        return startRecv(internal, m, 0, m.byteSize(), Datatype.BYTE, source, tag, null);
    }

    /**
     * {@link #collectiveSend} for a blocking collective run in the caller's thread, which checked
     * this communicator and computes its peers' ranks: no argument checks and no view (the
     * segment is the data), which an 8-byte collective would feel. On the calling thread's reused
     * send request ({@code s}: its scratch, or null for a new one).
     */
    Request collectiveSend(MemorySegment m, int dest, int tag, Scratch s) {
        SendOp op = s != null ? s.send.set(this, dest, tag, false) : new SendOp(messaging, this, dest, tag, false);
        sendStandard(op, internal, m);
        return op;
    }

    /** {@link #collectiveRecv} likewise (see {@link #collectiveSend(MemorySegment, int, int, Scratch)}). */
    Request collectiveRecv(MemorySegment m, int source, int tag, Scratch s) {
        RecvOp op = s != null ? s.recv.set(this, internal, m, null, 1, peers[source], tag)
                : new RecvOp(messaging, this, internal, m, null, 1, peers[source], tag);
        return post(op, s != null);
    }

    /**
     * Starts a persistent send's round: prepared {@code data} (a segment or a layout) on the user
     * context, on {@code op} set up anew.
     */
    void startPrepared(SendOp op, Object data, int dest, int tag, boolean sync) {
        checkLive();
        op.set(this, dest, tag, sync);
        if (dest == Ferry.PROC_NULL) {
            op.finish(Status.ok(Ferry.PROC_NULL, Ferry.ANY_TAG, 0, 1));
        } else if (sync) {
            long h = Envelope.header(context, tag, Envelope.SYNC, 0);
            engine.runSerialized(() -> messaging.startSynchronous(op, h, data));
        } else {
            sendStandard(op, context, data);
        }
    }

    /** Posts a persistent receive's round: {@code op} set up anew to receive into prepared {@code data} on the user context. */
    void postPrepared(RecvOp op, Object data, long typeSize, int source, int tag) {
        checkLive();
        int sw = source == Ferry.ANY_SOURCE ? MatchEntry.ANY : source == Ferry.PROC_NULL ? Ferry.PROC_NULL : peers[source];
        op.set(this, context, data instanceof MemorySegment m ? m : null, data instanceof DataLayout l ? l : null, typeSize, sw, tag);
        if (source == Ferry.PROC_NULL) {
            op.finish(Status.ok(Ferry.PROC_NULL, Ferry.ANY_TAG, 0, typeSize));
        } else {
            post(op, false);
        }
    }

    /** Sends prepared {@code data} (a segment or a layout) on the internal context, on {@code op} set up anew: a partition's send. */
    void sendPrepared(SendOp op, Object data, int dest, int tag) {
        op.set(this, dest, tag, false);
        sendStandard(op, internal, data);
    }

    /** Posts {@code op}, set up anew, to receive into prepared {@code data} (a segment or a layout) on the internal context: a partition's receive. */
    void recvPrepared(RecvOp op, Object data, long typeSize, int source, int tag) {
        op.set(this, internal, data instanceof MemorySegment m ? m : null, data instanceof DataLayout l ? l : null, typeSize, peers[source], tag);
        post(op, false);
    }

    /**
     * The tag of the next collective (communicator creation's exchanges included): every member
     * starts the collectives of a communicator in the same order, so they agree on it without a word.
     */
    int nextCollectiveTag() {
        return collectiveSeq++ & 0x7fff_ffff;
    }

    /**
     * A typed send or receive of a collective on the internal context ({@code buf}, offset and
     * count as point-to-point takes them): an intercommunicator's collectives address the remote
     * group this way.
     */
    Request internalSend(Object buf, long offset, long count, Datatype type, int dest, int tag) {
        return startSend(internal, buf, offset, count, type, dest, tag, false, null);
    }

    Request internalRecv(Object buf, long offset, long count, Datatype type, int source, int tag) {
        return startRecv(internal, buf, offset, count, type, source, tag, null);
    }

    @Override
    Collectives collectives() {
        if (collectives == null) {
            throw new FerryException(ErrorClass.COMM, "on " + this + ": Ferry's intercommunicators have the blocking barrier, bcast, "
                    + "reduce, allreduce, gather(v), scatter(v), allgather(v) and alltoall(v) (merge it for the others)");
        }
        return collectives;
    }

    @Override
    InterCollectives inter() {
        return inter;
    }

    /** The algorithm the last collective started here took (its name as {@code info} lists them). */
    public String lastCollectiveAlgorithm() {
        return collectives == null ? inter.lastAlgorithm : collectives.lastAlgorithm;
    }

    // ---- making communicators ------------------------------------------------------------------------

    /** A communicator with the same members and a new context (collective); an intercommunicator's is one too. */
    public Comm dup() {
        checkLive();
        if (isInter()) {
            return IntercommCreation.dup(this, localComm);
        }
        return IntracommCreation.dup(this);
    }

    /**
     * Splits by {@code color}: the ranks of one color form a new communicator, ordered by
     * {@code key} and then by their rank here (collective). A rank with color
     * {@link Ferry#UNDEFINED} takes part but gets null.
     */
    public Comm split(int color, int key) {
        checkLive();
        checkIntra("split");
        if (color < 0 && color != Ferry.UNDEFINED) {
            throw new FerryException(ErrorClass.ARG, "color: " + color + " is negative and not UNDEFINED");
        }
        return IntracommCreation.split(this, color, key);
    }

    /**
     * The members that run on this node (and so share its memory), ordered by {@code key} and
     * then by their rank here (collective; MPI_Comm_split_type with MPI_COMM_TYPE_SHARED).
     *
     * <pre>{@code
     * Comm node = world.splitShared(world.rank());
     * Window w = Window.allocateShared(node, 4096, 1);
     * }</pre>
     */
    public Comm splitShared(int key) {
        checkLive();
        checkIntra("splitShared");
        NodeMap map = new NodeMap(this, messaging.engine());
        return split(map.myNode, key);
    }

    /**
     * A communicator of {@code group}'s members, in the group's order (collective: every rank
     * here calls it with the same group); null at the ranks outside the group.
     */
    public Comm create(Group group) {
        checkLive();
        checkIntra("create");
        for (int i = 0; i < group.members.length; i++) {
            if (localOf[group.members[i]] < 0) {
                throw new FerryException(ErrorClass.GROUP, "group: its rank " + i + " (job rank " + group.members[i] + ") is not a member of " + this);
            }
        }
        return IntracommCreation.create(this, group);
    }

    /**
     * An intercommunicator between this communicator's members (the local group) and those of
     * another, disjoint one (MPI_Intercomm_create; collective over both groups): the leaders,
     * {@code localLeader} here and {@code remoteLeader} (its rank in {@code peerComm}) there, meet
     * on {@code peerComm} with {@code tag}, which only the local leader's arguments name (the others
     * may pass null and any ranks). Point-to-point on it addresses the remote group's ranks.
     *
     * <pre>{@code
     * Comm half = world.split(world.rank() % 2, world.rank());      // evens and odds
     * Comm inter = half.createIntercomm(0, world, world.rank() % 2 == 0 ? 1 : 0, 99);
     * inter.send(data, 0, n, Datatype.INT, inter.rank() % inter.remoteSize(), 7); // to the other half
     * Comm all = inter.merge(world.rank() % 2 == 1);                // evens first
     * }</pre>
     */
    public Comm createIntercomm(int localLeader, Comm peerComm, int remoteLeader, int tag) {
        checkLive();
        checkIntra("createIntercomm");
        return IntercommCreation.create(this, localLeader, peerComm, remoteLeader, tag);
    }

    /**
     * The intracommunicator of both groups of this intercommunicator (MPI_Intercomm_merge;
     * collective over both): the group that passes {@code high} false comes first, and when both
     * pass the same, the group whose leader has the lower job rank.
     */
    public Comm merge(boolean high) {
        checkLive();
        if (!isInter()) {
            throw new FerryException(ErrorClass.COMM, "merge: " + this + " is not an intercommunicator");
        }
        return IntercommCreation.merge(this, localComm, high);
    }

    private void checkIntra(String what) {
        if (isInter()) {
            throw new FerryException(ErrorClass.COMM, what + ": " + this + " is an intercommunicator (merge it first)");
        }
    }

    /** The members' job ranks (not a copy: callers do not change it). */
    int[] members() {
        return members;
    }

    /** IDENT (this object), CONGRUENT (same members in order), SIMILAR (same members) or UNEQUAL. */
    public Comparison compare(Comm other) {
        if (other == this) {
            return Comparison.IDENT;
        }
        Comparison g = group.compare(other.group);
        return g == Comparison.IDENT ? Comparison.CONGRUENT : g;
    }

    /** Frees the communicator: its context goes back, messages nobody received on it are dropped. */
    public void free() {
        if (id == ContextIds.WORLD || id == ContextIds.SELF) {
            throw new FerryException(ErrorClass.COMM, this + " belongs to the Ferry instance and is not freed by the program");
        }
        checkNotFreed(); // a revoked communicator is freed as any other
        freed = true;
        if (collectives != null) {
            collectives.free();
        }
        messaging.unregister(this);
        ferry.contexts.release(id);
        if (localComm != null) {
            localComm.free();
        }
    }

    public boolean isFreed() {
        return freed;
    }

    /** Frees the communicator unless it is the world or self or freed already. */
    @Override
    public void close() {
        if (!freed && id != ContextIds.WORLD && id != ContextIds.SELF) {
            free();
        }
    }

    @Override
    public String toString() {
        if (localComm != null) {
            return "intercommunicator " + id + " (" + members.length + " local ranks, " + peers.length + " remote)";
        }
        return (id == ContextIds.WORLD ? "the world communicator" : id == ContextIds.SELF ? "the self communicator" : "communicator " + id)
                + " (" + members.length + " ranks)";
    }
}
