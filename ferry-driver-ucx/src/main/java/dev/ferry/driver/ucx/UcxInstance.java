package dev.ferry.driver.ucx;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpRequest;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One UCP endpoint to one peer context, with the instance's receives posted ahead: its
 * {@link Inbound} side (a {@link ReceiveRing} for its DATA messages, eager packets and rendezvous
 * descriptors in order, and the posted receive) and a {@link ControlChannel} for FINs and the
 * BYE. Sends go from {@link SendBuffers}.
 *
 * <p>A packet larger than a buffer travels by rendezvous: the sender registers its memory
 * (through the cache, or earlier by prefetch) and sends a descriptor (address, length, packed
 * remote key per segment, {@link UcxWire}); the receiver, once a receive is posted, pulls the
 * bytes with UCP gets straight into the posted memory, then sends a FIN, which completes the
 * send. Where UCP gets are emulated the descriptor says BY_TAG and the bytes also go as a BULK
 * message, taken by a tagged receive; its send's end completes the send ({@link Pull}). Where the
 * descriptor would not fit a buffer (too many segments) or memory is on the Java heap, the sender
 * first packs the data into registered memory of its own.
 *
 * <p>Every call takes the context's lock (see {@link UcxContext}).
 */
final class UcxInstance implements DriverInstance {
    private static final System.Logger LOG = System.getLogger(UcxInstance.class.getName());


    enum State { NEW, CONNECTING, UP, CLOSED, BROKEN }

    final UcxContext ctx;
    final int id;
    private volatile State state = State.NEW;
    private UcpEndpoint ep;
    /** The endpoint's {@code ucp_ep_h}, for {@link Ucp}'s calls. */
    private long epHandle;
    byte[] remoteUrl;
    private int peerId;
    /** The peer is reached without UCX's peer failure detection: checked by pid instead. */
    private boolean livenessByPid;
    private long peerPid;
    private long peerStart;

    private final Inbound inbound;
    /** Target-initiated pulls: exposures made here, pulls of the peer's. */
    private final Exposures exposures;
    /** Sending: copies a packet into a send buffer. */
    private final DataCursor cursor = new DataCursor();

    // sending
    private SendBuffers sends;
    /** The send buffer {@link #reserve()} found. */
    private int reserved;
    private long dataSent;
    /** Rendezvous sent without BY_TAG: the FIN count each waits for. */
    private long rdvSent;
    /** BULK messages sent: their tags' count. */
    private long bulkSent;
    /** Rendezvous given up on (the peer is gone) whose BULK send UCX still holds. */
    private final java.util.ArrayList<Rendezvous> lingering = new java.util.ArrayList<>();

    // FIN, BYE
    private ControlChannel control;
    private MemorySegment helloOut;
    private UcpRequest closeReq;
    /** The HELLO in flight: an endpoint force-closed while it waits in the transport aborts the process (UCX 1.13). */
    private UcpRequest helloReq;

    UcxInstance(UcxContext ctx, int id) {
        this.ctx = ctx;
        this.id = id;
        this.inbound = new Inbound(this, ctx);
        this.exposures = new Exposures(ctx);
    }

