package dev.ferry.spi;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DriverUrlTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void singleUrlRoundTripsThroughText() {
        DriverUrl u = DriverUrl.single(b("10.0.0.1:4000"));
        assertFalse(u.isWide());
        DriverUrl back = DriverUrl.parse(u.toText());
        assertEquals(u, back);
        assertArrayEquals(b("10.0.0.1:4000"), back.first());
        assertTrue(u.toText().matches("[A-Za-z0-9_-]+"), "text form is safe for env and PMI: " + u.toText());
    }

    @Test
    void wideUrlPacksSeveralIncludingBinaryAndEmpty() {
        byte[] bin = {0, (byte) 0xff, 'W', 'S'};
        DriverUrl u = DriverUrl.wide(List.of(b("eth0"), bin, new byte[0]));
        assertTrue(u.isWide());
        List<byte[]> parts = DriverUrl.parse(u.toText()).parts();
        assertEquals(3, parts.size());
        assertArrayEquals(bin, parts.get(1));
        assertEquals(0, parts.get(2).length);
        assertArrayEquals(b("eth0"), u.first());
    }

    @Test
    void malformedEncodingsAreRejectedWithAReason() {
        assertThrows(IllegalArgumentException.class, () -> DriverUrl.decode(new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> DriverUrl.decode(new byte[] {'X', 1}));
        assertThrows(IllegalArgumentException.class, () -> DriverUrl.decode(new byte[] {'W', 0}));
        assertThrows(IllegalArgumentException.class, () -> DriverUrl.decode(new byte[] {'W', 0, 1, 0, 0, 0, 9, 1}));
        assertThrows(IllegalArgumentException.class, () -> DriverUrl.decode(new byte[] {'W', 0, 1, 0, 0, 0, 1, 1, 2}));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DriverUrl.parse("!!!"));
        assertTrue(e.getMessage().contains("!!!"));
        assertThrows(IllegalArgumentException.class, () -> DriverUrl.wide(List.of()));
    }
}
