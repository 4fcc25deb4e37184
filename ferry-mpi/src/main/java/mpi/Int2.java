package mpi;

/**
 * The int-and-int pair of MINLOC and MAXLOC as a struct ({@link MPI#INT2} is its datatype):
 * read and write pairs in a byte buffer through {@link Data}.
 *
 * <pre>{@code
 * ByteBuffer in = MPI.newByteBuffer(MPI.int2.getExtent());
 * Int2.Data d = MPI.int2.getData(in);
 * d.putValue((int) 42);
 * d.putIndex(rank);
 * }</pre>
 */
public final class Int2 extends Struct {
    private final int valueOffset, indexOffset;

    Int2() {
        valueOffset = addInt();
        setOffset(4);
        indexOffset = addInt();
        setOffset(8);
        predefined = MPI.INT2;
    }

    @Override
    protected Int2.Data newData() {
        return new Int2.Data();
    }

    /** One pair. */
    public final class Data extends Struct.Data {
        public int getValue() {
            return getInt(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(int v) {
            putInt(valueOffset, v);
        }

        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