    State state() {
        return state;
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
                epHandle = ep.getNativeId();
            } catch (UcxException e) {
                fail("UCX cannot reach the peer: " + e.getMessage());
                return Status.BROKEN;
            }
            remoteUrl = remote.encoded();
            sends = new SendBuffers(ctx.arena, ctx.bufferSize);
            control = new ControlChannel(ctx, id);
            inbound.start(ep, new ReceiveRing(ctx, id), control);
            int n = UcxWire.helloSize(ctx.jobKey, ctx.urlBytes, hostBytes());
            helloOut = ctx.arena.allocate(n, 8);
            UcxWire.writeHello(helloOut, id, ctx.pid, ctx.startMillis, ctx.jobKey, ctx.urlBytes, hostBytes());
            helloReq = ep.sendTaggedNonBlocking(helloOut.address(), n, UcxWire.KIND_HELLO, null);
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
        state = State.BROKEN;
        LOG.log(System.Logger.Level.DEBUG, "ucx: instance " + id + " broken: " + reason);
    }

    /** Lock held: a peer watched by pid that is gone breaks this instance. */
    void checkLiveness() {
        if (!livenessByPid || state != State.UP) {
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
        if (state == State.UP && !control.peerClosed) {
            pump();
            while ((sends.busy() || control.sending() || control.owes()) && state == State.UP && System.nanoTime() - deadline < 0) {
                ctx.turn();
                pump();
            }
            if (state == State.UP) {
                UcpRequest bye = control.bye(ep, peerId, dataSent);
                while (!bye.isCompleted() && state == State.UP && System.nanoTime() - deadline < 0) {
                    ctx.turn();
                }
            }
        }
        // A HELLO still queued in the transport (a connection half set up) goes first: force-closing
        // an endpoint with a send pending there trips an assertion in UCX's tcp transport.
        while (helloReq != null && !helloReq.isCompleted() && state == State.CONNECTING && System.nanoTime() - deadline < 0) {
            ctx.turn();
        }
        state = State.CLOSED;
        if (ep != null && closeReq == null) {
            try {
                closeReq = ep.closeNonBlockingForce();
            } catch (UcxException e) {
                LOG.log(System.Logger.Level.DEBUG, "ucx: endpoint close: " + e.getMessage());
            }
        }
        inbound.cancel();
        if (control != null) {
            control.cancel();
        }
    }

    boolean busyClosing() {
        lingering.removeIf(r -> r.release(ctx));
        return (closeReq != null && !closeReq.isCompleted()) || (control != null && (inbound.busy() || control.busy() | sends.busy()))
                || !lingering.isEmpty();
    }

    // ---- control messages -----------------------------------------------------------------------

    /** Lock held: takes FINs and the BYE, sends owed FINs. */
    void pump() {
        if (control != null) {
            control.take();
            if (state == State.UP) {
                control.sendOwed(ep, peerId);
            }
        }
    }

    /** For probe-any: a receive posted now completes at once. Lock held. */
    boolean hasData() {
        if (state != State.UP && state != State.CONNECTING) {
            return false;
        }
        pump();
        return inbound.hasData();
    }

    // ---- sending --------------------------------------------------------------------------------

    /** NOT_YET while the peer's HELLO is missing; CLOSED / BROKEN when over; null when sends may go. */
    private Status sendGate() {
        State s = state;
        if (s == State.UP) {
            return control.peerClosed ? Status.CLOSED : null;
        }
        return switch (s) {
            case CONNECTING -> Status.NOT_YET;
            case NEW -> Status.INVALID;
            case BROKEN -> Status.BROKEN;
            default -> Status.CLOSED;
        };
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
        int i = sends.free();
        if (i < 0) {
            ctx.progress();
            i = sends.free();
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
            sends.held[i] = true;
            packet.driverBuffer(sends.payload[i], 0);
            packet.driverData = sends.ref[i];
            return Status.DONE;
        } finally {
            ctx.lock.unlock();
        }
    }

    @Override
    public Status sendBufPost(Packet packet) {
        if (!(packet.driverData instanceof SendBuffers.Ref ref) || packet.form() != Packet.Form.BUFFER || !sends.held[ref.slot]
                || packet.buffer() != sends.payload[ref.slot]) {
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
            sends.held[ref.slot] = false;
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
        UcxWire.writeDataHeader(sends.msg[i], length, 0);
        if (sends.send(i, epHandle, UcxWire.DATA_HEADER + length, UcxWire.tag(UcxWire.KIND_DATA, peerId))) {
            ctx.backlog = true;
        }
        exposures.startDue(epHandle); // after the packet that carries their pull data
        packet.driverData = sends.ref[i];
        packet.driverState = ++sends.uses[i];
        dataSent++;
    }

    /** Some send of this instance is still held by UCX. Lock held. */
    boolean backlog() {
        if (state != State.UP) {
            return false;
        }
        pump();
        return sends.busy() || control.owes();
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
                cursor.reset(layout).copyTo(sends.payload[i], 0, size);
                sendEager(i, size, packet);
                return Status.DONE;
            }
            long offered = ctx.pullByTag ? UcxWire.bulkTag(bulkSent + 1, peerId) : 0;
            Rendezvous rdv = Rendezvous.prepare(ctx, layout, sends.payload[i], packet.sendPrefetch, offered);
            packet.sendPrefetch = null; // its registrations now belong to the rendezvous
            UcxWire.writeDataHeader(sends.msg[i], rdv.descriptorLength, UcxWire.FLAG_RTS);
            if (sends.send(i, epHandle, UcxWire.DATA_HEADER + rdv.descriptorLength, UcxWire.tag(UcxWire.KIND_DATA, peerId))) {
                ctx.backlog = true;
            }
            exposures.startDue(epHandle);
            dataSent++;
            if (rdv.bulkTag != 0) {
                bulkSent++;
                rdv.sendBulk(ctx, epHandle);
                ctx.backlog = true; // the BULK send moves on only when this worker progresses
            } else {
                rdv.seq = ++rdvSent;
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
        if (d instanceof SendBuffers.Ref ref) {
            int i = ref.slot;
            if (sends.uses[i] != packet.driverState) {
                return Status.DONE; // completed, and the buffer has been reused since
            }
            // The bytes were copied into the driver's buffer at post: the caller's memory is free.
            // UCX may still hold the buffer (the receiver is slow); a failure known now is BROKEN.
            // Only the kept status is read: no lock is taken here, so no UCP call is made.
            int st = sends.status(i);
            if (st == Ucp.INPROGRESS) {
                return state == State.BROKEN ? Status.BROKEN : Status.DONE;
            }
            return st == Ucp.OK ? Status.DONE : Status.BROKEN;
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
                if (state == State.UP) {
                    exposures.startDue(epHandle); // no packet followed the exposure
                } else {
                    exposures.dropDue(); // the endpoint is over: their rendezvous are released below, unsent
                }
                ctx.progress();
                pump();
                if (rdv.bulkTag != 0) {
                    int st = rdv.bulkStatus();
                    if (st == Ucp.OK || st == Ucp.ERR_MESSAGE_TRUNCATED) {
                        rdv.release(ctx); // taken whole, or consumed after the receiver's gets
                        return Status.DONE;
                    }
                    if (st != Ucp.INPROGRESS && st != Ucp.ERR_CANCELED) {
                        fail("the BULK send failed with UCS status " + st);
                    }
                } else if (control.finsReceived >= rdv.seq) {
                    rdv.release(ctx);
                    return Status.DONE;
                }
                if (state == State.BROKEN || state == State.CLOSED || control.peerClosed) {
                    if (!rdv.release(ctx) && !lingering.contains(rdv)) {
                        lingering.add(rdv);
                    }
                    return state == State.CLOSED || control.peerClosed ? Status.CLOSED : Status.BROKEN;
                }
                return Status.NOT_YET;
            } finally {
                ctx.lock.unlock();
            }
        }
        return Status.INVALID;
    }

    /** Exposes the packet for the peer to pull ({@link Exposures}); INVALID when it must be sent instead. */
    @Override
    public Status sendExpose(Packet packet, MemorySegment pullData) {
        DataLayout layout = packet.layout();
        if (layout == null || pullData.byteSize() < Exposures.PULL_DATA_BYTES || layout.size() > UcxContext.MAX_PACKET_SIZE
                || packet.form() == Packet.Form.IOVEC && packet.iov().count() > UcxContext.MAX_IOVEC) {
            return Status.INVALID;
        }
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            pump();
            Status g = sendGate();
            if (g != null) {
                return g;
            }
            Rendezvous rdv = exposures.expose(layout, packet.sendPrefetch, UcxWire.bulkTag(bulkSent + 1, peerId), pullData);
            packet.sendPrefetch = null; // taken by the rendezvous, or released
            if (rdv == null) {
                return Status.INVALID;
            }
            bulkSent++;
            packet.driverData = rdv;
            return Status.DONE;
        } catch (UcxException e) {
            fail("UCX could not register an exposure: " + e.getMessage());
            return Status.BROKEN;
        } finally {
            ctx.lock.unlock();
        }
    }

    /** Pulls what the peer exposed ({@link Exposures}, {@link Pull}); completes through {@link #pullPoll}. */
    @Override
    public Status pullPost(Packet packet, MemorySegment pullData) {
        if (packet.layout() == null) {
            return Status.INVALID;
        }
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            if (state != State.UP) {
                return state == State.BROKEN ? Status.BROKEN : state == State.CLOSED ? Status.CLOSED : Status.INVALID;
            }
            return exposures.pull(ep, packet, pullData);
        } catch (UcxException | IllegalArgumentException e) {
            fail("an exposure of the peer could not be pulled: " + e.getMessage());
            return Status.BROKEN;
        } finally {
            ctx.lock.unlock();
        }
    }

    @Override
    public Status pullPoll(Packet packet) {
        if (Exposures.pulled(packet)) {
            return Status.DONE;
        }
        if (!(packet.driverData instanceof Pull)) {
            return Status.INVALID;
        }
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            ctx.progress(); // the gets, the BULK receive, and the liveness check move on here
            pump();
            int s = exposures.poll(packet);
            if (s == Ucp.OK) {
                return Status.DONE;
            }
            if (s != Ucp.INPROGRESS) {
                fail("pulling an exposure (UCP gets or the BULK receive) failed with UCS status " + s);
                return Status.BROKEN;
            }
            if (state == State.BROKEN || state == State.CLOSED) {
                exposures.abandon(packet);
                return state == State.CLOSED ? Status.CLOSED : Status.BROKEN;
            }
            return Status.NOT_YET;
        } finally {
            ctx.lock.unlock();
        }
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

    // ---- receiving (Inbound) ----------------------------------------------------------------------

    @Override
    public Status recvPoll(Packet packet) {
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            return inbound.poll(packet);
        } finally {
            ctx.lock.unlock();
        }
    }

    @Override
    public Status recvBufRelease(Packet packet) {
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            return inbound.release(packet);
        } finally {
            ctx.lock.unlock();
        }
    }

    @Override
    public Status recvPost(Packet packet) {
        if (packet.layout() == null) {
            return Status.INVALID;
        }
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            return inbound.post(packet);
        } finally {
            ctx.lock.unlock();
        }
    }

    @Override
    public Status recvCancel(Packet packet) {
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            return inbound.cancel(packet);
        } finally {
            ctx.lock.unlock();
        }
    }
}
