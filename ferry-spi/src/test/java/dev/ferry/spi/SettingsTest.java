package dev.ferry.spi;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SettingsTest {
    private static final Setting SIZE = new Setting("FERRY_SETTINGS_TEST_SIZE", "5", "a setting for this test");
    private static final Setting NAME = new Setting("FERRY_SETTINGS_TEST_NAME", null, "a setting without default");

    @Test
    void explicitValuesWinAndDefaultsFillTheRest() {
        Settings s = Settings.defaults().with(SIZE.name(), "9");
        assertEquals(9, s.longValue(SIZE));
        assertEquals("explicit", s.source(SIZE));
        assertNull(s.value(NAME));
        assertEquals("default", s.source(NAME));
        assertEquals(5, Settings.defaults().longValue(SIZE), "with() answers a new object");
        assertEquals(5, s.with(SIZE.name(), null).longValue(SIZE), "a null value removes the explicit one");
        assertEquals(Map.of(SIZE.name(), "9"), s.explicitValues());
    }

    @Test
    void defaultsNeverConsultTheEnvironment() {
        // PATH is set in every environment; under a FERRY_ name it would be read from the environment
        String anyVariable = System.getenv().keySet().stream().filter(k -> k.matches("FERRY_[A-Z0-9_]+")).findFirst().orElse(null);
        if (anyVariable != null) {
            assertNull(Settings.defaults().get(anyVariable));
            assertEquals(System.getenv(anyVariable), Settings.fromEnvironment().get(anyVariable));
        }
        assertTrue(!Settings.defaults().consultsEnvironment() && Settings.fromEnvironment().consultsEnvironment());
    }

    @Test
    void badNamesAndValuesAreNamed() {
        assertThrows(IllegalArgumentException.class, () -> Settings.defaults().with("EAGER_LIMIT", "1"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.defaults().with(SIZE.name(), "lots").longValue(SIZE));
        assertTrue(e.getMessage().contains("FERRY_SETTINGS_TEST_SIZE") && e.getMessage().contains("lots"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> Settings.defaults().longValue(NAME));
    }

    @Test
    void hintsCarryTheirSettings() {
        Settings s = Settings.defaults().with(SIZE.name(), "3");
        assertEquals(3, new Hints(2, 1, true, Map.of(), s).settings().longValue(SIZE));
        assertEquals(Settings.fromEnvironment(), new Hints(1, 0, true, Map.of()).settings());
    }
}
