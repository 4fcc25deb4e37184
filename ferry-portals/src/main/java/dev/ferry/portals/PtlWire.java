package dev.ferry.portals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The library's wire layout, the one place its offsets live. Every library message starts with
 * a 64-byte header, little-endian, followed by the operand (swap family) and, when it travels
 * inline, the data:
 * <pre>
 * offset size field
 *  0     1    type        PUT, GET, ATOMIC, FETCH, SWAP (requests); ACK, REPLY (responses); BARRIER, RELEASE;
 *                         DIR_REQ (asks for the entry directory), DIR_KEY (its share key as the data, none: no directory)
 *  1     1    ni          the interface index (0..3: matching / non-matching x logical / physical)
 *  2     1    ack         request: the AckReq ordinal, | ORDERED when the initiator counts it for ordering with
 *                         direct access: then it is always answered, SILENT when no ack was due
 *  3     1    op          atomic operation (Op ordinal)
 *  4     1    datatype    atomic datatype (Datatype ordinal)
 *  5     1    flags       SEPARATE: the data follows in a message of its own (engine header word DATA | id);
 *                         response: SILENT, an answer only for the initiator's count (no event, no count)
 *  6     1    fail        response: the NiFail ordinal
 *  7     1    list        response: the ListKind ordinal the message landed in
 *  8     4    pt          portal table index
 * 12     4    uid         the initiator's user id
 * 16     8    matchBits
 * 24     8    offset      request: remote offset; response: the offset the target used
 * 32     8    hdrData     request: header data; BARRIER / RELEASE: the epoch
 * 40     8    length      request: rlength; response: mlength
 * 48     8    id          the initiator's operation id, echoed by the response
 * 56     4    operandLen  bytes of operand after the header
 * 60     4    reserved
 * </pre>
 * The engine's 64-bit header word is {@link #LIBRARY} for these, or {@code LIBRARY | DATA | id}
 * for the data of an operation sent on its own (large puts, large replies), which the receiver
 * places directly (the engine's rendezvous pulls it when it is large: target-initiated, seed 001).
 * Bit 63 ({@link #LIBRARY}) marks every library message, so that a layer hosting the library on
 * its own engine (the application API's windows) tells the library's messages from its own.
 *
 * <pre>{@code
 * PtlWire.type(buf, PtlWire.PUT);
 * long bits = PtlWire.matchBits(payload);
 * }</pre>
 */
final class PtlWire {
    static final int HEADER = 64;
    /** Largest operand: a LONG_DOUBLE_COMPLEX compare value. */
    static final int MAX_OPERAND = 32;

    static final byte PUT = 1, GET = 2, ATOMIC = 3, FETCH = 4, SWAP = 5, ACK = 6, REPLY = 7, BARRIER = 8, RELEASE = 9, DIR_REQ = 10, DIR_KEY = 11;
    static final byte SEPARATE = 1, SILENT = 2;
    /** In the ack field: answer this request even when no ack is due (see the layout). */
    static final int ORDERED = 0x80;
    /** Set in the engine header word of every library message (see the layout). */
    static final long LIBRARY = 1L << 63;
    /** Engine header word of a data message (with {@link #LIBRARY}); the low 62 bits are the operation id. */
    static final long DATA = 1L << 62;
    static final long ID_MASK = DATA - 1;

    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;

    private static final int TYPE = 0, NI = 1, ACK_REQ = 2, OP = 3, DATATYPE = 4, FLAGS = 5, FAIL = 6, LIST = 7, PT = 8, UID = 12,
            MATCH_BITS = 16, OFFSET = 24, HDR_DATA = 32, LENGTH = 40, ID = 48, OPERAND_LEN = 56;

    private PtlWire() {
    }

    static byte type(MemorySegment h) {
        return h.get(ValueLayout.JAVA_BYTE, TYPE);
    }

    static int ni(MemorySegment h) {
        return h.get(ValueLayout.JAVA_BYTE, NI) & 0xff;
    }

    static int ack(MemorySegment h) {
        return h.get(ValueLayout.JAVA_BYTE, ACK_REQ) & 0xff;
    }

    /** Entry {@code i} of a code table (an enum's constants), or null when a peer sent an index it does not have. */
    static <E> E code(E[] table, int i) {
        return i >= 0 && i < table.length ? table[i] : null;
    }

    static int op(MemorySegment h) {
        return h.get(ValueLayout.JAVA_BYTE, OP) & 0xff;
    }

    static int datatype(MemorySegment h) {
        return h.get(ValueLayout.JAVA_BYTE, DATATYPE) & 0xff;
    }

    static int flags(MemorySegment h) {
        return h.get(ValueLayout.JAVA_BYTE, FLAGS) & 0xff;
    }

    static int fail(MemorySegment h) {
        return h.get(ValueLayout.JAVA_BYTE, FAIL) & 0xff;
    }

    static int list(MemorySegment h) {
        return h.get(ValueLayout.JAVA_BYTE, LIST) & 0xff;
    }

    static int pt(MemorySegment h) {
        return h.get(I32, PT);
    }

    static int uid(MemorySegment h) {
        return h.get(I32, UID);
    }

    static long matchBits(MemorySegment h) {
        return h.get(I64, MATCH_BITS);
    }

    static long offset(MemorySegment h) {
        return h.get(I64, OFFSET);
    }

    static long hdrData(MemorySegment h) {
        return h.get(I64, HDR_DATA);
    }

    static long length(MemorySegment h) {
        return h.get(I64, LENGTH);
    }

    static long id(MemorySegment h) {
        return h.get(I64, ID);
    }

    static int operandLen(MemorySegment h) {
        return h.get(I32, OPERAND_LEN);
    }

    /** Writes a request header. */
    static void request(MemorySegment h, byte type, int ni, int ack, int op, int datatype, int flags, int pt, int uid,
                        long matchBits, long offset, long hdrData, long length, long id, int operandLen) {
        h.set(ValueLayout.JAVA_BYTE, TYPE, type);
        h.set(ValueLayout.JAVA_BYTE, NI, (byte) ni);
        h.set(ValueLayout.JAVA_BYTE, ACK_REQ, (byte) ack);
        h.set(ValueLayout.JAVA_BYTE, OP, (byte) op);
        h.set(ValueLayout.JAVA_BYTE, DATATYPE, (byte) datatype);
        h.set(ValueLayout.JAVA_BYTE, FLAGS, (byte) flags);
        h.set(ValueLayout.JAVA_BYTE, FAIL, (byte) 0);
        h.set(ValueLayout.JAVA_BYTE, LIST, (byte) 0);
        h.set(I32, PT, pt);
        h.set(I32, UID, uid);
        h.set(I64, MATCH_BITS, matchBits);
        h.set(I64, OFFSET, offset);
        h.set(I64, HDR_DATA, hdrData);
        h.set(I64, LENGTH, length);
        h.set(I64, ID, id);
        h.set(I32, OPERAND_LEN, operandLen);
        h.set(I32, 60, 0);
    }

    /** Writes a response header (ACK or REPLY) to the request {@code id}. */
    static void response(MemorySegment h, byte type, int ni, int flags, int fail, int list, int pt, long offset, long mlength, long id) {
        request(h, type, ni, 0, 0, 0, flags, pt, 0, 0, offset, 0, mlength, id, 0);
        h.set(ValueLayout.JAVA_BYTE, FAIL, (byte) fail);
        h.set(ValueLayout.JAVA_BYTE, LIST, (byte) list);
    }
}
