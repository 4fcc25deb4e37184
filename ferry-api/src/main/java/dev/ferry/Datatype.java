package dev.ferry;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;

/**
 * What the elements of a buffer are: a Java primitive, or a layout derived from others
 * (contiguous, vector, indexed, struct, resized), as MPI's datatypes. A derived type is a list of
 * byte blocks within one element, at offsets from the element's origin (never below it), and a
 * lower bound and extent as MPI computes them: element i's origin is {@code i * extent} bytes
 * past the buffer's offset. Sends gather its blocks and receives scatter them, without packing,
 * straight from and into the buffer. Types are immutable and usable at once (there is nothing to
 * commit).
 *
 * <pre>{@code
 * // the first column of a 4 x 4 row-major int matrix: 4 blocks of 1 int, 4 ints apart
 * Datatype column = Datatype.vector(4, 1, 4, Datatype.INT);
 * comm.send(matrix, 0, 1, column, 1, 0);
 * }</pre>
 */
public final class Datatype {
    public static final Datatype BYTE = primitive("BYTE", byte[].class, 1);
    public static final Datatype SHORT = primitive("SHORT", short[].class, 2);
    public static final Datatype CHAR = primitive("CHAR", char[].class, 2);
    public static final Datatype INT = primitive("INT", int[].class, 4);
    public static final Datatype LONG = primitive("LONG", long[].class, 8);
    public static final Datatype FLOAT = primitive("FLOAT", float[].class, 4);
    public static final Datatype DOUBLE = primitive("DOUBLE", double[].class, 8);

    /*
     * Value-and-index pairs, for MINLOC and MAXLOC. Those of one kind (mpiJava's INT2, LONG2, ...)
     * work over arrays of that kind, two elements per pair; the mixed ones (MPI's SHORT_INT,
     * LONG_INT, FLOAT_INT, DOUBLE_INT) lay out as C structs do and work over segments, byte
     * buffers and byte arrays.
     */
    public static final Datatype SHORT2 = pair("SHORT2", SHORT, SHORT, 2, 4);
    public static final Datatype INT2 = pair("INT2", INT, INT, 4, 8);
    public static final Datatype LONG2 = pair("LONG2", LONG, LONG, 8, 16);
    public static final Datatype FLOAT2 = pair("FLOAT2", FLOAT, FLOAT, 4, 8);
    public static final Datatype DOUBLE2 = pair("DOUBLE2", DOUBLE, DOUBLE, 8, 16);
    public static final Datatype SHORT_INT = pair("SHORT_INT", SHORT, INT, 4, 8);
    public static final Datatype LONG_INT = pair("LONG_INT", LONG, INT, 8, 16);
    public static final Datatype FLOAT_INT = pair("FLOAT_INT", FLOAT, INT, 4, 8);
    public static final Datatype DOUBLE_INT = pair("DOUBLE_INT", DOUBLE, INT, 8, 16);

    private final String name;
    /** The array class whose elements this type is made of, or null (a struct of several kinds). */
    final Class<?> arrayClass;
    /** Bytes of data in one element. */
    final long size;
    /** Bytes from one element to the next (upper bound minus lower bound). */
    final long extent;
    /** The lower bound (MPI's): where an element starts, in bytes from its origin. */
    final long lb;
    /** The blocks of one element, in type-map order: byte offsets and lengths. */
    final long[] offsets;
    final long[] lengths;
    /** The end of the furthest block: how far one element reaches. */
    final long span;
    final boolean contiguous;
    /** For a value-and-index pair: the value's and the index's primitive types; else null. */
    final Datatype pairValue;
    final Datatype pairIndex;

    private Datatype(String name, Class<?> arrayClass, long lb, long extent, long[] offsets, long[] lengths) {
        this(name, arrayClass, lb, extent, offsets, lengths, null, null);
    }

