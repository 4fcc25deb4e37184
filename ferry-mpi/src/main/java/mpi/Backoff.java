package mpi;

import java.util.concurrent.locks.LockSupport;

/**
 * The wait of the few requests Ferry's own waits cannot take (an MPI.OBJECT receive whose message
 * is not yet seen, among others): spin, then yield, then sleep up to 1 ms, as the engine's idle
 * strategy does.
 */
final class Backoff {
    private int round;

    void idle() {
        round++;
        if (round < 100) {
            Thread.onSpinWait();
        } else if (round < 200) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(1_000_000L, 1_000L << Math.min(10, (round - 200) / 10)));
        }
    }
}
