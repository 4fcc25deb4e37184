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
final class AgentInstance implements DriverInstance, MatchOffload {
    /** A packet's {@link Packet#driverData} while it is exposed, or its pull waits for a slot, is posted (into its own memory or staged), or only released the exposure. */
    private static final Object EXPOSED = "exposed", PULL_WAITING = "pull waiting", PULL_POSTED = "pull posted", PULL_STAGED = "pull staged",
            PULL_RELEASED = "pull released";

    private final AgentContext ctx;
    /** Pulls waiting for a free slot or for room in the OUT ring, oldest first (made when first needed). */
    private java.util.ArrayDeque<Packet> waitingPulls;
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
    /** Where a staged pull's bytes go (its own: a ring receive may be half done). */
    private final DataCursor pullCursor = new DataCursor();
    /** Copies a send the agent cannot reach into its exposure's staging. */
    private final DataCursor exposeCursor = new DataCursor();
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
        long at = ctx.claimOut(u.length);
        if (at < 0) {
            return false;
        }
        MemorySegment.copy(u, 0, ctx.out.memory(), ValueLayout.JAVA_BYTE, at, u.length);
        ctx.out.commit(peer, ChannelLayout.HELLO, 0, u.length);
        ctx.posted();
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
        ctx.freeSlots(this);
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
        long at = ctx.claimOut(AgentContext.FRAGMENT);
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
        ctx.posted();
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
            long at = ctx.claimOut(n);
            if (at < 0) {
                return false;
            }
            sendCursor.copyTo(ctx.out.memory(), at, n);
            sendLeft -= n;
            ctx.out.commit(peer, ChannelLayout.PACKET, sendLeft, n);
            ctx.posted();
            p.moved += n; // a pass that wrote some of a large packet did work, though it is not done
            first = false;
        }
        p.driverState = 0;
        sending = null;
        return true;
    }

    @Override
    public Status sendPoll(Packet packet) {
        if (packet.driverData == EXPOSED) {
            return exposurePoll(packet);
        }
        if (packet != sending) {
            return packet.driverState == 0 ? Status.DONE : usable() ? Status.INVALID : failed();
        }
        if (!usable()) {
            sending = null;
            return failed();
        }
        return pump() ? Status.DONE : Status.NOT_YET;
    }

    // ---- rendezvous pull: the agents move the bytes, straight between the two ranks' memory ------

    /** The address of a layout that is one range of native memory, else 0 (the agent reaches nothing else). */
    static long nativeRange(DataLayout layout) {
        if (layout == null || layout.segmentCount() != 1 || layout.size() == 0) {
            return 0;
        }
        MemorySegment base = layout.segmentBase(0);
        return base.isNative() ? base.address() + layout.segmentOffset(0) : 0;
    }

    /**
     * Posts the packet's memory in an exposure slot for the peer alone to pull; the pull data is
     * the slot, its generation and the length. Memory the agent cannot reach (a heap array, a
     * scattered layout) is copied into the slot's staging first and that is exposed: the one copy
     * that sending it through the rings takes too, but the agents then move it while the sender
     * makes no call. INVALID for an empty message, and for such memory past
     * {@link Staging#KEEP_BYTES}: a copy that large would hold up the progress pass making it, and
     * its staging the memory, so it goes through the rings, chunk by chunk.
     */
    @Override
    public Status sendExpose(Packet packet, MemorySegment pullData) {
        if (!usable()) {
            return failed();
        }
        DataLayout layout = packet.layout();
        long length = layout == null ? 0 : layout.size();
        long address = nativeRange(layout);
        if (length == 0 || address == 0 && length > Staging.KEEP_BYTES) {
            return Status.INVALID;
        }
        int slot = ctx.exposures.take();
        if (slot < 0) {
            return Status.NOT_YET;
        }
        if (address == 0) {
            MemorySegment staged = ctx.exposureStaging.at(slot, length);
            exposeCursor.reset(layout).copyTo(staged, 0, length);
            address = staged.address();
        }
        int g = ctx.exposures.post(slot, address, length, peer);
        ctx.exposureOwner[slot] = this;
        pullData.set(ValueLayout.JAVA_INT, ChannelLayout.PD_EXPOSURE, slot);
        pullData.set(ValueLayout.JAVA_INT, ChannelLayout.PD_GENERATION, g);
        pullData.set(ValueLayout.JAVA_LONG, ChannelLayout.PD_LENGTH, length);
        packet.driverData = EXPOSED;
        packet.driverState = (long) g << 32 | slot;
        return Status.DONE;
    }

    /**
     * Where this instance's use of a slot stands ({@code driverState}: its generation, then the
     * slot): POSTED, DONE or FAILED (a posted slot of a peer that went counts FAILED), or -1 when
     * the slot was given back meanwhile (the peer went).
     */
    private int slotState(PullSlots slots, AgentInstance[] owners, long driverState) {
        int slot = (int) driverState, g = (int) (driverState >>> 32);
        long w = slots.word(slot);
        if (owners[slot] != this || PullSlots.generation(w) != g) {
            return -1;
        }
        int state = PullSlots.state(w);
        return (state == ChannelLayout.POSTED || state == ChannelLayout.ARMED) && !usable() ? ChannelLayout.FAILED : state;
    }

    /** An exposure's end: DONE once the peer's agent has read it all (or the peer only released it). */
    private Status exposurePoll(Packet packet) {
        int state = slotState(ctx.exposures, ctx.exposureOwner, packet.driverState);
        if (state == ChannelLayout.POSTED) {
            return Status.NOT_YET;
        }
        packet.driverData = null;
        if (state < 0) {
            return failed();
        }
        int slot = (int) packet.driverState;
        ctx.exposureOwner[slot] = null;
        ctx.exposures.free(slot);
        ctx.exposureStaging.done(slot); // answered: the agents read it no more
        return state == ChannelLayout.DONE ? Status.DONE : failed();
    }

    /**
     * Asks the agent to pull the peer's exposure into the packet's memory: a pull slot names
     * that memory (or a staging range, when the agent cannot reach it) and a PULL record goes to
     * the peer. The agents then move the bytes with no call from either rank; {@link #pullPoll}
     * sees the slot answered. A pull that finds no slot or no room now waits its turn.
     */
    @Override
    public Status pullPost(Packet packet, MemorySegment pullData) {
        if (!usable()) {
            return failed();
        }
        int exposure = pullData.get(ValueLayout.JAVA_INT, ChannelLayout.PD_EXPOSURE), g = pullData.get(ValueLayout.JAVA_INT, ChannelLayout.PD_GENERATION);
        long exposed = pullData.get(ValueLayout.JAVA_LONG, ChannelLayout.PD_LENGTH);
        if (!PullSlots.valid(exposure) || packet.size() > exposed) {
            return Status.INVALID;
        }
        packet.driverData = PULL_WAITING;
        packet.driverState = (long) g << 32 | exposure;
        if ((waitingPulls == null || waitingPulls.isEmpty()) && startPull(packet)) {
            return Status.DONE;
        }
        if (waitingPulls == null) {
            waitingPulls = new java.util.ArrayDeque<>();
        }
        waitingPulls.add(packet);
        return Status.DONE;
    }

    /** Posts a waiting pull's slot and request: false when no slot or no room in the OUT ring now. */
    private boolean startPull(Packet packet) {
        if (!sayHello()) {
            return false;
        }
        long n = packet.size();
        int slot = -1;
        boolean staged = false;
        long address = 0;
        if (n > 0) {
            slot = ctx.pulls.take();
            if (slot < 0) {
                return false;
            }
            address = nativeRange(packet.layout());
            if (address == 0) {
                staged = true;
                address = ctx.pullStaging.at(slot, n).address();
            }
        }
        long at = ctx.claimOut(ChannelLayout.PULL_REQUEST_BYTES);
        if (at < 0) {
            if (slot >= 0) {
                ctx.pulls.free(slot);
            }
            return false;
        }
        int g = slot < 0 ? 0 : ctx.pulls.post(slot, address, n, peer);
        MemorySegment m = ctx.out.memory();
        m.set(ValueLayout.JAVA_INT, at + ChannelLayout.REQ_PULL_SLOT, slot);
        m.set(ValueLayout.JAVA_INT, at + ChannelLayout.REQ_PULL_GENERATION, g);
        m.set(ValueLayout.JAVA_INT, at + ChannelLayout.REQ_EXPOSURE, (int) packet.driverState);
        m.set(ValueLayout.JAVA_INT, at + ChannelLayout.REQ_EXPOSURE_GENERATION, (int) (packet.driverState >>> 32));
        m.set(ValueLayout.JAVA_LONG, at + ChannelLayout.REQ_LENGTH, n);
        ctx.out.commit(peer, ChannelLayout.PULL, 0, ChannelLayout.PULL_REQUEST_BYTES);
        ctx.posted();
        if (slot < 0) {
            packet.driverData = PULL_RELEASED;
        } else {
            ctx.pullOwner[slot] = this;
            packet.driverData = staged ? PULL_STAGED : PULL_POSTED;
            packet.driverState = (long) g << 32 | slot;
        }
        return true;
    }

    @Override
    public Status pullPoll(Packet packet) {
        Object state = packet.driverData;
        if (state == PULL_WAITING) {
            if (!usable()) {
                waitingPulls.remove(packet);
                packet.driverData = null;
                return failed();
            }
            while (!waitingPulls.isEmpty() && startPull(waitingPulls.peek())) {
                waitingPulls.poll();
            }
            state = packet.driverData;
            if (state == PULL_WAITING) {
                return Status.NOT_YET;
            }
        }
        if (state == PULL_RELEASED) {
            packet.driverData = null;
            packet.length(0);
            return Status.DONE;
        }
        if (state != PULL_POSTED && state != PULL_STAGED) {
            return Status.INVALID;
        }
        int st = slotState(ctx.pulls, ctx.pullOwner, packet.driverState);
        if (st == ChannelLayout.POSTED) {
            return Status.NOT_YET;
        }
        if (st < 0) {
            packet.driverData = null;
            return failed();
        }
        int slot = (int) packet.driverState;
        long n = packet.size();
        if (st == ChannelLayout.DONE && state == PULL_STAGED) {
            pullCursor.reset(packet.layout()).copyFrom(ctx.pullStaging.at(slot, n), 0, n);
        }
        ctx.pullOwner[slot] = null;
        ctx.pullEnded(slot);
        packet.driverData = null;
        if (st != ChannelLayout.DONE) {
            return failed();
        }
        packet.length(n);
        return Status.DONE;
    }

    // ---- receives the agent matches ---------------------------------------------------------

    /** Arms a pull slot with the receive's memory (or the slot's staging: {@link ReceiveArms}) and match bits, for a message from the peer alone. */
    @Override
    public Status matchPost(Packet packet, long bits, long ignore) {
        if (!usable()) {
            return failed();
        }
        if (!ReceiveArms.armable(packet)) {
            return Status.INVALID;
        }
        int slot = ReceiveArms.arm(ctx, packet, peer, bits, ignore);
        if (slot < 0) {
            return Status.NOT_YET;
        }
        ctx.pullOwner[slot] = this;
        return Status.DONE;
    }

    @Override
    public Status matchCancel(Packet packet) {
        if (!ReceiveArms.armed(packet)) {
            return Status.DONE;
        }
        if (slotState(ctx.pulls, ctx.pullOwner, packet.driverState) < 0) {
            packet.driverData = null; // given back meanwhile (the peer went): nothing armed
            return Status.DONE;
        }
        int slot = (int) packet.driverState;
        if (!ReceiveArms.reclaim(ctx, packet)) {
            return Status.NOT_YET;
        }
        ctx.pullOwner[slot] = null;
        return Status.DONE;
    }

    @Override
    public Status matchPoll(Packet packet) {
        if (!ReceiveArms.armed(packet)) {
            return Status.INVALID;
        }
        int st = slotState(ctx.pulls, ctx.pullOwner, packet.driverState);
        if (st == ChannelLayout.ARMED || st == ChannelLayout.CLAIMED || st == ChannelLayout.POSTED) {
            return Status.NOT_YET;
        }
        if (st < 0) {
            packet.driverData = null;
            return failed();
        }
        int slot = (int) packet.driverState;
        long header = ctx.pulls.matchedHeader(slot), length = ctx.pulls.matchedLength(slot);
        if (st == ChannelLayout.DONE) {
            ReceiveArms.land(ctx, packet, slot, length, pullCursor);
        }
        packet.driverData = st == ChannelLayout.DONE && ctx.pulls.placedAtOnce(slot) ? ReceiveArms.PLACED_AT_ONCE : null; // armed no more
        ctx.pullOwner[slot] = null;
        ctx.pullEnded(slot);
        if (st != ChannelLayout.DONE) {
            return failed();
        }
        packet.length(length);
        packet.driverState = header;
        return Status.DONE;
    }

    @Override
    public long matchHeader(Packet packet) {
        return packet.driverState;
    }

    @Override
    public int matchSource(Packet packet) {
        return peer;
    }

    @Override
    public boolean matchPlacedAtOnce(Packet packet) {
        return packet.driverData == ReceiveArms.PLACED_AT_ONCE;
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
            packet.moved += len;
            if (more != 0) {
                ctx.in.release(r);
            } else {
                ctx.parsedLast = r;
                receiving = null;
                packet.length(received);
                return Status.DONE;
            }
        }
    }

    /** The peer is gone (the context took its GONE record): polls say BROKEN from now on. */
    void gone() {
        broken = true;
        ctx.freeSlots(this);
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
        Packet p = sending; // a snapshot from another thread, for a wait's report
        return "agent instance to rank " + peer + (broken ? " (gone)" : disconnected ? " (disconnected)" : "")
                + (p == null ? "" : ", sending a packet of " + p.length() + " bytes with " + sendLeft + " left, the OUT ring "
                + ctx.out.free() + " of " + ctx.out.capacity() + " bytes free");
    }
}
