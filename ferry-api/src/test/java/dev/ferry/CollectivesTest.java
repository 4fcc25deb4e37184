package dev.ferry;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every collective against a reference computed at each rank from every rank's input (the
 * inputs are drawn from a seed all ranks share), for random counts (0 included), roots, types,
 * operations and numbers of ranks; ranks as threads of one JVM.
 */
class CollectivesTest {
    static final Duration BOUND = Duration.ofMinutes(2);
    static final Datatype[] TYPES = {Datatype.INT, Datatype.LONG, Datatype.DOUBLE, Datatype.SHORT, Datatype.BYTE, Datatype.FLOAT, Datatype.CHAR};
    static final Op[] INTEGER_OPS = {Op.SUM, Op.PROD, Op.MIN, Op.MAX, Op.LAND, Op.LOR, Op.LXOR, Op.BAND, Op.BOR, Op.BXOR};
    static final Op[] FLOAT_OPS = {Op.SUM, Op.MIN, Op.MAX};

    // ---- element helpers over primitive arrays ----------------------------------------------------

    static Object array(Datatype t, int n) {
        return switch (t.name()) {
            case "INT" -> new int[n];
            case "LONG" -> new long[n];
            case "DOUBLE" -> new double[n];
            case "SHORT" -> new short[n];
            case "BYTE" -> new byte[n];
            case "FLOAT" -> new float[n];
            case "CHAR" -> new char[n];
            default -> throw new IllegalArgumentException(t.name());
        };
    }

    static long get(Object a, int i) {
        return switch (a) {
            case int[] x -> x[i];
            case long[] x -> x[i];
            case double[] x -> (long) x[i];
            case short[] x -> x[i];
            case byte[] x -> x[i];
            case float[] x -> (long) x[i];
            case char[] x -> x[i];
            default -> throw new IllegalArgumentException();
        };
    }

    static void set(Object a, int i, long v) {
        switch (a) {
            case int[] x -> x[i] = (int) v;
            case long[] x -> x[i] = v;
            case double[] x -> x[i] = v;
            case short[] x -> x[i] = (short) v;
            case byte[] x -> x[i] = (byte) v;
            case float[] x -> x[i] = v;
            case char[] x -> x[i] = (char) v;
            default -> throw new IllegalArgumentException();
        }
    }

    /** Rank j's input of trial {@code trial}: small values, so that sums and products stay exact in floating point. */
    static Object input(Datatype t, int n, long trial, int j) {
        Random g = new Random(trial * 1_000_003L + j);
        Object a = array(t, n);
        int range = t == Datatype.FLOAT || t == Datatype.DOUBLE ? 5 : 50;
        for (int i = 0; i < n; i++) {
            set(a, i, t == Datatype.CHAR ? g.nextInt(range) : g.nextInt(2 * range + 1) - range);
        }
        return a;
    }

    /** {@code a op b} as the element type computes it (narrowed like the type). */
    static long combine(Op op, Datatype t, long a, long b) {
        long v;
        if (op == Op.SUM) {
            v = a + b;
        } else if (op == Op.PROD) {
            v = a * b;
        } else if (op == Op.MIN) {
            v = Math.min(a, b);
        } else if (op == Op.MAX) {
            v = Math.max(a, b);
        } else if (op == Op.LAND) {
            v = a != 0 && b != 0 ? 1 : 0;
        } else if (op == Op.LOR) {
            v = a != 0 || b != 0 ? 1 : 0;
        } else if (op == Op.LXOR) {
            v = (a != 0) != (b != 0) ? 1 : 0;
        } else if (op == Op.BAND) {
            v = a & b;
        } else if (op == Op.BOR) {
            v = a | b;
        } else if (op == Op.BXOR) {
            v = a ^ b;
        } else {
            throw new IllegalArgumentException(op.toString());
        }
        Object one = array(t, 1);
        set(one, 0, v);
        return get(one, 0);
    }

    /** The reduction over ranks {@code from..to-1} of element i. */
    static long reduced(Op op, Datatype t, Object[] inputs, int from, int to, int i) {
        long acc = get(inputs[from], i);
        for (int j = from + 1; j < to; j++) {
            acc = combine(op, t, acc, get(inputs[j], i));
        }
        return acc;
    }

    static void assertElements(String what, Object actual, int at, long[] expected) {
        for (int i = 0; i < expected.length; i++) {
            long got = get(actual, at + i);
            if (got != expected[i]) {
                fail(what + ": element " + i + " is " + got + ", expected " + expected[i]);
            }
        }
    }

