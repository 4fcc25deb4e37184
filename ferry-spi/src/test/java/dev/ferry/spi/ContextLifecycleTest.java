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

    /** An instance that only says whether it has something: what probe-any asks. */
    private static final class Stub implements DriverInstance {
        boolean ready;
        int closed;

        @Override
        public Status connectAsync(DriverUrl remote) {
            return Status.DONE;
        }

        @Override
        public Status sendPost(Packet packet) {
            return Status.DONE;
        }

        @Override
        public Status sendPoll(Packet packet) {
            return Status.DONE;
        }

        @Override
        public Status recvPoll(Packet packet) {
            return Status.NOT_YET;
        }
    }

    @Test
    void probeAnyCancelAnyAndCloseEachServeEveryDriver() {
        ContextLifecycle<Stub> life = new ContextLifecycle<>("stub context", Stub[]::new);
        life.beginProperties();
        life.beginInit();
        life.initialized();
        Stub a = life.add(Stub::new), b = life.add(Stub::new);
        InstanceRef ready = new InstanceRef();
        assertEquals(Status.NOT_YET, life.probeAny(ready, s -> s.ready));
        b.ready = true;
        assertEquals(Status.DONE, life.probeAny(ready, s -> s.ready));
        assertSame(b, ready.instance);
        a.ready = true;
        assertEquals(Status.DONE, life.probeAny(ready, s -> s.ready));
        assertSame(a, ready.instance, "round robin: the one after the last served");

        int[] woken = {0};
        assertTrue(!life.takeCancel() && !life.cancelPending());
        assertEquals(Status.DONE, life.cancelAny(() -> woken[0]++));
        assertEquals(1, woken[0]);
        assertTrue(life.cancelPending());
        assertTrue(life.takeCancel());
        assertTrue(!life.takeCancel(), "a cancel is taken once");

        assertTrue(life.closeEach(s -> s.closed++));
        assertEquals(1, a.closed);
        assertEquals(1, b.closed);
        assertTrue(!life.closeEach(s -> s.closed++), "closed once");
        assertEquals(1, a.closed);
        assertEquals(Status.CLOSED, life.probeAny(ready, s -> true));
        assertEquals(Status.CLOSED, life.cancelAny(() -> woken[0]++));
        assertEquals(1, woken[0]);
    }
}
