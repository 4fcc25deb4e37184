package dev.ferry.core.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Every byte layout the engine puts in a driver packet, in one place. Native byte order would do
 * for shm, but tcp crosses machines: all fields little-endian, 8-byte aligned.
 *
 * <p><b>Engine packet</b> (what rides a rail between raw chunks):
 * <pre>
 *   0   u16  magic 0xFE01 ({@link #MAGIC})
 *   2   u16  entry count
 *   4   u32  bits 0..29: credits given: bytes of immediate messages the sender of this packet has
 *            consumed, or (with FERRY_EAGER_POOL) granted from its pool;
 *            bit 30 ({@link #ENVELOPES_BIT}): it keeps every credit it gave unreceived, so messages
 *            that find too few credits go as rendezvous envelopes until more come;
 *            bit 31 ({@link #ASK_BIT}): the sender's next message finds too few credits: give some,
 *            or answer with bit 30
 *   8   ...  entries, each starting 8-byte aligned
 * </pre>
 * Only IMMEDIATE entries cost credits: a receiver holds unexpected eager data up to what it gave,
 * and a message's envelope (an RTS) always gets through, as MPI's progress rule needs.

 * <b>Entries</b> (common: +0 u8 kind, +1..3 zero, +4 u32 a):
 * <pre>
 *   IMMEDIATE  +1 u8 flags ({@link #FREE}: it cost no credits; {@link #TAKEN}: the node's agent
 *              delivered it into a receive, and its payload is not here), +4 u32 payload length,
 *              +8 u64 header word, +16 the payload, padded to 8 (none when TAKEN)
 *   RTS        +8 u64 header word, +16 u64 total length, +24 u64 source id          (32 bytes)
 *   RTS_PULL   +4 u32 pull data length n, +8 u64 header word, +16 u64 total length, +24 zero,
 *              +32 n bytes of the driver's pull data (rail 0 only)
 *   CTS        +4 u32 chunk count n, +8 u64 source id, +16 u64 target id, +24 u64 bytes accepted,
 *              +32 n chunks of 24 bytes: u32 rail, u32 zero, u64 offset, u64 length
 *   DATA       +8 u64 target id, +16 u64 offset, +24 u64 length                     (32 bytes)
 *              DATA entries end their packet (at most {@link #MAX_DATA_ENTRIES}); the packets
 *              after it on the same rail are those chunks' raw bytes, in entry order
 *   CLOSE      +4 u32 step: {@link #CLOSE_ASK}, {@link #CLOSE_AGREE} or {@link #CLOSE_REFUSE};
 *              +8..31 zero                                                          (32 bytes)
 * </pre>
 * Each kind belongs to one protocol: IMMEDIATE to {@code EagerProtocol}; RTS, CTS and DATA to
 * {@code RendezvousPut} (the source announces, the target decides where the data goes and how it
 * is split over the rails, each chunk then travels as a raw driver packet received straight into
 * the destination); RTS_PULL to {@code RendezvousPull} (the target pulls at once). CLOSE belongs to
 * the gate's idle-close handshake ({@code CloseHandshake}).
 */
public final class WireHeader {
    public static final short MAGIC = (short) 0xFE01;
    public static final int PACKET_HEADER = 8;
    static final long MAGIC_OFFSET = 0;
    static final long COUNT_OFFSET = 2;
    static final long CREDITS_OFFSET = 4;

    public static final byte IMMEDIATE = 1;
    public static final byte RTS = 2;
    public static final byte CTS = 3;
    public static final byte DATA = 4;
    public static final byte RTS_PULL = 5;
    public static final byte CLOSE = 6;
    /** Entry kinds are below this. */
    public static final int KINDS = 7;

    /** CLOSE steps: may we close this idle connection; yes (both ends close); no (traffic is on its way). */
    public static final int CLOSE_ASK = 1, CLOSE_AGREE = 2, CLOSE_REFUSE = 3;
    public static final int CLOSE_BYTES = 32;

    static final long KIND = 0;
    static final long A = 4;
    public static final long B = 8;
    public static final long C = 16;
    public static final long D = 24;

    public static final int IMMEDIATE_HEADER = 16;
    /** Every entry but IMMEDIATE has these fixed bytes (kind, a, b, c, d), checked before its protocol reads them. */
    public static final int FIXED_ENTRY = 32;
    public static final int RTS_BYTES = 32;
    public static final int DATA_BYTES = 32;
    public static final int CTS_FIXED = 32;
    public static final int CTS_CHUNK = 24;
    /** Chunks one CTS may carry: every rail's share, each cut to the rail's maximum packet. */
    public static final int MAX_CTS_CHUNKS = 64;
    /** DATA entries one packet may carry: raw chunks announced together, posted back to back. */
    public static final int MAX_DATA_ENTRIES = 16;

    public static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    private WireHeader() {
    }

    static int align(long n) {
        return (int) ((n + 7) & ~7L);
    }

    /** Bytes an immediate entry of {@code payload} bytes takes (also what it costs in credits). */
    public static int immediateBytes(long payload) {
        return IMMEDIATE_HEADER + align(payload);
    }

    public static int ctsBytes(int chunks) {
        return CTS_FIXED + chunks * CTS_CHUNK;
    }

    // The packet header and an entry's first 8 bytes are written and read as one little-endian word
    // each (one checked access instead of three, on every small message's path), with the fields
    // at the offsets above.

    /** The largest credits one packet gives: the rest waits for the next. */
    public static final long MAX_CREDITS = (1L << 30) - 1;
    /** In the credits field: the packet's sender asks for credits. */
    public static final long ASK_BIT = 1L << 31;
    /** In the credits field: the packet's sender holds every credit it gave; send envelopes. */
    public static final long ENVELOPES_BIT = 1L << 30;

    /** The header of a packet of {@code count} entries giving {@code credits} (at most {@link #MAX_CREDITS}). */
    public static void packetHeader(MemorySegment p, int count, long credits) {
        packetHeader(p, count, credits, false, false);
    }

    public static void packetHeader(MemorySegment p, int count, long credits, boolean ask, boolean envelopes) {
        long field = (credits & MAX_CREDITS) | (ask ? ASK_BIT : 0) | (envelopes ? ENVELOPES_BIT : 0);
        p.set(U64, MAGIC_OFFSET, (MAGIC & 0xffffL) | (count & 0xffffL) << (8 * COUNT_OFFSET) | field << (8 * CREDITS_OFFSET));
    }

    /** The packet header word; read its fields with {@link #magic}, {@link #count} and {@link #credits}. */
    public static long packetWord(MemorySegment p) {
        return p.get(U64, MAGIC_OFFSET);
    }

    /** Whether a packet with this header word is an engine packet of exactly one entry (one message, or one step). */
    public static boolean oneEntry(long packetWord) {
        return magic(packetWord) == MAGIC && count(packetWord) == 1;
    }

    /** The first word of the entry of a packet of one entry ({@link #oneEntry}), or 0 when it is no such packet (no entry kind is 0). */
    public static long soleEntry(MemorySegment packet) {
        return packet.byteSize() >= PACKET_HEADER + 8 && oneEntry(packetWord(packet)) ? entryWord(packet, PACKET_HEADER) : 0;
    }

    public static short magic(long packetWord) {
        return (short) (packetWord >>> (8 * MAGIC_OFFSET));
    }

    public static int count(long packetWord) {
        return (int) (packetWord >>> (8 * COUNT_OFFSET)) & 0xffff;
    }

    public static long credits(long packetWord) {
        return packetWord >>> (8 * CREDITS_OFFSET) & MAX_CREDITS;
    }

    /** Whether the packet's sender asks for credits. */
    public static boolean asks(long packetWord) {
        return (packetWord >>> (8 * CREDITS_OFFSET) & ASK_BIT) != 0;
    }

    /** Whether the packet's sender holds every credit it gave us: what finds too few credits goes as an envelope. */
    public static boolean envelopes(long packetWord) {
        return (packetWord >>> (8 * CREDITS_OFFSET) & ENVELOPES_BIT) != 0;
    }

    /** An IMMEDIATE entry's flag: its sender spent no credits on it (the receiver's handler takes it on arrival). */
    public static final int FREE = 1;
    /**
     * An IMMEDIATE entry's flag, set by the receiver's node agent alone: it matched the message to
     * a receive the rank armed and wrote the payload there; the entry stays, without its payload,
     * so that the rank owes its sender the credits all the same.
     */
    public static final int TAKEN = 2;

    /** An IMMEDIATE entry's flags (its byte 1). */
    public static int entryFlags(long entryWord) {
        return (int) (entryWord >>> 8) & 0xff;
    }

    /** An IMMEDIATE entry's first 16 bytes: its flags, payload length and header word. */
    public static void immediate(MemorySegment p, long at, int flags, int length, long header) {
        p.set(U64, at, (IMMEDIATE & 0xffL) << (8 * KIND) | (flags & 0xffL) << 8 | (length & 0xffffffffL) << (8 * A));
        p.set(U64, at + B, header);
    }

    public static void entry(MemorySegment p, long at, byte kind, int a, long b, long c, long d) {
        p.set(U64, at, (kind & 0xffL) << (8 * KIND) | (a & 0xffffffffL) << (8 * A)); // bytes 1..3 zero
        p.set(U64, at + B, b);
        if (kind != IMMEDIATE) {
            p.set(U64, at + C, c);
            p.set(U64, at + D, d);
        }
    }

    /** The first word of the entry at {@code at}; read its fields with {@link #kind} and {@link #a}. */
    public static long entryWord(MemorySegment p, long at) {
        return p.get(U64, at);
    }

    public static byte kind(long entryWord) {
        return (byte) (entryWord >>> (8 * KIND));
    }

    public static int a(long entryWord) {
        return (int) (entryWord >>> (8 * A));
    }

    public static void ctsChunk(MemorySegment p, long at, int rail, long offset, long length) {
        p.set(U32, at, rail);
        p.set(U32, at + 4, 0);
        p.set(U64, at + 8, offset);
        p.set(U64, at + 16, length);
    }
}