    private Datatype(String name, Class<?> arrayClass, long lb, long extent, long[] offsets, long[] lengths, Datatype pairValue, Datatype pairIndex) {
        this.lb = lb;
        this.pairValue = pairValue;
        this.pairIndex = pairIndex;
        this.name = name;
        this.arrayClass = arrayClass;
        this.extent = extent;
        this.offsets = offsets;
        this.lengths = lengths;
        long s = 0, end = 0;
        for (int i = 0; i < lengths.length; i++) {
            s += lengths[i];
            end = Math.max(end, offsets[i] + lengths[i]);
        }
        this.size = s;
        this.span = end;
        this.contiguous = offsets.length == 1 && offsets[0] == 0 && lengths[0] == extent;
    }

    private static Datatype primitive(String name, Class<?> arrayClass, int bytes) {
        return new Datatype(name, arrayClass, 0, bytes, new long[] {0}, new long[] {bytes});
    }

    private static Datatype pair(String name, Datatype value, Datatype index, long indexOffset, long extent) {
        Class<?> kind = value.arrayClass == index.arrayClass ? value.arrayClass : null;
        long[] offsets = indexOffset == value.size ? new long[] {0} : new long[] {0, indexOffset};
        long[] lengths = indexOffset == value.size ? new long[] {value.size + index.size} : new long[] {value.size, index.size};
        return new Datatype(name, kind, 0, extent, offsets, lengths, value, index);
    }

    /** {@code count} elements of {@code old}, one after the other. */
    public static Datatype contiguous(int count, Datatype old) {
        checkCount(count, "count");
        Objects.requireNonNull(old, "old type");
        Blocks b = new Blocks();
        for (int i = 0; i < count; i++) {
            b.addElement(old, i * old.extent);
        }
        return b.build("contiguous(" + count + ", " + old.name + ")", old.arrayClass);
    }

    /**
     * {@code count} blocks of {@code blockLength} elements of {@code old}, the starts of two blocks
     * {@code stride} elements apart (a strided column of a matrix).
     */
    public static Datatype vector(int count, int blockLength, int stride, Datatype old) {
        checkCount(count, "count");
        checkCount(blockLength, "blockLength");
        if (stride < 0) {
            throw FerryException.arg(ErrorClass.ARG, "stride: " + stride + " is negative (Ferry's types grow upwards)");
        }
        Objects.requireNonNull(old, "old type");
        Blocks b = new Blocks();
        for (int i = 0; i < count; i++) {
            for (int j = 0; j < blockLength; j++) {
                b.addElement(old, ((long) i * stride + j) * old.extent);
            }
        }
        return b.build("vector(" + count + ", " + blockLength + ", " + stride + ", " + old.name + ")", old.arrayClass);
    }

    /** Blocks of {@code blockLengths[i]} elements of {@code old} at {@code displacements[i]} elements from the start. */
    public static Datatype indexed(int[] blockLengths, int[] displacements, Datatype old) {
        Objects.requireNonNull(old, "old type");
        if (blockLengths.length != displacements.length) {
            throw FerryException.arg(ErrorClass.ARG, "blockLengths has " + blockLengths.length + " entries, displacements " + displacements.length);
        }
        Blocks b = new Blocks();
        for (int i = 0; i < blockLengths.length; i++) {
            checkCount(blockLengths[i], "blockLengths[" + i + "]");
            if (displacements[i] < 0) {
                throw FerryException.arg(ErrorClass.ARG, "displacements[" + i + "]: " + displacements[i] + " is negative");
            }
            for (int j = 0; j < blockLengths[i]; j++) {
                b.addElement(old, ((long) displacements[i] + j) * old.extent);
            }
        }
        return b.build("indexed(" + Arrays.toString(blockLengths) + ", " + Arrays.toString(displacements) + ", " + old.name + ")", old.arrayClass);
    }

