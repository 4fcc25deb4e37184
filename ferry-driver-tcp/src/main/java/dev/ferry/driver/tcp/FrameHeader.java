package dev.ferry.driver.tcp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Decodes and encodes frame headers ({@link WireFormat}), checking every field before anything
 * is done with it: a malformed, oversized or unknown frame is reported, never acted on. Reusable;
 * decoding allocates nothing.
 */
final class FrameHeader {
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    static final String BAD_MAGIC = "bad frame magic";
    static final String BAD_KIND = "unknown frame kind";
    static final String NEGATIVE = "negative frame length";
    static final String OVERSIZED = "frame longer than the maximum packet size";
    static final String BAD_BYE = "BYE frame with a payload";

    private final long maxPacketSize;
    int kind;
    long length;

    FrameHeader(long maxPacketSize) {
        this.maxPacketSize = maxPacketSize;
    }

    /**
     * Decodes the {@link WireFormat#FRAME_HEADER} bytes at {@code offset}; null when valid (then
     * {@link #kind} and {@link #length} are set), else the reason it is not.
     */
    String decode(MemorySegment m, long offset) {
        if (m.get(INT, offset + WireFormat.FRAME_MAGIC_OFFSET) != WireFormat.FRAME_MAGIC) {
            return BAD_MAGIC;
        }
        int k = m.get(INT, offset + WireFormat.FRAME_KIND_OFFSET);
        long len = m.get(LONG, offset + WireFormat.FRAME_LENGTH_OFFSET);
        if (k != WireFormat.KIND_DATA && k != WireFormat.KIND_BYE) {
            return BAD_KIND;
        }
        if (len < 0) {
            return NEGATIVE;
        }
        if (len > maxPacketSize) {
            return OVERSIZED;
        }
        if (k == WireFormat.KIND_BYE && len != 0) {
            return BAD_BYE;
        }
        kind = k;
        length = len;
        return null;
    }

    static void encode(MemorySegment m, long offset, int kind, long length) {
        m.set(INT, offset + WireFormat.FRAME_MAGIC_OFFSET, WireFormat.FRAME_MAGIC);
        m.set(INT, offset + WireFormat.FRAME_KIND_OFFSET, kind);
        m.set(LONG, offset + WireFormat.FRAME_LENGTH_OFFSET, length);
    }
}
