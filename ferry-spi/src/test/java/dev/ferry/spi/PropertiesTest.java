package dev.ferry.spi;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PropertiesTest {
    @Test
    void defaultsAreSeed000ZeroedCapabilities() {
        Capabilities c = Capabilities.builder().maxPacketSize(1).transport(Transport.REMOTE).build();
        assertFalse(c.supportsData() || c.supportsBufSend() || c.supportsBufRecv() || c.supportsIovec());
        assertEquals(1, c.maxIovecSegments());
    }

    @Test
    void incoherentCapabilitiesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Capabilities.builder().transport(Transport.LOCAL).build(), "no max size");
        assertThrows(IllegalArgumentException.class, () -> Capabilities.builder().maxPacketSize(10).transport(Transport.LOCAL).supportsBufSend(true).build());
        assertThrows(IllegalArgumentException.class, () -> Capabilities.builder().maxPacketSize(10).transport(Transport.LOCAL).supportsWaitAny(true).build());
        assertThrows(IllegalArgumentException.class, () -> Capabilities.builder().maxPacketSize(10).transport(Transport.LOCAL).maxIovecSegments(4).build());
        assertThrows(IllegalArgumentException.class, () -> Capabilities.builder().maxPacketSize(10).build());
        assertThrows(IllegalArgumentException.class, () -> new Profile(0, 1, CpuSet.all()));
    }

    @Test
    void cpuSetsParseAndPrintCpulists() {
        CpuSet s = CpuSet.parse("0-3, 8,10-11");
        assertEquals(7, s.size());
        assertTrue(s.contains(8));
        assertFalse(s.contains(9));
        assertEquals("0-3,8,10-11", s.toString());
        assertEquals(CpuSet.parse("0,1,2,3,8,10,11"), s);
        assertEquals("", CpuSet.parse("").toString());
        assertThrows(IllegalArgumentException.class, () -> CpuSet.parse("3-1"));
        assertThrows(IllegalArgumentException.class, () -> CpuSet.parse("a"));
        assertTrue(CpuSet.all().size() >= 1);
    }

    @Test
    void hintsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> new Hints(0, 0, true, Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new Hints(2, 2, true, Map.of()));
        assertEquals("x", new Hints(1, 0, false, Map.of(Hints.JOB_ID, "x")).attribute(Hints.JOB_ID, "y"));
    }

    @Test
    void settingsReadPropertyOverEnvironment() {
        Setting s = new Setting("FERRY_TEST_ONLY_SETTING", "5", "a setting for this test");
        assertEquals("ferry.test.only.setting", s.propertyName());
        assertEquals("5", s.value());
        assertEquals("default", s.source());
        System.setProperty(s.propertyName(), "7");
        try {
            assertEquals(7, s.longValue());
            assertEquals("property", s.source());
            System.setProperty(s.propertyName(), "seven");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, s::longValue);
            assertTrue(e.getMessage().contains("FERRY_TEST_ONLY_SETTING") && e.getMessage().contains("seven"));
        } finally {
            System.clearProperty(s.propertyName());
        }
        assertThrows(IllegalArgumentException.class, () -> new Setting("ferry_lower", null, "x"));
    }
}
