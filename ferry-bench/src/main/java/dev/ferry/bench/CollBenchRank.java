package dev.ferry.bench;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.Op;
import dev.ferry.Request;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;

/**
 * One rank of a collective benchmark: per size, Ferry's collective ({@code impl=ferry}, with the
 * algorithm it chose) and the naive one built from point-to-point ({@code impl=naive}: the root
 * sends to or receives from every rank in turn; allreduce and allgather are a naive reduce or
 * gather followed by a naive bcast; alltoall posts every transfer at once), in alternating
 * batches. For ULFM's agree and shrink, the "naive" beside them is the same result without fault
 * tolerance: an allreduce (bitwise AND) of one int, and a dup; for allreduce-init (MPI-4's
 * persistent allreduce, one start and wait per operation) it is the blocking allreduce. As OSU does, each operation is timed alone and followed by an untimed barrier; a
 * batch's figure is the slowest rank's median. Reductions sum doubles in {@code double[]} arrays
 * (size: bytes per rank); the others move bytes of off-heap segments ({@code size} bytes per rank
 * and block). Rank 0 prints the medians over the batches, and the bytes one operation allocated
 * on the calling thread after the warm-up at the rank that allocated most ({@code alloc_b_per_op}).
 */
public final class CollBenchRank {
    private static final int BATCHES = 10;
    private static final int NAIVE_TAG = 77;
    /** Operations run back to back, after the warm-up, to learn what one allocates on the calling thread. */
    private static final int ALLOC_RUNS = 100;

    private final Comm w;
    private final int p, r;

    private CollBenchRank(Comm w) {
        this.w = w;
        this.p = w.size();
        this.r = w.rank();
    }

    public static void main(String[] args) {
        BenchOptions o = BenchOptions.parse(args[0], List.of(args).subList(2, args.length));
        boolean naiveFirst = args[1].equals("naive-first");
        try (Ferry ferry = Ferry.init()) {
            new CollBenchRank(ferry.world()).measure(o, naiveFirst);
        }
    }

    private void measure(BenchOptions o, boolean naiveFirst) {
        for (long size : o.sizes()) {
            Ops ops = ops(o.benchmark(), (int) size);
            ops.ferry.run();
            String algorithm = o.benchmark().equals("agree") || o.benchmark().equals("shrink") ? "coordinator"
                    : w.lastCollectiveAlgorithm(); // read before other collectives run (a persistent one's: chosen at init)
            warmUp(o, size, ops);
            double[] alloc = {WholeOperations.allocatedPerRun(ops.ferry, ALLOC_RUNS), WholeOperations.allocatedPerRun(ops.naive, ALLOC_RUNS)};
            w.allreduce(Ferry.IN_PLACE, 0, alloc, 0, 2, Datatype.DOUBLE, Op.MAX); // the rank that allocates most
            int perBatch = (int) Math.max(1, o.iterationsFor(size) / BATCHES);
            // one batch of each, untimed: the timing loop itself is compiled before it counts (the
            // first size measured ran 10x slower than the next without it)
            batch(ops.ferry, perBatch);
            batch(ops.naive, perBatch);
            double[][] batches = new double[2][BATCHES];
            for (int b = 0; b < BATCHES; b++) {
                boolean naiveNow = naiveFirst == (b % 2 == 0);
                batches[naiveNow ? 1 : 0][b] = batch(naiveNow ? ops.naive : ops.ferry, perBatch);
                batches[naiveNow ? 0 : 1][b] = batch(naiveNow ? ops.ferry : ops.naive, perBatch);
            }
            if (r == 0) {
                print(o, size, (long) perBatch * BATCHES, batches[0], Map.of("ranks", p, "impl", "ferry", "algorithm", algorithm,
                        "alloc_b_per_op", Math.round(alloc[0])));
                print(o, size, (long) perBatch * BATCHES, batches[1], Map.of("ranks", p, "impl", "naive", "algorithm", "naive",
                        "alloc_b_per_op", Math.round(alloc[1])));
            }
        }
        w.barrier();
    }

