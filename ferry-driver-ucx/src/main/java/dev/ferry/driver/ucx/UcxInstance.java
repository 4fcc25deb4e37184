package dev.ferry.driver.ucx;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpRemoteKey;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucs.UcsConstants;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One UCP endpoint to one peer context, with the instance's receives posted ahead: a ring of
 * {@link #RING} buffers for its DATA messages (eager packets and rendezvous descriptors, in
 * order), one for FINs and one for the BYE. Sends go from a ring of buffers of the same size.
 *
 * <p>A packet larger than a buffer travels by rendezvous: the sender registers its memory
 * (through the cache, or earlier by prefetch) and sends a descriptor (address, length, packed
 * remote key per segment, {@link UcxWire}); the receiver, once a receive is posted, pulls the
 * bytes with UCP gets straight into the posted memory, then sends a FIN, which completes the
 * send. Where the descriptor would not fit a buffer (too many segments) or memory is on the
 * Java heap, the sender first packs the data into registered memory of its own.
 *
 * <p>Every call takes the context's lock (see {@link UcxContext}).
 */
final class UcxInstance implements DriverInstance {
    private static final System.Logger LOG = System.getLogger(UcxInstance.class.getName());

    /** Receive buffers posted ahead, and the send buffers an instance starts with. */
    static final int RING = 8;
    /**
     * Most send buffers an instance grows to. An eager send is DONE once copied into one (the
     * caller's memory is free), while UCX may still hold it: a receiver that does not progress
     * (its shared-memory FIFO full) is absorbed by up to this many.
     */
    static final int SEND_MAX = 64;

    private enum State { NEW, CONNECTING, UP, CLOSED, BROKEN }

    final UcxContext ctx;
    final int id;
    private volatile State state = State.NEW;
    private String brokenReason;
    private UcpEndpoint ep;
    byte[] remoteUrl;
    private int peerId;
    private boolean peerUp;
    /** The peer is reached without UCX's peer failure detection: checked by pid instead. */
    private boolean livenessByPid;
    private long peerPid;
    private long peerStart;

    // receiving
    /** Whole receive buffers (DATA header and payload), and their payload slices. */
    private final MemorySegment[] recvMsg = new MemorySegment[RING];
    private final MemorySegment[] recvBuf = new MemorySegment[RING];
    private final UcpRequest[] recvReq = new UcpRequest[RING];
    private int head;
    private boolean handed;
    private long dataReceived;
    private Packet posted;
    private Status postedResult;
    private final DataCursor cursor = new DataCursor();
    private Pull pull;

    // sending
    private final MemorySegment[] sendMsg = new MemorySegment[SEND_MAX];
    private final MemorySegment[] sendBuf = new MemorySegment[SEND_MAX];
    private final UcpRequest[] sendReq = new UcpRequest[SEND_MAX];
    private final boolean[] sendHeld = new boolean[SEND_MAX];
    private final long[] sendGen = new long[SEND_MAX];
    private final SendRef[] sendRef = new SendRef[SEND_MAX];
    private int sendCount;
    /** The send buffer {@link #reserve()} found. */
    private int reserved;
    private int sendNext;
    private long dataSent;
    private long rdvSent;
    private long finsReceived;

    // control
    private MemorySegment finIn;
    private UcpRequest finReq;
    private final MemorySegment[] finOut = new MemorySegment[RING];
    private final UcpRequest[] finOutReq = new UcpRequest[RING];
    private int finNext;
    private long rdvReceived;
    private long finsOwed;
    private MemorySegment byeIn;
    private UcpRequest byeReq;
    private MemorySegment byeOut;
    private MemorySegment helloOut;
    private boolean peerClosed;
    private long peerDataSent;
    private UcpRequest closeReq;

    UcxInstance(UcxContext ctx, int id) {
        this.ctx = ctx;
        this.id = id;
    }

    /** What a packet sent from a ring buffer refers to: the buffer index and its use count then. */
    private static final class SendRef {
        final int slot;

        SendRef(int slot) {
            this.slot = slot;
        }
    }

    /** Takes the context's lock unless the context is closed: false means answer CLOSED, no lock held. */
    private boolean enter() {
        if (ctx.closed()) {
            return false;
        }
        ctx.acquire();
        if (ctx.closed()) {
            ctx.lock.unlock();
            return false;
        }
        return true;
    }

