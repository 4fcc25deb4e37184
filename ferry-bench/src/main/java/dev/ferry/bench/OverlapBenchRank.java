package dev.ferry.bench;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.Request;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * One rank of {@code ferry bench overlap} (two ranks; OSU's overlap measure): rank 0 posts a
 * receive of the size, tells rank 1 to send, and waits; that is the transfer alone. Then the same
 * with a computation as long as the transfer alone between the post and the wait, with no Ferry
 * call in it: the transfer hidden behind it is {@code overlap_pct = 100 * (1 - (total - compute)
 * / alone)}, 100 when the wait finds the data there, 0 when nothing moved while the rank
 * computed. Both phases alternate in batches; rank 0 prints the medians.
 */
public final class OverlapBenchRank {
    private static final int BATCHES = 10;
    private static final int GO = 1, DATA = 2;

    private final Comm w;
    private final int r;
    /** Keeps the computation from being optimised away. */
    static volatile double sink;

    private OverlapBenchRank(Comm w) {
        this.w = w;
        this.r = w.rank();
    }

    public static void main(String[] args) throws Exception {
        BenchOptions o = BenchOptions.parse(args[0], List.of(args).subList(2, args.length));
        String impl = args[1];
        try (Ferry ferry = Ferry.init()) {
            if (ferry.size() != 2) {
                throw new IllegalStateException("overlap runs on 2 ranks, not " + ferry.size());
            }
            if (o.buffers().equals("arena") && !o.driver().equals("shm")) {
                Comm node = ferry.world().splitShared(0);
                if (node.size() > 1) {
                    throw new IllegalStateException("--buffers arena over " + o.driver() + " needs the two ranks on two nodes (FERRY_RANKS_PER_NODE=1,"
                            + " or two hosts): on one node the arena's shm driver would carry them");
                }
                node.free();
            }
            new OverlapBenchRank(ferry.world()).measure(o, impl, ferry);
        }
    }

    private void measure(BenchOptions o, String impl, Ferry ferry) {
        for (long size : o.sizes()) {
            // --buffers arena: the shared arena (which the node agent maps), else ordinary off-heap memory
            MemorySegment buf = o.buffers().equals("arena") ? ferry.allocate(Math.max(1, size)) : Arena.global().allocate(Math.max(1, size), 4096);
            int n = (int) Math.max(BATCHES, Math.min(o.iterationsFor(size), 400));
            int perBatch = Math.max(1, n / BATCHES);
            for (int i = 0; i < Math.max(perBatch, o.warmupFor(size)); i++) {
                transfer(buf, size, 0);
            }
            double[] alone = new double[BATCHES], total = new double[BATCHES];
            long compute = 0;
            for (int b = 0; b < BATCHES; b++) {
                alone[b] = batch(buf, size, 0, perBatch);
                compute = share(alone, b);
                total[b] = batch(buf, size, compute, perBatch);
            }
            if (r == 0) {
                double a = Stats.median(alone), t = Stats.median(total), c = compute / 1000.0;
                double pct = Math.max(0, Math.min(100, 100 * (1 - (t - c) / a)));
                System.out.println("RESULT " + o.benchmark() + " " + o.driver() + " " + size + " " + (long) perBatch * BATCHES + " " + t + " "
                        + Stats.quantile(total, 0.99) + " " + size / t + " impl=" + impl + ",overlap_pct=" + Stats.round(pct, 1)
                        + ",alone_us=" + Stats.round(a, 2) + ",compute_us=" + Stats.round(c, 2));
                System.out.flush();
            }
        }
        w.barrier();
    }

    /** The computation's length: the transfer alone, as measured so far (rank 0's, shared). */
    private long share(double[] alone, int upTo) {
        long[] c = {(long) (Stats.median(java.util.Arrays.copyOf(alone, upTo + 1)) * 1000)};
        w.bcast(c, 0, 1, Datatype.LONG, 0);
        return c[0];
    }

    private double batch(MemorySegment buf, long size, long computeNanos, int n) {
        w.barrier();
        double[] each = new double[n];
        for (int i = 0; i < n; i++) {
            each[i] = transfer(buf, size, computeNanos) / 1000.0;
        }
        return Stats.median(each);
    }

    /** One transfer from rank 1 into rank 0's posted receive, with {@code computeNanos} of computing between post and wait; rank 0's nanoseconds. */
    private long transfer(MemorySegment buf, long size, long computeNanos) {
        if (r == 1) {
            w.recv(new byte[1], 0, 1, Datatype.BYTE, 0, GO);
            w.send(buf, 0L, size, Datatype.BYTE, 0, DATA);
            return 0;
        }
        long t = System.nanoTime();
        Request rq = w.irecv(buf, 0L, size, Datatype.BYTE, 1, DATA);
        w.send(new byte[1], 0, 1, Datatype.BYTE, 1, GO);
        if (computeNanos > 0) {
            compute(computeNanos);
        }
        rq.await();
        return System.nanoTime() - t;
    }

    /** Computes (no Ferry call) for {@code nanos}. */
    private static void compute(long nanos) {
        long end = System.nanoTime() + nanos;
        double x = 1;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 64; i++) {
                x = x * 1.000001 + 0.5 / (x + 1);
            }
        }
        sink = x;
    }
}
