package dev.ferry.driver.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;

import static dev.ferry.driver.shm.ShmLayout.ENTRY_DATA_OFFSET;
import static dev.ferry.driver.shm.ShmLayout.ENTRY_KIND_OFFSET;
import static dev.ferry.driver.shm.ShmLayout.ENTRY_LENGTH_OFFSET;
import static dev.ferry.driver.shm.ShmLayout.SEQ_OFFSET;
import static dev.ferry.driver.shm.ShmLayout.SLOTS;

/**
 * One side's view of a connection file: the ring it produces into, the ring it consumes from,
 * both sides' states, and the peer's doorbell. Positions are kept privately by each side (the
 * producer its tail, the consumer its head); what the other side must see is published with
 * release stores and read with acquire loads. A slot is published by its sequence word, so the
 * consumer polls the very cache line that holds a small packet's bytes.
 */
final class Channel {
    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    final Path file;
    final MemorySegment map;
    final int side; // 0: A (created it), 1: B
    private final long out;
    private final long in;
    private final long myState;
    private final long peerState;
    private final MemorySegment[] outData = new MemorySegment[SLOTS];
    private final MemorySegment[] inData = new MemorySegment[SLOTS];
    private final MemorySegment peerCtx;
    private final MemorySegment peerDoorbell;
    private final MemorySegment wakeErrno;

    // producer side, private
    long tail;
    private long headCache;
    // consumer side, private
    long head;

    // the shared queues, set once both sides' receive modes are known (ShmConnection)
    /** The peer's queue, when it receives from us through it; else null (its ring). */
    private SharedQueue outQ;
    private int outSender;
    private long outPid;
    /** Entries published into the peer's queue, and whether a claimed slot waits for its publish. */
    private long outPublished;
    private boolean claimPending;
    /** Our own queue, when we receive from the peer through it; else null (our ring). */
    private SharedQueue inQ;
    private int inSender;
    private long inConsumed;
    private Runnable queueRoom;
    /**
     * How much of each bounce area is used: all of it toward a receiver with a ring, the first
     * {@link ShmLayout#QUEUE_BOUNCE_BYTES} toward one that takes the queue (a peer it does not
     * talk to much, whose channel then holds few pages).
     */
    long outBounceBytes = ShmLayout.BOUNCE_BYTES;
    long inBounceBytes = ShmLayout.BOUNCE_BYTES;

    Channel(Path file, MemorySegment map, int side, MemorySegment peerCtx, MemorySegment wakeErrno) {
        this.file = file;
        this.map = map;
        this.side = side;
        this.out = ShmLayout.ring(side);
        this.in = ShmLayout.ring(1 - side);
        this.myState = side == 0 ? ShmLayout.STATE_A_OFFSET : ShmLayout.STATE_B_OFFSET;
        this.peerState = side == 0 ? ShmLayout.STATE_B_OFFSET : ShmLayout.STATE_A_OFFSET;
        this.peerCtx = peerCtx;
        this.peerDoorbell = peerCtx.asSlice(ShmLayout.DOORBELL_OFFSET, 4);
        this.wakeErrno = wakeErrno;
        for (int i = 0; i < SLOTS; i++) {
            outData[i] = map.asSlice(out + ShmLayout.slot(i) + ENTRY_DATA_OFFSET, ShmLayout.SLOT_DATA);
            inData[i] = map.asSlice(in + ShmLayout.slot(i) + ENTRY_DATA_OFFSET, ShmLayout.SLOT_DATA);
        }
    }

    // ---- producer ---------------------------------------------------------------------------

    /**
     * True when the slot at {@link #tail} is free (the consumer is fewer than SLOTS behind). Into
     * the peer's queue: claims a slot there, and {@link #tail} is its position; the claim holds
     * until {@link #publish} (or {@link #abandon}).
     */
    boolean hasRoom() {
        if (outQ != null) {
            if (claimPending) {
                return true;
            }
            long p = outQ.claim(outSender, outPid, wakeErrno);
            if (p < 0) {
                return false;
            }
            tail = p;
            claimPending = true;
            return true;
        }
        if (tail - headCache < SLOTS) {
            return true;
        }
        headCache = (long) LONG.getAcquire(map, out + ShmLayout.HEAD_OFFSET);
        return tail - headCache < SLOTS;
    }

    /** The data area of the slot at {@code position} of the outbound ring. */
    MemorySegment outSlot(long position) {
        if (outQ != null) {
            return outQ.data(position);
        }
        return outData[(int) (position & (SLOTS - 1))];
    }