    // ---- connection -----------------------------------------------------------------------------

    @Override
    public Status connectAsync(DriverUrl remote) {
        if (ctx.closed()) {
            return Status.CLOSED;
        }
        byte[] address;
        try {
            List<byte[]> parts = remote.parts();
            address = parts.size() == 1 ? UcxWire.decodeUrl(parts.get(0)) : null;
        } catch (IllegalArgumentException e) {
            address = null;
        }
        if (address == null) {
            return Status.INVALID;
        }
        ctx.acquire();
        try {
            if (ctx.closed() || state == State.CLOSED) {
                return Status.CLOSED;
            }
            if (state != State.NEW) {
                return Status.INVALID;
            }
            MemorySegment addr = ctx.arena.allocate(address.length, 8);
            MemorySegment.copy(address, 0, addr, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, address.length);
            UcpEndpointParams params = new UcpEndpointParams().setUcpAddress(addr.asByteBuffer())
                    .setErrorHandler((e, status, msg) -> fail("UCX endpoint error " + status + ": " + msg));
            if (ctx.peerFailureDetection) {
                params.setPeerErrorHandlingMode();
            } else {
                livenessByPid = true; // shared memory only: the peer is on this host, watched by its pid
            }
            try {
                ep = ctx.worker.newEndpoint(params);
            } catch (UcxException e) {
                fail("UCX cannot reach the peer: " + e.getMessage());
                return Status.BROKEN;
            }
            remoteUrl = remote.encoded();
            allocateBuffers();
            for (int i = 0; i < RING; i++) {
                postRecv(i);
            }
            finReq = postControl(finIn, UcxWire.KIND_FIN);
            byeReq = postControl(byeIn, UcxWire.KIND_BYE);
            int n = UcxWire.helloSize(ctx.jobKey, ctx.urlBytes, hostBytes());
            helloOut = ctx.arena.allocate(n, 8);
            UcxWire.writeHello(helloOut, id, ctx.pid, ctx.startMillis, ctx.jobKey, ctx.urlBytes, hostBytes());
            ep.sendTaggedNonBlocking(helloOut.address(), n, UcxWire.KIND_HELLO, null);
            state = State.CONNECTING;
            ctx.connecting(this, remoteUrl);
            return Status.DONE;
        } finally {
            ctx.lock.unlock();
        }
    }

