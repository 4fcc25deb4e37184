package dev.ferry.spi;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * {@code blockCount} equal blocks at a fixed stride in one memory segment; contiguous memory is
 * the case of one block. Bounds are checked once, here, so traversal needs no checks.
 */
public final class StridedLayout implements DataLayout {
    private final MemorySegment base;
    private final long offset;
    private final long blockCount;
    private final long blockLength;
    private final long stride;

    public StridedLayout(MemorySegment base, long offset, long blockCount, long blockLength, long stride) {
        this.base = Objects.requireNonNull(base, "base");
        if (offset < 0 || blockCount < 0 || blockLength < 0) {
            throw new IllegalArgumentException("negative offset, block count or block length: "
                    + offset + ", " + blockCount + ", " + blockLength);
        }
        if (blockCount > 1 && stride < blockLength) {
            throw new IllegalArgumentException("stride " + stride + " is shorter than the block length " + blockLength + " (blocks would overlap)");
        }
        long end = blockCount == 0 ? offset : Math.addExact(offset, Math.addExact(Math.multiplyExact(blockCount - 1, stride), blockLength));
        if (end > base.byteSize()) {
            throw new IndexOutOfBoundsException("strided layout ends at byte " + end + " of a " + base.byteSize() + "-byte segment");
        }
        this.offset = offset;
        this.blockCount = blockCount;
        this.blockLength = blockLength;
        this.stride = stride;
    }

    @Override
    public long size() {
        return blockCount * blockLength;
    }

    @Override
    public long segmentCount() {
        return blockCount;
    }

    @Override
    public MemorySegment segmentBase(long i) {
        return base;
    }

    @Override
    public long segmentOffset(long i) {
        return offset + i * stride;
    }

    @Override
    public long segmentLength(long i) {
        return blockLength;
    }

    public long stride() {
        return stride;
    }

    public long blockLength() {
        return blockLength;
    }

    @Override
    public String toString() {
        return "StridedLayout[" + blockCount + " x " + blockLength + " bytes, stride " + stride + ", offset " + offset + "]";
    }
}
