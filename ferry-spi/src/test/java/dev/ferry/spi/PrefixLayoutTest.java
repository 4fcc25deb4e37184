package dev.ferry.spi;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PrefixLayoutTest {
    @Test
    void describesTheFirstBytesOfItsBufferAndFollowsTheLength() {
        MemorySegment buf = Arena.ofAuto().allocate(64);
        PrefixLayout p = new PrefixLayout(buf);
        assertEquals(0, p.size());
        assertSame(p, p.length(24));
        assertEquals(24, p.size());
        assertEquals(1, p.segmentCount());
        assertSame(buf, p.segmentBase(0));
        assertEquals(0, p.segmentOffset(0));
        assertEquals(24, p.segmentLength(0));
        p.length(64);
        assertEquals(64, p.segmentLength(0));
    }

    @Test
    void aLengthOutsideTheBufferIsRefusedWithItsFigures() {
        PrefixLayout p = new PrefixLayout(Arena.ofAuto().allocate(16));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.length(17));
        assertTrue(e.getMessage().contains("17") && e.getMessage().contains("16"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> p.length(-1));
        assertThrows(NullPointerException.class, () -> new PrefixLayout(null));
    }
}
