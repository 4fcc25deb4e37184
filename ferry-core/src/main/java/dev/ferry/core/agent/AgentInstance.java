package dev.ferry.core.agent;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One peer of a rank in agent mode: its packets go into the rank's OUT ring addressed to that
 * peer (a packet larger than a record goes as several, the last with nothing more to come), and
 * its packets are read from the IN ring where they lie. One packet is sent at a time, in order.
 */
final class AgentInstance implements DriverInstance {
    private final AgentContext ctx;
    private int peer = -1;
    private boolean helloPending;
    private boolean broken, disconnected;

    /** The packet being sent, and where in it. */
    private Packet sending;
    private final DataCursor sendCursor = new DataCursor();
    private long sendLeft;

    /** The packet posted to receive into, where in it, and its capacity. */
    private Packet receiving;
    private final DataCursor recvCursor = new DataCursor();
    private long received;
    /** The record a buffer-received packet lies in, until released. */
    private long held = -1;
    /** Whether a buffer-sent packet's record is claimed. */
    private boolean claimed;

    AgentInstance(AgentContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Status connectAsync(DriverUrl remote) {
        int rank;
        String agent;
        try {
            rank = AgentContext.rankOf(remote);
            agent = AgentContext.agentOf(remote);
        } catch (IllegalArgumentException e) {
            return Status.INVALID;
        }
        if (rank < 0 || rank >= ctx.peers.length) {
            return Status.INVALID;
        }
        try {
            ctx.client().route(rank, agent);
        } catch (AgentException e) {
            ctx.agentFailure = e.getMessage();
            return Status.BROKEN;
        }
        peer = rank;
        ctx.peers[rank] = this;
        helloPending = true;
        sayHello();
        return Status.DONE;
    }

    /** The greeting: this rank's URL, the peer's first record from it. */
    private boolean sayHello() {
        if (!helloPending) {
            return true;
        }
        byte[] u = ctx.url().encoded();
        long at = ctx.out.claim(u.length);
        if (at < 0) {
            return false;
        }
        MemorySegment.copy(u, 0, ctx.out.memory(), ValueLayout.JAVA_BYTE, at, u.length);
        ctx.out.commit(peer, ChannelLayout.HELLO, 0, u.length);
        helloPending = false;
        return true;
    }

    private Status failed() {
        if (disconnected) {
            return Status.CLOSED;
        }
        return Status.BROKEN;
    }

    private boolean usable() {
        return !broken && !disconnected && peer >= 0 && ctx.agentFailure == null;
    }

    @Override
    public Status disconnect() {
        disconnected = true;
        ctx.forget(this, peer);
        return Status.DONE;
    }

    // ---- sending ------------------------------------------------------------------------------

    @Override
    public Status sendBufGet(Packet packet) {
        if (!usable()) {
            return failed();
        }
        if (sending != null && !pump() || !sayHello()) {
            return Status.NOT_YET;
        }
        long at = ctx.out.claim(AgentContext.FRAGMENT);
        if (at < 0) {
            return Status.NOT_YET;
        }
        claimed = true;
        packet.driverBuffer(ctx.out.memory().asSlice(at, AgentContext.FRAGMENT), AgentContext.FRAGMENT);
        return Status.DONE;
    }

    @Override
    public Status sendBufPost(Packet packet) {
        if (!claimed) {
            return Status.INVALID;
        }
        claimed = false;
        if (!usable()) {
            return failed();
        }
        ctx.out.commit(peer, ChannelLayout.PACKET, 0, packet.length());
        return Status.DONE;
    }

    @Override
    public Status sendPost(Packet packet) {
        if (!usable()) {
            return failed();
        }
        DataLayout layout = packet.layout();
        if (layout == null) {
            return Status.INVALID;
        }
        if (sending != null) {
            if (!pump()) {
                return Status.NOT_YET;
            }
        }
        if (!sayHello()) {
            return Status.NOT_YET;
        }
        sending = packet;
        sendCursor.reset(layout);
        sendLeft = layout.size();
        packet.driverState = 1;
        pump();
        return Status.DONE;
    }

    /** Writes what fits of the packet being sent; true once all of it is in the ring. */
    private boolean pump() {
        Packet p = sending;
        if (p == null) {
            return true;
        }
        boolean first = sendCursor.position() == 0;
        while (sendLeft > 0 || first) {
            long n = Math.min(sendLeft, AgentContext.FRAGMENT);
            long at = ctx.out.claim(n);
            if (at < 0) {
                return false;
            }
            sendCursor.copyTo(ctx.out.memory(), at, n);
            sendLeft -= n;
            ctx.out.commit(peer, ChannelLayout.PACKET, sendLeft, n);
            first = false;
        }
        p.driverState = 0;
        sending = null;
        return true;
    }

    @Override
    public Status sendPoll(Packet packet) {
        if (packet != sending) {
            return packet.driverState == 0 ? Status.DONE : usable() ? Status.INVALID : failed();
        }
        if (!usable()) {
            sending = null;
            return failed();
        }
        return pump() ? Status.DONE : Status.NOT_YET;
    }

    // ---- receiving ----------------------------------------------------------------------------

    @Override
    public Status recvPost(Packet packet) {
        if (disconnected) {
            return Status.CLOSED;
        }
        DataLayout layout = packet.layout();
        if (receiving != null || layout == null && packet.form() != Packet.Form.BUFFER) {
            return Status.INVALID;
        }
        receiving = packet;
        received = 0;
        if (layout != null) {
            recvCursor.reset(layout);
        }
        return Status.DONE;
    }

    @Override
    public Status recvPoll(Packet packet) {
        if (broken || disconnected) {
            return failed();
        }
        if (packet != receiving) {
            if (packet.form() != Packet.Form.NONE) {
                return Status.INVALID;
            }
            long r = ctx.headFor(this);
            if (r < 0) {
                return ctx.agentFailure != null || broken ? Status.BROKEN : Status.NOT_YET;
            }
            if (ctx.in.more(r) != 0) {
                return Status.INVALID; // larger than a record: the engine posts its own memory
            }
            held = r;
            int len = ctx.in.length(r);
            packet.driverBuffer(ctx.in.memory().asSlice(ByteRing.payload(r), len), len);
            return Status.DONE;
        }
        while (true) {
            long r = ctx.headFor(this);
            if (r < 0) {
                if (ctx.agentFailure != null || broken) {
                    receiving = null;
                    return Status.BROKEN;
                }
                return Status.NOT_YET;
            }
            int len = ctx.in.length(r);
            long more = ctx.in.more(r);
            boolean buffer = packet.form() == Packet.Form.BUFFER;
            long capacity = buffer ? packet.buffer().byteSize() : recvCursor.remaining() + received;
            if (received + len > capacity) {
                ctx.in.release(r);
                receiving = null;
                return Status.INVALID;
            }
            if (buffer) {
                MemorySegment.copy(ctx.in.memory(), ByteRing.payload(r), packet.buffer(), received, len);
            } else {
                recvCursor.copyFrom(ctx.in.memory(), ByteRing.payload(r), len);
            }
            received += len;
            ctx.in.release(r);
            if (more == 0) {
                receiving = null;
                packet.length(received);
                return Status.DONE;
            }
        }
    }

    /** The peer is gone (the context took its GONE record): polls say BROKEN from now on. */
    void gone() {
        broken = true;
    }

    @Override
    public Status recvBufRelease(Packet packet) {
        if (held < 0) {
            return Status.INVALID;
        }
        ctx.in.release(held);
        held = -1;
        return Status.DONE;
    }

    @Override
    public String toString() {
        return "agent instance to rank " + peer + (broken ? " (gone)" : disconnected ? " (disconnected)" : "");
    }
}
