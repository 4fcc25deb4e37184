package dev.ferry.spi;

import java.lang.foreign.MemorySegment;

/**
 * The first {@link #length(long) length} bytes of a fixed buffer, as a one-segment layout whose
 * length changes without allocating (a slice per message would be an allocation on the hot path).
 * Change the length only while no transfer uses the layout.
 *
 * <pre>{@code
 * PrefixLayout staged = new PrefixLayout(buffer);   // once
 * packet.reset().useData(staged.length(n));          // per message: the first n bytes of buffer
 * }</pre>
 */
public final class PrefixLayout implements DataLayout {
    private final MemorySegment buffer;
    private long length;

    public PrefixLayout(MemorySegment buffer) {
        this.buffer = java.util.Objects.requireNonNull(buffer, "buffer");
    }

    /** Sets the length (0 .. the buffer's size) and returns this layout. */
    public PrefixLayout length(long n) {
        if (n < 0 || n > buffer.byteSize()) {
            throw new IllegalArgumentException("a prefix of " + n + " bytes of a buffer of " + buffer.byteSize());
        }
        length = n;
        return this;
    }

    /** The whole buffer this layout is a prefix of. */
    public MemorySegment buffer() {
        return buffer;
    }

    @Override
    public long size() {
        return length;
    }

    @Override
    public long segmentCount() {
        return 1;
    }

    @Override
    public MemorySegment segmentBase(long i) {
        return buffer;
    }

    @Override
    public long segmentOffset(long i) {
        return 0;
    }

    @Override
    public long segmentLength(long i) {
        return length;
    }
}
