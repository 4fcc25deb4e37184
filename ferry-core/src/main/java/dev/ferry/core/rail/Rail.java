package dev.ferry.core.rail;

import dev.ferry.core.request.Request;
import dev.ferry.core.request.SendRequest;
import dev.ferry.core.wire.LayoutForm;
import dev.ferry.core.wire.WireHeader;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.Packet;
import dev.ferry.spi.PrefixLayout;
import dev.ferry.spi.Status;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One driver instance of a gate (seed 000: an instance per gate, per context), as a poster of
 * engine packets: it writes a packet where it leaves from (a driver buffer, or its own staging
 * buffer), posts it, and polls it until the driver is done, one at a time and in order; it
 * receives a packet into a driver buffer (in place) or its own buffer and hands it to the gate's
 * parser. What rides the rail besides packets (a rendezvous' raw chunks, pulls, exposures) belongs
 * to the protocols, which use the rail's {@link #out} and {@link #in} instances in turn.
 *
 * <p>Owned by the thread that makes progress; nothing here is shared.
 */
public final class Rail {
    private static final int IDLE = 0, IN_FLIGHT = 1, STAGED = 2;

    public final RailOwner gate;
    private final EngineStats stats;
    public final int index;
    public final EngineContext ec;
    /** Largest engine packet this rail sends and receives. */
    public final int packetLimit;
    /** Bytes of pull data the rail's driver writes and reads for a pull rendezvous (0: it has no pull). */
    public final int pullTakes;
    /** Packets are written into driver buffers (buffer-based send). */
    public final boolean bufSend;
    private final boolean bufRecv;
    /** How the driver takes a layout: as it is, as an iovec, or through a bounce buffer. */
    public final LayoutForm form;
    public DriverInstance out;
    public DriverInstance in;

    // sending
    private final Packet sendPkt = new Packet();
    private final MemorySegment staging;
    private final PrefixLayout stagingLayout;
    private int sendState = IDLE;
    /** The immediate messages in the packet in flight: complete when it has left. */
    private final SendRequest[] packed;
    private int packedCount;

    // receiving
    private final Packet recvPkt = new Packet();
    private final MemorySegment recvBuf;
    private final PrefixLayout recvLayout;
    private boolean recvPosted;

    public Rail(RailOwner gate, int index, EngineContext ec, int packetLimit, EngineStats stats) {
        this.gate = gate;
        this.stats = stats;
        this.index = index;
        this.ec = ec;
        this.packetLimit = packetLimit;
        this.bufSend = ec.caps().supportsBufSend() && packetLimit <= ec.caps().maxBufferSize();
        this.bufRecv = ec.caps().supportsBufRecv();
        this.form = new LayoutForm(ec.caps());
        Arena a = Arena.ofAuto();
        this.staging = a.allocate(packetLimit, 64);
        this.stagingLayout = new PrefixLayout(staging);
        this.recvBuf = a.allocate(packetLimit, 64);
        this.recvLayout = new PrefixLayout(recvBuf).length(packetLimit);
        this.pullTakes = ec.caps().pullDataSize();
        this.packed = new SendRequest[packetLimit / WireHeader.IMMEDIATE_HEADER + 1];
    }

    /** What this rail holds now, for the gate's state report. */
    public String stateReport() {
        return ec.name() + ": send state " + sendState + ", packed " + packedCount + (recvPosted ? ", receive posted" : "");
    }

    /** No packet of this rail's is in flight or staged. */
    public boolean free() {
        return sendState == IDLE;
    }

    // ---- sending ----------------------------------------------------------------------------

    /** The immediate message {@code s} leaves with the packet being written: it completes when that has left. */
    public void packed(SendRequest s) {
        packed[packedCount++] = s;
    }

    /** Moves the packet in flight forward; true when the rail is free again. */
    public boolean pollSend() {
        Status s;
        switch (sendState) {
            case IDLE:
                return true;
            case STAGED: // packed, but the driver had no room: post it again
                s = out.sendPost(sendPkt);
                if (s == Status.NOT_YET) {
                    return false;
                }
                if (s != Status.DONE) {
                    gate.fail(s, "posting a packet on " + ec.name() + " answered " + s);
                    return false;
                }
                stats.packetSent();
                sendState = IN_FLIGHT;
                // fall through
            case IN_FLIGHT:
                s = out.sendPoll(sendPkt);
                if (s == Status.NOT_YET) {
                    return false;
                }
                if (s != Status.DONE) {
                    gate.fail(s, "sending a packet on " + ec.name() + " answered " + s);
                    return false;
                }
                for (int i = 0; i < packedCount; i++) {
                    packed[i].complete();
                    packed[i] = null;
                }
                packedCount = 0;
                sendState = IDLE;
                return true;
            default:
                throw new IllegalStateException("send state " + sendState);
        }
    }

    /**
     * Where the next engine packet is written: a driver buffer (in place, where the driver has
     * them) or the staging buffer; null when the driver has no room now, or failed.
     */
    public MemorySegment packetBuffer() {
        if (!bufSend) {
            return staging;
        }
        sendPkt.reset();
        Status s = out.sendBufGet(sendPkt);
        if (s == Status.NOT_YET) {
            return null;
        }
        if (s != Status.DONE) {
            gate.fail(s, "sendBufGet on " + ec.name() + " answered " + s);
            return null;
        }
        return sendPkt.buffer();
    }

    /**
     * Posts the {@code n} bytes written into {@link #packetBuffer()}: DONE, the packet is in flight;
     * NOT_YET (staging only), the driver has no room now and nothing is out; anything else failed
     * the gate.
     */
    public Status post(long n) {
        Status s;
        if (bufSend) {
            sendPkt.length(n);
            s = out.sendBufPost(sendPkt);
        } else {
            stagingLayout.length(n);
            form.send(sendPkt, stagingLayout);
            s = out.sendPost(sendPkt);
        }
        if (s == Status.DONE) {
            stats.packetSent();
            sendState = IN_FLIGHT;
        } else if (s != Status.NOT_YET) {
            gate.fail(s, "posting a packet on " + ec.name() + " answered " + s);
        }
        return s;
    }

    /**
     * Posts the packet just written, {@code n} bytes, keeping it staged when the driver has no room
     * now; true when it is out and the rail free again.
     */
    public boolean postPacked(long n) {
        Status s = post(n);
        if (s == Status.NOT_YET) {
            sendState = STAGED; // stays packed in the staging buffer until the driver takes it
            return false;
        }
        return s == Status.DONE && pollSend();
    }

    // ---- receiving --------------------------------------------------------------------------

    /** Receives at most one engine packet and hands it to the gate's parser; true when one came. */
    public boolean receivePacket() {
        DriverInstance i = in;
        Status s;
        if (bufRecv && !recvPosted) {
            if (recvPkt.form() != Packet.Form.NONE) {
                recvPkt.reset(); // a fruitless poll leaves it as it was: no stores on a waiting pass
            }
            s = i.recvPoll(recvPkt);
            if (s == Status.DONE) {
                try {
                    gate.parse(this, recvPkt.buffer(), recvPkt.length());
                } finally {
                    Status r = i.recvBufRelease(recvPkt);
                    if (r != Status.DONE && r != Status.CLOSED) {
                        gate.fail(r, "recvBufRelease on " + ec.name() + " answered " + r);
                    }
                }
                return true;
            }
            if (s == Status.NOT_YET) {
                return false;
            }
            if (s != Status.INVALID) {
                gate.fail(s, "receiving on " + ec.name() + " answered " + s);
                return false;
            }
            // INVALID: larger than a driver buffer; post our own for it
        }
        if (!recvPosted) {
            form.receive(recvPkt, recvLayout);
            s = i.recvPost(recvPkt);
            if (s == Status.NOT_YET) {
                return false;
            }
            if (s != Status.DONE) {
                gate.fail(s, "posting a receive on " + ec.name() + " answered " + s);
                return false;
            }
            recvPosted = true;
        }
        s = i.recvPoll(recvPkt);
        if (s == Status.NOT_YET) {
            return false;
        }
        recvPosted = false;
        if (s == Status.INVALID) {
            gate.fail(Status.BROKEN, "a packet over " + packetLimit + " bytes on " + ec.name()
                    + " (do all ranks use the same FERRY_EAGER_LIMIT?)");
            return false;
        }
        if (s != Status.DONE) {
            gate.fail(s, "receiving on " + ec.name() + " answered " + s);
            return false;
        }
        gate.parse(this, recvBuf, recvPkt.length());
        return true;
    }

    /** Forgets the requests of the packet in flight, handing them to {@code failed}: the gate failed. */
    public void drain(java.util.function.Consumer<Request> failed) {
        for (int i = 0; i < packedCount; i++) {
            failed.accept(packed[i]);
            packed[i] = null;
        }
        packedCount = 0;
        sendState = IDLE;
    }

    /** Ends the rail: cancels a posted receive and disconnects (flushing what the driver holds). */
    public void disconnect() {
        for (DriverInstance i : new DriverInstance[] {out, in}) {
            if (i == null) {
                continue;
            }
            if (i == in && recvPosted) {
                i.recvCancel(recvPkt);
            }
            i.disconnect();
            if (in == out) {
                break;
            }
        }
    }

    /** After an agreed {@link #disconnect}: no instance, nothing posted, ready for the next connection. */
    public void reset() {
        out = null;
        in = null;
        recvPosted = false;
        recvPkt.reset();
        sendPkt.reset();
        sendState = IDLE;
        packedCount = 0;
    }

    @Override
    public String toString() {
        return "rail " + index + " (" + ec.name() + ") to rank " + gate.rank();
    }
}
