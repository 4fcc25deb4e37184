package dev.ferry.core.request;

import dev.ferry.spi.DataLayout;
import dev.ferry.spi.IoVec;

import java.lang.foreign.MemorySegment;

/**
 * Where an incoming {@link Message} goes, and when it is there. A message longer than the
 * destination fills it and completes {@linkplain #truncated() truncated} (MPI's rule; the rest is
 * never moved).
 *
 * <pre>{@code
 * RecvRequest r = new RecvRequest();
 * message.receive(buffer, r);
 * r.join(Duration.ofSeconds(10));
 * long n = r.received();
 * }</pre>
 */
public final class RecvRequest extends Request {
    /** The one-segment layout of a rendezvous into a segment (made on first use: immediate messages never need it). */
    private IoVec single;
    DataLayout layout;
    int source;
    long header;
    long length;
    long received;
    boolean truncated;

    // The engine's state of a rendezvous receive, kept here so that a message allocates nothing.
    // Public for the protocol and gate rooms above this one; the layers above the engine never touch it.
    /** A rendezvous receive handed to the progress thread: the message it is for. */
    public Message pendingMessage;
    /** A put rendezvous' id at the target, which the DATA headers name. */
    public long targetId;
    /** Bytes still to come. */
    public long remaining;
    /** The packet a pull rendezvous pulls with while it is not done (made on first use, then reused). */
    public dev.ferry.spi.Packet pull;

    /** {@link #armedBy} of a receive of any source handed to a driver context to match (no gate holds it). */
    public static final int ARMED_ANY_SOURCE = Integer.MAX_VALUE;
    /** A receive handed to a driver to match: the peer whose gate holds it, or {@link #ARMED_ANY_SOURCE}; -1 when none does. */
    public int armedBy = -1;
    /** Told when the driver matched it and placed the message. */
    public Matched onMatch;

    /**
     * A driver matched this receive (handed to it while idle) and placed a message of
     * {@code length} bytes with {@code header} from {@code source} whole: it completes.
     */
    public void placed(RequestHost e, int source, long header, long length) {
        begin(e);
        this.source = source;
        this.header = header;
        this.length = length;
        this.received = length;
        this.truncated = false;
        complete();
    }

    /** A driver matched this receive but the message could not be placed: it fails with {@code s}. */
    public void placingFailed(RequestHost e, int source, dev.ferry.spi.Status s, String why) {
        begin(e);
        this.source = source;
        complete(s, why);
    }

    /**
     * {@link #pull}, made on first use, reset to receive into {@code l} (this receive's layout from
     * now on): the packet a receive handed to a driver to match is armed with.
     */
    public dev.ferry.spi.Packet pullInto(DataLayout l) {
        dev.ferry.spi.Packet p = pull;
        if (p == null) {
            p = pull = new dev.ferry.spi.Packet();
        }
        return p.reset().useData(into(l).layout);
    }

    public RecvRequest into(MemorySegment m) {
        if (single == null) {
            single = new IoVec(1);
        }
        single.clear().add(m);
        layout = single;
        return this;
    }

    /** Receives into {@code l}: its {@link #layout()} from now on. */
    public RecvRequest into(DataLayout l) {
        layout = java.util.Objects.requireNonNull(l, "layout");
        return this;
    }

    /** The sender's rank. */
    public int source() {
        return source;
    }

    /** The sender's header word. */
    public long header() {
        return header;
    }

    /** The length the sender sent. */
    public long length() {
        return length;
    }

    /** Bytes placed in the destination. */
    public long received() {
        return received;
    }

    /** Where the bytes go (null once an immediate message was copied). */
    public DataLayout layout() {
        return layout;
    }

    /** {@code n} more bytes are in place. */
    public void addReceived(long n) {
        received += n;
    }

    /** Whether the message was longer than the destination. */
    public boolean truncated() {
        return truncated;
    }

    @Override
    public String toString() {
        return "receive of " + length + " bytes from rank " + source;
    }
}
