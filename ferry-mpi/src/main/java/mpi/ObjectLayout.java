package mpi;

import java.util.Arrays;

/**
 * Where the objects of one element of an MPI.OBJECT type lie (mpiJava lets contiguous, vector,
 * indexed, hvector and hindexed types be built on MPI.OBJECT): their indices from the element's
 * origin, in type-map order, and MPI's lower bound and extent, all counted in objects (the
 * buffer's index). Sends gather the objects in type-map order before serializing them; receives
 * put what arrives back where the type says.
 *
 * <pre>{@code
 * Datatype everyThird = Datatype.Vector(4, 1, 3, MPI.OBJECT); // objects 0, 3, 6 and 9
 * comm.Send(things, 0, 1, everyThird, 1, 0);
 * }</pre>
 */
final class ObjectLayout {
    /** MPI.OBJECT itself: one object per element. */
    static final ObjectLayout ONE = new ObjectLayout(new int[] {0}, 0, 1);

    final int[] indices;
    final int lb;
    final int extent;
    /** The furthest index plus one: how far one element reaches from its origin. */
    private final int span;

    private ObjectLayout(int[] indices, int lb, int extent) {
        this.indices = indices;
        this.lb = lb;
        this.extent = extent;
        int s = 0;
        for (int i : indices) {
            s = Math.max(s, i + 1);
        }
        this.span = s;
    }

    int size() {
        return indices.length;
    }

    boolean isOne() {
        return this == ONE || indices.length == 1 && indices[0] == 0 && extent == 1;
    }

    /** Objects {@code count} elements reach from the first one's origin. */
    long reach(int count) {
        return count == 0 ? 0 : (long) (count - 1) * extent + span;
    }

    /** Copies of {@code old}'s elements placed at {@code origins} (in objects), with MPI's bounds. */
    private static ObjectLayout place(ObjectLayout old, long[] origins) {
        int[] idx = new int[Math.multiplyExact(origins.length, old.size())];
        long lb = Long.MAX_VALUE, ub = Long.MIN_VALUE;
        int k = 0;
        for (long o : origins) {
            for (int i : old.indices) {
                idx[k++] = Math.toIntExact(o + i);
            }
            lb = Math.min(lb, o + old.lb);
            ub = Math.max(ub, o + old.lb + old.extent);
        }
        return origins.length == 0 ? new ObjectLayout(idx, 0, 0) : new ObjectLayout(idx, Math.toIntExact(lb), Math.toIntExact(ub - lb));
    }

    static ObjectLayout contiguous(int count, ObjectLayout old) {
        checkCount(count, "count");
        long[] at = new long[count];
        for (int i = 0; i < count; i++) {
            at[i] = (long) i * old.extent;
        }
        return place(old, at);
    }

    /** {@code stride} in elements of {@code old} ({@code inObjects}: in objects, mpiJava's Hvector). */
    static ObjectLayout vector(int count, int blockLength, int stride, ObjectLayout old, boolean inObjects) {
        checkCount(count, "count");
        checkCount(blockLength, "blocklength");
        if (stride < 0) {
            throw new MPIException(MPI.ERR_ARG, "stride: " + stride + " is negative (Ferry's types grow upwards)");
        }
        long[] at = new long[Math.multiplyExact(count, blockLength)];
        long step = inObjects ? stride : (long) stride * old.extent;
        for (int i = 0, k = 0; i < count; i++) {
            for (int j = 0; j < blockLength; j++) {
                at[k++] = i * step + (long) j * old.extent;
            }
        }
        return place(old, at);
    }

    /** Displacements in elements of {@code old} ({@code inObjects}: in objects, mpiJava's Hindexed). */
    static ObjectLayout indexed(int[] blockLengths, int[] displacements, ObjectLayout old, boolean inObjects) {
        if (blockLengths == null || displacements == null || blockLengths.length != displacements.length) {
            throw new MPIException(MPI.ERR_ARG, "blocklengths and displacements must have as many entries");
        }
        int n = 0;
        for (int i = 0; i < blockLengths.length; i++) {
            checkCount(blockLengths[i], "blocklengths[" + i + "]");
            if (displacements[i] < 0) {
                throw new MPIException(MPI.ERR_ARG, "displacements[" + i + "]: " + displacements[i] + " is negative");
            }
            n = Math.addExact(n, blockLengths[i]);
        }
        long[] at = new long[n];
        for (int i = 0, k = 0; i < blockLengths.length; i++) {
            long start = inObjects ? displacements[i] : (long) displacements[i] * old.extent;
            for (int j = 0; j < blockLengths[i]; j++) {
                at[k++] = start + (long) j * old.extent;
            }
        }
        return place(old, at);
    }

    /** The objects of {@code count} elements from {@code offset}, in type-map order. */
    Object[] gather(Object[] a, int offset, int count, String what) {
        check(a, offset, count, what);
        Object[] out = new Object[Math.multiplyExact(count, size())];
        for (int e = 0, k = 0; e < count; e++) {
            long origin = offset + (long) e * extent;
            for (int i : indices) {
                out[k++] = a[(int) (origin + i)];
            }
        }
        return out;
    }

    /** Puts the first {@code n} of {@code packed} where {@code count} elements from {@code offset} keep their objects. */
    void scatter(Object[] packed, int n, Object[] a, int offset, int count, String what) {
        check(a, offset, count, what);
        for (int k = 0; k < n; k++) {
            long origin = offset + (long) (k / size()) * extent;
            a[(int) (origin + indices[k % size()])] = packed[k];
        }
    }

    void check(Object[] a, int offset, int count, String what) {
        if (offset < 0 || count < 0 || offset + reach(count) > a.length) {
            throw new MPIException(MPI.ERR_COUNT, what + ": offset " + offset + " and count " + count + " reach "
                    + (offset + reach(count)) + " objects, but it holds " + a.length);
        }
    }

    private static void checkCount(int n, String what) {
        if (n < 0) {
            throw new MPIException(MPI.ERR_COUNT, what + ": " + n + " is negative");
        }
    }

    @Override
    public String toString() {
        return "objects " + Arrays.toString(indices) + ", lb " + lb + ", extent " + extent;
    }
}
