package dev.ferry.spi;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DataCursorTest {
    private static MemorySegment seq(int n) {
        MemorySegment m = Arena.ofAuto().allocate(n);
        for (int i = 0; i < n; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) i);
        }
        return m;
    }

    @Test
    void walksAStridedLayoutInChunks() {
        MemorySegment m = seq(64);
        DataLayout l = DataLayout.strided(m, 2, 4, 3, 10); // bytes 2-4, 12-14, 22-24, 32-34
        MemorySegment out = Arena.ofAuto().allocate(12);
        new DataCursor().reset(l).copyTo(out, 0, 12);
        byte[] expect = {2, 3, 4, 12, 13, 14, 22, 23, 24, 32, 33, 34};
        assertEquals(java.util.Arrays.toString(expect), java.util.Arrays.toString(out.toArray(ValueLayout.JAVA_BYTE)));
    }

    @Test
    void copiesInPiecesThatCrossSegments() {
        IoVec v = IoVec.of(seq(5), Arena.ofAuto().allocate(0), seq(3), seq(7));
        assertEquals(15, v.size());
        DataCursor c = new DataCursor().reset(v);
        MemorySegment out = Arena.ofAuto().allocate(15);
        c.copyTo(out, 0, 4).copyTo(out, 4, 2).copyTo(out, 6, 9); // pieces 4, 2 (crossing an empty segment), 9
        assertFalse(c.hasRemaining());
        byte[] expect = {0, 1, 2, 3, 4, 0, 1, 2, 0, 1, 2, 3, 4, 5, 6};
        assertEquals(java.util.Arrays.toString(expect), java.util.Arrays.toString(out.toArray(ValueLayout.JAVA_BYTE)));
    }

    @Test
    void transfersBetweenTwoLayoutsOfDifferentShapes() {
        MemorySegment src = seq(100);
        DataLayout from = DataLayout.strided(src, 0, 10, 5, 10);          // 50 bytes
        MemorySegment dst = Arena.ofAuto().allocate(50);
        IoVec to = IoVec.of(dst.asSlice(0, 7), dst.asSlice(7, 30), dst.asSlice(37, 13));
        DataCursor.transfer(new DataCursor().reset(from), new DataCursor().reset(to), 50);
        for (int i = 0; i < 50; i++) {
            assertEquals((byte) ((i / 5) * 10 + i % 5), dst.get(ValueLayout.JAVA_BYTE, i), "byte " + i);
        }
    }

    @Test
    void copyFromFillsALayout() {
        MemorySegment dst = Arena.ofAuto().allocate(20);
        DataLayout l = DataLayout.strided(dst, 1, 3, 2, 5);
        new DataCursor().reset(l).copyFrom(seq(6), 0, 6);
        assertEquals(0, dst.get(ValueLayout.JAVA_BYTE, 1));
        assertEquals(1, dst.get(ValueLayout.JAVA_BYTE, 2));
        assertEquals(2, dst.get(ValueLayout.JAVA_BYTE, 6));
        assertEquals(5, dst.get(ValueLayout.JAVA_BYTE, 12));
    }

    @Test
    void refusesToRunPastTheEnd() {
        DataCursor c = new DataCursor().reset(DataLayout.contiguous(seq(4)));
        assertThrows(IndexOutOfBoundsException.class, () -> c.advance(5));
        assertThrows(IndexOutOfBoundsException.class, () -> c.copyTo(Arena.ofAuto().allocate(8), 0, 5));
        c.advance(4);
        assertEquals(0, c.chunkLength());
    }

    @Test
    void emptyLayoutsHaveNothing() {
        DataCursor c = new DataCursor().reset(DataLayout.strided(seq(1), 0, 0, 0, 0));
        assertFalse(c.hasRemaining());
        c.copyTo(Arena.ofAuto().allocate(1), 0, 0);
    }
}