    // ---- the randomized check --------------------------------------------------------------------

    static final String[] COLLECTIVES = {"barrier", "bcast", "reduce", "allreduce", "reduce_scatter", "reduce_scatter_block",
            "scan", "exscan", "gather", "gatherv", "scatter", "scatterv", "allgather", "allgatherv", "alltoall", "alltoallv"};

    /** Runs {@code trials} random collectives of every kind on {@code comm}; all ranks draw the same choices from {@code seed}. */
    static void randomCollectives(Comm comm, long seed, int trials, boolean nonBlocking) {
        int p = comm.size(), r = comm.rank();
        Random g = new Random(seed);
        for (int trial = 0; trial < trials; trial++) {
            String c = COLLECTIVES[trial % COLLECTIVES.length];
            Datatype t = TYPES[g.nextInt(TYPES.length)];
            int n = switch (g.nextInt(5)) {
                case 0 -> 0;
                case 1 -> 1;
                case 2 -> 1 + g.nextInt(9);
                case 3 -> 10 + g.nextInt(300);
                default -> (int) ((8192 + g.nextInt(c.startsWith("alltoall") ? 16_384 : 250_000)) / t.size()); // past the long-message thresholds
            };
            Op[] ops = t == Datatype.FLOAT || t == Datatype.DOUBLE ? FLOAT_OPS : INTEGER_OPS;
            Op op = ops[g.nextInt(ops.length)];
            if (op == Op.PROD && (c.contains("reduce") || c.contains("scan"))) {
                n = Math.min(n, 50); // products of 16 small values stay exact in a double
            }
            int root = g.nextInt(p);
            long id = seed * 7919 + trial;
            String what = c + " of " + n + " " + t + " by " + op + ", root " + root + ", " + p + " ranks, trial " + trial;
            try {
                check(comm, c, t, n, op, root, id, nonBlocking, g.nextInt(1 << 16));
                USED.add(c + ":" + comm.lastCollectiveAlgorithm());
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(what + " (" + comm.lastCollectiveAlgorithm() + "): " + e.getMessage(), e);
            }
        }
        comm.barrier();
    }

    /** The collectives and algorithms the random checks ran. */
    static final java.util.Set<String> USED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private static Object[] inputs(Datatype t, int n, long id, int p) {
        Object[] in = new Object[p];
        for (int j = 0; j < p; j++) {
            in[j] = input(t, n, id, j);
        }
        return in;
    }

    private static void run(Request req, boolean nonBlocking) {
        if (nonBlocking) {
            while (!req.test()) {
                Thread.onSpinWait(); // "computing" between tests
            }
            req.await();
        } else {
            req.await();
        }
    }

