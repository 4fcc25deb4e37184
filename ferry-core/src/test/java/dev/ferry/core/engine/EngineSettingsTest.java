package dev.ferry.core.engine;

import dev.ferry.core.config.EngineSettings;
import dev.ferry.spi.Settings;
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

    @Test
    void theEagerPoolIsOffOrABytecount() {
        assertEquals(0, EngineSettings.eagerPool(Settings.defaults()));
        assertEquals(0, EngineSettings.eagerPool(Settings.defaults().with("FERRY_EAGER_POOL", "off")));
        assertEquals(16 << 20, EngineSettings.eagerPool(Settings.defaults().with("FERRY_EAGER_POOL", "16m")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineSettings.eagerPool(Settings.defaults().with("FERRY_EAGER_POOL", "plenty")));
        assertTrue(e.getMessage().contains("FERRY_EAGER_POOL") && e.getMessage().contains("plenty"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EngineSettings.eagerPool(Settings.defaults().with("FERRY_EAGER_POOL", "1k")));
    }

    @Test
    void aPoolGrantsWhatItHasLeft() {
        dev.ferry.core.gate.EagerPool pool = new dev.ferry.core.gate.EagerPool(100_000);
        assertEquals(60_000, pool.grant(60_000));
        assertEquals(40_000, pool.grant(60_000), "the rest");
        assertEquals(0, pool.grant(1), "spent");
        assertEquals(100_000, pool.granted());
        assertThrows(IllegalArgumentException.class, () -> new dev.ferry.core.gate.EagerPool(0));
    }

    @Test
    void idleCloseIsADurationOrOffAndTheCapANumberOrOff() {
        assertEquals(0, EngineSettings.idleCloseNanos(Settings.defaults()));
        assertEquals(5_000_000L, EngineSettings.idleCloseNanos(Settings.defaults().with("FERRY_IDLE_CLOSE", "5ms")));
        assertEquals(2_000_000_000L, EngineSettings.idleCloseNanos(Settings.defaults().with("FERRY_IDLE_CLOSE", "2s")));
        assertEquals(60_000_000_000L, EngineSettings.idleCloseNanos(Settings.defaults().with("FERRY_IDLE_CLOSE", "1m")));
        assertEquals(500_000L, EngineSettings.idleCloseNanos(Settings.defaults().with("FERRY_IDLE_CLOSE", "500us")));
        assertEquals(0, EngineSettings.idleCloseNanos(Settings.defaults().with("FERRY_IDLE_CLOSE", "off")));
        for (String bad : new String[] {"5", "0ms", "fast", "-1s", "5 ms"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> EngineSettings.idleCloseNanos(Settings.defaults().with("FERRY_IDLE_CLOSE", bad)), bad);
            assertTrue(e.getMessage().startsWith("FERRY_IDLE_CLOSE must be a duration like 5ms") && e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
        assertEquals(0, EngineSettings.maxConnections(Settings.defaults()));
        assertEquals(2, EngineSettings.maxConnections(Settings.defaults().with("FERRY_MAX_CONNECTIONS", "2")));
        for (String bad : new String[] {"0", "two", "-3"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> EngineSettings.maxConnections(Settings.defaults().with("FERRY_MAX_CONNECTIONS", bad)), bad);
            assertTrue(e.getMessage().startsWith("FERRY_MAX_CONNECTIONS must be a number of connections"), e.getMessage());
        }
    }

    @Test
    void onOffSettingsTakeOnlyOnAndOff() {
        for (String bad : new String[] {"1", "yes", "true", "64k"}) {
            Settings s = Settings.defaults().with(EngineSettings.RNDV_PULL.name(), bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineSettings.rendezvousPull(s), bad);
            assertEquals("FERRY_RNDV_PULL must be on or off, not '" + bad + "'", e.getMessage());
        }
        assertEquals(false, EngineSettings.rendezvousPull(Settings.defaults().with(EngineSettings.RNDV_PULL.name(), "off")));
        assertEquals(true, EngineSettings.rendezvousPull(Settings.defaults()));
    }

    @Test
    void anEagerLimitTheCreditsNeverAllowIsAnError() {
        EngineSettings.check(-1, 4096); // the rails' own limits: clamped to the credits by each gate
        EngineSettings.check(4080, 4096);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineSettings.check(4081, 4096));
        assertTrue(e.getMessage().contains("FERRY_EAGER_LIMIT") && e.getMessage().contains("FERRY_EAGER_CREDITS of at least 4104"), e.getMessage());
    }
}
