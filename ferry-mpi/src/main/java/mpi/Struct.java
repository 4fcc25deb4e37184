package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A C-like struct laid out in a byte buffer (the Open MPI bindings' way to send records): a
 * subclass adds its fields in its constructor ({@link #addInt()}, {@link #addDouble(int)}, ...),
 * which answer their byte offsets, and a {@link Data} subclass reads and writes them. The fields
 * make a struct datatype ({@link #getType()}); the value-and-index structs of MINLOC and MAXLOC
 * ({@link MPI#doubleInt}, ...) answer MPI's pair types.
 *
 * <pre>{@code
 * class Point extends Struct {
 *     final int x = addDouble(), y = addDouble();
 *     protected Data newData() { return new Data(); }
 *     class Data extends Struct.Data {
 *         double x() { return getDouble(x); }
 *         void x(double v) { putDouble(x, v); }
 *     }
 * }
 * }</pre>
 */
public abstract class Struct {
    private record Field(Object type, int offset, int length) {
    }

    private int extent;
    private final List<Field> fields = new ArrayList<>();
    private Datatype datatype;
    /** For the pair structs: MPI's predefined type of the same layout. */
    Datatype predefined;

    public Struct() {
    }

    private void commit() {
        if (datatype != null) {
            return;
        }
        if (predefined != null) {
            datatype = predefined;
            return;
        }
        int n = fields.size();
        int[] lengths = new int[n], offsets = new int[n];
        Datatype[] types = new Datatype[n];
        for (int i = 0; i < n; i++) {
            Field f = fields.get(i);
            types[i] = f.type instanceof Struct s ? s.getType() : (Datatype) f.type;
            offsets[i] = f.offset;
            lengths[i] = f.length;
        }
        datatype = Datatype.createStruct(lengths, offsets, types);
    }

    /** Bytes of one struct. */
    public final int getExtent() {
        commit();
        return extent;
    }

    public final Datatype getType() {
        commit();
        return datatype;
    }

    /** A new accessor of this struct's fields. */
    protected abstract Data newData();

    @SuppressWarnings("unchecked")
    private <T extends Data> T newData(ByteBuffer buffer, int offset) {
        Data d = newData();
        d.buffer = buffer;
        d.offset = offset;
        return (T) d;
    }

    public final <T extends Data> T getData(ByteBuffer buffer) {
        commit();
        return newData(buffer, 0);
    }

    public final <T extends Data> T getData(ByteBuffer buffer, int index) {
        commit();
        return newData(buffer, index * extent);
    }

    public final <T extends Data> T getData(byte[] array) {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()));
    }

    public final <T extends Data> T getData(byte[] array, int index) {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    private int addField(Object type, int typeExtent, int length) {
        if (datatype != null) {
            throw new IllegalStateException("the struct's datatype was made already: add fields before using it");
        }
        int offset = extent;
        extent += typeExtent * length;
        fields.add(new Field(type, offset, length));
        return offset;
    }

    /** Moves the next field to byte {@code offset} (padding). */
    public final Struct setOffset(int offset) {
        if (datatype != null) {
            throw new IllegalStateException("the struct's datatype was made already: set offsets before using it");
        }
        if (offset < extent) {
            throw new IllegalArgumentException("offset: " + offset + " is below the fields' extent so far, " + extent);
        }
        extent = offset;
        return this;
    }

    public final int addByte() {
        return addByte(1);
    }

    public final int addByte(int length) {
        return addField(MPI.BYTE, 1, length);
    }

    public final int addChar() {
        return addChar(1);
    }

    public final int addChar(int length) {
        return addField(MPI.CHAR, 2, length);
    }

    public final int addShort() {
        return addShort(1);
    }

    public final int addShort(int length) {
        return addField(MPI.SHORT, 2, length);
    }

    public final int addInt() {
        return addInt(1);
    }

    public final int addInt(int length) {
        return addField(MPI.INT, 4, length);
    }

    public final int addLong() {
        return addLong(1);
    }

    public final int addLong(int length) {
        return addField(MPI.LONG, 8, length);
    }

    public final int addFloat() {
        return addFloat(1);
    }

    public final int addFloat(int length) {
        return addField(MPI.FLOAT, 4, length);
    }

    public final int addDouble() {
        return addDouble(1);
    }

    public final int addDouble(int length) {
        return addField(MPI.DOUBLE, 8, length);
    }

    public final int addStruct(Struct struct) {
        return addStruct(struct, 1);
    }

    public final int addStruct(Struct struct, int length) {
        struct.commit();
        return addField(struct, struct.extent, length);
    }

    public final int addData(Datatype type) {
        return addData(type, 1);
    }

    public final int addData(Datatype type, int length) {
        return addField(type, type.getExtent() * type.baseSize, length);
    }

    /** The fields of one struct in a buffer: subclasses give them names. */
    public abstract class Data {
        private ByteBuffer buffer;
        private int offset;

        public Data() {
        }

        /** The buffer from this struct's start. */
        public final ByteBuffer getBuffer() {
            return offset == 0 ? buffer : MPI.slice(buffer, offset);
        }

        protected final byte getByte(int field) {
            return buffer.get(offset + field);
        }

        protected final byte getByte(int field, int index) {
            return buffer.get(offset + field + index);
        }

        protected final void putByte(int field, byte v) {
            buffer.put(offset + field, v);
        }

        protected final void putByte(int field, int index, byte v) {
            buffer.put(offset + field + index, v);
        }

        protected final char getChar(int field) {
            return buffer.getChar(offset + field);
        }

        protected final char getChar(int field, int index) {
            return buffer.getChar(offset + field + index * 2);
        }

        protected final void putChar(int field, char v) {
            buffer.putChar(offset + field, v);
        }

        protected final void putChar(int field, int index, char v) {
            buffer.putChar(offset + field + index * 2, v);
        }

        protected final short getShort(int field) {
            return buffer.getShort(offset + field);
        }

        protected final short getShort(int field, int index) {
            return buffer.getShort(offset + field + index * 2);
        }

        protected final void putShort(int field, short v) {
            buffer.putShort(offset + field, v);
        }

        protected final void putShort(int field, int index, short v) {
            buffer.putShort(offset + field + index * 2, v);
        }

        protected final int getInt(int field) {
            return buffer.getInt(offset + field);
        }

        protected final int getInt(int field, int index) {
            return buffer.getInt(offset + field + index * 4);
        }

        protected final void putInt(int field, int v) {
            buffer.putInt(offset + field, v);
        }

        protected final void putInt(int field, int index, int v) {
            buffer.putInt(offset + field + index * 4, v);
        }

        protected final long getLong(int field) {
            return buffer.getLong(offset + field);
        }

        protected final long getLong(int field, int index) {
            return buffer.getLong(offset + field + index * 8);
        }

        protected final void putLong(int field, long v) {
            buffer.putLong(offset + field, v);
        }

        protected final void putLong(int field, int index, long v) {
            buffer.putLong(offset + field + index * 8, v);
        }

        protected final float getFloat(int field) {
            return buffer.getFloat(offset + field);
        }

        protected final float getFloat(int field, int index) {
            return buffer.getFloat(offset + field + index * 4);
        }

        protected final void putFloat(int field, float v) {
            buffer.putFloat(offset + field, v);
        }

        protected final void putFloat(int field, int index, float v) {
            buffer.putFloat(offset + field + index * 4, v);
        }

        protected final double getDouble(int field) {
            return buffer.getDouble(offset + field);
        }

        protected final double getDouble(int field, int index) {
            return buffer.getDouble(offset + field + index * 8);
        }

        protected final void putDouble(int field, double v) {
            buffer.putDouble(offset + field, v);
        }

        protected final void putDouble(int field, int index, double v) {
            buffer.putDouble(offset + field + index * 8, v);
        }

        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field) {
            return ((Struct) struct).newData(buffer, offset + field);
        }

        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field, int index) {
            return ((Struct) struct).newData(buffer, offset + field + index * ((Struct) struct).extent);
        }

        protected final ByteBuffer getBuffer(Datatype type, int field) {
            int position = offset + field;
            return position == 0 ? buffer : MPI.slice(buffer, position);
        }

        protected final ByteBuffer getBuffer(Datatype type, int field, int index) {
            int position = offset + field + index * type.getExtent() * type.baseSize;
            return position == 0 ? buffer : MPI.slice(buffer, position);
        }
    }
}