    private static void check(Comm comm, String c, Datatype t, int n, Op op, int root, long id, boolean nonBlocking, int salt) {
        int p = comm.size(), r = comm.rank();
        Object[] in = inputs(t, n, id, p);
        Object mine = in[r];
        long[] expected = new long[n];
        switch (c) {
            case "barrier" -> run(comm.ibarrier(), nonBlocking);
            case "bcast" -> {
                Object buf = r == root ? mine : array(t, n);
                if (nonBlocking) {
                    run(comm.ibcast(buf, 0, n, t, root), true);
                } else {
                    comm.bcast(buf, 0, n, t, root); // the blocking form may take the node's arena
                }
                for (int i = 0; i < n; i++) {
                    expected[i] = get(in[root], i);
                }
                assertElements("bcast", buf, 0, expected);
            }
            case "reduce", "allreduce" -> {
                Object out = array(t, n);
                if (c.equals("reduce")) {
                    run(comm.ireduce(mine, 0, out, 0, n, t, op, root), nonBlocking);
                } else if (nonBlocking) {
                    run(comm.iallreduce(mine, 0, out, 0, n, t, op), true);
                } else {
                    comm.allreduce(mine, 0, out, 0, n, t, op);
                }
                if (c.equals("allreduce") || r == root) {
                    for (int i = 0; i < n; i++) {
                        expected[i] = reduced(op, t, in, 0, p, i);
                    }
                    assertElements(c, out, 0, expected);
                }
            }
            case "scan", "exscan" -> {
                Object out = array(t, n);
                run(c.equals("scan") ? comm.iscan(mine, 0, out, 0, n, t, op) : comm.iexscan(mine, 0, out, 0, n, t, op), nonBlocking);
                int upTo = c.equals("scan") ? r + 1 : r;
                if (upTo > 0) {
                    for (int i = 0; i < n; i++) {
                        expected[i] = reduced(op, t, in, 0, upTo, i);
                    }
                    assertElements(c, out, 0, expected);
                }
            }
            case "reduce_scatter", "reduce_scatter_block" -> {
                int[] counts = new int[p];
                int per = n / Math.max(1, p);
                Random g = new Random(salt);
                int total = 0;
                for (int j = 0; j < p; j++) {
                    counts[j] = c.endsWith("block") ? per : g.nextInt(per + 3);
                    total += counts[j];
                }
                in = inputs(t, total, id, p);
                Object out = array(t, counts[r]);
                run(c.endsWith("block") ? comm.ireduceScatterBlock(in[r], 0, out, 0, per, t, op)
                        : comm.ireduceScatter(in[r], 0, out, 0, counts, t, op), nonBlocking);
                int start = 0;
                for (int j = 0; j < r; j++) {
                    start += counts[j];
                }
                long[] e = new long[counts[r]];
                for (int i = 0; i < e.length; i++) {
                    e[i] = reduced(op, t, in, 0, p, start + i);
                }
                assertElements(c, out, 0, e);
            }
            case "gather", "allgather" -> {
                Object out = array(t, n * p);
                run(c.equals("gather") ? comm.igather(mine, 0, n, t, out, 0, n, t, root) : comm.iallgather(mine, 0, n, t, out, 0, n, t), nonBlocking);
                if (c.equals("allgather") || r == root) {
                    for (int j = 0; j < p; j++) {
                        for (int i = 0; i < n; i++) {
                            expected[i] = get(in[j], i);
                        }
                        assertElements(c + " block " + j, out, j * n, expected);
                    }
                }
            }
            case "gatherv", "allgatherv" -> {
                // rank j sends its first counts[j] elements; blocks land in reverse rank order with gaps
                int[] counts = new int[p], displs = new int[p];
                Random g = new Random(salt);
                for (int j = 0; j < p; j++) {
                    counts[j] = g.nextInt(n + 1);
                }
                int at = 0;
                for (int j = p - 1; j >= 0; j--) {
                    displs[j] = at;
                    at += counts[j] + g.nextInt(3);
                }
                Object out = array(t, at);
                run(c.equals("gatherv") ? comm.igatherv(mine, 0, counts[r], t, out, 0, counts, displs, t, root)
                        : comm.iallgatherv(mine, 0, counts[r], t, out, 0, counts, displs, t), nonBlocking);
                if (c.equals("allgatherv") || r == root) {
                    for (int j = 0; j < p; j++) {
                        long[] e = new long[counts[j]];
                        for (int i = 0; i < e.length; i++) {
                            e[i] = get(in[j], i);
                        }
                        assertElements(c + " block " + j, out, displs[j], e);
                    }
                }
            }
            case "scatter" -> {
                Object all = input(t, n * p, id, root);
                Object out = array(t, n);
                run(comm.iscatter(r == root ? all : null, 0, n, t, out, 0, n, t, root), nonBlocking);
                for (int i = 0; i < n; i++) {
                    expected[i] = get(all, r * n + i);
                }
                assertElements("scatter", out, 0, expected);
            }
            case "scatterv" -> {
                int[] counts = new int[p], displs = new int[p];
                Random g = new Random(salt);
                int at = 0;
                for (int j = 0; j < p; j++) {
                    counts[j] = g.nextInt(n + 1);
                    displs[j] = at + g.nextInt(2);
                    at = displs[j] + counts[j];
                }
                Object all = input(t, at, id, root);
                Object out = array(t, counts[r]);
                run(comm.iscatterv(r == root ? all : null, 0, counts, displs, t, out, 0, counts[r], t, root), nonBlocking);
                long[] e = new long[counts[r]];
                for (int i = 0; i < e.length; i++) {
                    e[i] = get(all, displs[r] + i);
                }
                assertElements("scatterv", out, 0, e);
            }
            case "alltoall" -> {
                Object[] all = inputs(t, n * p, id, p);
                Object out = array(t, n * p);
                run(comm.ialltoall(all[r], 0, n, t, out, 0, n, t), nonBlocking);
                for (int j = 0; j < p; j++) {
                    for (int i = 0; i < n; i++) {
                        expected[i] = get(all[j], r * n + i);
                    }
                    assertElements("alltoall block from " + j, out, j * n, expected);
                }
            }
            case "alltoallv" -> {
                // rank i sends (i + j + salt) % (n + 1) elements to j, packed in order; received packed in order
                int[] sc = new int[p], sd = new int[p], rc = new int[p], rd = new int[p];
                int sAt = 0, rAt = 0;
                for (int j = 0; j < p; j++) {
                    sc[j] = (r + j + salt) % (n + 1);
                    sd[j] = sAt;
                    sAt += sc[j];
                    rc[j] = (j + r + salt) % (n + 1);
                    rd[j] = rAt;
                    rAt += rc[j];
                }
                Object[] all = inputs(t, sAt + p * (n + 1), id, p);
                Object out = array(t, rAt);
                run(comm.ialltoallv(all[r], 0, sc, sd, t, out, 0, rc, rd, t), nonBlocking);
                for (int j = 0; j < p; j++) {
                    int from = 0; // where rank j's block for r starts in its send buffer
                    for (int k = 0; k < r; k++) {
                        from += (j + k + salt) % (n + 1);
                    }
                    long[] e = new long[rc[j]];
                    for (int i = 0; i < e.length; i++) {
                        e[i] = get(all[j], from + i);
                    }
                    assertElements("alltoallv block from " + j, out, rd[j], e);
                }
            }
            default -> throw new IllegalArgumentException(c);
        }
    }

