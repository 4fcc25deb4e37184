package dev.ferry.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A reentrant lock for code that is taken and given back on every poll of a hot loop: a driver
 * context whose calls may come from several threads, the library in caller mode (seed 003's
 * cli / sti). It is taken with one compare-and-set and given back with a release store.
 * {@code ReentrantLock} gives itself back with a volatile store, a full fence (10-20 ns on the
 * machines we measure on), and polling takes and gives back the lock once per look. Nobody is
 * parked on this lock waiting to be woken, so giving it back needs no fence. A thread that finds
 * it taken spins a little, then yields, then naps 20 us at a time and tries again, which bounds
 * how long it waits past the release. Uncontended use is the expected case; it is not fair.
 *
 * <pre>{@code
 * lock.lock();
 * try {
 *     ... progress ...
 * } finally {
 *     lock.unlock();
 * }
 * }</pre>
 */
public final class ProgressLock {
    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(ProgressLock.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A short spin (the holder is usually in one poll), yields, then naps of 20 us: bounds how long a waiter stays past the release. */
    private static final IdleStrategy WAIT = IdleStrategy.DEFAULT.withSpin(5_000).withYieldUntil(20_000).withMaxNap(20_000)
            .withSleep(IdleStrategy.park(20_000));

    private volatile Thread owner;
    /** Times the owner took it again inside its own hold; only the owner reads or writes it. */
    private int reentries;

    /** Takes the lock, waiting as long as it takes; the owner may take it again (reentrant). */
    public void lock() {
        if (!tryLock()) {
            acquire(Thread.currentThread(), Long.MAX_VALUE);
        }
    }

    /** Takes the lock if it is free (or already held by this thread) now, without waiting. */
    public boolean tryLock() {
        Thread me = Thread.currentThread();
        Thread o = owner;
        if (o == me) {
            reentries++;
            return true;
        }
        return o == null && OWNER.compareAndSet(this, null, me);
    }

    /** Takes the lock, waiting at most about {@code nanos}; false when it stayed taken. */
    public boolean tryLock(long nanos) {
        return tryLock() || acquire(Thread.currentThread(), nanos);
    }

    private boolean acquire(Thread me, long nanos) {
        long start = System.nanoTime(), now = start;
        for (int round = 0; ; round++) {
            if (owner == null && OWNER.compareAndSet(this, null, me)) {
                return true;
            }
            long waited = now - start;
            if (me.isInterrupted() && WAIT.parks(waited)) {
                Thread.yield(); // an interrupted thread would not nap: park returns at once
            } else {
                WAIT.idle(waited, nanos == Long.MAX_VALUE ? Long.MAX_VALUE : nanos - waited);
            }
            if (WAIT.clockDue(round, waited)) {
                now = System.nanoTime();
                if (nanos != Long.MAX_VALUE && now - start >= nanos) {
                    return owner == null && OWNER.compareAndSet(this, null, me);
                }
            }
        }
    }

    /** Gives the lock back (once per time it was taken); IllegalMonitorStateException unless this thread holds it. */
    public void unlock() {
        if (owner != Thread.currentThread()) {
            throw new IllegalMonitorStateException("the lock is not held by " + Thread.currentThread().getName());
        }
        if (reentries > 0) {
            reentries--;
            return;
        }
        OWNER.setRelease(this, (Thread) null); // the holder's writes happen-before the next holder's compare-and-set
    }

    public boolean isHeldByCurrentThread() {
        return owner == Thread.currentThread();
    }
}
