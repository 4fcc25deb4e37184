package dev.ferry;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The randomized check of every collective: each rank draws the same random collective, type,
 * count (0 included), operation and root from a seed the ranks share, runs it, and checks the
 * result against a reference it computes from every rank's input (drawn from the same seed). Used
 * by {@link CollectivesTest} in-process and by {@link ApiRanks} across processes.
 */
final class RandomCollectives {
    private RandomCollectives() {
    }

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
}