    @Test
    void everyCollectiveAgreesWithTheReferenceOnOneToNineRanks() {
        for (int p : new int[] {1, 2, 3, 4, 5, 7, 8, 9}) {
            int size = p;
            Ferry.runInProcess(p, BOUND, f -> randomCollectives(f.world(), 1000 + size, 64, false));
        }
        for (String used : List.of("bcast:binomial", "allreduce:recursive_doubling", "allreduce:ring",
                "gather:binomial", "gather:linear", "scatter:binomial", "scatter:linear", "allgather:recursive_doubling",
                "allgather:ring", "alltoall:linear", "alltoall:pairwise", "reduce_scatter:ring", "scan:recursive_doubling")) {
            assertTrue(USED.contains(used), "the random collectives never ran " + used + "; they ran " + USED);
        }
    }

    @Test
    void nonBlockingCollectivesProgressWhileTheCallerTestsAndWithAProgressThread() {
        Ferry.runInProcess(6, BOUND, f -> randomCollectives(f.world(), 77, 48, true));
        Ferry.runInProcess(5, BOUND, new FerryConfig().progressThread(true), f -> randomCollectives(f.world(), 78, 32, true));
    }

    @Test
    void sixteenRanks() {
        Ferry.runInProcess(16, BOUND, f -> randomCollectives(f.world(), 16, 32, false));
    }

    @Test
    void onSplitCommunicatorsBothHalvesRunTheirOwnCollectives() {
        Ferry.runInProcess(7, BOUND, f -> {
            try (Comm half = f.world().split(f.rank() % 2, -f.rank())) { // reversed order in each half
                randomCollectives(half, 300 + f.rank() % 2, 32, false);
            }
        });
    }

    @Test
    void everyForcedAlgorithmAgreesWithTheReference() {
        String[][] forced = {{"FERRY_COLL_BCAST", "pipeline"}, {"FERRY_COLL_BCAST", "binomial"},
                {"FERRY_COLL_ALLREDUCE", "ring"}, {"FERRY_COLL_ALLREDUCE", "reduce_bcast"}, {"FERRY_COLL_ALLREDUCE", "recursive_doubling"},
                {"FERRY_COLL_REDUCE_SCATTER", "reduce_scatterv"}, {"FERRY_COLL_GATHER", "linear"}, {"FERRY_COLL_GATHER", "binomial"},
                {"FERRY_COLL_SCATTER", "linear"}, {"FERRY_COLL_SCATTER", "binomial"}, {"FERRY_COLL_ALLGATHER", "ring"},
                {"FERRY_COLL_ALLGATHER", "recursive_doubling"}, {"FERRY_COLL_ALLTOALL", "pairwise"}, {"FERRY_COLL_ALLTOALL", "linear"}};
        for (String[] f : forced) {
            for (int p : new int[] {3, 4}) {
                FerryConfig config = new FerryConfig().set(f[0], f[1]);
                Ferry.runInProcess(p, BOUND, config, ferry -> randomCollectives(ferry.world(), f[1].hashCode() + p, 32, false));
            }
        }
    }

