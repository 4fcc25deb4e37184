package dev.ferry.core.request;

import dev.ferry.spi.DataLayout;
import dev.ferry.spi.IoVec;

import java.lang.foreign.MemorySegment;

/**
 * A message to one peer: a 64-bit header word (what the layer above matches on) and the data, as
 * a memory segment or any {@link DataLayout}. The memory stays the caller's and must not change
 * until the request completes.
 *
 * <pre>{@code
 * SendRequest s = new SendRequest();                       // reusable
 * engine.send(s.to(peer, tag, buffer.asSlice(0, n)));
 * s.join(Duration.ofSeconds(10));
 * }</pre>
 */
public final class SendRequest extends Request {
    /** The one-segment layout of a rendezvous of a segment (made on first use: small messages never need it). */
    private IoVec single;
    private int peer;
    private long header;
    /** The one segment a send was set up with, else null (then {@link #layout} says where the bytes are). */
    private MemorySegment contiguous;
    private DataLayout layout;
    private long length;

    // The engine's state of the send, kept here so that a message allocates nothing. Public for the
    // protocol and gate rooms above this one; the layers above the engine never touch it.
    /** The protocol that packs it, while it waits in its gate's queue (the gate's {@code enqueue}). */
    public Carrier protocol;
    /**
     * The peer's handler takes the message where it arrives and never keeps it (a protocol's
     * control message): it costs no credits, and goes immediately however few are left.
     */
    public boolean handledOnArrival;
    /** A rendezvous' id, which the peer's answers name. */
    public long sourceId;
    /** The rendezvous chunks still in flight. */
    public int chunksLeft;
    /** The packet a pull rendezvous exposes the bytes with (made on first use, then reused). */
    public dev.ferry.spi.Packet exposure;

    /** Sets up a send of {@code data} to {@code peer} (no allocation). */
    public SendRequest to(int peer, long header, MemorySegment data) {
        checkNotPending();
        this.peer = peer;
        this.header = header;
        this.contiguous = java.util.Objects.requireNonNull(data, "data");
        this.layout = null; // made when needed (rendezvous): a small message is copied from the segment itself
        this.length = data.byteSize();
        this.handledOnArrival = false;
        return this;
    }

    /** Sets up a send of the bytes {@code layout} describes. */
    public SendRequest to(int peer, long header, DataLayout layout) {
        checkNotPending();
        this.peer = peer;
        this.header = header;
        this.layout = java.util.Objects.requireNonNull(layout, "layout");
        this.contiguous = null;
        this.length = layout.size();
        this.handledOnArrival = false;
        return this;
    }

    /**
     * Marks the message as one the peer's handler takes where it arrives, never keeping it (a
     * control message: an acknowledgement, a library header): it costs no flow-control credits, so
     * it never waits for them nor goes as a rendezvous envelope. Call after {@code to}.
     *
     * <pre>{@code
     * engine.send(s.to(peer, ackHeader, EMPTY).handledOnArrival());
     * }</pre>
     */
    public SendRequest handledOnArrival() {
        this.handledOnArrival = true;
        return this;
    }

    /** The bytes as a layout (a one-segment vector for a send set up with a segment). */
    public DataLayout layout() {
        if (layout == null) {
            if (single == null) {
                single = new IoVec(1);
            }
            layout = single.clear().add(contiguous);
        }
        return layout;
    }

    public int peer() {
        return peer;
    }

    public long header() {
        return header;
    }

    public long length() {
        return length;
    }

    /** The one segment the send was set up with, else null (then {@link #layout()} says where the bytes are). */
    public MemorySegment contiguous() {
        return contiguous;
    }

    @Override
    public String toString() {
        return "send of " + length + " bytes to rank " + peer;
    }
}
