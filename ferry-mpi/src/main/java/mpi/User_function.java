package mpi;

/**
 * A reduction of the program's own, in mpiJava 1.2's form: {@code inoutvec[i] = invec[i] op
 * inoutvec[i]} over arrays of the base type.
 *
 * <pre>{@code
 * Op op = new Op(new User_function() {
 *     public void Call(Object in, int inOff, Object inOut, int inOutOff, int count, Datatype type) {
 *         int[] a = (int[]) in, b = (int[]) inOut;
 *         for (int i = 0; i < count; i++) b[inOutOff + i] += a[inOff + i];
 *     }
 * }, true);
 * }</pre>
 */
public abstract class User_function {
    public User_function() {
    }

    public abstract void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype);
}
