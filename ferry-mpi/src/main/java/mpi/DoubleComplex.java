package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;

/**
 * A view of one double complex number (real, then imaginary) in a buffer or array, for data of
 * {@link MPI#DOUBLE_COMPLEX}.
 *
 * <pre>{@code
 * DoubleBuffer data = MPI.newDoubleBuffer(2 * n);
 * DoubleComplex z = DoubleComplex.get(data, 3);   // the fourth number
 * z.putReal(1); z.putImag(-1);
 * }</pre>
 */
public final class DoubleComplex {
    private final DoubleBuffer buffer;
    private final int at;

    private DoubleComplex(DoubleBuffer buffer, int index) {
        this.buffer = buffer;
        this.at = 2 * index;
    }

    public static DoubleComplex get(DoubleBuffer buffer) {
        return new DoubleComplex(buffer, 0);
    }

    public static DoubleComplex get(DoubleBuffer buffer, int index) {
        return new DoubleComplex(buffer, index);
    }

    public static DoubleComplex get(double[] array) {
        return new DoubleComplex(DoubleBuffer.wrap(array), 0);
    }

    public static DoubleComplex get(double[] array, int index) {
        return new DoubleComplex(DoubleBuffer.wrap(array), index);
    }

    public static DoubleComplex get(ByteBuffer buffer) {
        return new DoubleComplex(buffer.order(ByteOrder.nativeOrder()).asDoubleBuffer(), 0);
    }

    public static DoubleComplex get(ByteBuffer buffer, int index) {
        return new DoubleComplex(buffer.order(ByteOrder.nativeOrder()).asDoubleBuffer(), index);
    }

    public double getReal() {
        return buffer.get(at);
    }

    public double getImag() {
        return buffer.get(at + 1);
    }

    public void putReal(double real) {
        buffer.put(at, real);
    }

    public void putImag(double imag) {
        buffer.put(at + 1, imag);
    }

    /** The buffer from this number on. */
    public DoubleBuffer getBuffer() {
        return at == 0 ? buffer : buffer.duplicate().position(at).slice();
    }
}
