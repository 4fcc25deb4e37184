package dev.ferry.core.engine;

import dev.ferry.spi.DataLayout;

import java.lang.foreign.MemorySegment;

/** The first {@code length} bytes of a fixed buffer, as a one-segment layout whose length changes without allocating. */
final class StagingLayout implements DataLayout {
    private final MemorySegment buffer;
    long length;

    StagingLayout(MemorySegment buffer) {
        this.buffer = buffer;
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