    /**
     * Blocks of {@code blockLengths[i]} elements of {@code types[i]} at byte offset
     * {@code byteDisplacements[i]} (a C struct). Over an array all types must be of the array's
     * kind; over a memory segment or a byte buffer any mix works.
     */
    public static Datatype struct(int[] blockLengths, long[] byteDisplacements, Datatype[] types) {
        if (blockLengths.length != byteDisplacements.length || blockLengths.length != types.length) {
            throw FerryException.arg(ErrorClass.ARG, "blockLengths, byteDisplacements and types have "
                    + blockLengths.length + ", " + byteDisplacements.length + " and " + types.length + " entries");
        }
        Blocks b = new Blocks();
        Class<?> kind = types.length == 0 ? byte[].class : types[0].arrayClass;
        for (int i = 0; i < types.length; i++) {
            checkCount(blockLengths[i], "blockLengths[" + i + "]");
            Datatype t = Objects.requireNonNull(types[i], "types[" + i + "]");
            if (byteDisplacements[i] < 0) {
                throw FerryException.arg(ErrorClass.ARG, "byteDisplacements[" + i + "]: " + byteDisplacements[i] + " is negative");
            }
            if (t.arrayClass != kind) {
                kind = null;
            }
            for (int j = 0; j < blockLengths[i]; j++) {
                b.addElement(t, byteDisplacements[i] + j * t.extent);
            }
        }
        return b.build("struct" + Arrays.toString(types), kind);
    }

    /**
     * {@code old} with another lower bound and extent, in bytes (MPI_Type_create_resized): its
     * blocks stay where they are; element i's origin moves to {@code i * extent}. mpiJava's
     * {@code MPI.LB} and {@code MPI.UB} markers come to this.
     *
     * <pre>{@code
     * // every other int: an int with an extent of two
     * Datatype spaced = Datatype.resized(Datatype.INT, 0, 8);
     * comm.send(ints, 0, 4, spaced, 1, 0); // ints 0, 2, 4 and 6
     * }</pre>
     */
    public static Datatype resized(Datatype old, long lb, long extent) {
        Objects.requireNonNull(old, "old type");
        if (extent < 0) {
            throw FerryException.arg(ErrorClass.ARG, "extent: " + extent + " is negative (Ferry's types grow upwards)");
        }
        return new Datatype("resized(" + old.name + ", " + lb + ", " + extent + ")", old.arrayClass, lb, extent, old.offsets, old.lengths);
    }

    /**
     * Packs {@code count} elements of this type from {@code in} (at element {@code offset}) into
     * {@code out} from byte {@code position}, as MPI_Pack does; the position after them.
     *
     * <pre>{@code
     * byte[] packed = new byte[64];
     * int at = Datatype.INT.pack(ints, 0, 4, packed, 0);
     * at = Datatype.DOUBLE.pack(doubles, 0, 2, packed, at);
     * }</pre>
     */
    public int pack(Object in, int offset, int count, byte[] out, int position) {
        return Math.toIntExact(pack(in, (long) offset, count, MemorySegment.ofArray(out), position));
    }

    /**
     * {@link #pack(Object, int, int, byte[], int)} with long offsets and count, into a segment
     * (MPI_Pack_c): packed data past 2 GiB.
     */
    public long pack(Object in, long offset, long count, MemorySegment out, long position) {
        MemorySegment from = Buffers.elements(in, offset, count, this, false, "in");
        long bytes = Math.multiplyExact(count, size);
        checkPacked(out, position, bytes, "out");
        CollBuffer.pack(from, count, this, out.asSlice(position, bytes));
        return position + bytes;
    }

    /** Unpacks {@code count} elements of this type from {@code in} at byte {@code position} into {@code out} (MPI_Unpack); the position after them. */
    public int unpack(byte[] in, int position, Object out, int offset, int count) {
        return Math.toIntExact(unpack(MemorySegment.ofArray(in), position, out, (long) offset, count));
    }

