package dev.ferry.core.wire;

import dev.ferry.spi.DataLayout;

import java.lang.foreign.MemorySegment;

/**
 * Bytes [offset, offset + length) of another layout, as a layout: what one rendezvous chunk moves.
 * Finding the first segment is one pass over the parent when made; every call after that is
 * constant time and allocates nothing.
 */
public final class SliceLayout implements DataLayout {
    private final DataLayout parent;
    private final long length;
    private final long first;
    private final long skip;
    private final long count;
    private final long lastLength;

    public SliceLayout(DataLayout parent, long offset, long length) {
        if (offset < 0 || length < 0 || offset + length > parent.size()) {
            throw new IllegalArgumentException("slice [" + offset + ", +" + length + ") outside a layout of " + parent.size() + " bytes");
        }
        this.parent = parent;
        this.length = length;
        long n = parent.segmentCount();
        long pos = 0;
        long f = -1, sk = 0, c = 0, last = 0;
        long end = offset + length;
        for (long i = 0; i < n && pos < end; i++) {
            long l = parent.segmentLength(i);
            if (l == 0) {
                continue;
            }
            if (pos + l > offset) {
                if (f < 0) {
                    f = i;
                    sk = offset - pos;
                }
                c = i - f + 1;
                last = Math.min(end, pos + l) - pos - (i == f ? sk : 0);
            }
            pos += l;
        }
        this.first = f < 0 ? 0 : f;
        this.skip = sk;
        this.count = length == 0 ? 0 : c;
        this.lastLength = last;
    }

    @Override
    public long size() {
        return length;
    }

    @Override
    public long segmentCount() {
        return count;
    }

    @Override
    public MemorySegment segmentBase(long i) {
        return parent.segmentBase(first + i);
    }

    @Override
    public long segmentOffset(long i) {
        return parent.segmentOffset(first + i) + (i == 0 ? skip : 0);
    }

    @Override
    public long segmentLength(long i) {
        if (i == count - 1) {
            return lastLength;
        }
        return parent.segmentLength(first + i) - (i == 0 ? skip : 0);
    }
}
