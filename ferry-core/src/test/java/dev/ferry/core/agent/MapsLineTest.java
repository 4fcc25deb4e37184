package dev.ferry.core.agent;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** proc(5)'s lines of a memory map, as the agent reads them to map a rank's shared memory. */
class MapsLineTest {
    @Test
    void aSharedFileMapping() {
        MapsLine m = MapsLine.parse("7f12a0000000-7f12a0003000 rw-s 00001000 00:1a 4711                       /dev/shm/ferry-x-a0.arena");
        assertNotNull(m);
        assertEquals(0x7f12a0000000L, m.start());
        assertEquals(0x7f12a0003000L, m.end());
        assertEquals(0x1000, m.offset());
        assertEquals(4711, m.inode());
        assertEquals(MapsLine.device(0, 0x1a), m.device());
        assertEquals("/dev/shm/ferry-x-a0.arena", m.path());
        assertTrue(m.sharedFile());
    }

    @Test
    void whatIsNoSharedFileMapping() {
        assertFalse(MapsLine.parse("7f12a0000000-7f12a0003000 rw-p 00000000 00:00 0").sharedFile(), "anonymous");
        assertFalse(MapsLine.parse("7f12a0000000-7f12a0003000 rw-p 00000000 08:01 99 /lib/x.so").sharedFile(), "private");
        assertFalse(MapsLine.parse("7f12a0000000-7f12a0003000 r--s 00000000 08:01 99 /tmp/x").sharedFile(), "read only");
        assertFalse(MapsLine.parse("7f12a0000000-7f12a0003000 rw-s 00000000 00:01 99 /dev/zero (deleted)").sharedFile(), "no name left");
        assertFalse(MapsLine.parse("7ffd1000-7ffd3000 rw-p 00000000 00:00 0 [stack]").sharedFile());
        assertNull(MapsLine.parse("garbage"));
        assertNull(MapsLine.parse("zz-7f rw-s 0 00:1a 1 /x"));
    }

    @Test
    void devicesAsStatGivesThem() {
        assertEquals(0x801, MapsLine.device(8, 1)); // sda1
        assertEquals(0x1a, MapsLine.device(0, 0x1a));
        assertEquals(0x103L << 8, MapsLine.device(0x103, 0)); // a major's low 12 bits from bit 8
        assertEquals(0x1000L << 32 | 0x12, MapsLine.device(0x1000, 0x12)); // its high ones from bit 44
        assertEquals(0x123L << 20 | 0x45, MapsLine.device(0, 0x12345)); // a minor's high bits from bit 20
    }
}