    @Test
    void theChosenAlgorithmIsReportedAndFollowsTheSetting() {
        Ferry.runInProcess(4, BOUND, new FerryConfig().set("FERRY_COLL_ALLREDUCE", "ring").set("FERRY_COLL_BCAST", "pipeline"), f -> {
            int[] v = new int[8];
            f.world().allreduce(Ferry.IN_PLACE, 0, v, 0, 8, Datatype.INT, Op.SUM);
            assertEquals("ring", f.world().lastCollectiveAlgorithm());
            f.world().allreduce(Ferry.IN_PLACE, 0, v, 0, 2, Datatype.INT, Op.SUM); // fewer elements than ranks: the ring does not apply
            assertEquals("ring", f.world().lastCollectiveAlgorithm());
            f.world().bcast(new byte[1 << 20], 0, 1 << 20, Datatype.BYTE, 0);
            assertEquals("pipeline", f.world().lastCollectiveAlgorithm());
            f.world().bcast(new byte[8], 0, 8, Datatype.BYTE, 0); // forced too: the setting is not about size
            assertEquals("pipeline", f.world().lastCollectiveAlgorithm());
            f.world().allreduce(Ferry.IN_PLACE, 0, new double[1 << 15], 0, 1 << 15, Datatype.DOUBLE, Op.SUM);
            assertEquals("ring", f.world().lastCollectiveAlgorithm()); // forced: not the arena a blocking call on one node could take
        });
        RuntimeException x = assertThrows(RuntimeException.class,
                () -> Ferry.runInProcess(1, BOUND, new FerryConfig().set("FERRY_COLL_BCAST", "magic"), f -> { }));
        Throwable cause = x;
        while (!(cause instanceof FerryException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        assertInstanceOf(FerryException.class, cause);
        assertTrue(cause.getMessage().contains("FERRY_COLL_BCAST=magic"), cause.getMessage());
    }

    // ---- operations, types, in place ----------------------------------------------------------------

    /** 2 x 2 int matrices, multiplied: associative, not commutative. */
    static final Datatype MATRIX = Datatype.contiguous(4, Datatype.INT);
    static final Op MATMUL = Op.create((in, inout, count, type) -> {
        for (int e = 0; e < count; e++) {
            long o = 16L * e;
            int a = in.get(ValueLayout.JAVA_INT_UNALIGNED, o), b = in.get(ValueLayout.JAVA_INT_UNALIGNED, o + 4),
                    c = in.get(ValueLayout.JAVA_INT_UNALIGNED, o + 8), d = in.get(ValueLayout.JAVA_INT_UNALIGNED, o + 12);
            int w = inout.get(ValueLayout.JAVA_INT_UNALIGNED, o), x = inout.get(ValueLayout.JAVA_INT_UNALIGNED, o + 4),
                    y = inout.get(ValueLayout.JAVA_INT_UNALIGNED, o + 8), z = inout.get(ValueLayout.JAVA_INT_UNALIGNED, o + 12);
            inout.set(ValueLayout.JAVA_INT_UNALIGNED, o, a * w + b * y);
            inout.set(ValueLayout.JAVA_INT_UNALIGNED, o + 4, a * x + b * z);
            inout.set(ValueLayout.JAVA_INT_UNALIGNED, o + 8, c * w + d * y);
            inout.set(ValueLayout.JAVA_INT_UNALIGNED, o + 12, c * x + d * z);
        }
    }, false);

    static int[] matrices(int rank, int count) {
        int[] m = new int[4 * count];
        for (int e = 0; e < count; e++) {
            m[4 * e] = rank + e;
            m[4 * e + 1] = 1;
            m[4 * e + 2] = e % 3;
            m[4 * e + 3] = rank % 2 == 0 ? 2 : -1;
        }
        return m;
    }

    static int[] product(int from, int to, int count) {
        int[] acc = matrices(from, count);
        for (int j = from + 1; j < to; j++) {
            int[] next = matrices(j, count);
            for (int e = 0; e < count; e++) {
                int o = 4 * e;
                int a = acc[o], b = acc[o + 1], c = acc[o + 2], d = acc[o + 3];
                int w = next[o], x = next[o + 1], y = next[o + 2], z = next[o + 3];
                acc[o] = a * w + b * y;
                acc[o + 1] = a * x + b * z;
                acc[o + 2] = c * w + d * y;
                acc[o + 3] = c * x + d * z;
            }
        }
        return acc;
    }

    @Test
    void aNonCommutativeOperationIsAppliedInRankOrder() {
        for (int p : new int[] {2, 3, 5, 6, 8}) {
            Ferry.runInProcess(p, BOUND, f -> {
                Comm w = f.world();
                int n = 5, r = w.rank(), size = w.size();
                int[] out = new int[4 * n];
                for (int root = 0; root < size; root++) {
                    Arrays.fill(out, 0);
                    w.reduce(matrices(r, n), 0, out, 0, n, MATRIX, MATMUL, root);
                    if (r == root) {
                        assertArrayEquals(product(0, size, n), out, "reduce to " + root);
                    }
                }
                w.allreduce(matrices(r, n), 0, out, 0, n, MATRIX, MATMUL);
                assertArrayEquals(product(0, size, n), out, "allreduce");
                w.scan(matrices(r, n), 0, out, 0, n, MATRIX, MATMUL);
                assertArrayEquals(product(0, r + 1, n), out, "scan");
                w.exscan(matrices(r, n), 0, out, 0, n, MATRIX, MATMUL);
                if (r > 0) {
                    assertArrayEquals(product(0, r, n), out, "exscan");
                }
                int[] all = new int[4 * n * size];
                for (int j = 0; j < size; j++) {
                    System.arraycopy(matrices(r, n * size), 4 * n * j, all, 4 * n * j, 4 * n);
                }
                int[] mine = new int[4 * n];
                w.reduceScatterBlock(all, 0, mine, 0, n, MATRIX, MATMUL);
                assertArrayEquals(Arrays.copyOfRange(product(0, size, n * size), 4 * n * r, 4 * n * (r + 1)), mine, "reduce_scatter_block");
            });
        }
    }

    @Test
    void floatingPointAllreduceGivesEveryRankTheSameBits() {
        Ferry.runInProcess(5, BOUND, f -> {
            Comm w = f.world();
            for (int n : new int[] {3, 1000, 50_000}) {
                double[] mine = new Random(w.rank() * 31L + n).doubles(n, -1e6, 1e6).toArray();
                double[] sum = new double[n];
                w.allreduce(mine, 0, sum, 0, n, Datatype.DOUBLE, Op.SUM);
                double[] all = new double[n * w.size()];
                w.allgather(sum, 0, n, Datatype.DOUBLE, all, 0, n, Datatype.DOUBLE);
                for (int j = 0; j < w.size(); j++) {
                    for (int i = 0; i < n; i++) {
                        assertEquals(Double.doubleToRawLongBits(sum[i]), Double.doubleToRawLongBits(all[j * n + i]),
                                "rank " + j + " element " + i + " of " + n + " (" + w.lastCollectiveAlgorithm() + ")");
                    }
                }
            }
        });
    }

    @Test
    void minlocAndMaxlocTakeTheLowestIndexOfTheExtreme() {
        Ferry.runInProcess(4, BOUND, f -> {
            Comm w = f.world();
            int r = w.rank();
            // pairs (value, index): element 0's value is r % 2 (ties between ranks), element 1's is 10 - r
            int[] pairs = {r % 2, r, 10 - r, r};
            int[] min = new int[4], max = new int[4];
            w.allreduce(pairs, 0, min, 0, 2, Datatype.INT2, Op.MINLOC);
            w.allreduce(pairs, 0, max, 0, 2, Datatype.INT2, Op.MAXLOC);
            assertArrayEquals(new int[] {0, 0, 7, 3}, min);
            assertArrayEquals(new int[] {1, 1, 10, 0}, max);
            // DOUBLE_INT lays out as a C struct: 8 bytes of value, 4 of index, 4 of padding
            MemorySegment in = MemorySegment.ofArray(new byte[16]), out = MemorySegment.ofArray(new byte[16]);
            in.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, r == 2 ? -1.5 : r);
            in.set(ValueLayout.JAVA_INT_UNALIGNED, 8, 100 + r);
            w.allreduce(in, 0, out, 0, 1, Datatype.DOUBLE_INT, Op.MINLOC);
            assertEquals(-1.5, out.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0));
            assertEquals(102, out.get(ValueLayout.JAVA_INT_UNALIGNED, 8));
        });
    }

