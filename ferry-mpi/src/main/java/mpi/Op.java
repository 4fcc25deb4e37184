package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * A reduction operation: one of MPI's predefined ones ({@link MPI#SUM}, {@link MPI#MAXLOC}, ...)
 * or the program's own, given as an Open MPI {@link UserFunction} or an mpiJava
 * {@link User_function}. A non-commutative one is applied in rank order.
 *
 * <pre>{@code
 * Op absMax = new Op(new UserFunction() {
 *     public void call(Object in, Object inOut, int count, Datatype type) {
 *         int[] a = (int[]) in, b = (int[]) inOut;
 *         for (int i = 0; i < count; i++) b[i] = Math.max(Math.abs(a[i]), Math.abs(b[i]));
 *     }
 * }, true);
 * }</pre>
 */
public class Op implements Freeable {
    private final dev.ferry.Op predefined;
    private final UserFunction function;
    private final User_function mpjFunction;
    private final boolean commute;
    /** mpiJava's code of the operation (unused by Ferry). */
    public int opCode;
    private boolean freed;

    Op(dev.ferry.Op predefined) {
        this.predefined = predefined;
        this.function = null;
        this.mpjFunction = null;
        this.commute = true;
    }

    public Op(UserFunction function, boolean commute) {
        this.predefined = null;
        this.function = java.util.Objects.requireNonNull(function, "function");
        this.mpjFunction = null;
        this.commute = commute;
    }

    public Op(User_function function, boolean commute) {
        this(function, commute, 0);
    }

    public Op(User_function function, boolean commute, int opCode) {
        this.predefined = null;
        this.function = null;
        this.mpjFunction = java.util.Objects.requireNonNull(function, "function");
        this.commute = commute;
        this.opCode = opCode;
    }

    /**
     * Applies this operation to objects ({@code inout[i] = in[i] op inout[i]}): only an mpiJava
     * {@link User_function} takes MPI.OBJECT data.
     */
    void applyToObjects(Object[] in, int inOffset, Object[] inout, int inoutOffset, int count, Datatype type) {
        if (freed) {
            throw new MPIException(MPI.ERR_OP, "op: it was freed");
        }
        if (mpjFunction == null) {
            throw new MPIException(MPI.ERR_OP, "op: MPI.OBJECT data is reduced only by a user operation (User_function), not "
                    + (predefined != null ? "a predefined one" : "a ByteBuffer UserFunction"));
        }
        mpjFunction.Call(in, inOffset, inout, inoutOffset, count, type);
    }

    /** Ferry's operation for reducing elements of {@code type}. */
    dev.ferry.Op ferry(Datatype type) {
        if (freed) {
            throw new MPIException(MPI.ERR_OP, "op: it was freed");
        }
        if (predefined != null) {
            return predefined;
        }
        return dev.ferry.Op.create((in, inout, count, t) -> {
            if (function != null) {
                // a buffer views native memory or a byte[]; the packed elements of other arrays go through a byte copy
                MemorySegment a = viewable(in), b = viewable(inout);
                function.call(a.asByteBuffer().order(ByteOrder.nativeOrder()), b.asByteBuffer().order(ByteOrder.nativeOrder()), count, type);
                if (b != inout) {
                    inout.copyFrom(b);
                }
            } else {
                Object a = Vectors.toArray(in, type, "op");
                Object b = Vectors.toArray(inout, type, "op");
                mpjFunction.Call(a, 0, b, 0, count, type);
                Vectors.fromArray(b, inout, type);
            }
        }, commute);
    }

    private static MemorySegment viewable(MemorySegment s) {
        if (s.isNative() || s.heapBase().orElse(null) instanceof byte[]) {
            return s;
        }
        return MemorySegment.ofArray(new byte[Math.toIntExact(s.byteSize())]).copyFrom(s);
    }

    public boolean isCommutative() {
        return commute;
    }

    @Override
    public void free() {
        if (predefined != null) {
            throw Errors.raise(MPI.COMM_WORLD.errhandler(), MPI.ERR_OP, "op " + predefined + " is predefined and cannot be freed");
        }
        freed = true;
    }

    public boolean isNull() {
        return freed;
    }

    @Override
    public String toString() {
        return predefined != null ? predefined.toString() : "user op";
    }
}
