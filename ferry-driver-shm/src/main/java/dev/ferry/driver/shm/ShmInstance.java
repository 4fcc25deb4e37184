package dev.ferry.driver.shm;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One shm connection. The side whose URL sorts lower creates the channel file; the other attaches
 * to it. Small packets travel in slots (written in place by buffer-based sends, read in place
 * by buffer-based receives): the slots of the receiver's ring in the channel, or of its
 * {@link SharedQueue} when it has no ring for this peer; large ones by {@link Rendezvous}. A peer that disconnects is CLOSED
 * once its packets are drained; one that closes without disconnecting, or whose process is gone
 * (checked every {@link #LIVENESS_NANOS} while waiting), is BROKEN.
 */
final class ShmInstance extends ShmConnection {

    private static final long IDLE = 0, SENT = -1, FAILED = -2, PULLED = -3;
    /** An exposed packet's state: EXPOSED - its exposure slot. */
    private static final long EXPOSED = -16;
    /**
     * A split pull's state, below every other: SPLIT | exposure slot &lt;&lt; 56 | generation
     * &lt;&lt; 15 | chunks we copied (a packet of at most 1 GiB has at most 2^14 chunks; a slot
     * does not see 2^41 generations).
     */
    private static final long SPLIT = Long.MIN_VALUE;
    private static final long SPLIT_END = SPLIT + (1L << 62);
    private static final long SPLIT_MINE = (1L << 15) - 1;
    private static final long SPLIT_GENERATION = (1L << 41) - 1;

    private long claimed = -1;
    private Packet claimedPacket;
    private long rtsIssued;
    private boolean bufHeld;
    private Packet posted;
    private boolean pulling;
    private final DataCursor sendCursor = new DataCursor();
    private final Object[] keepOne = new Object[1];
    private final DataCursor recvCursor = new DataCursor();

    ShmInstance(ShmContext ctx) {
        super(ctx);
    }

    // ---- sending ----------------------------------------------------------------------------

    @Override
    public Status sendBufGet(Packet packet) {
        Status s = ready(true);
        if (s != null) {
            return s;
        }
        if (claimed >= 0) {
            return Status.INVALID; // one buffer out at a time
        }
        if (!ch.hasRoom()) {
            return Status.NOT_YET;
        }
        claimed = ch.tail;
        claimedPacket = packet;
        packet.driverBuffer(ch.outSlot(claimed), 0);
        return Status.DONE;
    }

    @Override
    public Status sendBufPost(Packet packet) {
        if (claimed < 0 || packet != claimedPacket || packet.form() != Packet.Form.BUFFER || packet.length() > ShmLayout.SLOT_DATA) {
            return Status.INVALID;
        }
        claimed = -1;
        claimedPacket = null;
        Status s = ready(true);
        if (s != null) {
            return s;
        }
        ch.publish(ShmLayout.ENTRY_INLINE, packet.length());
        packet.driverState = SENT;
        return Status.DONE;
    }

    @Override
    public Status sendPost(Packet packet) {
        DataLayout layout = packet.layout();
        if (layout == null || (packet.form() == Packet.Form.IOVEC && packet.iov().count() > ShmContext.MAX_IOVEC)) {
            return Status.INVALID;
        }
        long size = layout.size();
        if (size > ShmContext.MAX_PACKET_SIZE) {
            return Status.INVALID;
        }
        Status s = ready(true);
        if (s != null) {
            return s;
        }
        if (claimed >= 0 || !ch.hasRoom()) {
            return Status.NOT_YET;
        }
        if (size <= ShmLayout.SLOT_DATA) {
            sendCursor.reset(layout).copyTo(ch.outSlot(ch.tail), 0, size);
            ch.publish(ShmLayout.ENTRY_INLINE, size);
            packet.driverState = SENT;
            return Status.DONE;
        }
        long number = ++rtsIssued;
        Object[] keep = new Object[1];
        int mode = rv.describe(layout, number, ch.outSlot(ch.tail), keep);
        ctx.sentByMode.incrementAndGet(mode);
        packet.driverData = keep[0];
        packet.driverState = number;
        ch.publish(ShmLayout.ENTRY_RTS, size);
        if (mode == ShmLayout.MODE_BOUNCE) {
            rv.startBounce(packet);
            rv.pushBounce();
        }
        return Status.DONE;
    }

    @Override
    public Status sendPoll(Packet packet) {
        long st = packet.driverState;
        if (st == SENT) {
            return Status.DONE;
        }
        if (st == IDLE) {
            return Status.INVALID;
        }
        if (st == FAILED) {
            return terminal();
        }
        if (state >= DISCONNECTED) {
            packet.driverState = FAILED;
            return terminal();
        }
        if (rv.bouncingAnything()) {
            rv.pushBounce();
        }
        if (st <= EXPOSED) {
            int slot = (int) (EXPOSED - st);
            boolean marked = exposures.marked(slot);
            long whole = marked ? 1 : split.help(slot, exposures.generation(slot), packet.layout(), ctx.splitPull); // the peer's setting may differ from ours
            if (whole == 1) {
                exposures.sent(slot, marked);
                packet.driverState = SENT;
                packet.driverData = null;
                return Status.DONE;
            }
            if (whole < 0) {
                packet.driverState = FAILED;
                return failErrno(whole, "writing our share of a large packet");
            }
        } else if (ch.outDone() >= st) {
            packet.driverState = SENT;
            packet.driverData = null;
            return Status.DONE;
        }
        if ((++emptyPolls & 1023) == 0) {
            checkPeerAlive();
        }
        if (peerDied || ch.peerState() != ShmLayout.SIDE_OPEN) {
            packet.driverState = FAILED;
            return fail("the peer left before pulling a large packet");
        }
        return Status.NOT_YET;
    }

    @Override
    public Status sendExpose(Packet packet, MemorySegment pullData) {
        DataLayout layout = packet.layout();
        if (layout == null || pullData.byteSize() < ShmLayout.PULL_DATA_BYTES || layout.size() > ShmContext.MAX_PACKET_SIZE) {
            return Status.INVALID;
        }
        int st = state;
        if (st != CONNECTED) {
            return st == CONNECTING ? Status.NOT_YET : st == NEW ? Status.INVALID : terminal();
        }
        int slot = exposures.next();
        if (slot < 0) {
            return Status.NOT_YET;
        }
        long generation = exposures.generation(slot) + 1;
        int mode = rv.describe(layout, generation, pullData, keepOne, ShmLayout.PULL_INLINE_SEGMENTS);
        if (mode == ShmLayout.MODE_BOUNCE) {
            return Status.INVALID; // the bytes have no address the peer can read: send them
        }
        pullData.set(ValueLayout.JAVA_INT, ShmLayout.PULL_SLOT, slot);
        exposures.take(slot, generation);
        ctx.sentByMode.incrementAndGet(mode);
        packet.driverData = keepOne[0]; // an indirect segment array lives as long as the exposure
        keepOne[0] = null;
        packet.driverState = EXPOSED - slot;
        return Status.DONE;
    }

    @Override
    public Status pullPost(Packet packet, MemorySegment pullData) {
        DataLayout into = packet.layout();
        if (into == null || pullData.byteSize() < ShmLayout.PULL_DATA_BYTES) {
            return Status.INVALID;
        }
        int st = state;
        if (st != CONNECTED) {
            return st == NEW || st == CONNECTING ? Status.INVALID : terminal();
        }
        int slot = pullData.get(ValueLayout.JAVA_INT, ShmLayout.PULL_SLOT);
        long generation = pullData.get(ValueLayout.JAVA_LONG, ShmLayout.RTS_NUMBER);
        if (slot < 0 || slot >= ShmLayout.EXPOSURES || pullData.get(ValueLayout.JAVA_LONG, ShmLayout.RTS_PID) != peerPid) {
            return Status.INVALID;
        }
        long bytes = into.size();
        if (ctx.splitPull && ch.peerReadsUs() && SplitPull.splittable(pullData, into, bytes)) {
            long address = into.segmentBase(0).address() + into.segmentOffset(0);
            split.offer(slot, generation, address, bytes);
            long mine = split.share(slot, generation, pullData, address, bytes);
            if (mine < 0) {
                packet.driverState = FAILED;
                return failErrno(mine, "pulling an exposed packet");
            }
            packet.length(bytes);
            packet.driverState = SPLIT | (long) slot << 56 | (generation & SPLIT_GENERATION) << 15 | mine;
            return Status.DONE; // whole once the peer's chunks are in too: pullPoll
        }
        long r = bytes == 0 ? 0 : rv.pullExposed(pullData, into);
        if (r < 0) {
            packet.driverState = FAILED;
            return failErrno(r, "pulling an exposed packet");
        }
        ch.markPulled(slot, generation);
        packet.length(into.size());
        packet.driverState = PULLED;
        return Status.DONE;
    }

    @Override
    public Status pullPoll(Packet packet) {
        long st = packet.driverState;
        if (st < SPLIT_END) {
            return splitPoll(packet, st);
        }
        return st == PULLED ? Status.DONE : st == FAILED ? terminal() : Status.INVALID;
    }

    private Status splitPoll(Packet packet, long st) {
        int slot = (int) (st >>> 56) & (ShmLayout.EXPOSURES - 1);
        long generation = (st >>> 15) & SPLIT_GENERATION;
        long tag = SplitPull.tag(generation);
        long mine = st & SPLIT_MINE;
        long r = split.whole(slot, tag, packet.length(), mine);
        if (r == 0) {
            if ((++emptyPolls & 1023) == 0) {
                checkPeerAlive();
            }
            if (!peerDied && ch.peerState() == ShmLayout.SIDE_OPEN && state == CONNECTED) {
                return Status.NOT_YET;
            }
            r = split.whole(slot, tag, packet.length(), mine); // its last chunk may have come before it left
            if (r == 0) {
                packet.driverState = FAILED;
                return state == CONNECTED ? fail("the peer left before writing its share of a large packet") : terminal();
            }
        }
        if (r < 0) {
            packet.driverState = FAILED;
            return fail("the peer's share of a large packet failed with errno " + -r);
        }
        ch.markPulled(slot, generation); // the exposer may expose the slot again
        packet.driverState = PULLED;
        return Status.DONE;
    }

    @Override
    public Status sendPrefetch(Packet packet) {
        DataLayout layout = packet.layout();
        if (layout == null) {
            return Status.INVALID;
        }
        touch(layout, false); // pages the receiver will read are faulted in now, not while it waits
        packet.sendPrefetch = Boolean.TRUE;
        return Status.DONE;
    }

    @Override
    public Status sendUnfetch(Packet packet) {
        packet.sendPrefetch = null;
        return Status.DONE;
    }

    @Override
    public Status recvPrefetch(Packet packet) {
        DataLayout layout = packet.layout();
        if (layout == null) {
            return Status.INVALID;
        }
        touch(layout, true); // the destination is writable before the data comes
        packet.recvPrefetch = Boolean.TRUE;
        return Status.DONE;
    }

    @Override
    public Status recvUnfetch(Packet packet) {
        packet.recvPrefetch = null;
        return Status.DONE;
    }

    /** Faults in every page of a layout; for writing, rewrites a byte with itself. */
    private static void touch(DataLayout layout, boolean write) {
        for (long i = 0; i < layout.segmentCount(); i++) {
            MemorySegment base = layout.segmentBase(i);
            long end = layout.segmentOffset(i) + layout.segmentLength(i);
            for (long o = layout.segmentOffset(i); o < end; o += 4096) {
                byte b = base.get(ValueLayout.JAVA_BYTE, o);
                if (write) {
                    base.set(ValueLayout.JAVA_BYTE, o, b);
                }
            }
        }
    }

    // ---- receiving --------------------------------------------------------------------------

    @Override
    public Status recvPost(Packet packet) {
        int s = state;
        if (s == DISCONNECTED || s == CLOSED) {
            return Status.CLOSED;
        }
        if (s == NEW || packet.layout() == null || posted != null || bufHeld) {
            return Status.INVALID;
        }
        if (packet.form() == Packet.Form.IOVEC && packet.iov().count() > ShmContext.MAX_IOVEC) {
            return Status.INVALID;
        }
        packet.rdvData(null); // the sender's RTS carries what the receiver needs
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
            return Status.INVALID;
        }
        Status s = ready(false);
        if (s != null) {
            return s;
        }
        if (queueId != 0) {
            ctx.receiving.settle();
        }
        if (!ch.hasIncoming()) {
            return drained();
        }
        if (ch.inKind() != ShmLayout.ENTRY_INLINE) {
            return Status.INVALID; // a large packet: post a receive for it
        }
        packet.driverBuffer(ch.inSlot(), ch.inLength());
        bufHeld = true;
        return Status.DONE;
    }

    @Override
    public Status recvBufRelease(Packet packet) {
        if (!bufHeld || packet.form() != Packet.Form.BUFFER) {
            return Status.INVALID;
        }
        bufHeld = false;
        ch.consume();
        packet.reset();
        return Status.DONE;
    }

    private Status completePosted() {
        Status s = ready(false);
        if (s != null) {
            return s;
        }
        if (rv.bouncingAnything()) {
            rv.pushBounce(); // our own large sends progress while we receive
        }
        if (!pulling) {
            if (queueId != 0) {
                ctx.receiving.settle();
            }
            if (!ch.hasIncoming()) {
                return drained();
            }
            long len = ch.inLength();
            if (ch.inKind() == ShmLayout.ENTRY_INLINE) {
                long n = Math.min(len, posted.size());
                recvCursor.reset(posted.layout()).copyFrom(ch.inSlot(), 0, n);
                ch.consume();
                return finish(len);
            }
            rv.begin(ch.inSlot(), len);
            pulling = true;
        }
        long r = rv.pull(ch.inSlot(), posted.layout());
        if (r == 0) { // the sender streams it through the bounce area: more is to come
            if ((++emptyPolls & 1023) == 0) { // not the clock on every look, as for an empty ring
                checkPeerAlive();
            }
            return peerDied ? fail("the peer died while streaming a large packet") : Status.NOT_YET;
        }
        pulling = false;
        if (r < 0) {
            return failErrno(r, "pulling a large packet");
        }
        long len = rv.pullLength;
        ch.markDone(rv.pullNumber);
        ch.consume();
        return finish(len);
    }

    private Status finish(long length) {
        Packet done = posted;
        posted = null;
        done.length(length);
        return length > done.size() ? Status.INVALID : Status.DONE;
    }

    @Override
    public Status recvWait(Packet packet) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = Native.errnoCapture(a);
            MemorySegment timeout = ShmContext.timespec(a, ShmContext.SLEEP_NANOS);
            for (int round = 0; ; round++) {
                Status s = recvPoll(packet);
                if (s != Status.NOT_YET) {
                    return s;
                }
                if (round < ShmContext.SPIN_ROUNDS) {
                    Thread.onSpinWait();
                } else {
                    ctx.sleep(this::hasIncoming, err, timeout);
                }
            }
        }
    }

    @Override
    public Status recvCancel(Packet packet) {
        if (posted == null || posted != packet) {
            return Status.INVALID;
        }
        if (pulling) {
            return Status.NOT_YET; // its bytes are moving: it completes, poll it
        }
        posted = null;
        return Status.DONE;
    }

    /** Whether a receive is posted (tests). */
    boolean hasPosted() {
        return posted != null;
    }

    @Override
    public String toString() {
        return "shm instance -> " + (peerFile != null ? peerFile.getFileName() : "unconnected");
    }

}