    @Test
    void inPlaceAndDerivedTypes() {
        Ferry.runInProcess(4, BOUND, f -> {
            Comm w = f.world();
            int r = w.rank(), p = w.size();
            // allreduce in place
            long[] v = {r, 2L * r, 3L * r};
            w.allreduce(Ferry.IN_PLACE, 0, v, 0, 3, Datatype.LONG, Op.SUM);
            assertArrayEquals(new long[] {6, 12, 18}, v);
            // reduce in place at the root
            int[] x = {r + 1};
            w.reduce(r == 2 ? Ferry.IN_PLACE : x, 0, x, 0, 1, Datatype.INT, Op.PROD, 2);
            if (r == 2) {
                assertEquals(24, x[0]);
            }
            // allgather in place
            int[] all = new int[p];
            all[r] = 10 * r;
            w.allgather(Ferry.IN_PLACE, 0, 1, Datatype.INT, all, 0, 1, Datatype.INT);
            assertArrayEquals(new int[] {0, 10, 20, 30}, all);
            // gather in place at the root, scatter in place at the root
            int[] g = new int[p];
            g[r] = r * r;
            w.gather(r == 1 ? Ferry.IN_PLACE : new int[] {r * r}, 0, 1, Datatype.INT, g, 0, 1, Datatype.INT, 1);
            if (r == 1) {
                assertArrayEquals(new int[] {0, 1, 4, 9}, g);
            }
            int[] mine = {-1};
            w.scatter(new int[] {5, 6, 7, 8}, 0, 1, Datatype.INT, r == 0 ? Ferry.IN_PLACE : mine, 0, 1, Datatype.INT, 0);
            if (r != 0) {
                assertEquals(5 + r, mine[0]);
            }
            // alltoall in place
            int[] a = new int[p];
            for (int j = 0; j < p; j++) {
                a[j] = 100 * r + j;
            }
            w.alltoall(Ferry.IN_PLACE, 0, 1, Datatype.INT, a, 0, 1, Datatype.INT);
            for (int j = 0; j < p; j++) {
                assertEquals(100 * j + r, a[j]);
            }
            // a strided column: bcast and allreduce of a vector type, the gaps untouched
            Datatype column = Datatype.vector(3, 1, 4, Datatype.INT);
            int[] m = new int[12];
            Arrays.fill(m, -7);
            if (r == 3) {
                m[0] = 1;
                m[4] = 2;
                m[8] = 3;
            }
            w.bcast(m, 0, 1, column, 3);
            assertArrayEquals(new int[] {1, -7, -7, -7, 2, -7, -7, -7, 3, -7, -7, -7}, m);
            int[] sum = new int[12];
            w.allreduce(m, 0, sum, 0, 1, column, Op.SUM);
            assertArrayEquals(new int[] {4, 0, 0, 0, 8, 0, 0, 0, 12, 0, 0, 0}, sum);
            // gather of columns into rows
            int[] rows = new int[3 * p];
            w.gather(m, 0, 1, column, rows, 0, 3, Datatype.INT, 0);
            if (r == 0) {
                assertArrayEquals(new int[] {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3}, rows);
            }
            // alltoallw: one int to each peer from a byte array, each at a byte displacement
            byte[] sendBytes = new byte[4 * p], recvBytes = new byte[4 * p + 4];
            MemorySegment sb = MemorySegment.ofArray(sendBytes);
            for (int j = 0; j < p; j++) {
                sb.set(ValueLayout.JAVA_INT_UNALIGNED, 4L * j, 1000 * r + j);
            }
            int[] ones = {1, 1, 1, 1}, sd = {0, 4, 8, 12}, rd = {4, 8, 12, 16};
            Datatype[] ints = {Datatype.INT, Datatype.INT, Datatype.INT, Datatype.INT};
            w.alltoallw(sendBytes, 0, ones, sd, ints, recvBytes, 0, ones, rd, ints);
            MemorySegment rb = MemorySegment.ofArray(recvBytes);
            for (int j = 0; j < p; j++) {
                assertEquals(1000 * j + r, rb.get(ValueLayout.JAVA_INT_UNALIGNED, 4L + 4 * j));
            }
        });
    }

