package dev.ferry.portals;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CounterReachedTest {
    @Test
    void holdsOnceTheSuccessCountReachesTheTestOrAFailureOrFreeing() {
        Counter c = new Counter(null);
        CounterReached w = CounterReached.take(c, 2);
        try {
            assertFalse(w.getAsBoolean());
            c.counted = 2;
            assertTrue(w.getAsBoolean());
            c.counted = 0;
            c.failure = 1;
            assertTrue(w.getAsBoolean(), "a failure ends the wait");
            c.failure = 0;
            c.freed = true;
            assertTrue(w.getAsBoolean(), "freeing ends the wait");
        } finally {
            w.release();
        }
    }

    @Test
    void oneObjectPerThreadReusedAndAWaitInsideAWaitGetsItsOwn() {
        Counter c = new Counter(null);
        CounterReached outer = CounterReached.take(c, 1);
        CounterReached inner = CounterReached.take(c, 5);
        assertNotSame(outer, inner);
        c.counted = 1;
        assertTrue(outer.getAsBoolean());
        assertFalse(inner.getAsBoolean(), "each keeps its own test");
        inner.release();
        outer.release();
        CounterReached again = CounterReached.take(c, 1);
        assertSame(outer, again, "released: the thread's object is reused");
        again.release();
    }
}
