package dev.ferry.core.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandQueueTest {
    @Test
    void fifoAndBounded() {
        CommandQueue q = new CommandQueue(4);
        for (int i = 0; i < 4; i++) {
            assertTrue(q.offer(i));
        }
        assertFalse(q.offer(4), "full");
        assertEquals(0, q.poll());
        assertTrue(q.offer(4));
        for (int i = 1; i <= 4; i++) {
            assertEquals(i, q.poll());
        }
        assertNull(q.poll());
        assertThrows(IllegalArgumentException.class, () -> new CommandQueue(6));
    }

    @Test
    void manyProducersLoseNothingAndKeepEachOnesOrder() throws Exception {
        CommandQueue q = new CommandQueue(64);
        int producers = 4, each = 100_000;
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int id = p;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < each; i++) {
                    long v = (long) id << 32 | i;
                    while (!q.offer(v)) {
                        Thread.onSpinWait();
                    }
                }
            }));
        }
        int[] next = new int[producers];
        long end = System.nanoTime() + 60_000_000_000L;
        for (int got = 0; got < producers * each; ) {
            Object o = q.poll();
            if (o == null) {
                assertTrue(System.nanoTime() < end, "producers stalled");
                Thread.onSpinWait();
                continue;
            }
            long v = (Long) o;
            int id = (int) (v >>> 32);
            assertEquals(next[id]++, (int) v, "order of producer " + id);
            got++;
        }
        for (Thread t : threads) {
            t.join();
        }
        assertNull(q.poll());
    }
}
