package dev.ferry.spi;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProgressLockTest {
    private static final int ROUNDS = 200_000;
    private long shared; // plain: only the lock keeps the increments from being lost

    @Test
    void threadsExcludeEachOther() throws Exception {
        ProgressLock lock = new ProgressLock();
        Runnable work = () -> {
            for (int i = 0; i < ROUNDS; i++) {
                lock.lock();
                try {
                    shared++;
                } finally {
                    lock.unlock();
                }
            }
        };
        Thread a = Thread.ofPlatform().start(work);
        Thread b = Thread.ofPlatform().start(work);
        work.run();
        a.join(TimeUnit.SECONDS.toMillis(60));
        b.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(a.isAlive() || b.isAlive(), "a thread still runs after 60 s");
        lock.lock();
        try {
            assertEquals(3L * ROUNDS, shared);
        } finally {
            lock.unlock();
        }
    }

    @Test
    void theOwnerTakesItAgainAndGivesItBackAsOftenAsItTookIt() throws Exception {
        ProgressLock lock = new ProgressLock();
        lock.lock();
        lock.lock();
        lock.unlock();
        assertTrue(lock.isHeldByCurrentThread(), "one unlock of two locks gave it away");
        boolean[] got = new boolean[1];
        CountDownLatch tried = new CountDownLatch(1);
        Thread other = Thread.ofPlatform().start(() -> {
            tried.countDown();
            lock.lock();
            got[0] = true;
            lock.unlock();
        });
        assertTrue(tried.await(60, TimeUnit.SECONDS));
        lock.unlock();
        other.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(other.isAlive(), "the other thread did not get the lock within 60 s of its release");
        assertTrue(got[0]);
        assertFalse(lock.isHeldByCurrentThread());
    }

    @Test
    void onlyTheOwnerMayGiveItBack() throws Exception {
        ProgressLock lock = new ProgressLock();
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
        lock.lock();
        Throwable[] thrown = new Throwable[1];
        Thread other = Thread.ofPlatform().start(() -> {
            try {
                lock.unlock();
            } catch (Throwable t) {
                thrown[0] = t;
            }
        });
        other.join(TimeUnit.SECONDS.toMillis(60));
        assertTrue(thrown[0] instanceof IllegalMonitorStateException, "a non-owner's unlock answered " + thrown[0]);
        assertTrue(lock.isHeldByCurrentThread());
        lock.unlock();
    }

    @Test
    void anInterruptedThreadStillGetsItOnceFree() throws Exception {
        ProgressLock lock = new ProgressLock();
        lock.lock();
        boolean[] got = new boolean[1];
        Thread other = Thread.ofPlatform().start(() -> {
            Thread.currentThread().interrupt();
            lock.lock();
            got[0] = Thread.currentThread().isInterrupted(); // the interrupt is kept for the caller
            lock.unlock();
        });
        // let it reach its yielding phase while the lock is held, then give the lock back
        while (other.getState() == Thread.State.NEW) {
            Thread.onSpinWait();
        }
        lock.unlock();
        other.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(other.isAlive(), "an interrupted thread did not get the free lock within 60 s");
        assertTrue(got[0], "the lock cleared the thread's interrupt");
    }

    @Test
    void aTimedTryGivesUpWhileAnotherHoldsItAndSucceedsOnceFree() throws Exception {
        ProgressLock lock = new ProgressLock();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = Thread.ofPlatform().start(() -> {
            lock.lock();
            held.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        });
        assertTrue(held.await(60, TimeUnit.SECONDS));
        assertFalse(lock.tryLock(), "an untimed try took a held lock");
        long start = System.nanoTime();
        assertFalse(lock.tryLock(TimeUnit.MILLISECONDS.toNanos(2)), "a timed try took a held lock");
        long waited = System.nanoTime() - start;
        assertTrue(waited >= TimeUnit.MILLISECONDS.toNanos(2), "gave up after " + waited + " ns, before its 2 ms");
        release.countDown();
        holder.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(holder.isAlive());
        assertTrue(lock.tryLock(TimeUnit.SECONDS.toNanos(60)), "a free lock was not taken");
        lock.unlock();
        assertFalse(lock.isHeldByCurrentThread());
    }
}
