package mpi;

/**
 * The long-and-int pair of MINLOC and MAXLOC as a struct ({@link MPI#LONG_INT} is its datatype):
 * read and write pairs in a byte buffer through {@link Data}.
 *
 * <pre>{@code
 * ByteBuffer in = MPI.newByteBuffer(MPI.longInt.getExtent());
 * LongInt.Data d = MPI.longInt.getData(in);
 * d.putValue((long) 42);
 * d.putIndex(rank);
 * }</pre>
 */
public final class LongInt extends Struct {
    private final int valueOffset, indexOffset;

    LongInt() {
        valueOffset = addLong();
        setOffset(8);
        indexOffset = addInt();
        setOffset(16);
        predefined = MPI.LONG_INT;
    }

    @Override
    protected LongInt.Data newData() {
        return new LongInt.Data();
    }

    /** One pair. */
    public final class Data extends Struct.Data {
        public long getValue() {
            return getLong(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(long v) {
            putLong(valueOffset, v);
        }

        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
