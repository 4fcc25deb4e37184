package dev.ferry.examples;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.Op;
import dev.ferry.Window;

import java.lang.foreign.ValueLayout;

/**
 * A distributed counter with fetch-and-op on a window: rank 0 exposes one 64-bit counter; every
 * rank takes {@code N} tickets (default 1000) from it under a shared lock, each ticket the value
 * before its own increment, so no two ranks ever hold the same ticket. Rank 0 prints the final
 * count, which must be ranks x N. The window is in the node's shared arena: ranks on rank 0's
 * node add to it directly in its shared memory (an atomic add instruction, no message), the
 * others by message; rank 0 serves them without calling anything.
 *
 * <pre>
 *   bin/ferry run -n 4 --example counter [N]
 * </pre>
 */
public final class Counter {
    private Counter() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        try (Ferry ferry = Ferry.init()) {
            Comm world = ferry.world();
            int rank = world.rank(), size = world.size();
            try (Window counter = Window.allocate(world, rank == 0 ? 8 : 0, 8)) {
                long[] one = {1}, ticket = new long[1];
                long first = -1, last = -1;
                long[] ns = new long[n];
                counter.lock(Window.LockType.SHARED, 0);
                for (int i = 0; i < n; i++) {
                    long t0 = System.nanoTime();
                    counter.fetchAndOp(one, 0, ticket, 0, Datatype.LONG, 0, 0, Op.SUM);
                    counter.flush(0); // the ticket is here
                    ns[i] = System.nanoTime() - t0;
                    first = first < 0 ? ticket[0] : first;
                    last = ticket[0];
                }
                counter.unlock(0);
                java.util.Arrays.sort(ns);
                // the median: the first second or so of a JVM runs before the JIT compiled the path
                System.out.printf("rank %d: %d tickets, first %d, last %d, median %.2f us per fetch-and-op%n", rank, n, first, last,
                        ns[n / 2] / 1e3);
                world.barrier();
                if (rank == 0) {
                    long total = counter.memory().get(ValueLayout.JAVA_LONG, 0);
                    System.out.printf("counter = %d (%d ranks x %d)%s%n", total, size, n, total == (long) size * n ? "" : "  WRONG");
                    if (total != (long) size * n) {
                        throw new IllegalStateException("the counter is " + total + ", not " + (long) size * n);
                    }
                }
            }
        }
    }
}
