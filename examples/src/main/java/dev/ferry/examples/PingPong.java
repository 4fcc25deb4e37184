package dev.ferry.examples;

import dev.ferry.Comm;
import dev.ferry.Ferry;

/**
 * Ranks pair up (0 with 1, 2 with 3, ...) and bounce a message of SIZE bytes (default 8)
 * ROUNDS times (default 10 000); each pair's lower rank prints the round trip time.
 *
 * <pre>
 *   bin/ferry run -n 8 --example pingpong 10000 8
 * </pre>
 */
public final class PingPong {
    private PingPong() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        try (Ferry ferry = Ferry.init()) {
            Comm world = ferry.world();
            int rank = world.rank();
            int partner = rank ^ 1;
            if (partner >= world.size()) {
                System.out.println("pingpong: rank " + rank + " has no partner");
                return;
            }
            byte[] buf = new byte[size];
            long start = System.nanoTime();
            for (int r = 0; r < rounds; r++) {
                if (rank < partner) {
                    buf[0] = (byte) r;
                    world.send(buf, 0, size, partner, 1);
                    world.recv(buf, 0, size, partner, 1);
                    if (buf[0] != (byte) (r + 1)) {
                        throw new IllegalStateException("round " + r + ": got " + buf[0]);
                    }
                } else {
                    world.recv(buf, 0, size, partner, 1);
                    buf[0]++;
                    world.send(buf, 0, size, partner, 1);
                }
            }
            if (rank < partner) {
                System.out.printf("pingpong %d-%d: %d rounds of %d bytes, %.2f us per round trip%n",
                        rank, partner, rounds, size, (System.nanoTime() - start) / 1e3 / rounds);
            }
        }
    }
}
