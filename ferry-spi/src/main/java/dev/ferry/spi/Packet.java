package dev.ferry.spi;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The unit of every send and receive (seed 000's {@code nm_pkt_s}). Reusable: a caller keeps a
 * few packets and sets them up again for each transfer, so nothing is allocated per packet.
 *
 * <p>Fields:
 * <ul>
 *   <li>the data, in one of three forms ({@link Form}): a driver {@linkplain #buffer() buffer}
 *       (buffer-based transfers), an {@linkplain #iov() iovec}, or a {@linkplain #data() data layout};</li>
 *   <li>{@linkplain #length() length}: bytes to send from a buffer, or bytes received;</li>
 *   <li>{@linkplain #rdvData() rendezvous data}: filled by the receiving driver in
 *       {@code recvPost} (driver-owned memory, freed by the driver when the receive completes),
 *       carried to the sender by the upper layer, and set here on the sending side, where it
 *       stays the caller's for the packet's life;</li>
 *   <li>driver fields: {@link #driverData}, {@link #driverState} (with atomic access through
 *       {@link #DRIVER_STATE}), {@link #sendPrefetch} and {@link #recvPrefetch}. The upper layer
 *       never touches them.</li>
 * </ul>
 *
 * <pre>{@code
 * Packet p = new Packet();
 * IoVec iov = new IoVec(4).add(header).add(body);
 * p.useIov(iov);
 * inst.sendPost(p);
 * }</pre>
 */
public final class Packet {
    /** Which representation of the data the packet carries. */
    public enum Form {
        /** Nothing set up: a {@code recvPoll} in this form is a buffer-based receive. */
        NONE,
        /** A driver buffer ({@code sendBufGet}, buffer-based {@code recvPoll}). */
        BUFFER,
        /** An iovec, {@link #iov()}. */
        IOVEC,
        /** A data layout, {@link #data()}. */
        DATA
    }

    /** Atomic access to {@link #driverState} for drivers whose completion is set by another thread. */
    public static final VarHandle DRIVER_STATE;

    static {
        try {
            DRIVER_STATE = MethodHandles.lookup().findVarHandle(Packet.class, "driverState", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Form form = Form.NONE;
    private MemorySegment buffer = MemorySegment.NULL;
    private long length;
    private IoVec iov;
    private DataLayout data;
    private MemorySegment rdvData = MemorySegment.NULL;

    /** The driver's own state for this packet (seed 000's {@code driver_data}). */
    public Object driverData;
    /**
     * A driver-owned word. A plain field: the caller never uses one packet from two threads at once
     * and hands it between threads with its own happens-before (see {@link DriverInstance}), so a
     * driver that reads and writes it only in its calls needs no fence. A volatile field cost a full
     * fence on every store, a packet or two of every small send. A driver whose own thread (or a
     * peer's, in one process) completes a packet uses {@link #DRIVER_STATE}'s release, acquire and
     * compare-and-set modes.
     */
    public long driverState;
    /**
     * Bytes of this packet moved so far while it is in flight, where a driver moves a large one in
     * pieces over several calls (tcp: as much as the socket takes each time); 0 where a driver
     * does not say. The caller reads a change as progress, so that its waits do not fall asleep in
     * the middle of a transfer. Written in the driver's calls only, as {@link #driverState}.
     */
    public long moved;
    /** The driver's prefetch state on the sending side. */
    public Object sendPrefetch;
    /** The driver's prefetch state on the receiving side. */
    public Object recvPrefetch;

    public Form form() {
        return form;
    }

    /** Sets the iovec form; the iovec stays the caller's. */
    public Packet useIov(IoVec iov) {
        this.iov = java.util.Objects.requireNonNull(iov, "iov");
        this.data = null;
        this.form = Form.IOVEC;
        this.length = 0;
        return this;
    }

    /** Sets the data-layout form; the layout stays the caller's. */
    public Packet useData(DataLayout data) {
        this.data = java.util.Objects.requireNonNull(data, "data");
        this.iov = null;
        this.form = Form.DATA;
        this.length = 0;
        return this;
    }

    /** Called by a driver: the packet now holds a driver buffer (buffer-based send or receive). */
    public void driverBuffer(MemorySegment buffer, long length) {
        this.buffer = buffer;
        this.length = length;
        this.iov = null;
        this.data = null;
        this.form = Form.BUFFER;
    }

    /** Back to {@link Form#NONE}, rendezvous data cleared; driver fields are left to the driver. */
    public Packet reset() {
        form = Form.NONE;
        buffer = MemorySegment.NULL;
        iov = null;
        data = null;
        length = 0;
        rdvData = MemorySegment.NULL;
        return this;
    }

    /** The driver buffer, in the BUFFER form; {@link MemorySegment#NULL} otherwise. */
    public MemorySegment buffer() {
        return buffer;
    }

    public IoVec iov() {
        return iov;
    }

    public DataLayout data() {
        return data;
    }

    /**
     * The iovec or data layout, whichever form is set (an {@link IoVec} is a layout too); null in
     * the NONE and BUFFER forms. Lets a driver handle both with one copy loop.
     */
    public DataLayout layout() {
        return form == Form.IOVEC ? iov : form == Form.DATA ? data : null;
    }

    /** Bytes to send from a driver buffer, or bytes received. */
    public long length() {
        return length;
    }

    public Packet length(long length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        this.length = length;
        return this;
    }

    /** Bytes the packet describes: the layout's size, or the buffer length. */
    public long size() {
        return switch (form) {
            case IOVEC -> iov.size();
            case DATA -> data.size();
            case BUFFER, NONE -> length;
        };
    }

    /** Rendezvous data ({@link MemorySegment#NULL}, size 0, when none). */
    public MemorySegment rdvData() {
        return rdvData;
    }

    /** Sets the rendezvous data: by the receiving driver in recvPost, by the upper layer on the sender. */
    public Packet rdvData(MemorySegment rdvData) {
        this.rdvData = rdvData == null ? MemorySegment.NULL : rdvData;
        return this;
    }
}
