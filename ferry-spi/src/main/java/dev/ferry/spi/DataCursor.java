package dev.ferry.spi;

import java.lang.foreign.MemorySegment;

/**
 * The generic segment iterator over any {@link DataLayout} (seed 000's {@code nm_data} traversal
 * and slicer): a position in the layout's byte stream, and the contiguous chunk that starts there.
 * Reusable and allocation-free, so drivers copy between layouts and their own memory on the hot
 * path, in pieces of any size (a ring slot, a bounce buffer, a socket write).
 *
 * <pre>{@code
 * DataCursor c = new DataCursor();                 // once
 * c.reset(layout);
 * while (c.hasRemaining()) {
 *     long n = Math.min(c.chunkLength(), slot.byteSize());
 *     MemorySegment.copy(c.chunkBase(), c.chunkOffset(), slot, 0, n);
 *     c.advance(n);
 * }
 * // or simply: c.reset(layout).copyTo(dst, 0, layout.size());
 * }</pre>
 */
public final class DataCursor {
    private DataLayout layout;
    private long segment;      // index of the current segment
    private long inSegment;    // bytes of the current segment already passed
    private long position;     // bytes of the layout already passed
    private long size;

    /** Starts at byte 0 of {@code layout}. */
    public DataCursor reset(DataLayout layout) {
        this.layout = layout;
        this.segment = 0;
        this.inSegment = 0;
        this.position = 0;
        this.size = layout.size();
        skipEmpty();
        return this;
    }

    public long position() {
        return position;
    }

    public long remaining() {
        return size - position;
    }

    public boolean hasRemaining() {
        return position < size;
    }

    /** The memory holding the current chunk. */
    public MemorySegment chunkBase() {
        return layout.segmentBase(segment);
    }

    /** The current chunk's offset in {@link #chunkBase()}. */
    public long chunkOffset() {
        return layout.segmentOffset(segment) + inSegment;
    }

    /** Contiguous bytes from the position to the end of the current segment. */
    public long chunkLength() {
        return hasRemaining() ? layout.segmentLength(segment) - inSegment : 0;
    }

    /** Moves forward {@code n} bytes, across segments as needed. */
    public DataCursor advance(long n) {
        if (n < 0 || n > remaining()) {
            throw new IndexOutOfBoundsException("advance by " + n + " with " + remaining() + " bytes remaining");
        }
        position += n;
        while (n > 0) {
            long left = layout.segmentLength(segment) - inSegment;
            if (n < left) {
                inSegment += n;
                return this;
            }
            n -= left;
            segment++;
            inSegment = 0;
        }
        skipEmpty();
        return this;
    }

    private void skipEmpty() {
        long count = layout.segmentCount();
        while (segment < count && inSegment == layout.segmentLength(segment) && position < size) {
            segment++;
            inSegment = 0;
        }
    }

    /** Copies {@code n} bytes from the position into contiguous {@code dst} at {@code dstOffset}, and advances. */
    public DataCursor copyTo(MemorySegment dst, long dstOffset, long n) {
        checkRemaining(n);
        while (n > 0) {
            long k = Math.min(n, chunkLength());
            MemorySegment.copy(chunkBase(), chunkOffset(), dst, dstOffset, k);
            dstOffset += k;
            n -= k;
            advance(k);
        }
        return this;
    }

    /** Copies {@code n} bytes from contiguous {@code src} at {@code srcOffset} into the layout at the position, and advances. */
    public DataCursor copyFrom(MemorySegment src, long srcOffset, long n) {
        checkRemaining(n);
        while (n > 0) {
            long k = Math.min(n, chunkLength());
            MemorySegment.copy(src, srcOffset, chunkBase(), chunkOffset(), k);
            srcOffset += k;
            n -= k;
            advance(k);
        }
        return this;
    }

    /** Copies {@code n} bytes from {@code from}'s position to {@code to}'s position, advancing both. */
    public static void transfer(DataCursor from, DataCursor to, long n) {
        from.checkRemaining(n);
        to.checkRemaining(n);
        while (n > 0) {
            long k = Math.min(n, Math.min(from.chunkLength(), to.chunkLength()));
            MemorySegment.copy(from.chunkBase(), from.chunkOffset(), to.chunkBase(), to.chunkOffset(), k);
            from.advance(k);
            to.advance(k);
            n -= k;
        }
    }

    private void checkRemaining(long n) {
        if (n < 0 || n > remaining()) {
            throw new IndexOutOfBoundsException(n + " bytes asked with " + remaining() + " remaining");
        }
    }
}
