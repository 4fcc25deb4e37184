package dev.ferry.core.wire;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.IoVec;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SliceLayoutTest {
    private static byte[] bytes(DataLayout l) {
        MemorySegment out = Arena.ofAuto().allocate(Math.max(1, l.size()));
        new DataCursor().reset(l).copyTo(out, 0, l.size());
        return out.asSlice(0, l.size()).toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void everySliceOfAnIovecAndAStridedLayoutHasTheRightBytes() {
        MemorySegment m = Arena.ofAuto().allocate(200);
        for (int i = 0; i < 200; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) i);
        }
        IoVec iov = IoVec.of(m.asSlice(0, 10), m.asSlice(50, 0), m.asSlice(100, 7), m.asSlice(20, 13));
        DataLayout strided = DataLayout.strided(m, 3, 9, 5, 11);
        for (DataLayout parent : new DataLayout[] {iov, strided, DataLayout.contiguous(m)}) {
            byte[] all = bytes(parent);
            for (int off = 0; off <= parent.size(); off++) {
                for (int len = 0; off + len <= parent.size(); len++) {
                    byte[] want = java.util.Arrays.copyOfRange(all, off, off + len);
                    assertArrayEquals(want, bytes(new SliceLayout(parent, off, len)), "slice " + off + "+" + len);
                }
            }
        }
    }

    @Test
    void aSliceOutsideItsLayoutIsRefused() {
        DataLayout l = DataLayout.contiguous(Arena.ofAuto().allocate(10));
        assertThrows(IllegalArgumentException.class, () -> new SliceLayout(l, 5, 6));
        assertThrows(IllegalArgumentException.class, () -> new SliceLayout(l, -1, 1));
        assertEquals(0, new SliceLayout(l, 10, 0).segmentCount());
    }
}
