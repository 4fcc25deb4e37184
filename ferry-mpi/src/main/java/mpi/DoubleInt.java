package mpi;

/**
 * The double-and-int pair of MINLOC and MAXLOC as a struct ({@link MPI#DOUBLE_INT} is its datatype):
 * read and write pairs in a byte buffer through {@link Data}.
 *
 * <pre>{@code
 * ByteBuffer in = MPI.newByteBuffer(MPI.doubleInt.getExtent());
 * DoubleInt.Data d = MPI.doubleInt.getData(in);
 * d.putValue((double) 42);
 * d.putIndex(rank);
 * }</pre>
 */
public final class DoubleInt extends Struct {
    private final int valueOffset, indexOffset;

    DoubleInt() {
        valueOffset = addDouble();
        setOffset(8);
        indexOffset = addInt();
        setOffset(16);
        predefined = MPI.DOUBLE_INT;
    }

    @Override
    protected DoubleInt.Data newData() {
        return new DoubleInt.Data();
    }

    /** One pair. */
    public final class Data extends Struct.Data {
        public double getValue() {
            return getDouble(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(double v) {
            putDouble(valueOffset, v);
        }

        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
