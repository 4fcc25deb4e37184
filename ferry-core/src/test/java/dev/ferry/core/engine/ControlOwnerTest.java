package dev.ferry.core.engine;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

class ControlOwnerTest {
    @Test
    void aHolderIsToldItHoldsItAndOthersWait() throws Exception {
        ControlOwner c = new ControlOwner();
        Thread me = Thread.currentThread();
        assertTrue(c.take(me));
        assertFalse(c.take(me), "taken again by its holder: reentrant, nothing to release");
        assertFalse(c.tryTake(me));
        assertTrue(c.heldBy(me));
        CompletableFuture<Boolean> other = CompletableFuture.supplyAsync(() -> c.tryTake(Thread.currentThread()));
        assertFalse(other.get(10, TimeUnit.SECONDS), "another thread cannot take it while held");
        c.release();
        assertTrue(CompletableFuture.supplyAsync(() -> {
            boolean took = c.tryTake(Thread.currentThread());
            c.release();
            return took;
        }).get(10, TimeUnit.SECONDS));
    }

    @Test
    void twoThreadsNeverHoldItAtOnce() throws Exception {
        ControlOwner c = new ControlOwner();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        Runnable work = () -> {
            for (int i = 0; i < 20_000; i++) {
                boolean took = c.take(Thread.currentThread());
                if (inside.incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
                inside.decrementAndGet();
                if (took) {
                    c.release();
                }
            }
        };
        CompletableFuture<Void> a = CompletableFuture.runAsync(work), b = CompletableFuture.runAsync(work);
        a.get(60, TimeUnit.SECONDS);
        b.get(60, TimeUnit.SECONDS);
        assertEquals(0, overlaps.get());
    }
}
