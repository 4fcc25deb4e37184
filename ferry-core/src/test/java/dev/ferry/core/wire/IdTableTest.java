package dev.ferry.core.wire;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IdTableTest {
    @Test
    void idsAreSequentialAndFindTheirValues() {
        IdTable<String> t = new IdTable<>(4);
        assertEquals(1, t.add("a"));
        assertEquals(2, t.add("b"));
        assertEquals("a", t.get(1));
        assertEquals("b", t.remove(2));
        assertNull(t.get(2), "removed");
        assertEquals(1, t.size());
    }

    @Test
    void unknownStaleAndNonsenseIdsFindNothing() {
        IdTable<String> t = new IdTable<>(4);
        long a = t.add("a");
        t.remove(a);
        for (int i = 0; i < 3; i++) {
            t.add("x" + i);
        }
        long e = t.add("e"); // lands in a's old slot (4 slots): a stale id must not find it
        assertEquals(a & 3, e & 3);
        assertNull(t.get(a));
        assertNull(t.remove(a));
        assertNull(t.get(0));
        assertNull(t.get(-5));
        assertNull(t.get(Long.MAX_VALUE));
        assertEquals("e", t.get(e));
    }

    @Test
    void aLiveOldIdMakesTheTableGrowAndEverythingStaysFindable() {
        // one request left pending while thousands come and go (an unexpected rendezvous never received)
        IdTable<Long> t = new IdTable<>(2);
        long old = t.add(-1L);
        Map<Long, Long> live = new HashMap<>();
        Random r = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            long v = r.nextLong();
            live.put(t.add(v), v);
            if (live.size() > 50 || r.nextBoolean()) {
                Long k = live.keySet().iterator().next();
                assertEquals(live.remove(k), t.remove(k));
            }
        }
        assertEquals(-1L, t.get(old));
        for (Map.Entry<Long, Long> e : live.entrySet()) {
            assertEquals(e.getValue(), t.get(e.getKey()));
        }
        assertEquals(live.size() + 1, t.size());
        List<Long> drained = new ArrayList<>();
        t.drain(drained::add);
        assertEquals(live.size() + 1, drained.size());
        assertTrue(t.isEmpty());
        assertNull(t.get(old));
    }
}
