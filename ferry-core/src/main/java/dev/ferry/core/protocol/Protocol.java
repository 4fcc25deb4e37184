package dev.ferry.core.protocol;

import dev.ferry.core.rail.EngineStats;
import dev.ferry.core.rail.Rail;
import dev.ferry.core.request.Carrier;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.Request;
import dev.ferry.core.request.SendRequest;
import dev.ferry.core.wire.PacketWriter;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * One way of carrying a message from a gate's sender to its receiver, in the manner of UCX's
 * {@code ucp_proto}: the wire entries it writes and parses, and the per-message state it keeps
 * between them. A gate has one instance of each protocol its rails allow; its
 * {@link ProtocolTable} names the one for each size range, and the gate hands each send to the
 * one its length falls to. A new protocol is a new subclass, an entry kind of its own in
 * {@link dev.ferry.core.wire.WireHeader}, and a row in the table; the others stay as they are.
 *
 * <p>The sender's side: {@link #send} takes the message (out at once, or into the gate's queue);
 * the gate packs queued messages in order, each through its protocol's {@link #pack}. The
 * receiver's side: the gate's parser hands each entry to the protocol that owns its kind
 * ({@link #parse}), which delivers a {@link Message} to the layer above; a message that waits for
 * a receive comes back through {@link #receive}. Owned by the thread that makes progress.
 */
public abstract class Protocol implements Carrier {
    final Link gate;
    /** The engine's counters and the gate's reused message view, kept here: one load less on every entry parsed. */
    final EngineStats stats;
    /** Where parsed messages go (the engine), kept here: a message reaches the handler in one call. */
    final Delivery delivery;
    final Message view;

    Protocol(Link gate) {
        this.gate = gate;
        this.stats = gate == null ? null : gate.stats();
        this.delivery = gate == null ? null : gate.delivery();
        this.view = gate == null ? null : gate.view();
    }

    /** The name the protocol table prints, e.g. {@code eager}. */
    abstract String name();

    /** How the protocol carries a message, in a few words, for the protocol table. */
    abstract String describe();

    /** The entry kinds ({@link dev.ferry.core.wire.WireHeader}) this protocol writes and parses. */
    public abstract byte[] kinds();

    /** Starts {@code s} on its way (the gate is open): at once, or queued with {@link Link#enqueue}. */
    public abstract void send(SendRequest s);

    /** Bytes the entry of queued send {@code s} may take in a packet, also its most in credits. */
    public abstract int entryBytes(SendRequest s);

    /**
     * Writes the entry of {@code s} into {@code w}, which has room for {@link #entryBytes}, to
     * leave on {@code rail}; answers the credits it costs (at most entryBytes).
     */
    public abstract int pack(Rail rail, PacketWriter w, SendRequest s);

    /**
     * Reads the entry at {@code at} of a packet of {@code len} bytes, whose first word is
     * {@code word} and whose kind is one of {@link #kinds} (its {@link dev.ferry.core.wire.WireHeader#FIXED_ENTRY}
     * bytes are in the packet, checked, but for IMMEDIATE); answers its length, or -1 once it
     * failed the gate for a malformed entry.
     */
    public abstract long parse(Rail rail, MemorySegment p, long at, long len, long word);

    /**
     * The receiver's side of a message this protocol delivered and the layer above now receives
     * into {@code r}: the first {@code accepted} bytes are wanted (0: none, the sender is released).
     * The gate has checked it is open and taken the message's credits.
     */
    @Override
    public void receive(Message m, RecvRequest r, long accepted) {
        throw new IllegalStateException(name() + " delivers no message that waits for its receive");
    }

    /** Whether it has entries to answer the peer with (packed before queued messages). */
    boolean hasAnswers() {
        return false;
    }

    /** Packs the answers it owes the peer while they fit. */
    void packAnswers(PacketWriter w) {
    }

    /** Whether nothing of its is in flight on this gate. */
    boolean quiet() {
        return true;
    }

    /** Hands every request it holds to {@code failed} and forgets them: the gate failed. */
    void drain(Consumer<Request> failed) {
    }

    /** What it holds now, for a timed-out wait's message ("" when nothing worth saying). */
    String stateReport() {
        return "";
    }
}
