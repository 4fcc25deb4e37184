package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

/**
 * A view of one float complex number (real, then imaginary) in a buffer or array, for data of
 * {@link MPI#FLOAT_COMPLEX}.
 *
 * <pre>{@code
 * FloatBuffer data = MPI.newFloatBuffer(2 * n);
 * FloatComplex z = FloatComplex.get(data, 3);   // the fourth number
 * z.putReal(1); z.putImag(-1);
 * }</pre>
 */
public final class FloatComplex {
    private final FloatBuffer buffer;
    private final int at;

    private FloatComplex(FloatBuffer buffer, int index) {
        this.buffer = buffer;
        this.at = 2 * index;
    }

    public static FloatComplex get(FloatBuffer buffer) {
        return new FloatComplex(buffer, 0);
    }

    public static FloatComplex get(FloatBuffer buffer, int index) {
        return new FloatComplex(buffer, index);
    }

    public static FloatComplex get(float[] array) {
        return new FloatComplex(FloatBuffer.wrap(array), 0);
    }

    public static FloatComplex get(float[] array, int index) {
        return new FloatComplex(FloatBuffer.wrap(array), index);
    }

    public static FloatComplex get(ByteBuffer buffer) {
        return new FloatComplex(buffer.order(ByteOrder.nativeOrder()).asFloatBuffer(), 0);
    }

    public static FloatComplex get(ByteBuffer buffer, int index) {
        return new FloatComplex(buffer.order(ByteOrder.nativeOrder()).asFloatBuffer(), index);
    }

    public float getReal() {
        return buffer.get(at);
    }

    public float getImag() {
        return buffer.get(at + 1);
    }

    public void putReal(float real) {
        buffer.put(at, real);
    }

    public void putImag(float imag) {
        buffer.put(at + 1, imag);
    }

    /** The buffer from this number on. */
    public FloatBuffer getBuffer() {
        return at == 0 ? buffer : buffer.duplicate().position(at).slice();
    }
}
