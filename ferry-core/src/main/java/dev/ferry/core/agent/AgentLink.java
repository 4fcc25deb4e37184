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
    enum State { NEW, AWAITING_CALL, OPEN, BROKEN }

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
    /** Small frames of the agent's own (GONE), written between records. */
    final java.util.ArrayDeque<ByteBuffer> control = new java.util.ArrayDeque<>();

    /** The record being read: its header, then its payload into the receiving rank's ring. */
    final ByteBuffer header = ByteBuffer.allocateDirect((int) ChannelLayout.REC_HEADER).order(ByteOrder.LITTLE_ENDIAN);
    /** The ring the payload goes to (null: to the scratch, the rank is gone), and where. */
    ByteRing readInto;
    ByteBuffer readView;
    long payloadLeft;
    boolean readingPayload;
    long bytesIn, bytesOut, recordsIn, recordsOut;

    AgentLink(String address) {
        this.address = address;
    }

    @Override
    public String toString() {
        return "link to " + address + " (" + state + ")";
    }
}
