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
