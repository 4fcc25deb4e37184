package dev.ferry.core.agent;

import org.agrona.collections.IntHashSet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;

/**
 * The one connection between this node's agent and another node's, shared by every rank of both
 * (seed 004's XRC: one connection per node pair): its state, the record it is writing and the
 * one it is reading. Owned by {@link AgentNetwork}, used from the agent's loop alone.
 */
final class AgentLink {
    /** NEW: not open (never yet, or closed in order: opened again on demand); CLOSING: this agent asked to close it. */
    enum State { NEW, AWAITING_CALL, OPEN, CLOSING, BROKEN }

    /** The other agent's listening address, "host:port". */
    final String address;
    State state = State.NEW;
    SocketChannel channel;
    /** When a link that asked to be called started to wait. */
    long awaitingSince;
    /** The remote ranks known to be behind this link (routed to, or heard from): told GONE if it breaks. */
    final IntHashSet ranks = new IntHashSet();

    /** The rank whose record is half written (-1: none), and the bytes of it still to write. */
    int writingFor = -1;
    final ByteBuffer[] gather = new ByteBuffer[1];
    /** Small frames of the agent's own (GONE, a CLOSE refusal, the PULL of a match), written between records, each one of {@link #spare}'s; and the rest of a record whose rank left it half written. */
    final java.util.ArrayDeque<ByteBuffer> control = new java.util.ArrayDeque<>();
    /** Control frames written, kept for the next ones: a matched announcement's PULL takes one and makes none. */
    private final java.util.ArrayDeque<ByteBuffer> spareControl = new java.util.ArrayDeque<>();

    /** Bytes of a control frame: a matched announcement's PULL, or an offload's answer. */
    static final int CONTROL_BYTES = Math.max(AgentMatch.ASK_BYTES, AgentOffloads.ANSWER_RECORD_BYTES);

    /** The next control frame to fill, of {@link #CONTROL_BYTES}; it stays spare until {@link #queueSpare} queues it. */
    ByteBuffer spare() {
        ByteBuffer b = spareControl.peek();
        if (b == null) {
            spareControl.add(b = ByteBuffer.allocateDirect(CONTROL_BYTES).order(java.nio.ByteOrder.LITTLE_ENDIAN));
        }
        return b;
    }

    /** Queues the frame {@link #spare} gave, filled, for writing. */
    void queueSpare() {
        control.add(spareControl.poll());
    }

    /** A control frame is written: kept for another. */
    void written(ByteBuffer b) {
        if (b.isDirect() && b.capacity() == CONTROL_BYTES) { // not the rest of a record its rank left half written
            spareControl.add(b);
        }
    }

    /** Pulls this link serves (exposed memory read out to the other node), in the order asked; the first is being sent. */
    final java.util.ArrayDeque<AgentPulls.Serve> serves = new java.util.ArrayDeque<>();
    /** Records the agent makes itself (pull data, refusals): one being written at a time, while {@link #writingFor} is {@link #OWN}. */
    java.lang.foreign.MemorySegment own;
    ByteBuffer ownView;
    /** The serve whose chunk is being written (null: a refusal is). */
    AgentPulls.Serve ownServe;
    /** The headers and, for a serve from mapped memory, its chunk's bytes there: written together. */
    final ByteBuffer[] ownPair = new ByteBuffer[2];
    /** Whether the chunk being written is {@code ownPair[1]}'s, behind the headers. */
    boolean ownMapped;
    /** {@link #writingFor} while a record of the agent's own is half written. */
    static final int OWN = -2;
    /** Refused pulls to answer: the pulling rank << 32 | slot, and the slot's generation, a pair at a time. */
    final org.agrona.collections.LongArrayQueue refusals = new org.agrona.collections.LongArrayQueue();
    /** Where an arriving PULL or PULL_DATA record's payload is read, for the agent to handle. */
    java.lang.foreign.MemorySegment incoming;
    ByteBuffer incomingView;
    /** A PULL_DATA record's data header is being read, to learn where its bytes go. */
    boolean pullHead;
    /** The PULL_DATA record's bytes are being read straight into the pulling rank's mapped memory. */
    boolean landing;
    final AgentPulls.Landing landed = new AgentPulls.Landing();

    /** The record being read: its header, then its payload into the receiving rank's ring. */
    final ByteBuffer header = ByteBuffer.allocateDirect((int) ChannelLayout.REC_HEADER).order(ByteOrder.LITTLE_ENDIAN);
    /** The ring the payload goes to (null: to the scratch, the rank is gone), and where. */
    ByteRing readInto;
    /** Where the record being read lies in {@link #readInto}, and whether the agent may match it ({@link AgentMatch}: its shape, behind no message for the rank to match). */
    long readAt;
    boolean matchable;
    ByteBuffer readView;
    long payloadLeft;
    boolean readingPayload;
    long bytesIn, bytesOut, recordsIn, recordsOut;
    /** When a byte last went either way (or the link opened), and when this agent asked to close it. */
    long lastActive, closingSince;
    /**
     * While CLOSING: the other agent's new call, used once the old connection has given all it
     * carried (its answer or its end read); and whether it asked to be called again meanwhile.
     */
    SocketChannel nextChannel;
    boolean callBack;
    /** When the link last closed in order (0: never), and when it was last probed since. */
    long closedAt, probedAt;
    /** Whether this link is being read now, and whether a write's failure has it read to its end before it breaks. */
    boolean reading, draining;

    AgentLink(String address) {
        this.address = address;
    }

    @Override
    public String toString() {
        return "link to " + address + " (" + state + ")";
    }
}
