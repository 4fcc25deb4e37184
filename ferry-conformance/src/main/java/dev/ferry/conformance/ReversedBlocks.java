package dev.ferry.conformance;

import dev.ferry.spi.DataLayout;

import java.lang.foreign.MemorySegment;

/**
 * A generic (user-defined) layout: {@code size} bytes in blocks of {@code block} bytes placed in
 * reverse order with gaps, so that nothing about it is contiguous or strided.
 */
final class ReversedBlocks implements DataLayout {
    private final MemorySegment memory;
    private final long size;
    private final long block;
    private final long count;

    ReversedBlocks(MemorySegment memory, long size, long block) {
        this.memory = memory;
        this.size = size;
        this.block = block;
        this.count = (size + block - 1) / block;
        if (memory.byteSize() < count * block * 2) {
            throw new IllegalArgumentException("memory too small for reversed blocks");
        }
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
        return memory;
    }

    @Override
    public long segmentOffset(long i) {
        return (count - 1 - i) * block * 2;
    }

    @Override
    public long segmentLength(long i) {
        return Math.min(block, size - i * block);
    }
}
