package dev.ferry.core.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Which thread holds an engine's thread of control: in caller mode whichever caller took it (any
 * thread may call, MPI_THREAD_MULTIPLE; passes, sends and receives run one at a time), in thread
 * mode the progress thread for good. One word, taken by compare-and-set and released by a
 * release store; a holder that asks again (a handler that sends) is told it holds it already.
 *
 * <pre>{@code
 * boolean took = control.take(Thread.currentThread());
 * try { ... } finally { if (took) control.release(); }
 * }</pre>
 */
final class ControlOwner {
    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(ControlOwner.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile Thread owner;

    boolean heldBy(Thread t) {
        return owner == t;
    }

    /** Takes it if nobody holds it; false when someone does, {@code t} included. */
    boolean tryTake(Thread t) {
        return owner != t && OWNER.compareAndSet(this, null, t);
    }

    /** Takes it, waiting while another thread holds it; false when {@code t} holds it already. */
    boolean take(Thread t) {
        if (owner == t) {
            return false;
        }
        if (!OWNER.compareAndSet(this, null, t)) {
            awaitFree(t); // apart: every send takes it, and the fast path stays small enough to inline
        }
        return true;
    }

    /** Waits, idling, until {@code t} takes it from whoever holds it now. */
    private void awaitFree(Thread t) {
        long start = System.nanoTime(), now = start;
        for (int round = 0; !OWNER.compareAndSet(this, null, t); round++) {
            WAIT.idle(now - start);
            if (WAIT.clockDue(round, now - start)) {
                now = System.nanoTime();
            }
        }
    }

    /** The holder is in a pass, a microsecond or so unless descheduled: a short spin, then yields. */
    private static final dev.ferry.spi.IdleStrategy WAIT = dev.ferry.spi.IdleStrategy.DEFAULT.withSpin(5_000).withYieldUntil(10_000_000);

    void release() {
        OWNER.setRelease(this, null);
    }

    /** The progress thread holds it from now on. */
    void holdForGood(Thread t) {
        OWNER.setRelease(this, t);
    }
}
