package mpi;

import java.nio.ByteBuffer;

/**
 * A reduction of the program's own, in the Open MPI bindings' form: override
 * {@link #call(Object, Object, int, Datatype)} (arrays of the base type) or
 * {@link #call(ByteBuffer, ByteBuffer, int, Datatype)} (the packed elements as buffers). Ferry calls
 * the buffer form; by default it copies to arrays, calls the array form, and copies back.
 *
 * <pre>{@code
 * Op prod = new Op(new UserFunction() {
 *     public void call(Object in, Object inOut, int count, Datatype type) {
 *         double[] a = (double[]) in, b = (double[]) inOut;
 *         for (int i = 0; i < a.length; i++) b[i] *= a[i];
 *     }
 * }, true);
 * }</pre>
 */
public abstract class UserFunction {
    public UserFunction() {
    }

    /** {@code inOutVec[i] = inVec[i] op inOutVec[i]} over the base elements of {@code count} elements of {@code datatype}. */
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
        throw new UnsupportedOperationException("the user function overrides neither call(Object, Object, int, Datatype) nor call(ByteBuffer, ByteBuffer, int, Datatype)");
    }

    /** The buffer form; by default through arrays of the base type. */
    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) {
        java.lang.foreign.MemorySegment a = java.lang.foreign.MemorySegment.ofBuffer(in);
        java.lang.foreign.MemorySegment b = java.lang.foreign.MemorySegment.ofBuffer(inOut);
        Object x = Vectors.toArray(a, datatype, "user function");
        Object y = Vectors.toArray(b, datatype, "user function");
        call(x, y, count, datatype);
        Vectors.fromArray(y, b, datatype);
    }
}
