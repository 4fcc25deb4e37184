package dev.ferry.spi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ContextLifecycleTest {
    @Test
    void enforcesSeed000sOrder() {
        ContextLifecycle<String> life = new ContextLifecycle<>("test context", String[]::new);
        assertThrows(IllegalStateException.class, life::beginInit, "init before properties");
        assertThrows(IllegalStateException.class, () -> life.add(() -> "x"), "an instance before init");
        life.beginProperties();
        assertThrows(IllegalStateException.class, life::beginProperties, "properties twice");
        life.beginInit();
        assertThrows(IllegalStateException.class, () -> life.requireInitialized("allocate()"), "init not finished");
        life.initialized();
        assertThrows(IllegalStateException.class, life::beginInit, "init twice");
        assertEquals("a", life.add(() -> "a"));
        String[] before = life.instances();
        life.add(() -> "b");
        assertArrayEquals(new String[] {"a"}, before, "copy on write: an array handed out never changes");
        assertArrayEquals(new String[] {"a", "b"}, life.instances());
    }

    @Test
    void closeIsOnceAndEverythingAfterItFails() {
        ContextLifecycle<String> life = new ContextLifecycle<>("test context", String[]::new);
        life.beginProperties();
        life.beginInit();
        life.initialized();
        life.add(() -> "a");
        String[] all = life.close();
        assertArrayEquals(new String[] {"a"}, all);
        assertTrue(life.isClosed());
        assertNull(life.close(), "a second close has nothing to do");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> life.add(() -> "b"));
        assertEquals("test context is closed", e.getMessage());
        assertThrows(IllegalStateException.class, life::beginProperties);
        assertThrows(IllegalStateException.class, life::checkOpen);
        assertSame(all, life.instances());
    }

    @Test
    void nextReadyServesRoundRobinStartingAfterTheLastServed() {
        ContextLifecycle<String> life = new ContextLifecycle<>("test context", String[]::new);
        life.beginProperties();
        life.beginInit();
        life.initialized();
        assertNull(life.nextReady(s -> true), "no instances");
        life.add(() -> "a");
        life.add(() -> "b");
        life.add(() -> "c");
        assertEquals("a", life.nextReady(s -> true));
        assertEquals("b", life.nextReady(s -> true), "the next scan starts after the one served");
        assertEquals("c", life.nextReady(s -> true));
        assertEquals("a", life.nextReady(s -> true), "wraps around");
        assertEquals("c", life.nextReady(s -> s.equals("c")), "skips those not ready");
        assertEquals("a", life.nextReady(s -> !s.equals("b")), "after c comes a");
        assertNull(life.nextReady(s -> false));
    }
}