    @Test
    void severalNonBlockingCollectivesInFlightAtOnceWithPointToPoint() {
        Ferry.runInProcess(4, BOUND, f -> {
            Comm w = f.world();
            int r = w.rank(), p = w.size();
            List<Request> reqs = new ArrayList<>();
            int[][] sums = new int[10][1];
            for (int k = 0; k < 10; k++) {
                reqs.add(w.iallreduce(new int[] {r * k}, 0, sums[k], 0, 1, Datatype.INT, Op.SUM));
            }
            int[] b = new int[1000];
            if (r == 1) {
                Arrays.fill(b, 42);
            }
            reqs.add(w.ibcast(b, 0, 1000, Datatype.INT, 1));
            reqs.add(w.ibarrier());
            int[] got = new int[1];
            reqs.add(w.irecv(got, 0, 1, (r + p - 1) % p, 5));
            reqs.add(w.isend(new int[] {r}, 0, 1, (r + 1) % p, 5));
            Request.waitAll(reqs.toArray(Request[]::new));
            for (int k = 0; k < 10; k++) {
                assertEquals(6 * k, sums[k][0]);
            }
            assertEquals(42, b[999]);
            assertEquals((r + p - 1) % p, got[0]);
            // a future of a collective
            int[] s = new int[1];
            assertNotNull(w.iallreduce(new int[] {1}, 0, s, 0, 1, Datatype.INT, Op.SUM).toFuture().join());
            assertEquals(p, s[0]);
        });
    }

