package dev.ferry.examples;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.FerryStats;

import java.util.Arrays;

/**
 * Every rank exchanges a message with every other rank in turn (in step k, with rank + k and
 * rank - k), checking each, as many rounds as asked (default 1), then says what it holds ({@link Ferry#stats()}): its connections and
 * the bytes Ferry holds. Rank 0 prints the whole job's figures: bytes per rank (median and most),
 * and the shared memory of the busiest node (the pages of its channels, each counted once, its
 * shared queues, arenas and context files). Run it with a cap, or with fewer shm rings, to see the
 * memory flat:
 *
 * <pre>
 *   bin/ferry run -n 32 --ranks-per-node 8 --env FERRY_MAX_CONNECTIONS=4 --example pairs 65536
 *   bin/ferry run -n 32 --env FERRY_SHM_RINGS=2 --example pairs 65536 20
 * </pre>
 */
public final class Pairs {
    private Pairs() {
    }

    public static void main(String[] args) {
        int bytes = args.length > 0 ? Integer.parseInt(args[0]) : 65536;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        try (Ferry ferry = Ferry.init()) {
            Comm world = ferry.world();
            int n = world.size(), rank = world.rank();
            long[] out = new long[bytes / 8];
            long[] in = new long[bytes / 8];
            long bad = 0;
            for (int round = 0; round < rounds; round++) {
                for (int k = 1; k < n; k++) {
                    int to = (rank + k) % n, from = (rank - k + n) % n;
                    Arrays.fill(out, rank * 1_000_003L + to + round);
                    world.sendrecv(out, 0, out.length, Datatype.LONG, to, k, in, 0, in.length, Datatype.LONG, from, k);
                    for (long v : in) {
                        bad += v == from * 1_000_003L + rank + round ? 0 : 1;
                    }
                }
            }
            FerryStats s = ferry.stats();
            java.util.Map<String, Long> held = s.bytesHeld();
            // a channel is counted by both its ends, which are on this node: half of it is this rank's
            long shm = held.getOrDefault("shm channels", 0L) / 2 + held.getOrDefault("shm queue", 0L)
                    + held.getOrDefault("shm arena", 0L) + held.getOrDefault("shm context", 0L);
            long[] node = {0};
            try (Comm local = world.splitShared(rank)) { // the ranks of this node: their shm, summed
                local.allreduce(new long[] {shm}, 0, node, 0, 1, Datatype.LONG, dev.ferry.Op.SUM);
            }
            long[] mine = {s.bytesTotal(), node[0], s.connectionsOpen(), s.connectionsOpened(), s.closedIdle() + s.evicted(), bad};
            long[] all = new long[mine.length * n];
            world.allgather(mine, 0, mine.length, Datatype.LONG, all, 0, mine.length, Datatype.LONG);
            if (rank == 0) {
                long[] totals = new long[n];
                long opened = 0, closed = 0, open = 0, wrong = 0;
                for (int r = 0; r < n; r++) {
                    totals[r] = all[r * mine.length];
                    open += all[r * mine.length + 2];
                    opened += all[r * mine.length + 3];
                    closed += all[r * mine.length + 4];
                    wrong += all[r * mine.length + 5];
                }
                long shmNode = 0;
                for (int r = 0; r < n; r++) {
                    shmNode = Math.max(shmNode, all[r * mine.length + 1]);
                }
                long[] sorted = totals.clone();
                Arrays.sort(sorted);
                System.out.printf("pairs: %d ranks exchanged %d B with every other %d times, %d words wrong; per rank Ferry holds %d bytes (median), %d (most);"
                                + " shared memory of the busiest node %d bytes; connections open %d, opened %d, closed %d (all ranks)%n",
                        n, bytes, rounds, wrong, sorted[n / 2], sorted[n - 1], shmNode, open, opened, closed);
            }
        }
    }
}