    /**
     * Publishes the slot at {@link #tail}: kind and length, then the sequence word with a
     * volatile store, so the check for a sleeping peer that follows cannot be reordered before
     * it; then wakes the peer if it sleeps.
     */
    void publish(int kind, long length) {
        if (outQ != null) {
            outQ.publish(tail, kind, length);
            claimPending = false;
            LONG.setRelease(map, ShmLayout.sideLine(side) + ShmLayout.SIDE_PUBLISHED, ++outPublished);
            wakePeer();
            return;
        }
        long s = out + ShmLayout.slot(tail);
        map.set(ValueLayout.JAVA_INT, s + ENTRY_KIND_OFFSET, kind);
        map.set(ValueLayout.JAVA_LONG, s + ENTRY_LENGTH_OFFSET, length);
        LONG.setVolatile(map, s + SEQ_OFFSET, tail + 1);
        tail++;
        wakePeer();
    }

    /**
     * Rings the peer's doorbell if one of its threads sleeps on it: after a packet's volatile
     * publish, which a sleeper's own re-check for incoming packets sees.
     */
    void wakePeer() {
        if ((int) INT.getVolatile(peerCtx, ShmLayout.SLEEPERS_OFFSET) > 0) {
            INT.getAndAdd(peerCtx, ShmLayout.DOORBELL_OFFSET, 1);
            Native.futexWake(wakeErrno, peerDoorbell, Integer.MAX_VALUE);
        }
    }

    /**
     * Tells the peer that something other than a packet moved on (a large packet pulled, ring or
     * bounce room freed, a side's state, a split pull's step): its doorbell is bumped whether or
     * not it sleeps, so that a wait-any that begins later still sees the bell moved
     * ({@link ShmContext#recvWaitAny}), and its sleepers are woken. The atomic add is a full
     * fence: the change stored before it is visible before the sleeper count is read.
     */
    void signalPeer() {
        INT.getAndAdd(peerCtx, ShmLayout.DOORBELL_OFFSET, 1);
        if ((int) INT.getVolatile(peerCtx, ShmLayout.SLEEPERS_OFFSET) > 0) {
            Native.futexWake(wakeErrno, peerDoorbell, Integer.MAX_VALUE);
        }
    }

    /** Gives up a slot claimed in the peer's queue and not published (the connection ends): the peer passes over it. */
    void abandon() {
        if (claimPending) {
            outQ.publish(tail, ShmLayout.ENTRY_SKIP, 0); // not counted among the packets published: the peer reads none
            claimPending = false;
            wakePeer();
        }
    }

    /** Large packets the peer has finished pulling from our outbound ring. */
    long outDone() {
        return (long) LONG.getAcquire(map, out + ShmLayout.DONE_OFFSET);
    }

    long bounceConsumedByPeer() {
        return (long) LONG.getAcquire(map, out + ShmLayout.BOUNCE_CONSUMED_OFFSET);
    }

    void publishBounceProduced(long produced) {
        LONG.setRelease(map, out + ShmLayout.BOUNCE_PRODUCED_OFFSET, produced);
    }

    /** Offset of the outbound bounce area in {@link #map}. */
    long outBounce() {
        return out + ShmLayout.SLOTS_OFFSET + (long) SLOTS * ShmLayout.SLOT_BYTES;
    }

    /** The generation the peer last pulled from our exposure {@code slot}. */
    long exposurePulled(int slot) {
        return (long) LONG.getAcquire(map, out + ShmLayout.EXPOSED_OFFSET + slot * 8L);
    }

    /** Offset in {@link #map} of the split record of our exposure {@code slot} (we expose, the peer pulls). */
    long outSplit(int slot) {
        return out + ShmLayout.split(slot);
    }

    // ---- consumer ---------------------------------------------------------------------------

    /** True when the slot at {@link #head} of the inbound ring is published; through our queue, when its head is a packet of this peer's. */
    boolean hasIncoming() {
        if (inQ != null) {
            long h = inQ.head();
            return inQ.published(h) && inQ.sender(h) == inSender;
        }
        return (long) LONG.getAcquire(map, in + ShmLayout.slot(head) + SEQ_OFFSET) == head + 1;
    }

    int inKind() {
        if (inQ != null) {
            return inQ.kind(inQ.head());
        }
        return map.get(ValueLayout.JAVA_INT, in + ShmLayout.slot(head) + ENTRY_KIND_OFFSET);
    }

    long inLength() {
        if (inQ != null) {
            return inQ.length(inQ.head());
        }
        return map.get(ValueLayout.JAVA_LONG, in + ShmLayout.slot(head) + ENTRY_LENGTH_OFFSET);
    }

    MemorySegment inSlot() {
        if (inQ != null) {
            return inQ.data(inQ.head());
        }
        return inData[(int) (head & (SLOTS - 1))];
    }

