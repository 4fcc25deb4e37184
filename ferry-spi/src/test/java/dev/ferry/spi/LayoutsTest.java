package dev.ferry.spi;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LayoutsTest {
    private final MemorySegment m = Arena.ofAuto().allocate(100);

    @Test
    void stridedChecksItsBoundsOnce() {
        assertEquals(30, DataLayout.strided(m, 0, 10, 3, 10).size());
        assertEquals(30, DataLayout.strided(m, 7, 10, 3, 10).size()); // ends at byte 100 exactly
        assertThrows(IndexOutOfBoundsException.class, () -> DataLayout.strided(m, 8, 10, 3, 10)); // would end at 101
    }

    @Test
    void stridedRejectsOverlapAndNegatives() {
        assertThrows(IllegalArgumentException.class, () -> DataLayout.strided(m, 0, 3, 8, 4));
        assertThrows(IllegalArgumentException.class, () -> DataLayout.strided(m, -1, 1, 1, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> DataLayout.strided(m, 0, 11, 10, 10));
    }

    @Test
    void iovecHasAFixedCapacity() {
        IoVec v = new IoVec(2).add(m).add(m);
        assertThrows(IllegalStateException.class, () -> v.add(m));
        assertEquals(200, v.size());
        v.clear();
        assertEquals(0, v.size());
        assertEquals(0, v.count());
    }

    @Test
    void packetFormsAreExclusive() {
        Packet p = new Packet();
        assertSame(Packet.Form.NONE, p.form());
        IoVec v = IoVec.of(m);
        p.useIov(v);
        assertSame(v, p.layout());
        assertEquals(100, p.size());
        DataLayout d = DataLayout.contiguous(m.asSlice(0, 10));
        p.useData(d);
        assertSame(d, p.layout());
        assertEquals(10, p.size());
        p.driverBuffer(m, 4);
        assertSame(Packet.Form.BUFFER, p.form());
        assertEquals(null, p.layout());
        p.reset();
        assertSame(Packet.Form.NONE, p.form());
        assertEquals(0, p.rdvData().byteSize());
        assertThrows(IllegalArgumentException.class, () -> p.length(-1));
    }
}
