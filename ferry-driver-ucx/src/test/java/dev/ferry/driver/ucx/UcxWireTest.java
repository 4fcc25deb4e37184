package dev.ferry.driver.ucx;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UcxWireTest {
    @Test
    void urlRoundTripsAndRejectsWhatIsNotOne() {
        byte[] address = new byte[215];
        for (int i = 0; i < address.length; i++) {
            address[i] = (byte) (i * 7);
        }
        byte[] part = UcxWire.encodeUrl(address);
        assertArrayEquals(address, UcxWire.decodeUrl(part));
        assertNull(UcxWire.decodeUrl(new byte[] {1, 2, 3}), "shorter than the header");
        byte[] flipped = part.clone();
        flipped[UcxWire.URL_HEADER + 10] ^= 1;
        assertNull(UcxWire.decodeUrl(flipped), "a changed address byte fails the CRC");
        byte[] cut = java.util.Arrays.copyOf(part, part.length - 1);
        assertNull(UcxWire.decodeUrl(cut), "length mismatch");
        byte[] magic = part.clone();
        magic[0] ^= 1;
        assertNull(UcxWire.decodeUrl(magic), "wrong magic");
    }

    @Test
    void helloRoundTrips() {
        byte[] key = "secret".getBytes(StandardCharsets.UTF_8);
        byte[] url = {9, 8, 7, 6};
        byte[] host = "boot/pid:[4026531836]".getBytes(StandardCharsets.UTF_8);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(UcxContext.HELLO_BUFFER);
            UcxWire.writeHello(m, 42, 1234, 5678L, key, url, host);
            UcxWire.Hello h = UcxWire.readHello(m, m.byteSize());
            assertEquals(42, h.senderId());
            assertEquals(1234, h.pid());
            assertEquals(5678L, h.startMillis());
            assertArrayEquals(key, h.jobKey());
            assertArrayEquals(url, h.url());
            assertEquals("boot/pid:[4026531836]", h.hostId());
            assertEquals(UcxWire.helloSize(key, url, host), UcxWire.HELLO_HEADER + key.length + url.length + host.length);
        }
    }

    @Test
    void malformedHellosAreNamed() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(256);
            UcxWire.writeHello(m, 1, 2, 3, new byte[0], new byte[8], new byte[8]);
            m.set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, 0, 0x12345678);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> UcxWire.readHello(m, 256)).getMessage().contains("magic"));
            UcxWire.writeHello(m, 1, 2, 3, new byte[0], new byte[8], new byte[8]);
            m.set(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, 4, (short) 9);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> UcxWire.readHello(m, 256)).getMessage().contains("version 9"));
            UcxWire.writeHello(m, 1, 2, 3, new byte[0], new byte[200], new byte[8]);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> UcxWire.readHello(m, 100)).getMessage().contains("100-byte buffer"));
        }
    }

    @Test
    void dataHeaderAndDescriptor() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(512);
            UcxWire.writeDataHeader(m, 8192, 0);
            assertEquals(8192, UcxWire.dataLength(m));
            assertFalse(UcxWire.isRts(m));
            UcxWire.writeDataHeader(m, 60, UcxWire.FLAG_RTS);
            assertTrue(UcxWire.isRts(m));

            MemorySegment d = a.allocate(512);
            MemorySegment key = a.allocate(9);
            key.fill((byte) 5);
            UcxWire.writeRtsHeader(d, 1L << 33, 2, 0);
            assertEquals(0, UcxWire.rtsBulkTag(d), "no BY_TAG");
            long off = UcxWire.writeRtsSegment(d, UcxWire.RTS_HEADER, 0x7f00_0000_1000L, 1L << 32, key);
            assertEquals(UcxWire.RTS_HEADER + UcxWire.RTS_SEGMENT_HEADER + 9, off);
            UcxWire.writeRtsSegment(d, off, 0x7f00_0000_9000L, 1L << 32, key);
            assertEquals(1L << 33, UcxWire.rtsTotal(d));
            assertEquals(2, UcxWire.rtsSegments(d));
            assertEquals(0x7f00_0000_1000L, UcxWire.segAddress(d, UcxWire.RTS_HEADER));
            assertEquals(1L << 32, UcxWire.segLength(d, UcxWire.RTS_HEADER));
            assertEquals(9, UcxWire.segKeyLength(d, UcxWire.RTS_HEADER));
            assertEquals(0x7f00_0000_9000L, UcxWire.segAddress(d, off));

            long bulk = UcxWire.bulkTag(3, 7);
            UcxWire.writeRtsHeader(d, 1L << 20, 1, bulk);
            assertEquals(bulk, UcxWire.rtsBulkTag(d));
            assertEquals(1, UcxWire.rtsSegments(d));
            assertEquals(1L << 20, UcxWire.rtsTotal(d));
        }
    }

    @Test
    void bulkTagsCountWithin28BitsAndNeverMeetOtherKinds() {
        long t = UcxWire.bulkTag(5, 9);
        assertEquals(UcxWire.KIND_BULK, t & (0xfL << 60));
        assertEquals(5, (t >>> 32) & 0x0fff_ffffL);
        assertEquals(9, t & 0xffff_ffffL);
        assertEquals(UcxWire.bulkTag(1, 9), UcxWire.bulkTag(1 + (1L << 28), 9), "the count wraps in 28 bits");
        assertEquals(UcxWire.KIND_BULK, UcxWire.bulkTag(-1, -1) & (0xfL << 60), "a wrapped count never reaches the kind");
    }

    @Test
    void tagsCarryKindAndInstance() {
        long t = UcxWire.tag(UcxWire.KIND_DATA, -2);
        assertEquals(UcxWire.KIND_DATA, t & (0xfL << 60));
        assertEquals(0xffff_fffeL, t & 0xffff_ffffL);
        assertEquals(0, t & 0x0fff_ffff_0000_0000L, "bits 59..32 stay zero");
    }
}
