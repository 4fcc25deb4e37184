package dev.ferry.driver.shm;

import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Status;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/** What the shm driver's own tests share: a bounded wait, and two contexts of this JVM connected. */
final class ShmTesting {
    private ShmTesting() {
    }

    /** Polls {@code s} until it answers other than NOT_YET; fails after 30 s naming {@code what}. */
    static Status await(Supplier<Status> s, String what) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Status r;
        while ((r = s.get()) == Status.NOT_YET) {
            if (System.nanoTime() - end > 0) {
                fail(what + ": NOT_YET after 30 s");
            }
            Thread.onSpinWait();
        }
        return r;
    }

    /** Connects a to b; answers {a's instance, b's instance}. */
    static ShmInstance[] connect(ShmContext a, ShmContext b) throws Exception {
        ShmInstance ia = (ShmInstance) a.newInstance();
        ShmInstance ib = (ShmInstance) b.newInstance();
        assertEquals(Status.DONE, ia.connectAsync(DriverUrl.decode(b.urlBytes())));
        assertEquals(Status.DONE, ib.connectAsync(DriverUrl.decode(a.urlBytes())));
        CompletableFuture<Status> wb = CompletableFuture.supplyAsync(ib::connectWait);
        assertEquals(Status.DONE, ia.connectWait());
        assertEquals(Status.DONE, wb.get(30, TimeUnit.SECONDS));
        return new ShmInstance[] {ia, ib};
    }
}
