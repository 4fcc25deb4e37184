package dev.ferry.spi;

import java.lang.foreign.MemorySegment;

/**
 * A description of where the bytes of a transfer live (seed 000's {@code nm_data_s}): a sequence
 * of segments, each a range of a {@link MemorySegment}. Contiguous memory, iovecs and strided
 * vectors are built in; any other layout implements these four methods, and every driver and
 * {@link DataCursor} handle it.
 *
 * <p>Implementations answer without allocating, so drivers can walk layouts on the hot path.
 *
 * <pre>{@code
 * // every third 8-byte double of a column: 100 blocks of 8 bytes, 24 bytes apart
 * DataLayout column = DataLayout.strided(matrix, 0, 100, 8, 24);
 * DataLayout whole  = DataLayout.contiguous(segment);
 * }</pre>
 */
public interface DataLayout {
    /** Total bytes. */
    long size();

    /** Number of segments, at least 0. */
    long segmentCount();

    /** The memory segment that holds segment {@code i}. */
    MemorySegment segmentBase(long i);

    /** The offset of segment {@code i} within its base. */
    long segmentOffset(long i);

    /** The length of segment {@code i}. */
    long segmentLength(long i);

    /** All of {@code memory} as one segment. */
    static DataLayout contiguous(MemorySegment memory) {
        return new StridedLayout(memory, 0, 1, memory.byteSize(), memory.byteSize());
    }

    /**
     * {@code blockCount} blocks of {@code blockLength} bytes, the first at {@code offset}, each
     * {@code stride} bytes after the previous one (an MPI vector type).
     */
    static DataLayout strided(MemorySegment base, long offset, long blockCount, long blockLength, long stride) {
        return new StridedLayout(base, offset, blockCount, blockLength, stride);
    }
}
