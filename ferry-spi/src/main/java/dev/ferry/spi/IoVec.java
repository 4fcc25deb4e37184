package dev.ferry.spi;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A reusable vector of memory segments, sent or received in order as one packet. Also a
 * {@link DataLayout}, so drivers walk iovecs and layouts with the same code.
 *
 * <pre>{@code
 * IoVec iov = new IoVec(64);          // capacity fixed at creation: no allocation later
 * iov.clear().add(header).add(payload);
 * packet.useIov(iov);
 * }</pre>
 */
public final class IoVec implements DataLayout {
    private final MemorySegment[] segments;
    private int count;
    private long size;

    public IoVec(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("iovec capacity must be at least 1: " + capacity);
        }
        segments = new MemorySegment[capacity];
    }

    /** An iovec of the given segments. */
    public static IoVec of(MemorySegment... segs) {
        IoVec v = new IoVec(Math.max(1, segs.length));
        for (MemorySegment s : segs) {
            v.add(s);
        }
        return v;
    }

    /** Appends a segment; throws when the capacity is reached. */
    public IoVec add(MemorySegment segment) {
        Objects.requireNonNull(segment, "segment");
        if (count == segments.length) {
            throw new IllegalStateException("iovec full: capacity " + segments.length);
        }
        segments[count++] = segment;
        size += segment.byteSize();
        return this;
    }

    public IoVec clear() {
        java.util.Arrays.fill(segments, 0, count, null);
        count = 0;
        size = 0;
        return this;
    }

    public int count() {
        return count;
    }

    public int capacity() {
        return segments.length;
    }

    public MemorySegment get(int i) {
        Objects.checkIndex(i, count);
        return segments[i];
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public long segmentCount() {
        return count;
    }

    @Override
    public MemorySegment segmentBase(long i) {
        return segments[Objects.checkIndex((int) i, count)];
    }

    @Override
    public long segmentOffset(long i) {
        return 0;
    }

    @Override
    public long segmentLength(long i) {
        return segments[Objects.checkIndex((int) i, count)].byteSize();
    }
}