    /**
     * Frees the head slot for the producer; signals it when the ring was full (the slot before
     * this one already published for the next lap), as it may be waiting for room.
     */
    void consume() {
        if (inQ != null) {
            inConsumed++;
            if (inQ.consume(inQ.head())) {
                queueRoom.run();
            }
            return;
        }
        long full = head + SLOTS; // the sequence word of position head + SLOTS - 1 once published
        head++;
        LONG.setRelease(map, in + ShmLayout.HEAD_OFFSET, head);
        if ((long) LONG.getAcquire(map, in + ShmLayout.slot(full - 1) + SEQ_OFFSET) == full) {
            signalPeer();
        }
    }

    /** Tells the producer that large packet {@code number} is pulled. */
    void markDone(long number) {
        LONG.setRelease(map, in + ShmLayout.DONE_OFFSET, number);
        signalPeer();
    }

    /** Tells the producer that generation {@code generation} of its exposure {@code slot} is pulled. */
    void markPulled(int slot, long generation) {
        LONG.setRelease(map, in + ShmLayout.EXPOSED_OFFSET + slot * 8L, generation);
        signalPeer();
    }

    /** Offset in {@link #map} of the split record of the peer's exposure {@code slot} (we pull). */
    long inSplit(int slot) {
        return in + ShmLayout.split(slot);
    }

    long bounceProducedByPeer() {
        return (long) LONG.getAcquire(map, in + ShmLayout.BOUNCE_PRODUCED_OFFSET);
    }

    void publishBounceConsumed(long consumed) {
        LONG.setRelease(map, in + ShmLayout.BOUNCE_CONSUMED_OFFSET, consumed);
        signalPeer();
    }

    long inBounce() {
        return in + ShmLayout.SLOTS_OFFSET + (long) SLOTS * ShmLayout.SLOT_BYTES;
    }

    /** Whether packets the peer put in our queue have not all been read: its departure waits for them. */
    boolean unconsumed() {
        return inQ != null && inConsumed != (long) LONG.getAcquire(map, ShmLayout.sideLine(1 - side) + ShmLayout.SIDE_PUBLISHED);
    }

    // ---- receive modes ----------------------------------------------------------------------

    /** We receive through a ring: said in our side's line, before we announce ourselves. */
    void receiveThroughRing() {
        INT.setRelease(map, ShmLayout.sideLine(side) + ShmLayout.SIDE_RECEIVE_MODE, ShmLayout.RECEIVE_RING);
    }

    /**
     * We receive through our queue {@code own}, the peer writing {@code sender} in its entries;
     * {@code room} runs when we free a slot after producers found the queue full.
     */
    void receiveThroughQueue(SharedQueue own, int sender, Runnable room) {
        inQ = own;
        inSender = sender;
        inBounceBytes = ShmLayout.QUEUE_BOUNCE_BYTES;
        queueRoom = room;
        map.set(ValueLayout.JAVA_INT, ShmLayout.sideLine(side) + ShmLayout.SIDE_SENDER_ID, sender);
        INT.setRelease(map, ShmLayout.sideLine(side) + ShmLayout.SIDE_RECEIVE_MODE, ShmLayout.RECEIVE_QUEUE);
    }

    /** How the peer receives ({@link ShmLayout#RECEIVE_RING} or {@link ShmLayout#RECEIVE_QUEUE}), once it announced itself. */
    int peerReceiveMode() {
        return (int) INT.getAcquire(map, ShmLayout.sideLine(1 - side) + ShmLayout.SIDE_RECEIVE_MODE);
    }

    /** The sender id the peer gave us for its queue. */
    int peerSenderId() {
        return map.get(ValueLayout.JAVA_INT, ShmLayout.sideLine(1 - side) + ShmLayout.SIDE_SENDER_ID);
    }

    /** We send through the peer's queue {@code peers}, as {@code sender}, from process {@code pid}. */
    void sendThroughQueue(SharedQueue peers, int sender, long pid) {
        outQ = peers;
        outBounceBytes = ShmLayout.QUEUE_BOUNCE_BYTES;
        outSender = sender;
        outPid = pid;
    }

    boolean sendsThroughQueue() {
        return outQ != null;
    }

    // ---- states -----------------------------------------------------------------------------

    int peerState() {
        return (int) INT.getVolatile(map, peerState);
    }

    /** Sets this side's state; volatile, so of two sides leaving at once at least one sees the other gone. */
    void setMyState(int state) {
        INT.setVolatile(map, myState, state);
        signalPeer();
    }

    /** Whether the peer can read our memory with process_vm_readv (so we may send by address). */
    boolean peerReadsUs() {
        return (int) INT.getVolatile(map, side == 0 ? ShmLayout.READV_B_OFFSET : ShmLayout.READV_A_OFFSET) == 1;
    }

    void setWeReadPeer(boolean yes) {
        INT.setVolatile(map, side == 0 ? ShmLayout.READV_A_OFFSET : ShmLayout.READV_B_OFFSET, yes ? 1 : 0);
    }
}
