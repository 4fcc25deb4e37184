package mpi;

/**
 * The short-and-int pair of MINLOC and MAXLOC as a struct ({@link MPI#SHORT_INT} is its datatype):
 * read and write pairs in a byte buffer through {@link Data}.
 *
 * <pre>{@code
 * ByteBuffer in = MPI.newByteBuffer(MPI.shortInt.getExtent());
 * ShortInt.Data d = MPI.shortInt.getData(in);
 * d.putValue((short) 42);
 * d.putIndex(rank);
 * }</pre>
 */
public final class ShortInt extends Struct {
    private final int valueOffset, indexOffset;

    ShortInt() {
        valueOffset = addShort();
        setOffset(4);
        indexOffset = addInt();
        setOffset(8);
        predefined = MPI.SHORT_INT;
    }

    @Override
    protected ShortInt.Data newData() {
        return new ShortInt.Data();
    }

    /** One pair. */
    public final class Data extends Struct.Data {
        public short getValue() {
            return getShort(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(short v) {
            putShort(valueOffset, v);
        }

        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
