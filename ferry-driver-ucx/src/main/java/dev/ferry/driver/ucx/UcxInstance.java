package dev.ferry.driver.ucx;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.openucx.jucx.UcxException;

import java.lang.foreign.MemorySegment;

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
final class UcxInstance extends UcxConnection {

    /** Sending: copies a packet into a send buffer. */
    private final DataCursor cursor = new DataCursor();

    /** The send buffer {@link #reserve()} found. */
    private int reserved;
    /** Rendezvous sent without BY_TAG: the FIN count each waits for. */
    private long rdvSent;
    /** BULK messages sent: their tags' count. */
    private long bulkSent;

    UcxInstance(UcxContext ctx, int id) {
        super(ctx, id);
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
