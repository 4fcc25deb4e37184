package mpi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Grid arithmetic: MPI_Dims_create's balanced factorization, row-major coordinates, shifts at periodic and open edges. */
class TopologyTest {
    private static int[] dims(int n, int... d) {
        Topology.createDims(n, d);
        return d;
    }

    @Test
    void dimsAreBalancedAndNonIncreasing() {
        assertArrayEquals(new int[] {3, 2}, dims(6, 0, 0));
        assertArrayEquals(new int[] {4, 4}, dims(16, 0, 0));
        assertArrayEquals(new int[] {7, 1}, dims(7, 0, 0));
        assertArrayEquals(new int[] {3, 2, 2}, dims(12, 0, 0, 0));
        assertArrayEquals(new int[] {2, 3, 4}, dims(24, 2, 0, 4), "fixed entries stay");
        assertArrayEquals(new int[] {1}, dims(1, 0));
        MPIException e = assertThrows(MPIException.class, () -> Topology.createDims(10, new int[] {3, 0}));
        assertEquals(MPI.ERR_DIMS, e.getErrorClass());
    }

    @Test
    void coordinatesAreRowMajorAndShiftsWrapOnlyWherePeriodic() {
        Topology t = cart(new int[] {2, 3}, new boolean[] {true, false});
        assertArrayEquals(new int[] {1, 2}, t.coords(5));
        assertEquals(5, t.rank(new int[] {1, 2}));
        assertEquals(2, t.rank(new int[] {-2, 2}), "a periodic dimension wraps");
        assertEquals(MPI.PROC_NULL, t.rank(new int[] {0, 3}), "an open one ends");
        assertArrayEquals(new int[] {3, 3}, t.shift(0, 0, 1), "a periodic dimension of 2: both neighbours are the same rank");
        assertArrayEquals(new int[] {MPI.PROC_NULL, 1}, t.shift(0, 1, 1));
        assertArrayEquals(new int[] {4, MPI.PROC_NULL}, t.shift(5, 1, 1));
        assertThrows(MPIException.class, () -> t.shift(0, 2, 1));
    }

    private static Topology cart(int[] dims, boolean[] periods) {
        // the arithmetic only: no communicator behind it
        try {
            var c = Topology.class.getDeclaredConstructor(int.class, int[].class, boolean[].class, int[].class, int[].class, int[].class, int[].class,
                    int[].class, int[].class, dev.ferry.Comm.class);
            c.setAccessible(true);
            return c.newInstance(MPI.CART, dims, periods, null, null, null, null, null, null, null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
