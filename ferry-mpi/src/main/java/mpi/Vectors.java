package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Copies packed elements between a memory segment and a Java array of their base type (for user functions). */
final class Vectors {
    private Vectors() {
    }

    static Object toArray(MemorySegment s, Datatype type, String what) {
        return switch (type.baseType) {
            case Datatype.BYTE, Datatype.PACKED, Datatype.BOOLEAN -> s.toArray(ValueLayout.JAVA_BYTE);
            case Datatype.CHAR -> s.toArray(ValueLayout.JAVA_CHAR_UNALIGNED);
            case Datatype.SHORT, Datatype.SHORT2 -> s.toArray(ValueLayout.JAVA_SHORT_UNALIGNED);
            case Datatype.INT, Datatype.INT2 -> s.toArray(ValueLayout.JAVA_INT_UNALIGNED);
            case Datatype.LONG, Datatype.LONG2 -> s.toArray(ValueLayout.JAVA_LONG_UNALIGNED);
            case Datatype.FLOAT, Datatype.FLOAT2, Datatype.FLOAT_COMPLEX -> s.toArray(ValueLayout.JAVA_FLOAT_UNALIGNED);
            case Datatype.DOUBLE, Datatype.DOUBLE2, Datatype.DOUBLE_COMPLEX -> s.toArray(ValueLayout.JAVA_DOUBLE_UNALIGNED);
            default -> s.toArray(ValueLayout.JAVA_BYTE);
        };
    }

    static void fromArray(Object array, MemorySegment s, Datatype type) {
        MemorySegment src = switch (array) {
            case byte[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            default -> throw new MPIException(MPI.ERR_TYPE, "a user function's vector is a " + array.getClass().getSimpleName());
        };
        MemorySegment.copy(src, 0, s, 0, Math.min(src.byteSize(), s.byteSize()));
    }
}
