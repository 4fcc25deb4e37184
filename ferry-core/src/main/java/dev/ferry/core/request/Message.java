package dev.ferry.core.request;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;

import java.lang.foreign.MemorySegment;

/**
 * An incoming message as the engine hands it to its {@link MessageHandler}: who sent it, its header
 * word, its length, and, for an immediate message, its bytes. The object passed to the handler is
 * only valid during the call (it is reused: no allocation per message); {@link #keep()} returns
 * one that stays valid, for messages nobody asked for yet. Receiving or dropping a kept message
 * gives its flow-control credits back to the sender.
 *
 * <pre>{@code
 * public void onMessage(Message m) {
 *     if (m.header() == wanted) m.receive(buffer, request);
 *     else queue.add(m.keep());
 * }
 * }</pre>
 */
public final class Message {
    private final RequestHost engine;
    Origin gate;
    long header;
    long length;
    boolean rendezvous;
    /** The protocol that delivered a rendezvous message, which carries out its receive. */
    Carrier protocol;
    // immediate: the bytes, in a packet (during the call) or a copy of our own (kept)
    MemorySegment base;
    long offset;
    // rendezvous
    long sourceId;
    /** Bytes of the driver's pull data at {@link #base}/{@link #offset} (0: the target answers with a CTS). */
    int pullBytes;
    /** Credits the sender gets back once this message is received or dropped. */
    int credit;
    /** The reused message of a handler call (not kept). */
    final boolean transientView;
    boolean taken;
    boolean keptCopyMade;
    /** A kept immediate message whose credits went back (received or dropped): {@link #keep(Message)} may fill it again. */
    boolean settled;
    /** A kept immediate message's own memory for its bytes (grown as needed, kept across reuses). */
    private long[] own;
    private MemorySegment ownSegment;
    /** For a layout of several segments: made on first need (most receives land in one). */
    private DataCursor cursor;

    public Message(RequestHost engine, boolean transientView) {
        this.engine = engine;
        this.transientView = transientView;
    }

    public void setImmediate(Origin g, long header, MemorySegment base, long offset, long length, int credit) {
        this.gate = g;
        this.header = header;
        this.base = base;
        this.offset = offset;
        this.length = length;
        this.rendezvous = false;
        this.credit = credit;
        this.taken = false;
        this.keptCopyMade = false;
        this.settled = false;
    }

    public void setRendezvous(Origin g, Carrier protocol, long header, long length, long sourceId, int credit) {
        this.gate = g;
        this.protocol = protocol;
        this.header = header;
        this.length = length;
        this.sourceId = sourceId;
        this.rendezvous = true;
        this.base = null;
        this.pullBytes = 0;
        this.credit = credit;
        this.taken = false;
        this.keptCopyMade = false;
    }

    /** The sender exposed the bytes: the target pulls them with this pull data (in a packet during the call). */
    public void pullData(MemorySegment base, long offset, int bytes) {
        this.base = base;
        this.offset = offset;
        this.pullBytes = bytes;
    }

    /** The sender's rank. */
    public int source() {
        return gate.rank();
    }

    /** The sender's 64-bit header word. */
    public long header() {
        return header;
    }

    /** The message's length in bytes. */
    public long length() {
        return length;
    }

    /** Whether the bytes are still at the source (rendezvous) rather than here (immediate). */
    public boolean isRendezvous() {
        return rendezvous;
    }

    /**
     * The bytes of an immediate message, read-only use; a fresh view (allocates), valid during the
     * handler call, or for as long as a kept message is not received. {@link #buffer()} and
     * {@link #offset()} give the same bytes without allocating.
     */
    public MemorySegment payload() {
        return buffer().asSlice(offset, length);
    }

    /**
     * The memory an immediate message's bytes lie in, from {@link #offset()} for {@link #length()}
     * bytes (as Aeron hands a fragment: buffer, offset, length; nothing allocated). Read-only use,
     * valid as long as {@link #payload()} would be; the buffer may hold other bytes around them.
     *
     * <pre>{@code
     * long word = m.buffer().get(ValueLayout.JAVA_LONG_UNALIGNED, m.offset());
     * }</pre>
     */
    public MemorySegment buffer() {
        if (rendezvous) {
            throw new IllegalStateException("a rendezvous message has no bytes here yet: receive it");
        }
        return base;
    }

    /** Where an immediate message's bytes start in {@link #buffer()}. */
    public long offset() {
        return offset;
    }

    /**
     * This message as one that stays valid after the handler returns (an immediate message's bytes
     * are copied). Call during the handler; receive or {@link #drop()} it later.
     */
    public Message keep() {
        return keep(null);
    }

    /**
     * {@link #keep()}, filling {@code spare} for an immediate message when spare is
     * {@linkplain #reusable() reusable}: a handler that keeps its received kept messages for this
     * allocates nothing per unexpected message (the spare's memory for bytes grows to the largest
     * it held). Otherwise (null, not reusable, or a rendezvous message) as {@link #keep()}: a new one.
     *
     * <pre>{@code
     * Message k = m.keep(spares.poll());   // the spare, filled, or a new message
     * ...
     * k.receive(buffer, request);
     * if (k.reusable()) spares.add(k);     // once nothing reads k any more
     * }</pre>
     */
    public Message keep(Message spare) {
        if (!transientView) {
            return this;
        }
        checkFresh();
        taken = true;
        keptCopyMade = true;
        Message k = spare != null && spare.reusable() && !rendezvous ? spare : new Message(engine, false);
        if (rendezvous) {
            k.setRendezvous(gate, protocol, header, length, sourceId, credit);
            if (pullBytes > 0) { // the pull data outlives the packet it came in
                MemorySegment copy = java.lang.foreign.Arena.ofAuto().allocate(pullBytes, 8);
                MemorySegment.copy(base, offset, copy, 0, pullBytes);
                k.pullData(copy, 0, pullBytes);
            }
        } else {
            // an immediate message is small: a heap copy, 8-byte aligned like the packet it came in
            MemorySegment copy = k.room(length);
            MemorySegment.copy(base, offset, copy, 0, length);
            k.setImmediate(gate, header, copy, 0, length, credit);
        }
        engine.held(credit);
        return k;
    }

