package dev.ferry;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Derived types flatten to byte blocks within one element, adjacent blocks merged, with MPI's extents. */
class DatatypeTest {
    @Test
    void primitivesAreOneBlock() {
        assertEquals(8, Datatype.DOUBLE.size());
        assertEquals(8, Datatype.DOUBLE.extent());
        assertTrue(Datatype.INT.isContiguous());
    }

    @Test
    void contiguousMergesIntoOneBlock() {
        Datatype t = Datatype.contiguous(5, Datatype.INT);
        assertEquals(20, t.size());
        assertEquals(20, t.extent());
        assertTrue(t.isContiguous());
        assertArrayEquals(new long[] {0}, t.offsets);
        assertArrayEquals(new long[] {20}, t.lengths);
    }

    @Test
    void vectorHasGapsAndMpisExtent() {
        Datatype t = Datatype.vector(3, 2, 5, Datatype.LONG); // blocks of 2 longs, 5 longs apart
        assertEquals(48, t.size());
        assertEquals(((3 - 1) * 5 + 2) * 8, t.extent());
        assertFalse(t.isContiguous());
        assertArrayEquals(new long[] {0, 40, 80}, t.offsets);
        assertArrayEquals(new long[] {16, 16, 16}, t.lengths);
        assertTrue(Datatype.vector(4, 3, 3, Datatype.INT).isContiguous(), "a stride equal to the block is contiguous");
    }

    @Test
    void indexedAndStructKeepTypeMapOrder() {
        Datatype ix = Datatype.indexed(new int[] {1, 2}, new int[] {4, 0}, Datatype.SHORT);
        assertArrayEquals(new long[] {8, 0}, ix.offsets);
        assertArrayEquals(new long[] {2, 4}, ix.lengths);
        assertEquals(10, ix.extent());
        Datatype st = Datatype.struct(new int[] {1, 2}, new long[] {0, 8}, new Datatype[] {Datatype.CHAR, Datatype.FLOAT});
        assertEquals(10, st.size());
        assertEquals(16, st.extent());
        assertNull(st.arrayClass, "a struct of several kinds fits raw memory only");
    }

    @Test
    void badArgumentsAreNamed() {
        FerryException e = assertThrows(FerryException.class, () -> Datatype.vector(2, 1, -1, Datatype.INT));
        assertTrue(e.getMessage().startsWith("stride"), e.getMessage());
        e = assertThrows(FerryException.class, () -> Datatype.indexed(new int[] {1}, new int[] {1, 2}, Datatype.INT));
        assertEquals(ErrorClass.ARG, e.errorClass());
        e = assertThrows(FerryException.class, () -> Datatype.contiguous(-1, Datatype.INT));
        assertEquals(ErrorClass.COUNT, e.errorClass());
    }

    @Test
    void packAndUnpackGatherAndScatterTheBlocksInTypeMapOrder() {
        int[] in = {0, 1, 2, 3, 4, 5, 6, 7, 8};
        Datatype column = Datatype.vector(3, 1, 3, Datatype.INT); // 0, 3, 6
        byte[] packed = new byte[32];
        int at = column.pack(in, 1, 1, packed, 4); // from element 1: 1, 4, 7
        assertEquals(16, at);
        at = Datatype.INT.pack(in, 8, 1, packed, at);
        assertEquals(20, at);
        int[] out = new int[9];
        assertEquals(16, column.unpack(packed, 4, out, 2, 1));
        assertArrayEquals(new int[] {0, 0, 1, 0, 0, 4, 0, 0, 7}, out);
        FerryException e = assertThrows(FerryException.class, () -> Datatype.LONG.pack(new long[4], 0, 4, new byte[16], 0));
        assertEquals(ErrorClass.COUNT, e.errorClass());
        assertTrue(e.getMessage().startsWith("out:"), e.getMessage());
    }
}
