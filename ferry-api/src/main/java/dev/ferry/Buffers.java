package dev.ferry;

import dev.ferry.spi.DataLayout;
import dev.ferry.spi.IoVec;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Turns what an application passes as a buffer (a memory segment, a byte buffer, or a primitive
 * array, with an offset and a count of datatype elements) into the memory the engine moves, after
 * checking that the count fits: nothing is ever read or written outside the buffer. An array is
 * used in place (a heap segment over it), not copied. A {@code byte[]}, a segment and a byte
 * buffer are raw memory: any datatype describes them; other arrays take their own kind only.
 */
final class Buffers {
    private Buffers() {
    }

    /** The bytes of one array element, or 1 for a segment or byte buffer (their offsets count bytes). */
    static int unit(Object buf) {
        if (buf instanceof MemorySegment) {
            return 1; // the common case of off-heap memory first
        }
        return switch (buf) {
            case byte[] a -> 1;
            case short[] a -> 2;
            case char[] a -> 2;
            case int[] a -> 4;
            case float[] a -> 4;
            case long[] a -> 8;
            case double[] a -> 8;
            default -> 1;
        };
    }

    /** The bytes of one element of the primitive array class {@code kind}. */
    static int unitOf(Class<?> kind) {
        return kind == long[].class || kind == double[].class ? 8 : kind == int[].class || kind == float[].class ? 4
                : kind == short[].class || kind == char[].class ? 2 : 1;
    }

    /** The datatype an array's elements are (bytes for a segment or byte buffer). */
    static Datatype typeOf(Object buf, String what) {
        return switch (buf) {
            case byte[] a -> Datatype.BYTE;
            case short[] a -> Datatype.SHORT;
            case char[] a -> Datatype.CHAR;
            case int[] a -> Datatype.INT;
            case float[] a -> Datatype.FLOAT;
            case long[] a -> Datatype.LONG;
            case double[] a -> Datatype.DOUBLE;
            case MemorySegment m -> Datatype.BYTE;
            case ByteBuffer b -> Datatype.BYTE;
            case null -> throw FerryException.arg(ErrorClass.BUFFER, what + " is null");
            default -> throw notABuffer(buf, what);
        };
    }

    private static FerryException notABuffer(Object buf, String what) {
        return FerryException.arg(ErrorClass.BUFFER, what + ": a " + buf.getClass().getSimpleName()
                + " is not a buffer (a MemorySegment, a ByteBuffer or an array of byte, short, char, int, long, float or double is)");
    }

