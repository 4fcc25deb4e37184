package dev.ferry;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A program's buffer as a collective sees it: the memory from its offset, and the datatype its
 * elements are, with blocks of it at displacements (counted in the type's extent, as MPI's v
 * forms count them). Collectives move packed bytes: a block of a contiguous type is its own
 * memory (received into and sent from in place); a block of another type is packed into
 * temporary memory when the collective starts, or unpacked from it when it ends.
 */
final class CollBuffer {
    final MemorySegment region;
    final Datatype type;

    private CollBuffer(MemorySegment region, Datatype type) {
        this.region = region;
        this.type = type;
    }

    /** {@code count} elements of {@code type} from {@code offset}, checked to fit. */
    static CollBuffer of(Object buf, long offset, long count, Datatype type, boolean writable, String what) {
        checkType(type, what);
        if (count < 0) {
            throw FerryException.arg(ErrorClass.COUNT, what + " count: " + count + " is negative");
        }
        return new CollBuffer(Buffers.elements(buf, offset, count, type, writable, what), type);
    }

    /** Blocks of {@code counts[i]} elements at {@code displs[i]} extents from {@code offset}, checked to fit. */
    static CollBuffer of(Object buf, long offset, long[] counts, long[] displs, Datatype type, int ranks, boolean writable, String what) {
        checkType(type, what);
        checkLength(counts, ranks, what + " counts");
        checkLength(displs, ranks, what + " displacements");
        long need = 0;
        for (int i = 0; i < ranks; i++) {
            if (counts[i] < 0) {
                throw FerryException.arg(ErrorClass.COUNT, what + " counts[" + i + "]: " + counts[i] + " is negative");
            }
            if (displs[i] < 0) {
                throw FerryException.arg(ErrorClass.ARG, what + " displacements[" + i + "]: " + displs[i] + " is negative");
            }
            if (counts[i] > 0) {
                need = Math.max(need, displs[i] * type.extent + Buffers.reach(counts[i], type));
            }
        }
        return new CollBuffer(Buffers.span(buf, offset, need, type, writable, what, "the blocks of " + type), type);
    }

    /** Blocks of bytes of any types (alltoallw): the whole buffer from {@code offset}; each block is checked when taken. */
    static CollBuffer raw(Object buf, long offset, boolean writable, String what) {
        Datatype own = Buffers.typeOf(buf, what);
        return new CollBuffer(Buffers.span(buf, offset, sizeFrom(buf, offset), own, writable, what, "the blocks"), own);
    }

    /** The bytes of {@code count} elements of {@code type} at byte {@code displ} (alltoallw's blocks), checked to fit. */
    MemorySegment bytesAt(long displ, long count, Datatype type, String what) {
        long need = Buffers.reach(count, type);
        if (displ < 0 || count < 0 || displ > region.byteSize() || need > region.byteSize() - displ) {
            throw FerryException.arg(ErrorClass.COUNT, what + ": " + count + " elements of " + type + " at byte " + displ
                    + " need " + need + " bytes, but the buffer holds " + region.byteSize() + " from its offset");
        }
        return region.asSlice(displ, need);
    }

    private static long sizeFrom(Object buf, long offset) {
        long total = switch (buf) {
            case MemorySegment m -> m.byteSize();
            case java.nio.ByteBuffer b -> b.capacity();
            default -> (long) java.lang.reflect.Array.getLength(buf) * Buffers.unit(buf);
        };
        return Math.max(0, total - (long) offset * Buffers.unit(buf));
    }

    static void checkType(Datatype type, String what) {
        if (type == null) {
            throw FerryException.arg(ErrorClass.TYPE, what + " datatype is null");
        }
    }

    static void checkLength(int[] a, int ranks, String what) {
        checkLength(a == null ? -1 : a.length, ranks, what);
    }

    static void checkLength(long[] a, int ranks, String what) {
        checkLength(a == null ? -1 : a.length, ranks, what);
    }

    private static void checkLength(int length, int ranks, String what) {
        if (length < ranks) {
            throw FerryException.arg(ErrorClass.ARG, what + ": " + (length < 0 ? "null" : length + " entries")
                    + " for " + ranks + " ranks");
        }
    }

    /** The memory of {@code count} elements {@code displ} extents in. */
    MemorySegment block(long displ, long count) {
        if (count == 0) {
            return region.asSlice(0, 0); // an empty block may sit anywhere, even past the buffer's end
        }
        return region.asSlice(displ * type.extent, Buffers.reach(count, type));
    }

    /** Packed bytes of {@code count} elements at {@code displ}: the memory itself, or a copy packed by a first step of {@code s}. */
    MemorySegment input(Schedule s, long displ, long count) {
        return input(s, block(displ, count), count, type);
    }

    /** Where packed bytes for {@code count} elements at {@code displ} go: the memory itself, or a temporary unpacked by a step added to {@code last}. */
    MemorySegment output(Schedule s, List<Runnable> last, long displ, long count) {
        return output(s, last, block(displ, count), count, type);
    }

    static MemorySegment input(Schedule s, MemorySegment m, long count, Datatype type) {
        if (type.contiguous) {
            return m;
        }
        MemorySegment t = s.temp((long) count * type.size);
        s.local(() -> pack(m, count, type, t));
        return t;
    }

    static MemorySegment output(Schedule s, List<Runnable> last, MemorySegment m, long count, Datatype type) {
        if (type.contiguous) {
            return m;
        }
        MemorySegment t = s.temp((long) count * type.size);
        last.add(() -> unpack(t, m, count, type));
        return t;
    }

    static void pack(MemorySegment from, long count, Datatype type, MemorySegment to) {
        long at = 0;
        for (long i = 0; i < count; i++) {
            long base = i * type.extent;
            for (int b = 0; b < type.offsets.length; b++) {
                MemorySegment.copy(from, base + type.offsets[b], to, at, type.lengths[b]);
                at += type.lengths[b];
            }
        }
    }

    static void unpack(MemorySegment from, MemorySegment to, long count, Datatype type) {
        long at = 0;
        for (long i = 0; i < count; i++) {
            long base = i * type.extent;
            for (int b = 0; b < type.offsets.length; b++) {
                MemorySegment.copy(from, at, to, base + type.offsets[b], type.lengths[b]);
                at += type.lengths[b];
            }
        }
    }
}
