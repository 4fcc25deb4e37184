package dev.ferry.driver.ucx;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.IdleStrategy;
import dev.ferry.spi.Status;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpRequest;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The connection half of a ucx instance: the endpoint and its HELLO, the peer's liveness (UCX's
 * failure detection, or its pid), the control channel of FINs and the BYE, and the orderly or
 * forced end of it all under the context's lock. {@link UcxInstance} adds the packets sent,
 * pulled and received on the endpoint.
 */
abstract sealed class UcxConnection implements DriverInstance permits UcxInstance {
    UcxConnection(UcxContext ctx, int id) {
        this.ctx = ctx;
        this.id = id;
        this.inbound = new Inbound(self(), ctx);
        this.exposures = new Exposures(ctx);
    }

    /** This connection as the instance it is (the only kind: the class is sealed), for the context's tables. */
    private UcxInstance self() {
        return (UcxInstance) this;
    }

    static final System.Logger LOG = dev.ferry.spi.LazyLogger.of(UcxInstance.class);

    enum State { NEW, CONNECTING, UP, CLOSED, BROKEN }

    final UcxContext ctx;

    final int id;

    volatile State state = State.NEW;

    UcpEndpoint ep;

    /** The endpoint's {@code ucp_ep_h}, for {@link Ucp}'s calls. */
    long epHandle;

    byte[] remoteUrl;

    int peerId;

    /** The peer is reached without UCX's peer failure detection: checked by pid instead. */
    boolean livenessByPid;

    long peerPid;

    long peerStart;

    final Inbound inbound;

    /** Target-initiated pulls: exposures made here, pulls of the peer's. */
    final Exposures exposures;

    // sending
    SendBuffers sends;

    long dataSent;

    /** Rendezvous given up on (the peer is gone) whose BULK send UCX still holds. */
    final java.util.ArrayList<Rendezvous> lingering = new java.util.ArrayList<>();

    // FIN, BYE
    ControlChannel control;

    MemorySegment helloOut;

    UcpRequest closeReq;

    /** The HELLO in flight: an endpoint force-closed while it waits in the transport aborts the process (UCX 1.13). */
    UcpRequest helloReq;

    State state() {
        return state;
    }

    /** Takes the context's lock unless the context is closed: false means answer CLOSED, no lock held. */
    boolean enter() {
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
            ctx.connecting(self(), remoteUrl);
            return Status.DONE;
        } finally {
            ctx.lock.unlock();
        }
    }

    byte[] hostBytes() {
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
        return IdleStrategy.DEFAULT.until(() -> connectState(end)); // the lock is let go between looks
    }

    /** What connectWait answers now, after a progress pass: NOT_YET while the peer's HELLO is awaited (BROKEN past {@code end}). */
    private Status connectState(long end) {
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
            return Status.NOT_YET;
        } finally {
            ctx.lock.unlock();
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
            ctx.forget(self());
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
    void shutDown(long deadline) {
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
    Status sendGate() {
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
}
