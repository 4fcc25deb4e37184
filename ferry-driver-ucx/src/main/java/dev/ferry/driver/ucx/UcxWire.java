package dev.ferry.driver.ucx;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.zip.CRC32;

/**
 * Every layout the ucx driver puts on the wire, in one place: the 64-bit UCP tag, the URL, and
 * the payloads of the four kinds of tagged message. All multi-byte fields little-endian.
 *
 * <p><b>Tag</b> (64 bits):
 * <pre>
 * bits 63..60  kind: HELLO 1, DATA 2, FIN 3, BYE 4, BULK 5
 * bits 59..32  0; for BULK the low 28 bits of the sender's count of BULK messages to that instance
 * bits 31..0   the receiving instance's id (0 for HELLO, which goes to the context)
 * </pre>
 * Receives match every bit. Every message carries its own length: JUCX 1.12 reports neither the
 * received length nor the sender's tag for a receive that completes at once (a message already
 * waiting when the receive is posted), so nothing may depend on them.
 *
 * <p><b>URL</b> (one part): {@code u32 magic 'FRYX' | u32 address length | u32 CRC-32 of the
 * address | worker address}. The CRC keeps a corrupt URL out of {@code ucp_ep_create}, which
 * trusts the address it is given.
 *
 * <p><b>HELLO</b> (instance to context, sent by connectAsync):
 * <pre>
 *  0 u32 magic 'FRYH'      4 u16 version       6 u16 flags (0)
 *  8 u32 sender's instance id: the id the receiver puts in its tags to that instance
 * 12 u32 sender's pid     16 i64 sender's process start (ms since the epoch, 0 unknown)
 * 24 u16 job key length   26 u16 URL length   28 u16 host id length   30 u16 reserved
 * 32 job key, then the sender's URL (encoded DriverUrl), then the host id (boot id and pid namespace)
 * </pre>
 *
 * <p><b>DATA</b>: an 8-byte header {@code u32 length of what follows | u32 flags (bit 0: RTS)}, then
 * the packet's bytes (eager, at most the buffer size) or, with RTS, a descriptor of the sender's
 * registered memory, pulled by the receiver with UCP gets:
 * <pre>
 *  0 u64 total length      8 u32 segment count n   12 u32 flags (bit 0: BY_TAG)
 * 16 u64 BULK tag (0 without BY_TAG)
 * 24 n x { u64 remote address, u64 length, u32 packed remote key length, remote key }
 * </pre>
 * With BY_TAG the same bytes also wait at the receiver as a BULK message (UCX's own tagged
 * rendezvous, which reads the sender's memory with cma where UCP gets would be emulated): the
 * receiver takes it with a tagged receive straight into the posted memory, or, when that memory
 * cannot take it whole (heap, several segments, too short), pulls with gets and then consumes the
 * BULK message with an empty receive. Either way the BULK send's completion completes the send:
 * no FIN follows a BY_TAG rendezvous.
 *
 * <p><b>FIN</b> (receiver to sender, after the gets of a rendezvous without BY_TAG): {@code u64}
 * number of such rendezvous the receiver has completed on this instance (1, 2, ...).
 * <b>BYE</b> (disconnect): {@code u64} number of DATA messages sent before it.
 */
final class UcxWire {
    private UcxWire() {
    }

    static final long KIND_HELLO = 1L << 60;
    static final long KIND_DATA = 2L << 60;
    static final long KIND_FIN = 3L << 60;
    static final long KIND_BYE = 4L << 60;
    static final long KIND_BULK = 5L << 60;
    /** Exact match on every bit. */
    static final long FULL_MASK = -1L;

    static long tag(long kind, int instanceId) {
        return kind | (instanceId & 0xffff_ffffL);
    }

    /** The tag of the {@code count}-th BULK message to an instance (the count's low 28 bits). */
    static long bulkTag(long count, int instanceId) {
        return KIND_BULK | (count & 0x0fff_ffffL) << 32 | (instanceId & 0xffff_ffffL);
    }

    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    // ---- URL ------------------------------------------------------------------------------------

