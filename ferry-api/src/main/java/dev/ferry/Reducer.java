package dev.ferry;

import java.lang.foreign.MemorySegment;

/**
 * One reduction's operation and datatype, making the local steps of a schedule: {@code inout =
 * in op inout}, and the same with the accumulator kept as the left operand (for a non-commutative
 * operation, whose operands must stay in rank order).
 */
final class Reducer {
    final Op op;
    final Datatype type;

    Reducer(Op op, Datatype type) {
        this.op = op;
        this.type = type;
    }

    long bytes(long count) {
        return count * type.size;
    }

    /** The largest segment a reduction past {@link TempPool#MAX_HELD} is received and combined in. */
    static final long SEGMENT_BYTES = 32L << 20;

    /**
     * The elements an algorithm receives and combines at a time, of a reduction of {@code count}:
     * all of them when their temporary fits the pool, else {@link #SEGMENT_BYTES}' worth, so that
     * the temporary is one pooled block, reused, rather than as large as the data and touched
     * fresh (an allreduce of 2 GiB took two 2-GiB temporaries at a node's leader). At least 1.
     */
    long segment(long count) {
        return bytes(count) <= TempPool.MAX_HELD ? Math.max(1, count) : Math.max(1, SEGMENT_BYTES / type.size);
    }

    /** The {@code n} elements of {@code m} from element {@code at}. */
    MemorySegment slice(MemorySegment m, long at, long n) {
        return m.asSlice(bytes(at), bytes(n));
    }

    /** {@code inout = in op inout}: {@code in} holds lower ranks' contribution. */
    Runnable leftInto(MemorySegment in, MemorySegment inout, long count) {
        return () -> op.apply(in, inout, count, type);
    }

    /** {@code acc = acc op higher}: {@code higher} holds higher ranks' contribution (its memory is used up). */
    Runnable rightInto(MemorySegment acc, MemorySegment higher, long count) {
        if (op.isCommutative()) {
            return () -> op.apply(higher, acc, count, type);
        }
        return () -> {
            op.apply(acc, higher, count, type);
            MemorySegment.copy(higher, 0, acc, 0, bytes(count));
        };
    }

    static Runnable copy(MemorySegment from, MemorySegment to) {
        return () -> MemorySegment.copy(from, 0, to, 0, from.byteSize());
    }
}
