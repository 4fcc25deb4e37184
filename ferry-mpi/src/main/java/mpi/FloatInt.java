package mpi;

/**
 * The float-and-int pair of MINLOC and MAXLOC as a struct ({@link MPI#FLOAT_INT} is its datatype):
 * read and write pairs in a byte buffer through {@link Data}.
 *
 * <pre>{@code
 * ByteBuffer in = MPI.newByteBuffer(MPI.floatInt.getExtent());
 * FloatInt.Data d = MPI.floatInt.getData(in);
 * d.putValue((float) 42);
 * d.putIndex(rank);
 * }</pre>
 */
public final class FloatInt extends Struct {
    private final int valueOffset, indexOffset;

    FloatInt() {
        valueOffset = addFloat();
        setOffset(4);
        indexOffset = addInt();
        setOffset(8);
        predefined = MPI.FLOAT_INT;
    }

    @Override
    protected FloatInt.Data newData() {
        return new FloatInt.Data();
    }

    /** One pair. */
    public final class Data extends Struct.Data {
        public float getValue() {
            return getFloat(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(float v) {
            putFloat(valueOffset, v);
        }

        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
