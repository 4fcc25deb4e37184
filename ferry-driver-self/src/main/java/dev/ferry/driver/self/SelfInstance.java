package dev.ferry.driver.self;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.IdleStrategy;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One end of a self connection. The peer writes into our {@link SelfRing}; we write into its.
 *
 * <p>Send-side packet states ({@link Packet#driverState}): a REF packet goes IN_FLIGHT when
 * published; the receiver moves it to COPYING, copies, then DONE. A sender that learns its peer
 * is gone moves it from IN_FLIGHT to ABANDONED instead; the compare-and-set decides the race, so
 * the receiver never reads memory the sender has taken back.
 */
final class SelfInstance implements DriverInstance {
    static final int MAX_IOVEC = 64;
    static final long CONNECT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private static final long IDLE = 0, IN_FLIGHT = 1, COPYING = 2, SENT = 3, ABANDONED = 4;
    private static final int NEW = 0, HALF_OPEN = 1, CONNECTED = 2, DISCONNECTED = 3, CLOSED = 4;

    private final SelfContext context;
    private volatile int state = NEW;
    private volatile SelfInstance peer;
    /** Set once when the peer disconnects (CLOSED) or dies (BROKEN). */
    private volatile Status remoteGone;
    private boolean goneReported;
    private String remoteAddress = "";

    private SelfRing inbound;
    private long claimed = -1;
    private Packet claimedPacket;
    private Packet posted;
    private boolean bufHeld;
    private long heldIndex;

    private final DataCursor sendCursor = new DataCursor();
    private final DataCursor recvCursor = new DataCursor();
    private final DataCursor srcCursor = new DataCursor();
    private volatile Thread recvWaiter;
    private volatile Thread sendWaiter;
    private volatile Thread connectWaiter;

    SelfInstance(SelfContext context) {
        this.context = context;
    }

    SelfContext context() {
        return context;
    }

    /** Whether this instance waits for the context at {@code address} to connect back: that context's request is the answer to ours. */
    boolean servesPeer(String address) {
        return state == HALF_OPEN && remoteAddress.equals(address);
    }

    String remoteAddress() {
        return remoteAddress;
    }

    static void pair(SelfInstance a, SelfInstance b) {
        a.peer = b;
        b.peer = a;
        a.state = CONNECTED;
        b.state = CONNECTED;
        unpark(a.connectWaiter);
        unpark(b.connectWaiter);
    }

    // ---- connection -------------------------------------------------------------------------

    @Override
    public Status connectAsync(DriverUrl remote) {
        if (state >= DISCONNECTED) {
            return Status.CLOSED;
        }
        if (state != NEW || remote == null) {
            return Status.INVALID;
        }
        byte[] address;
        try {
            address = remote.first();
        } catch (IllegalArgumentException e) {
            return Status.INVALID;
        }
        if (!SelfRegistry.isSelfAddress(address)) {
            return Status.INVALID;
        }
        remoteAddress = new String(address, StandardCharsets.UTF_8);
        inbound = new SelfRing();
        state = HALF_OPEN;
        if (!SelfRegistry.connect(this, remoteAddress)) {
            remoteGone = Status.BROKEN; // no such context in this process: unreachable
            return Status.BROKEN;
        }
        return Status.DONE;
    }

    @Override
    public Status connectWait() {
        long deadline = System.nanoTime() + CONNECT_TIMEOUT_NANOS;
        connectWaiter = Thread.currentThread();
        try {
            return WAIT.until(() -> connectState(deadline));
        } finally {
            connectWaiter = null;
        }
    }

    /** What connectWait answers now: NOT_YET while the peer has not paired (BROKEN once past {@code deadline}). */
    private Status connectState(long deadline) {
        int s = state;
        if (s == CONNECTED) {
            return Status.DONE;
        }
        if (s == NEW) {
            return Status.INVALID;
        }
        if (s >= DISCONNECTED) {
            return Status.CLOSED;
        }
        if (remoteGone != null) {
            return remoteGone;
        }
        if (System.nanoTime() - deadline > 0) {
            SelfRegistry.forget(this);
            remoteGone = Status.BROKEN;
            return Status.BROKEN;
        }
        return Status.NOT_YET;
    }

    @Override
    public Status disconnect() {
        int s = state;
        if (s >= DISCONNECTED) {
            return Status.CLOSED;
        }
        state = DISCONNECTED;
        if (s == HALF_OPEN) {
            SelfRegistry.forget(this);
        }
        SelfInstance p = peer;
        if (s == CONNECTED && p != null) {
            p.remoteClosed(Status.CLOSED);
        }
        wakeAll();
        return Status.DONE;
    }

    void contextClosed() {
        int s = state;
        state = CLOSED;
        if (s == HALF_OPEN) {
            SelfRegistry.forget(this);
        }
        SelfInstance p = peer;
        if (s == CONNECTED && p != null) {
            p.remoteClosed(Status.BROKEN); // closed without disconnect: to the peer, we died
        }
        wakeAll();
    }

    /** The peer disconnected (CLOSED) or died (BROKEN); a half-open peer context vanished (BROKEN). */
    void remoteClosed(Status why) {
        if (remoteGone == null) {
            remoteGone = why;
        }
        wakeAll();
        context.wakeAny();
    }

    // ---- sending ----------------------------------------------------------------------------

    /** Null when sending is possible now, else the status to answer. */
    private Status sendCheck() {
        int s = state;
        if (s == CONNECTED) {
            Status gone = remoteGone;
            return gone;
        }
        if (s >= DISCONNECTED) {
            return Status.CLOSED;
        }
        if (s == HALF_OPEN) {
            return remoteGone != null ? remoteGone : Status.NOT_YET;
        }
        return Status.INVALID; // never connected
    }

    @Override
    public Status sendBufGet(Packet packet) {
        Status s = sendCheck();
        if (s != null) {
            return s;
        }
        if (claimed >= 0) {
            return Status.INVALID; // one buffer out at a time: post it first
        }
        SelfRing ring = peer.inbound;
        long idx = ring.claim();
        if (idx < 0) {
            return Status.NOT_YET;
        }
        claimed = idx;
        claimedPacket = packet;
        packet.driverBuffer(ring.slot(idx), 0);
        return Status.DONE;
    }

    @Override
    public Status sendBufPost(Packet packet) {
        if (claimed < 0 || packet != claimedPacket || packet.form() != Packet.Form.BUFFER
                || packet.length() > SelfRing.SLOT_SIZE) {
            return Status.INVALID;
        }
        long idx = claimed;
        claimed = -1;
        claimedPacket = null;
        Status s = sendCheck();
        if (s != null) {
            return s;
        }
        SelfInstance p = peer;
        packet.driverState = SENT;
        p.inbound.publishInline(idx, packet.length());
        p.wakeReceiver();
        return Status.DONE;
    }

    @Override
    public Status sendPost(Packet packet) {
        DataLayout layout = packet.layout();
        if (layout == null || !fits(packet)) {
            return Status.INVALID;
        }
        Status s = sendCheck();
        if (s != null) {
            return s;
        }
        if (claimed >= 0) {
            return Status.NOT_YET; // a claimed buffer holds the next ring entry
        }
        SelfInstance p = peer;
        SelfRing ring = p.inbound;
        long idx = ring.claim();
        if (idx < 0) {
            return Status.NOT_YET;
        }
        long size = layout.size();
        if (size <= SelfRing.SLOT_SIZE) {
            sendCursor.reset(layout).copyTo(ring.slot(idx), 0, size);
            packet.driverState = SENT;
            ring.publishInline(idx, size);
        } else {
            Packet.DRIVER_STATE.setRelease(packet, IN_FLIGHT);
            ring.publishRef(idx, packet, size);
        }
        p.wakeReceiver();
        return Status.DONE;
    }

    private static boolean fits(Packet packet) {
        if (packet.form() == Packet.Form.IOVEC && packet.iov().count() > MAX_IOVEC) {
            return false;
        }
        return packet.size() <= SelfContext.MAX_PACKET_SIZE;
    }

    @Override
    public Status sendPoll(Packet packet) {
        long st = (long) Packet.DRIVER_STATE.getAcquire(packet);
        if (st == SENT) {
            return Status.DONE;
        }
        if (st == IN_FLIGHT) {
            Status gone = state >= DISCONNECTED ? Status.CLOSED : remoteGone;
            if (gone != null && Packet.DRIVER_STATE.compareAndSet(packet, IN_FLIGHT, ABANDONED)) {
                return gone;
            }
            return Status.NOT_YET;
        }
        if (st == COPYING) {
            return Status.NOT_YET;
        }
        if (st == ABANDONED) {
            return state >= DISCONNECTED ? Status.CLOSED : remoteGone;
        }
        return Status.INVALID; // never posted
    }

    @Override
    public Status sendWait(Packet packet) {
        return block(() -> sendPoll(packet), false);
    }

    // ---- receiving --------------------------------------------------------------------------

    @Override
    public Status recvPost(Packet packet) {
        if (state >= DISCONNECTED) {
            return Status.CLOSED;
        }
        if (state == NEW || packet.layout() == null || posted != null || bufHeld) {
            return Status.INVALID;
        }
        if (packet.form() == Packet.Form.IOVEC && packet.iov().count() > MAX_IOVEC) {
            return Status.INVALID;
        }
        packet.rdvData(null); // the self driver needs no rendezvous data
        packet.length(0);
        posted = packet;
        return Status.DONE;
    }

    @Override
    public Status recvPoll(Packet packet) {
        if (posted != null) {
            return packet == posted ? completePosted() : Status.INVALID;
        }
        if (packet.form() != Packet.Form.NONE || bufHeld) {
            return Status.INVALID; // neither posted nor a fresh buffer-based receive
        }
        return bufferRecv(packet);
    }

    /** What to answer when the ring is empty. */
    private Status drained() {
        if (state >= DISCONNECTED) {
            return Status.CLOSED;
        }
        Status gone = remoteGone;
        if (gone != null) {
            goneReported = true;
            return gone;
        }
        return state == NEW ? Status.INVALID : Status.NOT_YET;
    }

    private Status completePosted() {
        SelfRing ring = inbound;
        if (state >= DISCONNECTED) {
            return Status.CLOSED;
        }
        while (true) {
            if (ring == null || ring.isEmpty()) {
                return drained();
            }
            long idx = ring.headPosition();
            long len = ring.length(idx);
            DataLayout dst = posted.layout();
            long n = Math.min(len, dst.size());
            if (ring.kind(idx) == SelfRing.INLINE) {
                recvCursor.reset(dst).copyFrom(ring.slot(idx), 0, n);
            } else {
                Packet src = ring.ref(idx);
                if (!Packet.DRIVER_STATE.compareAndSet(src, IN_FLIGHT, COPYING)) {
                    consume(ring, idx); // the sender took it back after an error it was told of
                    continue;
                }
                DataCursor.transfer(srcCursor.reset(src.layout()), recvCursor.reset(dst), n);
                Packet.DRIVER_STATE.setRelease(src, SENT);
                SelfInstance p = peer;
                if (p != null) {
                    unpark(p.sendWaiter);
                    p.context.sendMoved();
                }
            }
            consume(ring, idx);
            Packet done = posted;
            posted = null;
            done.length(len);
            return len > n ? Status.INVALID : Status.DONE;
        }
    }

    /** Frees a ring entry; a producer that found the ring full hears of the room. */
    private void consume(SelfRing ring, long position) {
        SelfInstance p;
        if (ring.consume(position) && (p = peer) != null) {
            p.context.sendMoved();
        }
    }

    private Status bufferRecv(Packet packet) {
        SelfRing ring = inbound;
        if (state >= DISCONNECTED) {
            return Status.CLOSED;
        }
        while (true) {
            if (ring == null || ring.isEmpty()) {
                return drained();
            }
            long idx = ring.headPosition();
            if (ring.kind(idx) == SelfRing.REF) {
                if ((long) Packet.DRIVER_STATE.getAcquire(ring.ref(idx)) == ABANDONED) {
                    consume(ring, idx);
                    continue;
                }
                return Status.INVALID; // larger than a driver buffer: post a receive for it
            }
            packet.driverBuffer(ring.slot(idx), ring.length(idx));
            bufHeld = true;
            heldIndex = idx;
            return Status.DONE;
        }
    }

    @Override
    public Status recvBufRelease(Packet packet) {
        if (!bufHeld || packet.form() != Packet.Form.BUFFER) {
            return Status.INVALID;
        }
        bufHeld = false;
        consume(inbound, heldIndex);
        packet.reset();
        return Status.DONE;
    }

    @Override
    public Status recvWait(Packet packet) {
        return block(() -> recvPoll(packet), true);
    }

    @Override
    public Status recvCancel(Packet packet) {
        if (posted == null || posted != packet) {
            return Status.INVALID;
        }
        posted = null;
        return Status.DONE;
    }

    /** For probe-any: data waiting, or a peer's departure not yet reported. */
    boolean hasIncoming() {
        if (state >= DISCONNECTED || state == NEW) {
            return false;
        }
        SelfRing ring = inbound;
        return (ring != null && !ring.looksEmpty()) || (remoteGone != null && !goneReported);
    }

    // ---- waiting ----------------------------------------------------------------------------

    /**
     * Polls until the answer is not NOT_YET: spins, then sleeps with this thread published as the
     * send or receive waiter, so the peer's next post (or departure) unparks it.
     */
    private Status block(java.util.function.Supplier<Status> poll, boolean receiving) {
        Thread me = Thread.currentThread();
        if (receiving) {
            recvWaiter = me;
        } else {
            sendWaiter = me;
        }
        try {
            long start = System.nanoTime(), now = start;
            for (int round = 0; ; round++) {
                Status s = poll.get();
                if (s != Status.NOT_YET) {
                    return s;
                }
                WAIT.idle(now - start);
                if (WAIT.clockDue(round, now - start)) {
                    now = System.nanoTime();
                }
            }
        } finally {
            if (receiving) {
                recvWaiter = null;
            } else {
                sendWaiter = null;
            }
        }
    }

    private void wakeReceiver() {
        unpark(recvWaiter);
        context.wakeAny();
    }

    private void wakeAll() {
        unpark(recvWaiter);
        unpark(sendWaiter);
        unpark(connectWaiter);
    }

    private static void unpark(Thread t) {
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /**
     * How this driver's blocking calls wait once they published themselves as the waiter: a spin
     * of 20 us, then parks that the peer's next post (or departure) ends; their 10 ms bound only
     * limits the cost of a lost wake-up.
     */
    static final IdleStrategy WAIT = IdleStrategy.DEFAULT.withSpin(20_000).withSleep(IdleStrategy.PARK, 20_000);

    @Override
    public String toString() {
        return "self instance " + context.address() + " -> " + remoteAddress;
    }
}