    /**
     * A batch: {@code n} timed operations, a barrier after each; the slowest rank's median in
     * microseconds (a median, not OSU's mean: on these shared 2-core machines a few operations
     * delayed by milliseconds of stolen time would otherwise decide the figure).
     */
    private double batch(Runnable op, int n) {
        w.barrier();
        double[] each = new double[n];
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            op.run();
            each[i] = (System.nanoTime() - t) / 1000.0;
            w.barrier();
        }
        double[] median = {Stats.median(each)};
        w.allreduce(Ferry.IN_PLACE, 0, median, 0, 1, Datatype.DOUBLE, Op.MAX);
        return median[0];
    }

    /**
     * Warms both forms until every rank has run the asked count and its JIT has been quiet for a
     * while ({@link JitQuiet}): with every core busy with ranks, the compiler threads get little
     * time, and the first thousands of operations ran 10 to 50 times slower than later ones. The
     * ranks agree to stop by an allreduce of their wishes every 16 rounds.
     */
    private void warmUp(BenchOptions o, long size, Ops ops) {
        long n = o.warmupFor(size);
        JitQuiet quiet = new JitQuiet(o.warmupNanos());
        int[] more = {1};
        for (long i = 0; more[0] != 0; i++) {
            // each followed by the barrier that follows it when timed: that barrier's speed decides
            // when the ranks start the next operation, and it is compiled only if it runs here
            ops.ferry.run();
            w.barrier();
            ops.naive.run();
            w.barrier();
            if (i % 16 == 15) {
                more[0] = i < n || !quiet.settled() ? 1 : 0;
                w.allreduce(Ferry.IN_PLACE, 0, more, 0, 1, Datatype.INT, Op.MAX);
            }
        }
    }

    private record Ops(Runnable ferry, Runnable naive) {
    }

    private Ops ops(String benchmark, int size) {
        MemorySegment a = Arena.ofAuto().allocate(Math.max(1, (long) size * p), 64);
        MemorySegment b = Arena.ofAuto().allocate(Math.max(1, (long) size * p), 64);
        int count = Math.max(1, size / 8);
        double[] x = new double[count], y = new double[count], tmp = new double[count];
        java.util.Arrays.fill(x, r + 1);
        int[] flag = {1};
        return switch (benchmark) {
            case "barrier" -> new Ops(w::barrier, this::naiveBarrier);
            case "bcast" -> new Ops(() -> w.bcast(a, 0, size, Datatype.BYTE, 0), () -> naiveBcast(a, size));
            case "reduce" -> new Ops(() -> w.reduce(x, 0, y, 0, count, Datatype.DOUBLE, Op.SUM, 0), () -> naiveReduce(x, y, tmp));
            case "allreduce" -> new Ops(() -> w.allreduce(x, 0, y, 0, count, Datatype.DOUBLE, Op.SUM), () -> {
                naiveReduce(x, y, tmp);
                naiveBcast(y);
            });
            case "allgather" -> new Ops(() -> w.allgather(a, 0, size, Datatype.BYTE, b, 0, size, Datatype.BYTE), () -> naiveAllgather(a, b, size));
            case "alltoall" -> new Ops(() -> w.alltoall(a, 0, size, Datatype.BYTE, b, 0, size, Datatype.BYTE), () -> naiveAlltoall(a, b, size));
            // fault tolerance: beside the same result without it (an allreduce of one int; a dup)
            case "agree" -> new Ops(() -> w.agree(1), () -> w.allreduce(Ferry.IN_PLACE, 0, flag, 0, 1, Datatype.INT, Op.BAND));
            case "shrink" -> new Ops(() -> w.shrink().free(), () -> w.dup().free());
            // MPI-4's persistent allreduce, started and awaited, beside the blocking allreduce of the same data
            case "allreduce-init" -> {
                dev.ferry.PersistentRequest sum = w.allreduceInit(x, 0, y, 0, count, Datatype.DOUBLE, Op.SUM);
                yield new Ops(() -> {
                    sum.start();
                    sum.await();
                }, () -> w.allreduce(x, 0, y, 0, count, Datatype.DOUBLE, Op.SUM));
            }
            default -> throw new IllegalArgumentException("not a collective benchmark: " + benchmark);
        };
    }

    // ---- the naive forms, from point-to-point ------------------------------------------------------

    private void naiveBarrier() {
        byte[] none = new byte[0];
        if (r == 0) {
            for (int j = 1; j < p; j++) {
                w.recv(none, 0, 0, j, NAIVE_TAG);
            }
            for (int j = 1; j < p; j++) {
                w.send(none, 0, 0, j, NAIVE_TAG);
            }
        } else {
            w.send(none, 0, 0, 0, NAIVE_TAG);
            w.recv(none, 0, 0, 0, NAIVE_TAG);
        }
    }

    private void naiveBcast(Object buf, int n) {
        if (r == 0) {
            for (int j = 1; j < p; j++) {
                w.send(buf, 0, n, Datatype.BYTE, j, NAIVE_TAG);
            }
        } else {
            w.recv(buf, 0, n, Datatype.BYTE, 0, NAIVE_TAG);
        }
    }

    private void naiveBcast(double[] v) {
        if (r == 0) {
            for (int j = 1; j < p; j++) {
                w.send(v, 0, v.length, j, NAIVE_TAG);
            }
        } else {
            w.recv(v, 0, v.length, 0, NAIVE_TAG);
        }
    }

    /** Every rank sends to rank 0, which adds the contributions in rank order. */
    private void naiveReduce(double[] in, double[] out, double[] tmp) {
        if (r == 0) {
            System.arraycopy(in, 0, out, 0, in.length);
            for (int j = 1; j < p; j++) {
                w.recv(tmp, 0, tmp.length, j, NAIVE_TAG);
                for (int i = 0; i < out.length; i++) {
                    out[i] += tmp[i];
                }
            }
        } else {
            w.send(in, 0, in.length, 0, NAIVE_TAG);
        }
    }

    private void naiveAllgather(MemorySegment in, MemorySegment all, int n) {
        if (r == 0) {
            MemorySegment.copy(in, 0, all, 0, n);
            for (int j = 1; j < p; j++) {
                w.recv(all.asSlice((long) j * n, n), 0, n, Datatype.BYTE, j, NAIVE_TAG);
            }
        } else {
            w.send(in, 0, n, Datatype.BYTE, 0, NAIVE_TAG);
        }
        naiveBcast(all, n * p);
    }

    /** Every transfer at once; its own block copied (a job of shm alone has no driver to itself). */
    private void naiveAlltoall(MemorySegment out, MemorySegment in, int n) {
        Request[] reqs = new Request[2 * (p - 1)];
        int k = 0;
        for (int j = 0; j < p; j++) {
            if (j != r) {
                reqs[k++] = w.irecv(in.asSlice((long) j * n, n), 0, n, Datatype.BYTE, j, NAIVE_TAG);
            }
        }
        for (int j = 0; j < p; j++) {
            if (j != r) {
                reqs[k++] = w.isend(out.asSlice((long) j * n, n), 0, n, Datatype.BYTE, j, NAIVE_TAG);
            }
        }
        MemorySegment.copy(out, (long) r * n, in, (long) r * n, n);
        Request.waitAll(reqs);
    }

    private static void print(BenchOptions o, long size, long iterations, double[] batches, Map<String, Object> extra) {
        String fields = String.join(",", new java.util.TreeMap<>(extra).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
        System.out.println("RESULT " + o.benchmark() + " " + o.driver() + " " + size + " " + iterations + " "
                + Stats.median(batches) + " " + Stats.quantile(batches, 0.99) + " - " + fields);
        System.out.flush();
    }
}