    /**
     * Whether this is a kept immediate message that was received or dropped, its credits given
     * back: {@link #keep(Message)} may fill it again. Its accessors then still answer for the
     * message it held, until it is filled again.
     */
    public boolean reusable() {
        return settled;
    }

    /** This kept message's own memory, at least {@code bytes} long. */
    private MemorySegment room(long bytes) {
        int words = (int) ((bytes + 7) >>> 3);
        if (own == null || own.length < words) {
            own = new long[Math.max(words, 1)];
            ownSegment = MemorySegment.ofArray(own);
        }
        return ownSegment;
    }

    /** Receives the message into {@code into}; see {@link #receive(DataLayout, RecvRequest)}. */
    public void receive(MemorySegment into, RecvRequest request) {
        if (rendezvous || taken) {
            receive(request.into(into).layout, request);
            return;
        }
        request.checkNotPending();
        long n = Math.min(length, into.byteSize());
        MemorySegment.copy(base, offset, into, 0, n); // the small-message path: one copy, no layout to walk
        request.layout = null; // nothing follows an immediate message: no destination is kept
        receivedImmediate(request, n);
    }

    /**
     * Receives the message into {@code into}: an immediate one is copied now; a rendezvous one is
     * pulled from the source (the target decides where the data goes, seed 001), and the request
     * completes when every byte is there. Once per message.
     */
    public void receive(DataLayout into, RecvRequest request) {
        checkFresh();
        request.checkNotPending(); // before anything moves: a refused receive leaves the message to receive again
        request.into(into);
        if (!rendezvous) {
            long n = Math.min(length, into.size());
            if (into.segmentCount() == 1) {
                MemorySegment.copy(base, offset, into.segmentBase(0), into.segmentOffset(0), n);
            } else {
                if (cursor == null) {
                    cursor = new DataCursor();
                }
                cursor.reset(into).copyFrom(base, offset, n);
            }
            receivedImmediate(request, n);
            return;
        }
        taken = true;
        request.begin(engine);
        describe(request, 0, into.size());
        engine.receiveRendezvous(this, request);
    }

    /** An immediate message's {@code n} bytes are in place: its credits go back, and the request completes at once. */
    private void receivedImmediate(RecvRequest request, long n) {
        taken = true;
        describe(request, n, n);
        engine.consumed(this);
        request.completeAtOnce(engine);
    }

    /** What the receiver learns: sender, header word, length, bytes placed so far, and truncation against {@code room}. */
    private void describe(RecvRequest request, long received, long room) {
        request.source = gate.rank();
        request.header = header;
        request.length = length;
        request.received = received;
        request.truncated = length > room;
    }

    /** Drops the message: an immediate one's bytes are forgotten; a rendezvous source completes with nothing moved. */
    public void drop() {
        checkFresh();
        taken = true;
        if (rendezvous) {
            RecvRequest nothing = new RecvRequest();
            nothing.into(MemorySegment.NULL);
            nothing.begin(engine);
            nothing.source = gate.rank();
            nothing.length = length;
            engine.receiveRendezvous(this, nothing);
        } else {
            engine.consumed(this);
        }
    }

    // ---- the engine's side (the gate and the engine call these; the layers above do not) ----

    /** Whether the handler received, kept or dropped the message. */
    public boolean isTaken() {
        return taken;
    }

    /** The credits a kept message holds until it is received or dropped (0 for a handler call's view). */
    public int keptCredit() {
        return transientView ? 0 : credit;
    }

    /** The credits this message cost its sender. */
    public int credit() {
        return credit;
    }

    /** The sender's id of a rendezvous message (named in the answers to it). */
    public long sourceId() {
        return sourceId;
    }

    /** Where a pull rendezvous' pull data lies ({@link #pullOffset()}, {@link #pullBytes()} bytes); null for a put rendezvous. */
    public MemorySegment pullBase() {
        return base;
    }

    public long pullOffset() {
        return offset;
    }

    /** Bytes of the driver's pull data (0: the target answers with a CTS). */
    public int pullBytes() {
        return pullBytes;
    }

    /** The gate the message came through. */
    public Origin origin() {
        return gate;
    }

    /**
     * An immediate message was received or dropped: its credits go back to its origin, and a kept
     * one may be filled anew. Answers the credits it held as a kept message.
     */
    public int settle() {
        gate.returnCredits(credit);
        settled = !transientView; // nothing here reads it again: a kept one may be filled anew
        return keptCredit();
    }

    /** A rendezvous message received into {@code r}: its carrier moves the bytes the destination takes. */
    public void carry(RecvRequest r) {
        long accepted = Math.min(length, r.layout.size());
        r.remaining = accepted;
        protocol.receive(this, r, accepted);
    }

    private void checkFresh() {
        if (taken) {
            throw new IllegalStateException("message from rank " + gate.rank() + " already received, kept or dropped");
        }
    }

    @Override
    public String toString() {
        return (rendezvous ? "rendezvous" : "immediate") + " message of " + length + " bytes from rank " + gate.rank()
                + ", header " + Long.toHexString(header);
    }
}
