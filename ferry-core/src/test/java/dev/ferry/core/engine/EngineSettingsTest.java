package dev.ferry.core.engine;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EngineSettingsTest {
    @Test
    void railCountsParseAndRefuseNonsense() {
        assertEquals(Map.of(), EngineSettings.railCounts(null));
        assertEquals(Map.of("tcp", 2, "shm", 1), EngineSettings.railCounts("tcp:2, shm:1"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineSettings.railCounts("tcp"));
        assertTrue(e.getMessage().contains("FERRY_RAILS") && e.getMessage().contains("'tcp'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EngineSettings.railCounts("tcp:0"));
        assertThrows(IllegalArgumentException.class, () -> EngineSettings.railCounts("TCP:2"));
    }

    @Test
    void byteCountsTakeSuffixesAndNameTheSettingWhenWrong() {
        assertEquals(16384, EngineSettings.bytes(EngineSettings.EAGER_LIMIT, "16k", 0, 1 << 20));
        assertEquals(2 << 20, EngineSettings.bytes(EngineSettings.EAGER_LIMIT, "2m", 0, 4 << 20));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineSettings.bytes(EngineSettings.EAGER_LIMIT, "lots", 0, 1 << 20));
        assertTrue(e.getMessage().contains("FERRY_EAGER_LIMIT"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EngineSettings.bytes(EngineSettings.EAGER_LIMIT, "2m", 0, 1 << 20));
    }
}
