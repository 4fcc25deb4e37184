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
    void boundsAreMpisLowestLowerAndHighestUpperBound() {
        Datatype ix = Datatype.indexed(new int[] {1, 1}, new int[] {2, 5}, Datatype.INT);
        assertEquals(8, ix.lowerBound());
        assertEquals(24, ix.upperBound());
        assertEquals(16, ix.extent(), "MPI's extent runs from the lowest block, not from the origin");
        assertEquals(8, ix.trueLowerBound());
        assertEquals(16, ix.trueExtent());
        // a contiguous pair of it: the second element's origin 16 bytes on (ints 2, 5, 6, 9)
        Datatype two = Datatype.contiguous(2, ix);
        assertArrayEquals(new long[] {8, 20, 36}, two.offsets); // ints 5 and 6 adjacent: one block
        assertArrayEquals(new long[] {4, 8, 4}, two.lengths);
        assertEquals(8, two.lowerBound());
        assertEquals(32, two.extent());
        Datatype st = Datatype.struct(new int[] {1, 2}, new long[] {12, 4}, new Datatype[] {Datatype.INT, Datatype.INT});
        assertEquals(4, st.lowerBound());
        assertEquals(12, st.extent());
        Datatype none = Datatype.struct(new int[0], new long[0], new Datatype[0]);
        assertEquals(0, none.size());
        assertEquals(0, none.extent());
        assertEquals(0, none.lowerBound());
    }

    @Test
    void resizedMovesTheBoundsAndLeavesTheBlocks() {
        Datatype spaced = Datatype.resized(Datatype.INT, 0, 8);
        assertEquals(4, spaced.size());
        assertEquals(8, spaced.extent());
        assertFalse(spaced.isContiguous());
        int[] ints = {0, 1, 2, 3, 4, 5, 6, 7};
        byte[] packed = new byte[16];
        assertEquals(16, spaced.pack(ints, 0, 4, packed, 0));
        int[] back = new int[4];
        Datatype.INT.unpack(packed, 0, back, 0, 4);
        assertArrayEquals(new int[] {0, 2, 4, 6}, back);
        Datatype padded = Datatype.resized(Datatype.vector(2, 1, 2, Datatype.INT), -4, 20);
        assertEquals(-4, padded.lowerBound());
        assertEquals(16, padded.upperBound());
        assertArrayEquals(new long[] {0, 8}, padded.offsets);
        FerryException e = assertThrows(FerryException.class, () -> Datatype.resized(Datatype.INT, 0, -4));
        assertEquals(ErrorClass.ARG, e.errorClass());
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

    @Test
    void theLongFormsPackIntoAndUnpackFromSegments() {
        int[] in = {0, 1, 2, 3, 4, 5, 6, 7, 8};
        Datatype column = Datatype.vector(3, 1, 3, Datatype.INT);
        java.lang.foreign.MemorySegment packed = java.lang.foreign.MemorySegment.ofArray(new byte[32]);
        assertEquals(16L, column.pack(in, 1L, 1L, packed, 4L));
        int[] out = new int[9];
        assertEquals(16L, column.unpack(packed, 4L, out, 2L, 1L));
        assertArrayEquals(new int[] {0, 0, 1, 0, 0, 4, 0, 0, 7}, out);
        FerryException e = assertThrows(FerryException.class, () -> column.pack(in, 0L, 1L, packed, 24L));
        assertEquals(ErrorClass.COUNT, e.errorClass(), "12 bytes from 24 do not fit 32");
    }
}
