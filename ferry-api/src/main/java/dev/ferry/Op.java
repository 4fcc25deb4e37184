package dev.ferry;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A reduction operation, as MPI's: the predefined ones ({@link #SUM}, {@link #PROD}, {@link #MIN},
 * {@link #MAX}, the logical {@link #LAND}, {@link #LOR}, {@link #LXOR}, the bitwise {@link #BAND},
 * {@link #BOR}, {@link #BXOR}, and {@link #MINLOC}, {@link #MAXLOC} on value-and-index pairs), or
 * one of the program's own. The arithmetic ones take any primitive type and the types made of one
 * kind (a contiguous or vector of ints is ints); the logical and bitwise ones take integer types;
 * MINLOC and MAXLOC take the pair types ({@link Datatype#INT2}, {@link Datatype#DOUBLE_INT}, ...).
 *
 * <p>An operation of the program's own combines {@code count} elements: {@code inout[i] = in[i]
 * op inout[i]}, where {@code in} holds the contribution of lower ranks. Ferry hands it the
 * elements packed one after another ({@link Datatype#size()} bytes each). A non-commutative one
 * is applied in rank order: the result is {@code x0 op x1 op ... op x(n-1)}.
 *
 * <pre>{@code
 * // the element-wise maximum of absolute values
 * Op absMax = Op.create((in, inout, count, type) -> {
 *     for (int i = 0; i < count; i++) {
 *         long o = 4L * i;
 *         int a = Math.abs(in.get(ValueLayout.JAVA_INT_UNALIGNED, o)), b = Math.abs(inout.get(ValueLayout.JAVA_INT_UNALIGNED, o));
 *         inout.set(ValueLayout.JAVA_INT_UNALIGNED, o, Math.max(a, b));
 *     }
 * }, true);
 * world.allreduce(mine, 0, all, 0, n, Datatype.INT, absMax);
 * }</pre>
 */
public final class Op {
    /** What the program's own operation computes. */
    @FunctionalInterface
    public interface Function {
        /**
         * Combines {@code count} packed elements of {@code type}: {@code inout[i] = in[i] op
         * inout[i]}.
         */
        void apply(MemorySegment in, MemorySegment inout, int count, Datatype type);
    }

    /** The predefined operations, by name. */
    enum Code { SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR, MINLOC, MAXLOC, REPLACE, NO_OP }

    public static final Op SUM = new Op(Code.SUM);
    public static final Op PROD = new Op(Code.PROD);
    public static final Op MIN = new Op(Code.MIN);
    public static final Op MAX = new Op(Code.MAX);
    public static final Op LAND = new Op(Code.LAND);
    public static final Op LOR = new Op(Code.LOR);
    public static final Op LXOR = new Op(Code.LXOR);
    public static final Op BAND = new Op(Code.BAND);
    public static final Op BOR = new Op(Code.BOR);
    public static final Op BXOR = new Op(Code.BXOR);
    public static final Op MINLOC = new Op(Code.MINLOC);
    public static final Op MAXLOC = new Op(Code.MAXLOC);
    /** One-sided only ({@link Window#accumulate}, {@link Window#fetchAndOp}): the target takes the origin's value. */
    public static final Op REPLACE = new Op(Code.REPLACE);
    /** One-sided only ({@link Window#getAccumulate}, {@link Window#fetchAndOp}): the target is read, unchanged. */
    public static final Op NO_OP = new Op(Code.NO_OP);

    final Code code;
    private final Function function;
    private final boolean commutative;
    private final String name;

    private Op(Code code) {
        this.code = code;
        this.function = null;
        this.commutative = true;
        this.name = code.name();
    }

    private Op(Function function, boolean commutative, String name) {
        this.code = null;
        this.function = function;
        this.commutative = commutative;
        this.name = name;
    }

    /** An operation of the program's own; {@code commutative} false makes Ferry apply it in rank order. */
    public static Op create(Function function, boolean commutative) {
        return new Op(Objects.requireNonNull(function, "function"), commutative, "user op " + function);
    }

    public boolean isCommutative() {
        return commutative;
    }

    /** Whether it is one of MPI's predefined operations. */
    public boolean isPredefined() {
        return code != null;
    }

    /**
     * Combines locally, with no communication (MPI_Reduce_local): element by element,
     * {@code inout = in op inout} over {@code count} elements of {@code type}.
     *
     * <pre>{@code
     * int[] a = {1, 2}, b = {10, 20};
     * Op.SUM.reduceLocal(a, 0, b, 0, 2, Datatype.INT);   // b is {11, 22}
     * }</pre>
     */
    public void reduceLocal(Object in, int inOffset, Object inout, int inoutOffset, int count, Datatype type) {
        reduceLocal(in, (long) inOffset, inout, (long) inoutOffset, count, type);
    }

    /** {@link #reduceLocal(Object, int, Object, int, int, Datatype)} with long offsets and count (MPI_Reduce_local_c). */
    public void reduceLocal(Object in, long inOffset, Object inout, long inoutOffset, long count, Datatype type) {
        check(type);
        if (code == Code.REPLACE || code == Code.NO_OP) {
            throw FerryException.arg(ErrorClass.OP, "op " + name + " is one-sided only");
        }
        MemorySegment a = Buffers.elements(in, inOffset, count, type, false, "in");
        MemorySegment b = Buffers.elements(inout, inoutOffset, count, type, true, "inout");
        if (type.contiguous) {
            apply(a, b, count, type);
            return;
        }
        try (java.lang.foreign.Arena packed = java.lang.foreign.Arena.ofConfined()) { // the gaps left out: past 2 GiB too
            long bytes = Math.multiplyExact(count, type.size);
            MemorySegment pa = packed.allocate(Math.max(1, bytes), 8).asSlice(0, bytes), pb = packed.allocate(Math.max(1, bytes), 8).asSlice(0, bytes);
            CollBuffer.pack(a, count, type, pa);
            CollBuffer.pack(b, count, type, pb);
            apply(pa, pb, count, type);
            CollBuffer.unpack(pb, b, count, type);
        }
    }

    /** Throws, naming both, when this operation is not defined on {@code type}. */
    void check(Datatype type) {
        if (code == null) {
            return;
        }
        boolean ok = switch (code) {
            case MINLOC, MAXLOC -> type.isPair();
            default -> !type.isPair() && type.arrayClass != null && Reductions.defined(code, type.arrayClass);
        };
        if (!ok) {
            throw FerryException.arg(ErrorClass.OP, "op " + name + " is not defined on datatype " + type
                    + (code == Code.MINLOC || code == Code.MAXLOC ? " (it takes a value-and-index pair type)"
                    : type.arrayClass == null ? " (made of several kinds)" : ""));
        }
    }

    /** {@code inout = in op inout} over {@code count} packed elements of {@code type}. */
    void apply(MemorySegment in, MemorySegment inout, long count, Datatype type) {
        if (function != null) {
            if (count <= Integer.MAX_VALUE) {
                function.apply(in, inout, (int) count, type);
                return;
            }
            // the program's function counts in ints: a large count goes to it in runs of 2^30 elements
            for (long at = 0; at < count; at += 1L << 30) {
                long n = Math.min(1L << 30, count - at);
                function.apply(in.asSlice(at * type.size, n * type.size), inout.asSlice(at * type.size, n * type.size), (int) n, type);
            }
        } else if (code == Code.MINLOC || code == Code.MAXLOC) {
            Reductions.pairs(code == Code.MAXLOC, type, in, inout, count);
        } else {
            long elements = count * (type.size / Buffers.unitOf(type.arrayClass));
            Reductions.apply(code, type.arrayClass, in, inout, elements);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