    private byte[] hostBytes() {
        return ctx.hostId.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private void allocateBuffers() {
        int b = ctx.bufferSize;
        for (int i = 0; i < RING; i++) {
            recvMsg[i] = ctx.arena.allocate(UcxWire.DATA_HEADER + b, 64);
            recvBuf[i] = recvMsg[i].asSlice(UcxWire.DATA_HEADER, b);
            addSendBuffer();
            finOut[i] = ctx.arena.allocate(UcxWire.COUNT_SIZE, 8);
        }
        finIn = ctx.arena.allocate(UcxWire.COUNT_SIZE, 8);
        byeIn = ctx.arena.allocate(UcxWire.COUNT_SIZE, 8);
        byeOut = ctx.arena.allocate(UcxWire.COUNT_SIZE, 8);
    }

    private void postRecv(int i) {
        recvReq[i] = ctx.worker.recvTaggedNonBlocking(recvMsg[i].address(), recvMsg[i].byteSize(),
                UcxWire.tag(UcxWire.KIND_DATA, id), UcxWire.FULL_MASK, null);
    }

    private UcpRequest postControl(MemorySegment into, long kind) {
        return ctx.worker.recvTaggedNonBlocking(into.address(), UcxWire.COUNT_SIZE, UcxWire.tag(kind, id), UcxWire.FULL_MASK, null);
    }

    /** The peer's HELLO arrived: its id goes into our tags from now on. Lock held. */
    void peerUp(UcxWire.Hello h) {
        peerId = h.senderId();
        peerPid = h.pid();
        peerStart = h.startMillis();
        if (livenessByPid && !h.hostId().equals(ctx.hostId)) {
            LOG.log(System.Logger.Level.WARNING, "ucx: peer pid " + h.pid() + " is reached without UCX's failure detection"
                    + " but is not on this host (or in another pid namespace): its death will not be noticed");
            livenessByPid = false;
        }
        peerUp = true;
        if (state == State.CONNECTING) {
            state = State.UP;
        }
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "ucx: instance " + id + " up to pid " + h.pid() + (livenessByPid ? " (watched by pid)" : "")
                    + "\n" + UcxLibrary.printInfo("ucp_ep_print_info", ep.getNativeId()));
        }
    }


    void fail(String reason) {
        if (state == State.BROKEN || state == State.CLOSED) {
            return;
        }
        brokenReason = reason;
        state = State.BROKEN;
        LOG.log(System.Logger.Level.DEBUG, "ucx: instance " + id + " broken: " + reason);
    }

    /** Lock held: a peer watched by pid that is gone breaks this instance. */
    void checkLiveness() {
        if (!livenessByPid || !peerUp || state != State.UP) {
            return;
        }
        var ph = ProcessHandle.of(peerPid);
        boolean alive = ph.isPresent() && ph.get().isAlive();
        if (alive && peerStart != 0) {
            long start = ph.get().info().startInstant().map(java.time.Instant::toEpochMilli).orElse(peerStart);
            alive = Math.abs(start - peerStart) < 1000; // the pid was not reused
        }
        if (!alive) {
            fail("peer process " + peerPid + " is gone");
        }
    }

    @Override
    public Status connectWait() {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            ctx.acquire();
            try {
                if (ctx.closed()) {
                    return Status.CLOSED;
                }
                ctx.progress();
                pump();
                switch (state) {
                    case UP:
                        return Status.DONE;
                    case NEW:
                        return Status.INVALID;
                    case CLOSED:
                        return Status.CLOSED;
                    case BROKEN:
                        return Status.BROKEN;
                    default:
                        break;
                }
                if (System.nanoTime() - end > 0) {
                    fail("the peer did not answer the connection within 30 s");
                    return Status.BROKEN;
                }
            } finally {
                ctx.lock.unlock();
            }
            Thread.yield();
        }
    }

    @Override
    public Status disconnect() {
        ctx.acquire();
        try {
            if (ctx.closed() || state == State.CLOSED) {
                return Status.CLOSED;
            }
            if (state == State.NEW) {
                state = State.CLOSED;
                return Status.DONE;
            }
            shutDown(System.nanoTime() + TimeUnit.SECONDS.toNanos(2));
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (busyClosing() && System.nanoTime() - end < 0) {
                ctx.turn();
            }
            ctx.forget(this);
            return Status.DONE;
        } finally {
            ctx.lock.unlock();
        }
    }

    /** Lock held: the context closes; a live peer is told, everything here is cancelled. */
    void closeWithContext(long deadline) {
        if (state != State.CLOSED) {
            shutDown(deadline);
        }
    }

    /**
     * Lock held. A live peer first gets what was sent (in order), then a BYE, each waited for
     * until {@code deadline}; then the endpoint is closed by force. (A flushing close would wait
     * for a peer that may be gone, and UCX aborts when a worker is destroyed under a request
     * still running.)
     */
    private void shutDown(long deadline) {
        if (state == State.UP && peerUp && !peerClosed) {
            pump();
            while ((sendsHeld() || finsOwed > 0) && state == State.UP && System.nanoTime() - deadline < 0) {
                ctx.turn();
                pump();
            }
            if (state == State.UP) {
                UcxWire.writeCount(byeOut, dataSent);
                UcpRequest bye = ep.sendTaggedNonBlocking(byeOut.address(), UcxWire.COUNT_SIZE, UcxWire.tag(UcxWire.KIND_BYE, peerId), null);
                while (!bye.isCompleted() && state == State.UP && System.nanoTime() - deadline < 0) {
                    ctx.turn();
                }
            }
        }
        state = State.CLOSED;
        if (ep != null && closeReq == null) {
            try {
                closeReq = ep.closeNonBlockingForce();
            } catch (UcxException e) {
                LOG.log(System.Logger.Level.DEBUG, "ucx: endpoint close: " + e.getMessage());
            }
        }
        for (int i = 0; i < RING; i++) {
            cancel(recvReq[i]);
        }
        cancel(finReq);
        cancel(byeReq);
        if (pull != null) {
            pull.abandon(ctx);
            pull = null;
        }
    }

    private boolean sendsHeld() {
        for (int i = 0; i < sendCount; i++) {
            if (sendReq[i] != null && !sendReq[i].isCompleted()) {
                return true;
            }
        }
        for (int i = 0; i < RING; i++) {
            if (finOutReq[i] != null && !finOutReq[i].isCompleted()) {
                return true;
            }
        }
        return false;
    }

    private void cancel(UcpRequest r) {
        if (r != null && !r.isCompleted()) {
            ctx.worker.cancelRequest(r);
        }
    }

    boolean busyClosing() {
        if (closeReq != null && !closeReq.isCompleted()) {
            return true;
        }
        for (int i = 0; i < RING; i++) {
            if (recvReq[i] != null && !recvReq[i].isCompleted()) {
                return true;
            }
        }
        return (finReq != null && !finReq.isCompleted()) || (byeReq != null && !byeReq.isCompleted());
    }

    // ---- control messages -----------------------------------------------------------------------

    /** Lock held: takes FINs and the BYE, sends owed FINs. */
    private void pump() {
        if (finReq != null) {
            while (finReq.isCompleted()) {
                if (finReq.getStatus() != UcsConstants.STATUS.UCS_OK) {
                    break;
                }
                finsReceived = Math.max(finsReceived, UcxWire.readCount(finIn));
                finReq = postControl(finIn, UcxWire.KIND_FIN);
            }
        }
        if (byeReq != null && !peerClosed && byeReq.isCompleted() && byeReq.getStatus() == UcsConstants.STATUS.UCS_OK) {
            peerClosed = true;
            peerDataSent = UcxWire.readCount(byeIn);
        }
        while (finsOwed > 0 && state == State.UP) {
            int i = finNext;
            if (finOutReq[i] != null && !finOutReq[i].isCompleted()) {
                break;
            }
            long count = rdvReceived - finsOwed + 1;
            UcxWire.writeCount(finOut[i], count);
            finOutReq[i] = ep.sendTaggedNonBlocking(finOut[i].address(), UcxWire.COUNT_SIZE, UcxWire.tag(UcxWire.KIND_FIN, peerId), null);
            finNext = (i + 1) % RING;
            finsOwed--;
        }
    }

    /** For probe-any: a receive posted now completes at once. Lock held. */
    boolean hasData() {
        if (state != State.UP && state != State.CONNECTING) {
            return false;
        }
        pump();
        if (posted != null) {
            return postedResult != null || (pull != null && pull.done());
        }
        return !handed && recvReq[head] != null && recvReq[head].isCompleted() && recvReq[head].getStatus() == UcsConstants.STATUS.UCS_OK;
    }

    // ---- sending --------------------------------------------------------------------------------

    /** NOT_YET while the peer's HELLO is missing; CLOSED / BROKEN when over; null when sends may go. */
    private Status sendGate() {
        State s = state;
        if (s == State.UP) {
            return peerClosed ? Status.CLOSED : null;
        }
        return switch (s) {
            case CONNECTING -> Status.NOT_YET;
            case NEW -> Status.INVALID;
            case BROKEN -> Status.BROKEN;
            default -> Status.CLOSED;
        };
    }

    private int addSendBuffer() {
        int i = sendCount++;
        sendMsg[i] = ctx.arena.allocate(UcxWire.DATA_HEADER + ctx.bufferSize, 64);
        sendBuf[i] = sendMsg[i].asSlice(UcxWire.DATA_HEADER, ctx.bufferSize);
        sendRef[i] = new SendRef(i);
        return i;
    }

    /** A free send buffer's index (one more is made while under {@link #SEND_MAX}), or -1. Lock held. */
    private int freeSendBuffer() {
        int n = sendCount;
        for (int k = 0; k < n; k++) {
            int i = (sendNext + k) % n;
            if (!sendHeld[i] && (sendReq[i] == null || sendReq[i].isCompleted())) {
                sendNext = (i + 1) % n;
                return i;
            }
        }
        return n < SEND_MAX ? addSendBuffer() : -1;
    }

    /**
     * Lock held: null when a send may go now, with a free send buffer's index in
     * {@link #reserved}; else the status to answer (NOT_YET while connecting or all buffers busy).
     */
    private Status reserve() {
        pump();
        Status g = sendGate();
        if (g == Status.NOT_YET) {
            ctx.progress(); // the peer's HELLO may be in
            pump();
            g = sendGate();
        }
        if (g != null) {
            return g;
        }
        int i = freeSendBuffer();
        if (i < 0) {
            ctx.progress();
            i = freeSendBuffer();
            if (i < 0) {
                return Status.NOT_YET;
            }
        }
        reserved = i;
        return null;
    }

    @Override
    public Status sendBufGet(Packet packet) {
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            Status g = reserve();
            if (g != null) {
                return g;
            }
            int i = reserved;
            sendHeld[i] = true;
            packet.driverBuffer(sendBuf[i], 0);
            packet.driverData = sendRef[i];
            return Status.DONE;
        } finally {
            ctx.lock.unlock();
        }
    }

    @Override
    public Status sendBufPost(Packet packet) {
        if (!(packet.driverData instanceof SendRef ref) || packet.form() != Packet.Form.BUFFER || !sendHeld[ref.slot]
                || packet.buffer() != sendBuf[ref.slot]) {
            return Status.INVALID;
        }
        if (packet.length() > ctx.bufferSize) {
            return Status.INVALID;
        }
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            Status g = sendGate();
            sendHeld[ref.slot] = false;
            if (g != null) {
                return g == Status.NOT_YET ? Status.INVALID : g;
            }
            sendEager(ref.slot, packet.length(), packet);
            return Status.DONE;
        } finally {
            ctx.lock.unlock();
        }
    }

    private void sendEager(int i, long length, Packet packet) {
        UcxWire.writeDataHeader(sendMsg[i], length, 0);
        sendReq[i] = ep.sendTaggedNonBlocking(sendMsg[i].address(), UcxWire.DATA_HEADER + length, UcxWire.tag(UcxWire.KIND_DATA, peerId), null);
        packet.driverData = sendRef[i];
        packet.driverState = ++sendGen[i];
        dataSent++;
        if (!sendReq[i].isCompleted()) {
            ctx.backlog = true;
        }
    }

    /** Some send of this instance is still held by UCX. Lock held. */
    boolean backlog() {
        if (state != State.UP) {
            return false;
        }
        pump();
        for (int i = 0; i < sendCount; i++) {
            if (sendReq[i] != null && !sendReq[i].isCompleted()) {
                return true;
            }
        }
        return finsOwed > 0;
    }

    @Override
    public Status sendPost(Packet packet) {
        DataLayout layout = packet.layout();
        if (layout == null) {
            return Status.INVALID;
        }
        long size = layout.size();
        if (size > UcxContext.MAX_PACKET_SIZE) {
            return Status.INVALID;
        }
        if (packet.form() == Packet.Form.IOVEC && packet.iov().count() > UcxContext.MAX_IOVEC) {
            return Status.INVALID;
        }
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            Status g = reserve();
            if (g != null) {
                return g;
            }
            int i = reserved;
            if (size <= ctx.bufferSize) {
                if (packet.sendPrefetch instanceof Rendezvous.Prefetch pf) {
                    pf.release(ctx); // small enough to go eagerly after all
                    packet.sendPrefetch = null;
                }
                cursor.reset(layout).copyTo(sendBuf[i], 0, size);
                sendEager(i, size, packet);
                return Status.DONE;
            }
            Rendezvous rdv = Rendezvous.prepare(this, ctx, layout, sendBuf[i], packet.sendPrefetch);
            packet.sendPrefetch = null; // its registrations now belong to the rendezvous
            UcxWire.writeDataHeader(sendMsg[i], rdv.descriptorLength, UcxWire.FLAG_RTS);
            sendReq[i] = ep.sendTaggedNonBlocking(sendMsg[i].address(), UcxWire.DATA_HEADER + rdv.descriptorLength,
                    UcxWire.tag(UcxWire.KIND_DATA, peerId), null);
            dataSent++;
            rdv.seq = ++rdvSent;
            if (!sendReq[i].isCompleted()) {
                ctx.backlog = true;
            }
            packet.driverData = rdv;
            return Status.DONE;
        } catch (UcxException e) {
            fail("UCX could not register or send: " + e.getMessage());
            return Status.BROKEN;
        } finally {
            ctx.lock.unlock();
        }
    }

    @Override
    public Status sendPoll(Packet packet) {
        if (ctx.closed()) {
            return Status.CLOSED;
        }
        Object d = packet.driverData;
        if (d instanceof SendRef ref) {
            int i = ref.slot;
            if (sendGen[i] != packet.driverState) {
                return Status.DONE; // completed, and the buffer has been reused since
            }
            UcpRequest r = sendReq[i];
            // The bytes were copied into the driver's buffer at post: the caller's memory is free.
            // UCX may still hold the buffer (the receiver is slow); a failure known now is BROKEN.
            if (r.isCompleted()) {
                return r.getStatus() == UcsConstants.STATUS.UCS_OK ? Status.DONE : Status.BROKEN;
            }
            return state == State.BROKEN ? Status.BROKEN : Status.DONE;
        }
        if (d instanceof Rendezvous rdv) {
            ctx.acquire();
            try {
                if (ctx.closed()) {
                    return Status.CLOSED;
                }
                if (rdv.released) {
                    return Status.DONE;
                }
                ctx.progress();
                pump();
                if (finsReceived >= rdv.seq) {
                    rdv.release(ctx);
                    return Status.DONE;
                }
                if (state == State.BROKEN || state == State.CLOSED || peerClosed) {
                    rdv.release(ctx);
                    return state == State.CLOSED || peerClosed ? Status.CLOSED : Status.BROKEN;
                }
                return Status.NOT_YET;
            } finally {
                ctx.lock.unlock();
            }
        }
        return Status.INVALID;
    }

    @Override
    public Status sendPrefetch(Packet packet) {
        return prefetch(packet, true);
    }

    @Override
    public Status sendUnfetch(Packet packet) {
        return unfetch(packet, true);
    }

    /** Registering the receive memory early spares UCX an internal registration for the get. */
    @Override
    public Status recvPrefetch(Packet packet) {
        return prefetch(packet, false);
    }

    @Override
    public Status recvUnfetch(Packet packet) {
        return unfetch(packet, false);
    }

    private Status prefetch(Packet packet, boolean send) {
        DataLayout layout = packet.layout();
        if (layout == null) {
            return Status.INVALID;
        }
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            release(send ? packet.sendPrefetch : packet.recvPrefetch);
            Rendezvous.Prefetch p = Rendezvous.Prefetch.register(ctx, layout);
            if (send) {
                packet.sendPrefetch = p;
            } else {
                packet.recvPrefetch = p;
            }
            return Status.DONE;
        } catch (UcxException e) {
            return Status.INVALID;
        } finally {
            ctx.lock.unlock();
        }
    }

    private Status unfetch(Packet packet, boolean send) {
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            if (send) {
                release(packet.sendPrefetch);
                packet.sendPrefetch = null;
            } else {
                release(packet.recvPrefetch);
                packet.recvPrefetch = null;
            }
            return Status.DONE;
        } finally {
            ctx.lock.unlock();
        }
    }

    private void release(Object prefetch) {
        if (prefetch instanceof Rendezvous.Prefetch p) {
            p.release(ctx);
        }
    }

    // ---- receiving ------------------------------------------------------------------------------

    /** The receive status when no data is there: NOT_YET, or why none will come. */
    private Status idleStatus() {
        return switch (state) {
            case BROKEN -> Status.BROKEN;
            case CLOSED -> Status.CLOSED;
            case NEW -> Status.INVALID;
            default -> peerClosed && dataReceived >= peerDataSent ? Status.CLOSED : Status.NOT_YET;
        };
    }

    private boolean headReady() {
        UcpRequest r = recvReq[head];
        return r != null && r.isCompleted();
    }

    @Override
    public Status recvPoll(Packet packet) {
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            if (posted != null) {
                if (packet != posted) {
                    return Status.INVALID;
                }
                return pollPosted();
            }
            if (packet.form() != Packet.Form.NONE || handed) {
                return Status.INVALID;
            }
            if (!headReady()) {
                ctx.progress();
                pump();
                if (!headReady()) {
                    return idleStatus();
                }
            }
            UcpRequest r = recvReq[head];
            if (r.getStatus() != UcsConstants.STATUS.UCS_OK) {
                return receiveFailed(r);
            }
            if (UcxWire.isRts(recvMsg[head])) {
                return Status.INVALID; // larger than a buffer: post a receive for it
            }
            long len = UcxWire.dataLength(recvMsg[head]);
            if (len > ctx.bufferSize) {
                fail("the peer sent a DATA header of " + len + " bytes, more than a buffer");
                return Status.BROKEN;
            }
            handed = true;
            packet.driverBuffer(recvBuf[head], len);
            packet.driverData = this;
            return Status.DONE;
        } finally {
            ctx.lock.unlock();
        }
    }

    private Status receiveFailed(UcpRequest r) {
        int s = r.getStatus();
        if (s == UcsConstants.STATUS.UCS_ERR_CANCELED) {
            return idleStatus();
        }
        // our peers never send more than a buffer: a truncated or failed receive is a broken peer
        fail("receive failed with UCS status " + s);
        return Status.BROKEN;
    }

    @Override
    public Status recvBufRelease(Packet packet) {
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            if (!handed || packet.driverData != this || packet.buffer() != recvBuf[head]) {
                return Status.INVALID;
            }
            handed = false;
            packet.driverData = null;
            consumeHead();
            return Status.DONE;
        } finally {
            ctx.lock.unlock();
        }
    }

    private void consumeHead() {
        dataReceived++;
        if (state == State.UP || state == State.CONNECTING) {
            postRecv(head);
        } else {
            recvReq[head] = null;
        }
        head = (head + 1) % RING;
    }

    @Override
    public Status recvPost(Packet packet) {
        DataLayout layout = packet.layout();
        if (layout == null) {
            return Status.INVALID;
        }
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            if (posted != null || handed) {
                return Status.INVALID;
            }
            Status idle = idleStatus();
            if (idle != Status.NOT_YET && !headReady()) {
                return idle;
            }
            posted = packet;
            postedResult = null;
            packet.length(0);
            match();
            return Status.DONE;
        } finally {
            ctx.lock.unlock();
        }
    }

    /** Lock held: a posted receive takes the head message, if any. */
    private void match() {
        if (pull != null || postedResult != null || !headReady()) {
            return;
        }
        UcpRequest r = recvReq[head];
        if (r.getStatus() != UcsConstants.STATUS.UCS_OK) {
            postedResult = receiveFailed(r);
            if (postedResult == Status.NOT_YET) {
                postedResult = null;
            }
            return;
        }
        DataLayout into = posted.layout();
        long room = into.size();
        long len = UcxWire.dataLength(recvMsg[head]);
        if (len > ctx.bufferSize) {
            fail("the peer sent a DATA header of " + len + " bytes, more than a buffer");
            postedResult = Status.BROKEN;
            return;
        }
        if (!UcxWire.isRts(recvMsg[head])) {
            cursor.reset(into).copyFrom(recvBuf[head], 0, Math.min(len, room));
            posted.length(len);
            postedResult = len > room ? Status.INVALID : Status.DONE;
            consumeHead();
            return;
        }
        try {
            pull = Pull.start(ep, recvBuf[head].asSlice(0, len), into, ctx);
        } catch (UcxException | IllegalArgumentException e) {
            fail("rendezvous from the peer could not be pulled: " + e.getMessage());
            postedResult = Status.BROKEN;
        }
        consumeHead(); // the descriptor was read: the buffer goes back to UCX
    }

    private Status pollPosted() {
        ctx.progress();
        pump();
        match();
        if (postedResult == null && pull != null) {
            int s = pull.poll();
            if (s == UcsConstants.STATUS.UCS_INPROGRESS) {
                if (state == State.BROKEN) {
                    pull.abandon(ctx);
                    pull = null;
                    postedResult = Status.BROKEN;
                } else {
                    return Status.NOT_YET;
                }
            } else if (s != UcsConstants.STATUS.UCS_OK) {
                pull.abandon(ctx);
                pull = null;
                fail("UCP get failed with UCS status " + s);
                postedResult = Status.BROKEN;
            } else {
                posted.length(pull.total);
                postedResult = pull.total > pull.room ? Status.INVALID : Status.DONE;
                pull.finish(ctx);
                pull = null;
                rdvReceived++;
                finsOwed++;
                pump();
            }
        }
        if (postedResult == null) {
            Status idle = idleStatus();
            if (idle != Status.NOT_YET) {
                posted = null;
                return idle;
            }
            return Status.NOT_YET;
        }
        Status s = postedResult;
        posted = null;
        postedResult = null;
        return s;
    }

    @Override
    public Status recvCancel(Packet packet) {
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            if (posted == null || posted != packet) {
                return Status.INVALID;
            }
            if (pull != null || postedResult != null) {
                return Status.NOT_YET; // the data is already on its way in: poll it
            }
            posted = null;
            return Status.DONE;
        } finally {
            ctx.lock.unlock();
        }
    }

    // ---- rendezvous, receiving side -------------------------------------------------------------

    /** The gets of one rendezvous into a posted layout. */
    static final class Pull {
        final long total;
        final long room;
        private final List<UcpRequest> gets = new ArrayList<>();
        private final List<UcpRemoteKey> keys = new ArrayList<>();
        /** Heap destinations: (staging, destination, offset) copied after the gets. */
        private final List<Object[]> heapCopies = new ArrayList<>();
        private int checked;

        private Pull(long total, long room) {
            this.total = total;
            this.room = room;
        }

        static Pull start(UcpEndpoint ep, MemorySegment desc, DataLayout into, UcxContext ctx) {
            long total = UcxWire.rtsTotal(desc);
            int n = UcxWire.rtsSegments(desc);
            if (n < 0 || total < 0) {
                throw new IllegalArgumentException("descriptor with " + n + " segments of " + total + " bytes");
            }
            Pull p = new Pull(total, into.size());
            DataCursor local = new DataCursor().reset(into);
            long off = UcxWire.RTS_HEADER;
            long left = Math.min(total, p.room);
            for (int s = 0; s < n && left > 0; s++) {
                long raddr = UcxWire.segAddress(desc, off);
                long rlen = UcxWire.segLength(desc, off);
                int klen = UcxWire.segKeyLength(desc, off);
                if (klen <= 0 || off + UcxWire.RTS_SEGMENT_HEADER + klen > desc.byteSize()) {
                    throw new IllegalArgumentException("descriptor segment " + s + " with a " + klen + "-byte key");
                }
                UcpRemoteKey key = ep.unpackRemoteKey(UcxUtils.getByteBufferView(desc.address() + off + UcxWire.RTS_SEGMENT_HEADER, klen));
                p.keys.add(key);
                off += UcxWire.RTS_SEGMENT_HEADER + klen;
                long done = 0;
                while (done < rlen && left > 0) {
                    long chunk = Math.min(Math.min(rlen - done, local.chunkLength()), left);
                    MemorySegment base = local.chunkBase();
                    long at = local.chunkOffset();
                    long dst;
                    if (base.isNative()) {
                        dst = base.address() + at;
                    } else {
                        MemorySegment tmp = Arena.ofAuto().allocate(chunk, 64); // freed by the GC once copied
                        p.heapCopies.add(new Object[] {tmp, base, at});
                        dst = tmp.address();
                    }
                    p.gets.add(ep.getNonBlocking(raddr + done, key, dst, chunk, null));
                    local.advance(chunk);
                    done += chunk;
                    left -= chunk;
                }
            }
            return p;
        }

        /** UCS_OK when every get is done, UCS_INPROGRESS while some run, else the first error. */
        int poll() {
            while (checked < gets.size()) {
                UcpRequest g = gets.get(checked);
                if (!g.isCompleted()) {
                    return UcsConstants.STATUS.UCS_INPROGRESS;
                }
                if (g.getStatus() != UcsConstants.STATUS.UCS_OK) {
                    return g.getStatus();
                }
                checked++;
            }
            return UcsConstants.STATUS.UCS_OK;
        }

        boolean done() {
            return poll() != UcsConstants.STATUS.UCS_INPROGRESS;
        }

        void finish(UcxContext ctx) {
            for (Object[] c : heapCopies) {
                MemorySegment tmp = (MemorySegment) c[0];
                MemorySegment.copy(tmp, 0, (MemorySegment) c[1], (long) c[2], tmp.byteSize());
            }
            abandon(ctx);
        }

        void abandon(UcxContext ctx) {
            for (UcpRequest g : gets) {
                if (!g.isCompleted()) {
                    ctx.worker.cancelRequest(g);
                }
            }
            for (UcpRemoteKey k : keys) {
                k.close();
            }
            keys.clear();
        }
    }
}
