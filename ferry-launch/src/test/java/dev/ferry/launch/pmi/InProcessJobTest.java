package dev.ferry.launch.pmi;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InProcessJobTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    @Test
    void ranksShareValuesAfterAFence() throws Exception {
        AtomicInteger seen = new AtomicInteger();
        InProcessJob.run(4, BOUND, boot -> {
            assertEquals(4, boot.size());
            assertEquals("in-process", boot.protocol());
            for (int round = 0; round < 50; round++) { // fences of successive generations
                boot.put("k." + round + "." + boot.rank(), "v" + boot.rank());
                boot.fence();
                for (int r = 0; r < boot.size(); r++) {
                    assertEquals("v" + r, boot.get("k." + round + "." + r));
                }
            }
            seen.incrementAndGet();
        });
        assertEquals(4, seen.get());
    }

    @Test
    void aRankThatThrowsFailsTheFencesOfTheOthersAndIsNamed() {
        InProcessJob.RankFailedException x = assertThrows(InProcessJob.RankFailedException.class, () -> InProcessJob.run(3, BOUND, boot -> {
            if (boot.rank() == 2) {
                throw new IllegalStateException("rank 2 on purpose");
            }
            boot.fence(); // rank 2 never comes: this fails rather than waits
        }));
        assertEquals(2, x.rank());
        assertEquals("rank 2 on purpose", x.getCause().getMessage());
        assertEquals(2, x.getSuppressed().length, "the two fences that failed");
        for (Throwable s : x.getSuppressed()) {
            assertInstanceOf(PmiException.class, s.getCause());
            assertTrue(s.getCause().getMessage().contains("rank 2 failed"), s.getCause().getMessage());
        }
    }

    /**
     * A rank whose code returns leaves, as an exited process: the fence the others wait in (or
     * are about to) completes without it, and so do the later ones.
     */
    @Test
    void aRankThatReturnedIsNotWaitedForAtLaterFences() throws Exception {
        CountDownLatch waiting = new CountDownLatch(2);
        AtomicInteger fenced = new AtomicInteger();
        InProcessJob.run(3, BOUND, boot -> {
            if (boot.rank() == 2) {
                assertTrue(waiting.await(BOUND.toSeconds(), TimeUnit.SECONDS), "the others reached their fence");
                return; // leaves while the others wait in the fence
            }
            waiting.countDown();
            boot.fence();
            boot.put("after." + boot.rank(), "x");
            boot.fence();
            assertEquals("x", boot.get("after." + (1 - boot.rank())));
            fenced.incrementAndGet();
        });
        assertEquals(2, fenced.get());
    }

    @Test
    void anAbortEndsTheRankNotTheJvm() {
        InProcessJob.RankFailedException x = assertThrows(InProcessJob.RankFailedException.class,
                () -> InProcessJob.run(1, BOUND, boot -> boot.abort(7, "enough")));
        InProcessJob.JobAbortedException a = assertInstanceOf(InProcessJob.JobAbortedException.class, x.getCause());
        assertEquals(7, a.exitCode());
    }

    @Test
    void aRankStillRunningAfterTheBoundIsATimeoutNamingIt() {
        TimeoutException t = assertThrows(TimeoutException.class, () -> InProcessJob.run(2, Duration.ofMillis(300), boot -> {
            if (boot.rank() == 1) {
                new java.util.concurrent.CountDownLatch(1).await(); // until interrupted
            }
        }));
        assertTrue(t.getMessage().contains("ferry-rank-1"), t.getMessage());
        assertTrue(t.getMessage().contains("ferry-rank-1:\n    at ") && t.getMessage().contains("CountDownLatch.await"), "where it waits: " + t.getMessage());
    }
}
