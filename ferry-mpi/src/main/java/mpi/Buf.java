package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

/**
 * Turns a buffer of the two Java MPI APIs (a primitive array, or an {@code java.nio} buffer, direct
 * or over an array) into what Ferry's API takes (an array with an element offset, or a memory
 * segment with a byte offset; offsets the program gives count elements of its buffer either way). A direct buffer is addressed from its start, whatever its position,
 * as the Open MPI bindings do ({@link MPI#slice} makes a view that starts further in). Its segment is
 * remembered in a small table, so a buffer used again costs no allocation.
 */
final class Buf {
    private record View(Buffer buffer, MemorySegment segment) {
    }

    private static final int SLOTS = 64;
    private static final View[] VIEWS = new View[SLOTS];

    private Buf() {
    }

    /** What Ferry's API takes in place of {@code buf}. */
    static Object target(Object buf) {
        if (buf instanceof Buffer b) {
            if (b.isDirect()) {
                return segment(b);
            }
            if (!b.hasArray()) {
                throw new MPIException(MPI.ERR_BUFFER, "buffer: a read-only heap buffer cannot be used (Ferry needs its array or a direct buffer)");
            }
            return b.array();
        }
        return buf;
    }

    /** The offset Ferry's API takes with {@link #target}: a heap buffer's elements count from its array's start. */
    static int offset(Object buf, int offset) {
        if (buf instanceof Buffer b) {
            return b.isDirect() ? offset * unit(b) : offset + b.arrayOffset();
        }
        return offset;
    }

    /** The whole memory of direct buffer {@code b}, from its start to its capacity. */
    static MemorySegment segment(Buffer b) {
        int slot = System.identityHashCode(b) & (SLOTS - 1);
        View v = VIEWS[slot]; // a racy read of an immutable record: the worst case is a second view made
        if (v != null && v.buffer == b) {
            return v.segment;
        }
        MemorySegment s = MemorySegment.ofBuffer(b.duplicate().clear());
        VIEWS[slot] = new View(b, s);
        return s;
    }

    /** The bytes of one element of array {@code buf} (1 for a byte array or anything else). */
    static int arrayUnit(Object buf) {
        return switch (buf) {
            case short[] a -> 2;
            case char[] a -> 2;
            case int[] a -> 4;
            case float[] a -> 4;
            case long[] a -> 8;
            case double[] a -> 8;
            default -> 1;
        };
    }

    /** The bytes of one element of {@code b} (1 for a byte buffer). */
    static int unit(Buffer b) {
        return switch (b) {
            case java.nio.ByteBuffer x -> 1;
            case java.nio.CharBuffer x -> 2;
            case java.nio.ShortBuffer x -> 2;
            case java.nio.IntBuffer x -> 4;
            case java.nio.FloatBuffer x -> 4;
            case java.nio.LongBuffer x -> 8;
            case java.nio.DoubleBuffer x -> 8;
            default -> 1;
        };
    }
}