    // ---- errors ---------------------------------------------------------------------------------------

    @Test
    void badArgumentsAreNamed() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            FerryException x = assertThrows(FerryException.class, () -> w.bcast(new int[1], 0, 1, Datatype.INT, 2));
            assertEquals(ErrorClass.ROOT, x.errorClass());
            assertTrue(x.getMessage().contains("root: 2"), x.getMessage());
            x = assertThrows(FerryException.class, () -> w.allreduce(new double[1], 0, new double[1], 0, 1, Datatype.DOUBLE, Op.BAND));
            assertEquals(ErrorClass.OP, x.errorClass());
            assertTrue(x.getMessage().contains("BAND") && x.getMessage().contains("DOUBLE"), x.getMessage());
            x = assertThrows(FerryException.class, () -> w.allreduce(new int[2], 0, new int[2], 0, 2, Datatype.INT, Op.MAXLOC));
            assertEquals(ErrorClass.OP, x.errorClass());
            x = assertThrows(FerryException.class, () -> w.allreduce(new int[1], 0, new int[1], 0, 2, Datatype.INT, Op.SUM));
            assertEquals(ErrorClass.COUNT, x.errorClass());
            x = assertThrows(FerryException.class, () -> w.reduce(Ferry.IN_PLACE, 0, new int[1], 0, 1, Datatype.INT, Op.SUM, 1 - w.rank()));
            assertEquals(ErrorClass.BUFFER, x.errorClass());
            x = assertThrows(FerryException.class, () -> w.gatherv(new int[1], 0, 1, Datatype.INT, new int[2], 0, new int[1], new int[1], Datatype.INT, w.rank()));
            assertEquals(ErrorClass.ARG, x.errorClass());
            assertTrue(x.getMessage().contains("counts"), x.getMessage());
            w.barrier(); // nothing above started a collective: the ranks still agree
            Comm d = w.dup();
            d.free();
            x = assertThrows(FerryException.class, d::barrier);
            assertEquals(ErrorClass.COMM, x.errorClass());
        });
    }

    /** A member that leaves fails the collectives that need it, at the ranks that wait for it; the others go on. */
    @Test
    void aPeerThatLeavesFailsTheCollectivesThatNeedIt() {
        Ferry.runInProcess(3, BOUND, f -> {
            Comm w = f.world();
            if (w.rank() == 2) {
                return;
            }
            FerryException x = assertThrows(FerryException.class, w::barrier);
            assertEquals(ErrorClass.PROC_FAILED, x.errorClass());
            assertTrue(x.getMessage().contains("barrier") && x.getMessage().contains("rank 2"), x.getMessage());
            x = assertThrows(FerryException.class, () -> w.allreduce(new int[1], 0, new int[1], 0, 1, Datatype.INT, Op.SUM));
            assertEquals(ErrorClass.PROC_FAILED, x.errorClass());
            x = assertThrows(FerryException.class, () -> w.bcast(new int[1], 0, 1, Datatype.INT, 0));
            assertEquals(ErrorClass.PROC_FAILED, x.errorClass());
            // the two others still talk
            int[] v = {w.rank()};
            w.sendrecvReplace(v, 0, 1, Datatype.INT, 1 - w.rank(), 1, 1 - w.rank(), 1);
            assertEquals(1 - w.rank(), v[0]);
        });
    }
}
