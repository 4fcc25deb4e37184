package osu;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.Op;
import dev.ferry.Request;

import java.lang.foreign.Arena;
import java.util.Arrays;

/**
 * The twin of {@link OsuOpenMpi} on Ferry's own API (package dev.ferry), timed the same way, so
 * that the mpi package's cost reads as a ratio: latency, bw, bibw and allreduce with byte arrays
 * or off-heap segments.
 *
 * <pre>
 *   java osu.OsuFerryApi IMPL latency|bw|bibw|allreduce array|segment SIZES [ITERATIONS [REPETITIONS]]
 * </pre>
 */
public class OsuFerryApi {
    static final int WINDOW = 64;

    public static void main(String[] args) {
        try (Ferry ferry = Ferry.init()) {
            Comm world = ferry.world();
            String impl = args[0], test = args[1], kind = args[2];
            int[] sizes = Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray();
            int iters = args.length > 4 ? Integer.parseInt(args[4]) : 10000;
            int reps = args.length > 5 ? Integer.parseInt(args[5]) : 5;
            int rank = world.rank();
            for (int bytes : sizes) {
                int base = test.equals("latency") || test.equals("allreduce") ? iters : Math.max(10, iters / 100);
                int n = bytes >= 65536 ? Math.max(10, base / 10) : base;
                long quietSince = System.nanoTime(), compiled = compileMillis(), begin = System.nanoTime();
                for (int[] more = {1}; more[0] == 1; ) {
                    once(world, test, bytes, n, kind);
                    long now = System.nanoTime(), c = compileMillis();
                    if (c != compiled) {
                        compiled = c;
                        quietSince = now;
                    }
                    more[0] = now - quietSince < 1_000_000_000L && now - begin < 20_000_000_000L ? 1 : 0;
                    world.bcast(more, 0, 1, Datatype.INT, 0);
                }
                double[] times = new double[reps];
                for (int r = 0; r < reps; r++) {
                    times[r] = once(world, test, bytes, n, kind);
                }
                Arrays.sort(times);
                double median = times[reps / 2];
                if (rank == 0) {
                    String value = test.equals("latency") || test.equals("allreduce")
                            ? String.format("\"median_us\":%.4f", median * 1e6)
                            : String.format("\"median_mb_s\":%.1f", median);
                    System.out.printf("{\"bench\":\"%s\",\"impl\":\"%s\",\"api\":\"dev.ferry\",\"buffer\":\"%s\",\"ranks\":%d,\"size\":%d,\"iterations\":%d,\"repetitions\":%d,%s}%n",
                            test, impl, kind, world.size(), bytes, n, reps, value);
                }
            }
        }
    }

    static double once(Comm c, String test, int bytes, int n, String kind) {
        return switch (test) {
            case "latency" -> latency(c, bytes, n, kind);
            case "bw" -> bandwidth(c, bytes, n, kind, false);
            case "bibw" -> bandwidth(c, bytes, n, kind, true);
            case "allreduce" -> allreduce(c, bytes, n, kind);
            default -> throw new IllegalArgumentException("test: " + test);
        };
    }

    private static long compileMillis() {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        return jit == null ? 0 : jit.getTotalCompilationTime();
    }

    private static Object buffer(int bytes, String kind) {
        return kind.equals("segment") ? Arena.global().allocate(Math.max(1, bytes), 64) : new byte[Math.max(1, bytes)];
    }

    static double latency(Comm c, int bytes, int n, String kind) {
        Object buf = buffer(bytes, kind);
        int rank = c.rank();
        c.barrier();
        long start = System.nanoTime();
        if (rank == 0) {
            for (int i = 0; i < n; i++) {
                c.send(buf, 0, bytes, Datatype.BYTE, 1, 1);
                c.recv(buf, 0, bytes, Datatype.BYTE, 1, 1);
            }
        } else if (rank == 1) {
            for (int i = 0; i < n; i++) {
                c.recv(buf, 0, bytes, Datatype.BYTE, 0, 1);
                c.send(buf, 0, bytes, Datatype.BYTE, 0, 1);
            }
        }
        return (System.nanoTime() - start) / 1e9 / (2.0 * n);
    }

    static double bandwidth(Comm c, int bytes, int n, String kind, boolean both) {
        int rank = c.rank();
        Object[] s = new Object[WINDOW], r = new Object[WINDOW];
        for (int w = 0; w < WINDOW; w++) {
            s[w] = buffer(bytes, kind);
            r[w] = buffer(bytes, kind);
        }
        byte[] ack = new byte[1];
        Request[] req = new Request[2 * WINDOW];
        c.barrier();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            int k = 0;
            if (rank == 0 || rank == 1 && both) {
                for (int w = 0; w < WINDOW; w++) {
                    req[k++] = c.isend(s[w], 0, bytes, Datatype.BYTE, 1 - rank, 2);
                }
            }
            if (rank == 1 || rank == 0 && both) {
                for (int w = 0; w < WINDOW; w++) {
                    req[k++] = c.irecv(r[w], 0, bytes, Datatype.BYTE, 1 - rank, 2);
                }
            }
            if (k > 0) {
                Request.waitAll(Arrays.copyOf(req, k));
            }
            if (rank == 1) {
                c.send(ack, 0, 1, Datatype.BYTE, 0, 3);
            } else if (rank == 0) {
                c.recv(ack, 0, 1, Datatype.BYTE, 1, 3);
            }
        }
        double t = (System.nanoTime() - start) / 1e9;
        return (both ? 2.0 : 1.0) * bytes * WINDOW * (double) n / t / 1e6;
    }

    static double allreduce(Comm c, int bytes, int n, String kind) {
        int count = Math.max(1, bytes / 8);
        Object in, out;
        if (kind.equals("segment")) {
            in = Arena.global().allocate(count * 8L, 64);
            out = Arena.global().allocate(count * 8L, 64);
        } else {
            in = new double[count];
            out = new double[count];
        }
        c.barrier();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            c.allreduce(in, 0, out, 0, count, Datatype.DOUBLE, Op.SUM);
        }
        return (System.nanoTime() - start) / 1e9 / n;
    }
}