    static final int URL_MAGIC = 0x58595246; // "FRYX" little-endian
    static final int URL_HEADER = 12;

    static byte[] encodeUrl(byte[] workerAddress) {
        byte[] out = new byte[URL_HEADER + workerAddress.length];
        MemorySegment m = MemorySegment.ofArray(out);
        m.set(U32, 0, URL_MAGIC);
        m.set(U32, 4, workerAddress.length);
        m.set(U32, 8, crc(workerAddress));
        System.arraycopy(workerAddress, 0, out, URL_HEADER, workerAddress.length);
        return out;
    }

    /** The worker address in a URL part, or null when the part is not a ucx URL. */
    static byte[] decodeUrl(byte[] part) {
        if (part.length < URL_HEADER) {
            return null;
        }
        MemorySegment m = MemorySegment.ofArray(part);
        int len = m.get(U32, 4);
        if (m.get(U32, 0) != URL_MAGIC || len <= 0 || len != part.length - URL_HEADER) {
            return null;
        }
        byte[] address = java.util.Arrays.copyOfRange(part, URL_HEADER, part.length);
        return crc(address) == m.get(U32, 8) ? address : null;
    }

    private static int crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return (int) c.getValue();
    }

    // ---- HELLO ----------------------------------------------------------------------------------

    static final int HELLO_MAGIC = 0x48595246; // "FRYH"
    static final short HELLO_VERSION = 1;
    static final int HELLO_HEADER = 32;
    static final int HELLO_OFF_ID = 8;
    static final int HELLO_OFF_PID = 12;
    static final int HELLO_OFF_START = 16;
    static final int HELLO_OFF_KEY_LEN = 24;
    static final int HELLO_OFF_URL_LEN = 26;
    static final int HELLO_OFF_HOST_LEN = 28;

    /** A decoded HELLO. */
    record Hello(int senderId, long pid, long startMillis, byte[] jobKey, byte[] url, String hostId) {
    }

    static int helloSize(byte[] key, byte[] url, byte[] host) {
        return HELLO_HEADER + key.length + url.length + host.length;
    }

    static void writeHello(MemorySegment m, int senderId, long pid, long startMillis, byte[] key, byte[] url, byte[] host) {
        m.set(U32, 0, HELLO_MAGIC);
        m.set(U16, 4, HELLO_VERSION);
        m.set(U16, 6, (short) 0);
        m.set(U32, HELLO_OFF_ID, senderId);
        m.set(U32, HELLO_OFF_PID, (int) pid);
        m.set(U64, HELLO_OFF_START, startMillis);
        m.set(U16, HELLO_OFF_KEY_LEN, (short) key.length);
        m.set(U16, HELLO_OFF_URL_LEN, (short) url.length);
        m.set(U16, HELLO_OFF_HOST_LEN, (short) host.length);
        m.set(U16, 30, (short) 0);
        long off = HELLO_HEADER;
        MemorySegment.copy(key, 0, m, ValueLayout.JAVA_BYTE, off, key.length);
        off += key.length;
        MemorySegment.copy(url, 0, m, ValueLayout.JAVA_BYTE, off, url.length);
        off += url.length;
        MemorySegment.copy(host, 0, m, ValueLayout.JAVA_BYTE, off, host.length);
    }

    /** Parses a HELLO in a buffer of {@code capacity} bytes; throws IllegalArgumentException naming what is wrong. */
    static Hello readHello(MemorySegment m, long capacity) {
        if (m.get(U32, 0) != HELLO_MAGIC) {
            throw new IllegalArgumentException(String.format("HELLO with magic 0x%08x", m.get(U32, 0)));
        }
        short version = m.get(U16, 4);
        if (version != HELLO_VERSION) {
            throw new IllegalArgumentException("HELLO of version " + version + ", this driver speaks " + HELLO_VERSION);
        }
        int keyLen = Short.toUnsignedInt(m.get(U16, HELLO_OFF_KEY_LEN));
        int urlLen = Short.toUnsignedInt(m.get(U16, HELLO_OFF_URL_LEN));
        int hostLen = Short.toUnsignedInt(m.get(U16, HELLO_OFF_HOST_LEN));
        if (HELLO_HEADER + (long) keyLen + urlLen + hostLen > capacity) {
            throw new IllegalArgumentException("HELLO declares " + keyLen + "+" + urlLen + "+" + hostLen
                    + " bytes after its header, more than the " + capacity + "-byte buffer");
        }
        long off = HELLO_HEADER;
        byte[] key = m.asSlice(off, keyLen).toArray(ValueLayout.JAVA_BYTE);
        off += keyLen;
        byte[] url = m.asSlice(off, urlLen).toArray(ValueLayout.JAVA_BYTE);
        off += urlLen;
        String host = new String(m.asSlice(off, hostLen).toArray(ValueLayout.JAVA_BYTE), java.nio.charset.StandardCharsets.UTF_8);
        return new Hello(m.get(U32, HELLO_OFF_ID), Integer.toUnsignedLong(m.get(U32, HELLO_OFF_PID)),
                m.get(U64, HELLO_OFF_START), key, url, host);
    }

    // ---- DATA header ----------------------------------------------------------------------------

    static final int DATA_HEADER = 8;
    static final int FLAG_RTS = 1;

    static void writeDataHeader(MemorySegment m, long length, int flags) {
        m.set(U32, 0, (int) length);
        m.set(U32, 4, flags);
    }

    static long dataLength(MemorySegment m) {
        return Integer.toUnsignedLong(m.get(U32, 0));
    }

    static boolean isRts(MemorySegment m) {
        return (m.get(U32, 4) & FLAG_RTS) != 0;
    }

    // ---- rendezvous descriptor ------------------------------------------------------------------

    static final int RTS_HEADER = 24;
    static final int RTS_SEGMENT_HEADER = 20;
    static final int RTS_BY_TAG = 1;

    /** {@code bulkTag} 0: no BULK message, the receiver pulls with gets alone. */
    static void writeRtsHeader(MemorySegment m, long total, int segments, long bulkTag) {
        m.set(U64, 0, total);
        m.set(U32, 8, segments);
        m.set(U32, 12, bulkTag != 0 ? RTS_BY_TAG : 0);
        m.set(U64, 16, bulkTag);
    }

    /** The BULK tag of a descriptor with BY_TAG, else 0. */
    static long rtsBulkTag(MemorySegment m) {
        return (m.get(U32, 12) & RTS_BY_TAG) != 0 ? m.get(U64, 16) : 0;
    }

    static long rtsTotal(MemorySegment m) {
        return m.get(U64, 0);
    }

    static int rtsSegments(MemorySegment m) {
        return m.get(U32, 8);
    }

    /** Writes one segment at {@code off}; returns the offset after it. */
    static long writeRtsSegment(MemorySegment m, long off, long address, long length, MemorySegment rkey) {
        m.set(U64, off, address);
        m.set(U64, off + 8, length);
        m.set(U32, off + 16, (int) rkey.byteSize());
        MemorySegment.copy(rkey, 0, m, off + RTS_SEGMENT_HEADER, rkey.byteSize());
        return off + RTS_SEGMENT_HEADER + rkey.byteSize();
    }

    static long segAddress(MemorySegment m, long off) {
        return m.get(U64, off);
    }

    static long segLength(MemorySegment m, long off) {
        return m.get(U64, off + 8);
    }

    static int segKeyLength(MemorySegment m, long off) {
        return m.get(U32, off + 16);
    }

    // ---- FIN, BYE -------------------------------------------------------------------------------

    static final int COUNT_SIZE = 8;

    static void writeCount(MemorySegment m, long count) {
        m.set(U64, 0, count);
    }

    static long readCount(MemorySegment m) {
        return m.get(U64, 0);
    }
}
