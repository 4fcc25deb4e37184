package dev.ferry.conformance;

import dev.ferry.spi.DataLayout;

import java.lang.foreign.MemorySegment;

/** A generic layout of any size made of one small segment repeated: describes more bytes than it allocates. */
final class RepeatingLayout implements DataLayout {
    private final MemorySegment block;
    private final long size;

    RepeatingLayout(MemorySegment block, long size) {
        this.block = block;
        this.size = size;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public long segmentCount() {
        return (size + block.byteSize() - 1) / block.byteSize();
    }

    @Override
    public MemorySegment segmentBase(long i) {
        return block;
    }

    @Override
    public long segmentOffset(long i) {
        return 0;
    }

    @Override
    public long segmentLength(long i) {
        return Math.min(block.byteSize(), size - i * block.byteSize());
    }
}
