package dev.ferry.examples;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.Op;
import dev.ferry.Window;

import java.util.Arrays;

/**
 * What a passive-target epoch costs: rank 0 locks rank 1's window ({@code EXCLUSIVE} or
 * {@code SHARED}), adds 1 to a counter there and unlocks, {@code N} times a round; it prints the
 * median time of a cycle over the rounds, and rank 1 checks the count.
 *
 * <pre>
 *   bin/ferry run -n 2 --ranks-per-node 2 --example lock-cycle EXCLUSIVE 2000 11
 * </pre>
 */
public final class LockCycle {
    private LockCycle() {
    }

    public static void main(String[] args) {
        Window.LockType type = Window.LockType.valueOf(args.length > 0 ? args[0] : "EXCLUSIVE");
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 2000, rounds = args.length > 2 ? Integer.parseInt(args[2]) : 11;
        try (Ferry ferry = Ferry.init(); Window win = Window.allocate(ferry.world(), 8, 8)) {
            Comm w = ferry.world();
            if (w.size() != 2) {
                throw new IllegalArgumentException("lock-cycle runs on 2 ranks, not " + w.size());
            }
            long[] one = {1};
            double[] us = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                w.barrier();
                long t0 = System.nanoTime();
                if (w.rank() == 0) {
                    for (int i = 0; i < n; i++) {
                        win.lock(type, 1);
                        win.accumulate(one, 0, 1, Datatype.LONG, 1, 0, Op.SUM);
                        win.unlock(1);
                    }
                }
                us[r] = (System.nanoTime() - t0) / 1000.0 / n;
                w.barrier();
            }
            if (w.rank() == 1) {
                long count = win.memory().get(java.lang.foreign.ValueLayout.JAVA_LONG, 0);
                if (count != (long) n * rounds) {
                    throw new IllegalStateException("the counter holds " + count + ", not " + (long) n * rounds);
                }
            } else {
                Arrays.sort(us);
                System.out.printf("lock-cycle %s: lock, 8-byte accumulate, unlock: median %.3f us (%d rounds of %d)%n",
                        type, us[rounds / 2], rounds, n);
            }
        }
    }
}