    static MemorySegment whole(Object buf, boolean writable, String what) {
        MemorySegment m = switch (buf) {
            case byte[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case MemorySegment s -> s;
            case ByteBuffer b -> MemorySegment.ofBuffer(b.duplicate().clear()); // offsets count from index 0, as MPI's Java bindings do
            case null -> throw FerryException.arg(ErrorClass.BUFFER, what + " is null");
            default -> throw notABuffer(buf, what);
        };
        if (writable && m.isReadOnly()) {
            throw FerryException.arg(ErrorClass.BUFFER, what + " is read-only: a receive writes into it");
        }
        return m;
    }

    /** Bytes {@code count} elements of {@code type} reach from the first one's start. */
    static long reach(long count, Datatype type) {
        if (count == 0) {
            return 0;
        }
        try {
            return Math.addExact(Math.multiplyExact(count - 1, type.extent), type.span);
        } catch (ArithmeticException e) {
            throw FerryException.arg(ErrorClass.COUNT, "count: " + count + " elements of " + type + " reach past 2^63 bytes");
        }
    }

    /** The memory from element {@code offset} of {@code buf}, checked to hold {@code count} elements of {@code type}. */
    static MemorySegment elements(Object buf, long offset, long count, Datatype type, boolean writable, String what) {
        if (count < 0) {
            throw FerryException.arg(ErrorClass.COUNT, "count: " + count + " is negative");
        }
        if (offset < 0) {
            throw FerryException.arg(ErrorClass.BUFFER, "offset: " + offset + " is negative");
        }
        if (type == null) {
            throw FerryException.arg(ErrorClass.TYPE, "datatype is null");
        }
        return span(buf, offset, reach(count, type), type, writable, what, null, count);
    }

    /**
     * The {@code need} bytes of {@code buf} from element {@code offset}, checked to be there and
     * to be of {@code type}'s kind; {@code needWhat} says in an error what needed them.
     */
    static MemorySegment span(Object buf, long offset, long need, Datatype type, boolean writable, String what, String needWhat) {
        return span(buf, offset, need, type, writable, what, needWhat, 0);
    }

    /** {@link #span}, saying {@code count} elements of {@code type} when {@code needWhat} is null (built only for the error). */
    private static MemorySegment span(Object buf, long offset, long need, Datatype type, boolean writable, String what, String needWhat, long count) {
        if (offset < 0) {
            throw FerryException.arg(ErrorClass.BUFFER, "offset: " + offset + " is negative");
        }
        MemorySegment m = whole(buf, writable, what);
        if (type.arrayClass != buf.getClass() && type.size != 0 && !(buf instanceof byte[]) && !(buf instanceof MemorySegment) && !(buf instanceof ByteBuffer)) {
            // bytes hold anything (raw memory, as a segment); another array holds its own kind only (a type of no data, any)
            throw FerryException.arg(ErrorClass.TYPE, "datatype " + type + " does not describe the elements of a " + buf.getClass().getSimpleName());
        }
        int unit = unit(buf);
        long start = offset > m.byteSize() / unit ? Long.MAX_VALUE : offset * unit;
        if (start > m.byteSize() || need > m.byteSize() - start) {
            throw FerryException.arg(ErrorClass.COUNT, "count: " + (needWhat != null ? needWhat : count + " elements of " + type) + " from offset " + offset
                    + " need " + need + " bytes from byte " + start + ", but " + what + " holds " + m.byteSize() + " bytes");
        }
        return m.asSlice(start, need);
    }

    /** The contiguous memory of {@code count} elements of a contiguous {@code type}. */
    static MemorySegment contiguous(Object buf, long offset, long count, Datatype type, boolean writable, String what) {
        return elements(buf, offset, count, type, writable, what);
    }

    /** {@link #contiguous}, answered from {@code cache} when the same buffer, offset, count and datatype come again. */
    static MemorySegment contiguous(Object buf, long offset, long count, Datatype type, boolean writable, String what, Scratch.Slice cache) {
        MemorySegment hit = cache.get(buf, offset, count, type);
        if (hit != null) {
            return hit; // checked when it was made: neither the datatype nor the buffer's memory changes
        }
        return cache.put(buf, offset, count, type, elements(buf, offset, count, type, writable, what));
    }

    /** The blocks of {@code count} elements of any {@code type}, in type-map order. */
    static DataLayout layout(Object buf, long offset, long count, Datatype type, boolean writable, String what) {
        MemorySegment m = elements(buf, offset, count, type, writable, what);
        int blocks = type.offsets.length;
        long pieces = count > Integer.MAX_VALUE ? Long.MAX_VALUE : count * blocks;
        if (pieces > Integer.MAX_VALUE - 8) {
            throw FerryException.arg(ErrorClass.COUNT, "count: " + count + " elements of " + type + " are " + pieces
                    + " blocks; a message of a derived type holds at most " + (Integer.MAX_VALUE - 8) + " (a contiguous type has no such limit)");
        }
        IoVec v = new IoVec((int) Math.max(1, pieces));
        for (long i = 0; i < count; i++) {
            long base = i * type.extent;
            for (int b = 0; b < blocks; b++) {
                v.add(m.asSlice(base + type.offsets[b], type.lengths[b]));
            }
        }
        return v;
    }
}
