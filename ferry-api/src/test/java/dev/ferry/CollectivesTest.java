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

    @Test
    void everyCollectiveAgreesWithTheReferenceOnOneToNineRanks() {
        for (int p : new int[] {1, 2, 3, 4, 5, 7, 8, 9}) {
            int size = p;
            Ferry.runInProcess(p, BOUND, f -> RandomCollectives.randomCollectives(f.world(), 1000 + size, 64, false));
        }
        for (String used : List.of("bcast:binomial", "allreduce:recursive_doubling", "allreduce:ring",
                "gather:binomial", "gather:linear", "scatter:binomial", "scatter:linear", "allgather:recursive_doubling",
                "allgather:ring", "alltoall:linear", "alltoall:pairwise", "reduce_scatter:ring", "scan:recursive_doubling")) {
            assertTrue(RandomCollectives.USED.contains(used), "the random collectives never ran " + used + "; they ran " + RandomCollectives.USED);
        }
    }

    @Test
    void nonBlockingCollectivesProgressWhileTheCallerTestsAndWithAProgressThread() {
        Ferry.runInProcess(6, BOUND, f -> RandomCollectives.randomCollectives(f.world(), 77, 48, true));
        Ferry.runInProcess(5, BOUND, new FerryConfig().progressThread(true), f -> RandomCollectives.randomCollectives(f.world(), 78, 32, true));
    }

    @Test
    void smallBlockingCollectivesAgreeAcrossRanksWhoseLayoutsDiffer() {
        // MPI lets a bcast's root and the others use different datatypes of one signature: every
        // rank must still take the same way (the small blocking path packs what is not contiguous)
        Ferry.runInProcess(3, BOUND, f -> {
            Comm w = f.world();
            for (int round = 0; round < 50; round++) {
                if (w.rank() == 0) {
                    int[] v = {round, round + 1, round + 2, round + 3};
                    w.bcast(v, 0, 4, Datatype.INT, 0);
                } else {
                    int[] spread = new int[8];
                    w.bcast(spread, 0, 1, Datatype.vector(4, 1, 2, Datatype.INT), 0);
                    assertArrayEquals(new int[] {round, 0, round + 1, 0, round + 2, 0, round + 3, 0}, spread);
                }
                long[] sum = new long[2];
                w.allreduce(new long[] {w.rank(), round}, 0, sum, 0, 2, Datatype.LONG, Op.SUM);
                assertArrayEquals(new long[] {3, 3L * round}, sum);
                w.ibarrier().await(); // a scheduled collective between them keeps its own tags
            }
        });
    }

    /**
     * No rank leaves a barrier before every rank entered it, in both algorithms, blocking (the
     * caller's thread) and not (a schedule), with small collectives between barriers sharing
     * their one tag; ranks arrive in a random order, each after a random stretch of its own work.
     */
    @Test
    void aBarrierHoldsEveryRankUntilAllArrived() {
        for (String alg : new String[] {"dissemination", "linear"}) {
            for (int p : new int[] {1, 2, 3, 4, 5, 7, 8}) {
                int rounds = 200;
                java.util.concurrent.atomic.AtomicIntegerArray arrived = new java.util.concurrent.atomic.AtomicIntegerArray(rounds);
                Ferry.runInProcess(p, BOUND, new FerryConfig().set("FERRY_COLL_BARRIER", alg), f -> {
                    Comm w = f.world();
                    java.util.SplittableRandom random = new java.util.SplittableRandom(p * 31L + w.rank());
                    for (int round = 0; round < rounds; round++) {
                        for (int spin = random.nextInt(2000); spin > 0; spin--) {
                            Thread.onSpinWait();
                        }
                        arrived.incrementAndGet(round);
                        if (round % 3 == 2) {
                            w.ibarrier().await();
                        } else {
                            w.barrier();
                        }
                        assertEquals(p, arrived.get(round), alg + " barrier " + round + " of " + p + " ranks: rank " + w.rank() + " left early");
                        assertEquals(alg, w.lastCollectiveAlgorithm());
                        int[] v = {round, w.rank()};
                        w.bcast(v, 0, 2, Datatype.INT, round % p);
                        assertArrayEquals(new int[] {round, round % p}, v);
                        long[] sum = new long[1];
                        w.allreduce(new long[] {w.rank()}, 0, sum, 0, 1, Datatype.LONG, Op.SUM);
                        assertEquals((long) p * (p - 1) / 2, sum[0]);
                    }
                });
            }
        }
    }

    @Test
    void sixteenRanks() {
        Ferry.runInProcess(16, BOUND, f -> RandomCollectives.randomCollectives(f.world(), 16, 32, false));
    }

    @Test
    void onSplitCommunicatorsBothHalvesRunTheirOwnCollectives() {
        Ferry.runInProcess(7, BOUND, f -> {
            try (Comm half = f.world().split(f.rank() % 2, -f.rank())) { // reversed order in each half
                RandomCollectives.randomCollectives(half, 300 + f.rank() % 2, 32, false);
            }
        });
    }

    @Test
    void everyForcedAlgorithmAgreesWithTheReference() {
        String[][] forced = {{"FERRY_COLL_BCAST", "pipeline"}, {"FERRY_COLL_BCAST", "binomial"},
                {"FERRY_COLL_ALLREDUCE", "ring"}, {"FERRY_COLL_ALLREDUCE", "reduce_bcast"}, {"FERRY_COLL_ALLREDUCE", "recursive_doubling"},
                {"FERRY_COLL_REDUCE_SCATTER", "reduce_scatterv"}, {"FERRY_COLL_GATHER", "linear"}, {"FERRY_COLL_GATHER", "binomial"},
                {"FERRY_COLL_SCATTER", "linear"}, {"FERRY_COLL_SCATTER", "binomial"}, {"FERRY_COLL_ALLGATHER", "ring"},
                {"FERRY_COLL_ALLGATHER", "recursive_doubling"}, {"FERRY_COLL_ALLTOALL", "pairwise"}, {"FERRY_COLL_ALLTOALL", "linear"},
                {"FERRY_COLL_ALLREDUCE", "rabenseifner"}, {"FERRY_COLL_ALLGATHER", "bruck"},
                {"FERRY_COLL_BCAST", "linear"}, {"FERRY_COLL_ALLREDUCE", "linear"}};
        for (String[] f : forced) {
            boolean doubling = f[1].equals("rabenseifner") || f[1].equals("bruck"); // their index arithmetic: more sizes of job
            for (int p : doubling ? new int[] {3, 4, 6, 7} : new int[] {3, 4}) {
                FerryConfig config = new FerryConfig().set(f[0], f[1]);
                Ferry.runInProcess(p, BOUND, config, ferry -> RandomCollectives.randomCollectives(ferry.world(), f[1].hashCode() + p, 32, false));
            }
        }
    }

    /**
     * Reductions past the temporary pool's bound (64 MiB) are received and combined in segments
     * (32 MiB, the last one shorter): recursive doubling on 3 ranks (a fold) and on 4, the
     * binomial reduce under reduce_bcast, and a reduce to the last rank; with a sum, and with a
     * non-commutative operation (the lower rank's value) whose order every segment must keep.
     * Every element checked.
     */
    @Test
    void reductionsPastThePoolsBoundGoInSegmentsEachElementRight() {
        long count = (80L << 20) / 8 + 3; // three segments of longs, the last 24 bytes over 16 MiB
        Op first = Op.create((in, inout, n, type) -> MemorySegment.copy(in, 0, inout, 0, 8L * n), false);
        for (String alg : new String[] {"recursive_doubling", "reduce_bcast"}) {
            for (int p : new int[] {3, 4}) {
                Ferry.runInProcess(p, BOUND, new FerryConfig().set("FERRY_COLL_ALLREDUCE", alg), f -> {
                    Comm w = f.world();
                    int me = w.rank(), size = w.size();
                    try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared()) { // the peers' threads reach it
                        MemorySegment m = arena.allocate(8 * count, 8), out = arena.allocate(8 * count, 8);
                        for (long i = 0; i < count; i++) {
                            m.setAtIndex(ValueLayout.JAVA_LONG, i, i * 7 + me);
                        }
                        w.allreduce(m, 0L, out, 0L, count, Datatype.LONG, Op.SUM);
                        assertEquals(alg, w.lastCollectiveAlgorithm());
                        for (long i = 0; i < count; i++) {
                            if (out.getAtIndex(ValueLayout.JAVA_LONG, i) != i * 7 * size + (long) size * (size - 1) / 2) {
                                fail(alg + " on " + size + " ranks: the sum's element " + i + " is " + out.getAtIndex(ValueLayout.JAVA_LONG, i));
                            }
                        }
                        w.allreduce(m, 0L, out, 0L, count, Datatype.LONG, first);
                        w.reduce(m, 0L, m, 0L, count, Datatype.LONG, first, size - 1);
                        for (long i = 0; i < count; i++) {
                            if (out.getAtIndex(ValueLayout.JAVA_LONG, i) != i * 7 || me == size - 1 && m.getAtIndex(ValueLayout.JAVA_LONG, i) != i * 7) {
                                fail(alg + " on " + size + " ranks: rank 0's value is not first at element " + i);
                            }
                        }
                    }
                });
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
        // a crowded node (more ranks than cores): barriers, small bcasts and allreduces go linearly; otherwise by tree
        int crowded = Runtime.getRuntime().availableProcessors() + 1;
        Ferry.runInProcess(crowded, BOUND, f -> {
            f.world().barrier();
            assertEquals("linear", f.world().lastCollectiveAlgorithm());
            f.world().bcast(new int[8], 0, 8, Datatype.INT, 0);
            assertEquals("linear", f.world().lastCollectiveAlgorithm());
            f.world().allreduce(Ferry.IN_PLACE, 0, new int[8], 0, 8, Datatype.INT, Op.SUM);
            assertEquals("linear", f.world().lastCollectiveAlgorithm());
            f.world().bcast(new int[1 << 14], 0, 1 << 14, Datatype.INT, 0);
            assertEquals("binomial", f.world().lastCollectiveAlgorithm(), "large");
        });
        if (crowded > 3) { // at least 2 cores: 2 ranks are not crowded
            Ferry.runInProcess(2, BOUND, f -> {
                f.world().barrier();
                assertEquals("dissemination", f.world().lastCollectiveAlgorithm(), "2 ranks on at least 2 cores");
                f.world().bcast(new int[8], 0, 8, Datatype.INT, 0);
                assertEquals("binomial", f.world().lastCollectiveAlgorithm(), "2 ranks on at least 2 cores");
            });
        }
        Ferry.runInProcess(3, BOUND, f -> {
            int[] all = new int[3 * 8];
            f.world().allgather(new int[8], 0, 8, Datatype.INT, all, 0, 8, Datatype.INT);
            assertEquals("bruck", f.world().lastCollectiveAlgorithm(), "small, not a power of two of ranks");
            all = new int[3 * 8192];
            f.world().allgather(new int[8192], 0, 8192, Datatype.INT, all, 0, 8192, Datatype.INT);
            assertEquals("ring", f.world().lastCollectiveAlgorithm(), "large");
        });
        Ferry.runInProcess(3, BOUND, new FerryConfig().set("FERRY_COLL_ALLGATHER", "recursive_doubling"), f -> {
            f.world().allgather(new int[8], 0, 8, Datatype.INT, new int[3 * 8], 0, 8, Datatype.INT);
            assertEquals("bruck", f.world().lastCollectiveAlgorithm(), "recursive doubling needs a power of two: the rule's own choice");
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

    /** The long-count forms (MPI-4's _c bindings) give what the int forms give, v and w forms with long[] counts and displacements included. */
    @Test
    void longCountFormsGiveWhatTheIntFormsGive() {
        Ferry.runInProcess(4, BOUND, f -> {
            Comm w = f.world();
            int p = w.size(), me = w.rank(), n = 5;
            Datatype t = Datatype.INT;
            int[] send = new int[n * p];
            for (int i = 0; i < send.length; i++) {
                send[i] = me * 100 + i;
            }
            int[] counts = new int[p], displs = new int[p];
            long[] lcounts = new long[p], ldispls = new long[p], mine = new long[p];
            int[] mineInt = new int[p];
            for (int i = 0; i < p; i++) {
                counts[i] = i + 1;
                displs[i] = i * n;
                lcounts[i] = counts[i];
                ldispls[i] = displs[i];
                mine[i] = me + 1;
                mineInt[i] = me + 1;
            }
            Datatype[] types = {t, t, t, t};
            int[] bytes = new int[p], byteDispls = new int[p];
            long[] lbytes = new long[p], lbyteDispls = new long[p];
            for (int i = 0; i < p; i++) {
                bytes[i] = 1;
                byteDispls[i] = 4 * i;
                lbytes[i] = 1;
                lbyteDispls[i] = 4 * i;
            }
            for (int k = 0; k < 16; k++) {
                int[] a = new int[n * p], b = new int[n * p];
                if (k == 0 && me == 1) {
                    System.arraycopy(send, 0, a, 0, n);
                    System.arraycopy(send, 0, b, 0, n);
                }
                switch (k) {
                    case 0 -> { w.bcast(a, 0, n, t, 1); w.bcast(b, 0L, (long) n, t, 1); }
                    case 1 -> { w.allreduce(send, 0, a, 0, n, t, Op.SUM); w.allreduce(send, 0L, b, 0L, n, t, Op.SUM); }
                    case 2 -> { w.reduce(send, 0, a, 0, n, t, Op.MAX, 2); w.reduce(send, 0L, b, 0L, n, t, Op.MAX, 2); }
                    case 3 -> { w.scan(send, 0, a, 0, n, t, Op.SUM); w.scan(send, 0L, b, 0L, n, t, Op.SUM); }
                    case 4 -> { w.exscan(send, 0, a, 0, n, t, Op.SUM); w.exscan(send, 0L, b, 0L, n, t, Op.SUM); }
                    case 5 -> { w.reduceScatterBlock(send, 0, a, 0, 2, t, Op.SUM); w.reduceScatterBlock(send, 0L, b, 0L, 2L, t, Op.SUM); }
                    case 6 -> { w.reduceScatter(send, 0, a, 0, counts, t, Op.SUM); w.reduceScatter(send, 0L, b, 0L, lcounts, t, Op.SUM); }
                    case 7 -> { w.gather(send, 0, n, t, a, 0, n, t, 3); w.gather(send, 0L, n, t, b, 0L, n, t, 3); }
                    case 8 -> { w.gatherv(send, 0, me + 1, t, a, 0, counts, displs, t, 0); w.gatherv(send, 0L, me + 1, t, b, 0L, lcounts, ldispls, t, 0); }
                    case 9 -> { w.scatter(send, 0, n, t, a, 0, n, t, 2); w.scatter(send, 0L, n, t, b, 0L, n, t, 2); }
                    case 10 -> { w.scatterv(send, 0, counts, displs, t, a, 0, me + 1, t, 1); w.scatterv(send, 0L, lcounts, ldispls, t, b, 0L, me + 1, t, 1); }
                    case 11 -> { w.allgather(send, 0, n, t, a, 0, n, t); w.allgather(send, 0L, n, t, b, 0L, n, t); }
                    case 12 -> { w.allgatherv(send, 0, me + 1, t, a, 0, counts, displs, t); w.allgatherv(send, 0L, me + 1, t, b, 0L, lcounts, ldispls, t); }
                    case 13 -> { w.alltoall(send, 0, 1, t, a, 0, 1, t); w.alltoall(send, 0L, 1L, t, b, 0L, 1L, t); }
                    case 14 -> { w.alltoallv(send, 0, counts, displs, t, a, 0, mineInt, displs, t); w.alltoallv(send, 0L, lcounts, ldispls, t, b, 0L, mine, ldispls, t); }
                    default -> { w.alltoallw(send, 0, bytes, byteDispls, types, a, 0, bytes, byteDispls, types);
                        w.alltoallw(send, 0L, lbytes, lbyteDispls, types, b, 0L, lbytes, lbyteDispls, types); }
                }
                assertArrayEquals(a, b, "collective " + k + " at rank " + me);
            }
            FerryException e = assertThrows(FerryException.class, () -> w.allreduce(send, 0L, new int[n], 0L, 1L << 40, t, Op.SUM));
            assertEquals(ErrorClass.COUNT, e.errorClass());
        });
    }
}