    /** {@link #unpack(byte[], int, Object, int, int)} with long offsets and count, from a segment (MPI_Unpack_c). */
    public long unpack(MemorySegment in, long position, Object out, long offset, long count) {
        MemorySegment to = Buffers.elements(out, offset, count, this, true, "out");
        long bytes = Math.multiplyExact(count, size);
        checkPacked(in, position, bytes, "in");
        CollBuffer.unpack(in.asSlice(position, bytes), to, count, this);
        return position + bytes;
    }

    private static void checkPacked(MemorySegment packed, long position, long bytes, String what) {
        if (position < 0 || position > packed.byteSize() || bytes > packed.byteSize() - position) {
            throw FerryException.arg(ErrorClass.COUNT, what + ": " + bytes + " packed bytes from position " + position
                    + " do not fit its " + packed.byteSize() + " bytes");
        }
    }

    /** Bytes of data in one element. */
    public long size() {
        return size;
    }

    /**
     * How many whole elements of this type {@code bytes} bytes hold (MPI_Get_count):
     * {@link Ferry#UNDEFINED} when they end within an element, 0 for a type of no bytes.
     *
     * <pre>{@code
     * int doubles = Datatype.DOUBLE.count(status.bytes());
     * }</pre>
     */
    public int count(long bytes) {
        return Status.elements(bytes, size);
    }

    /** Bytes from one element to the next in a buffer (MPI's extent: upper bound minus lower bound). */
    public long extent() {
        return extent;
    }

    /** MPI's lower bound, in bytes from an element's origin. */
    public long lowerBound() {
        return lb;
    }

    /** MPI's upper bound: the lower bound plus the extent. */
    public long upperBound() {
        return lb + extent;
    }

    /** Where the first byte of data lies, from an element's origin (MPI's true lower bound); 0 for a type of no data. */
    public long trueLowerBound() {
        if (offsets.length == 0) {
            return 0;
        }
        long min = Long.MAX_VALUE;
        for (long o : offsets) {
            min = Math.min(min, o);
        }
        return min;
    }

    /** From the first byte of data to the end of the last (MPI's true extent). */
    public long trueExtent() {
        return span - trueLowerBound();
    }

    /** Whether one element is one block with no gaps (then a count of them is one block too). */
    public boolean isContiguous() {
        return contiguous;
    }

    /** Whether this is one of the value-and-index pairs MINLOC and MAXLOC take. */
    public boolean isPair() {
        return pairValue != null;
    }

    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }

    private static void checkCount(int n, String what) {
        if (n < 0) {
            throw FerryException.arg(ErrorClass.COUNT, what + ": " + n + " is negative");
        }
    }

    /**
     * Collects blocks, merging one that starts where the last ended, and the bounds of the
     * elements placed (MPI's: the lowest lower bound and the highest upper bound of them).
     */
    private static final class Blocks {
        private long[] offsets = new long[4];
        private long[] lengths = new long[4];
        private int n;
        private long lb = Long.MAX_VALUE, ub = Long.MIN_VALUE;

        void addElement(Datatype t, long at) {
            for (int i = 0; i < t.offsets.length; i++) {
                add(at + t.offsets[i], t.lengths[i]);
            }
            lb = Math.min(lb, at + t.lb);
            ub = Math.max(ub, at + t.lb + t.extent);
        }

        void add(long offset, long length) {
            if (length == 0) {
                return;
            }
            if (n > 0 && offsets[n - 1] + lengths[n - 1] == offset) {
                lengths[n - 1] += length;
                return;
            }
            if (n == offsets.length) {
                offsets = Arrays.copyOf(offsets, n * 2);
                lengths = Arrays.copyOf(lengths, n * 2);
            }
            offsets[n] = offset;
            lengths[n] = length;
            n++;
        }

        /** The type of the elements placed; one of none has bounds 0 and 0. */
        Datatype build(String name, Class<?> arrayClass) {
            boolean none = lb == Long.MAX_VALUE;
            return new Datatype(name, arrayClass, none ? 0 : lb, none ? 0 : ub - lb, Arrays.copyOf(offsets, n), Arrays.copyOf(lengths, n));
        }
    }
}
