package dev.ferry.examples;

import dev.ferry.Comm;
import dev.ferry.Ferry;

/**
 * A token goes around the ranks ROUNDS times (default 100), each rank adding one: rank 0 prints
 * the final count and the time per hop. Every rank but the token's holder waits in a blocking
 * receive, which sleeps once it has waited a while, so a ring of more ranks than cores still
 * turns.
 *
 * <pre>
 *   bin/ferry run -n 8 --example ring 1000
 * </pre>
 */
public final class Ring {
    private Ring() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        try (Ferry ferry = Ferry.init()) {
            Comm world = ferry.world();
            int n = world.size(), rank = world.rank();
            if (n == 1) {
                System.out.println("ring: one rank, nothing to pass");
                return;
            }
            int next = (rank + 1) % n, prev = (rank + n - 1) % n;
            long[] token = new long[1];
            long start = System.nanoTime();
            for (int r = 0; r < rounds; r++) {
                if (rank == 0) {
                    world.send(token, 0, 1, next, 0);
                    world.recv(token, 0, 1, prev, 0);
                } else {
                    world.recv(token, 0, 1, prev, 0);
                    token[0]++;
                    world.send(token, 0, 1, next, 0);
                }
            }
            if (rank == 0) {
                double us = (System.nanoTime() - start) / 1e3 / ((double) rounds * n);
                System.out.printf("ring: %d rounds of %d ranks, token %d (expected %d), %.2f us per hop%n",
                        rounds, n, token[0], (long) rounds * (n - 1), us);
            }
        }
    }
}
