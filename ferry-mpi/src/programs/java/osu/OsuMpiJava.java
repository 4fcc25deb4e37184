package osu;

import mpi.*;

import java.util.Arrays;

/**
 * The benchmarks of {@link OsuOpenMpi} written against mpiJava 1.2, to run unchanged on Ferry's
 * mpi package and on MPJ Express: latency, bw, bibw between ranks 0 and 1 and allreduce, on
 * arrays (the only buffers mpiJava has); and object-allreduce, an Allreduce of SIZE small
 * serializable objects (MPI.OBJECT) with a user operation.
 *
 * <pre>
 *   java osu.OsuMpiJava IMPL latency|bw|bibw|allreduce|object-allreduce SIZES [ITERATIONS [REPETITIONS]]
 * </pre>
 */
public class OsuMpiJava {
    static final int WINDOW = 64;

    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        String impl = rest[0], test = rest[1];
        int[] sizes = Arrays.stream(rest[2].split(",")).mapToInt(Integer::parseInt).toArray();
        int iters = rest.length > 3 ? Integer.parseInt(rest[3]) : 10000;
        int reps = rest.length > 4 ? Integer.parseInt(rest[4]) : 5;
        int rank = MPI.COMM_WORLD.Rank(), size = MPI.COMM_WORLD.Size();
        for (int bytes : sizes) {
            int base = test.equals("object-allreduce") ? Math.max(10, iters / 20)
                    : test.equals("latency") || test.equals("allreduce") ? iters : Math.max(10, iters / 100);
            int n = bytes >= 65536 ? Math.max(10, base / 10) : base;
            // warm up until this JVM's compiler has been quiet for a second (on 2 cores it competes with the ranks);
            // rank 0 decides for everybody
            long quietSince = System.nanoTime(), compiled = compileMillis(), begin = System.nanoTime();
            for (int[] more = {1}; more[0] == 1; ) {
                once(test, rank, bytes, n);
                long now = System.nanoTime(), c = compileMillis();
                if (c != compiled) {
                    compiled = c;
                    quietSince = now;
                }
                more[0] = now - quietSince < 1_000_000_000L && now - begin < 20_000_000_000L ? 1 : 0;
                MPI.COMM_WORLD.Bcast(more, 0, 1, MPI.INT, 0);
            }
            double[] times = new double[reps];
            for (int r = 0; r < reps; r++) {
                times[r] = once(test, rank, bytes, n);
            }
            Arrays.sort(times);
            double median = times[reps / 2];
            if (rank == 0) {
                String value = !test.equals("bw") && !test.equals("bibw")
                        ? String.format("\"median_us\":%.4f", median * 1e6)
                        : String.format("\"median_mb_s\":%.1f", median);
                System.out.printf("{\"bench\":\"%s\",\"impl\":\"%s\",\"api\":\"mpijava\",\"buffer\":\"array\",\"ranks\":%d,\"size\":%d,\"iterations\":%d,\"repetitions\":%d,%s}%n",
                        test, impl, size, bytes, n, reps, value);
            }
        }
        MPI.Finalize();
    }

    /** One timed repetition of {@code test}. */
    static double once(String test, int rank, int bytes, int n) throws Exception {
        return switch (test) {
            case "latency" -> latency(rank, bytes, n);
            case "bw" -> bandwidth(rank, bytes, n, false);
            case "bibw" -> bandwidth(rank, bytes, n, true);
            case "allreduce" -> allreduce(bytes, n);
            case "object-allreduce" -> objectAllreduce(bytes, n);
            default -> throw new IllegalArgumentException("test: " + test);
        };
    }

    private static long compileMillis() {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        return jit == null ? 0 : jit.getTotalCompilationTime();
    }

    static double latency(int rank, int bytes, int n) throws Exception {
        byte[] buf = new byte[Math.max(1, bytes)];
        Intracomm c = MPI.COMM_WORLD;
        c.Barrier();
        double start = (System.nanoTime() / 1e9);
        if (rank == 0) {
            for (int i = 0; i < n; i++) {
                c.Send(buf, 0, bytes, MPI.BYTE, 1, 1);
                c.Recv(buf, 0, bytes, MPI.BYTE, 1, 1);
            }
        } else if (rank == 1) {
            for (int i = 0; i < n; i++) {
                c.Recv(buf, 0, bytes, MPI.BYTE, 0, 1);
                c.Send(buf, 0, bytes, MPI.BYTE, 0, 1);
            }
        }
        return ((System.nanoTime() / 1e9) - start) / (2.0 * n);
    }

    static double bandwidth(int rank, int bytes, int n, boolean both) throws Exception {
        Intracomm c = MPI.COMM_WORLD;
        byte[][] s = new byte[WINDOW][Math.max(1, bytes)], r = new byte[WINDOW][Math.max(1, bytes)];
        byte[] ack = new byte[1];
        Request[] req = new Request[2 * WINDOW];
        c.Barrier();
        double start = (System.nanoTime() / 1e9);
        for (int i = 0; i < n; i++) {
            int k = 0;
            if (rank == 0 || rank == 1 && both) {
                for (int w = 0; w < WINDOW; w++) {
                    req[k++] = c.Isend(s[w], 0, bytes, MPI.BYTE, 1 - rank, 2);
                }
            }
            if (rank == 1 || rank == 0 && both) {
                for (int w = 0; w < WINDOW; w++) {
                    req[k++] = c.Irecv(r[w], 0, bytes, MPI.BYTE, 1 - rank, 2);
                }
            }
            if (k > 0) {
                Request.Waitall(Arrays.copyOf(req, k));
            }
            if (rank == 1) {
                c.Send(ack, 0, 1, MPI.BYTE, 0, 3);
            } else if (rank == 0) {
                c.Recv(ack, 0, 1, MPI.BYTE, 1, 3);
            }
        }
        double t = (System.nanoTime() / 1e9) - start;
        return (both ? 2.0 : 1.0) * bytes * WINDOW * (double) n / t / 1e6;
    }

    /** A small object as applications reduce them: a count and a sum. */
    record Tally(int count, double sum) implements java.io.Serializable {
    }

    static final Op ADD_TALLIES = new Op(new User_function() {
        @Override
        public void Call(Object in, int inOffset, Object inout, int inoutOffset, int count, Datatype type) {
            Object[] a = (Object[]) in, b = (Object[]) inout;
            for (int i = 0; i < count; i++) {
                Tally x = (Tally) a[inOffset + i], y = (Tally) b[inoutOffset + i];
                b[inoutOffset + i] = new Tally(x.count() + y.count(), x.sum() + y.sum());
            }
        }
    }, true);

    static double objectAllreduce(int objects, int n) throws Exception {
        Object[] in = new Object[objects], out = new Object[objects];
        for (int i = 0; i < objects; i++) {
            in[i] = new Tally(1, i + 0.5);
        }
        Intracomm c = MPI.COMM_WORLD;
        c.Barrier();
        double start = (System.nanoTime() / 1e9);
        for (int i = 0; i < n; i++) {
            c.Allreduce(in, 0, out, 0, objects, MPI.OBJECT, ADD_TALLIES);
        }
        double t = ((System.nanoTime() / 1e9) - start) / n;
        Tally last = (Tally) out[objects - 1];
        if (last.count() != c.Size()) {
            throw new IllegalStateException("object allreduce: count " + last.count() + ", not " + c.Size());
        }
        return t;
    }

    static double allreduce(int bytes, int n) throws Exception {
        int count = Math.max(1, bytes / 8);
        double[] in = new double[count], out = new double[count];
        Intracomm c = MPI.COMM_WORLD;
        c.Barrier();
        double start = (System.nanoTime() / 1e9);
        for (int i = 0; i < n; i++) {
            c.Allreduce(in, 0, out, 0, count, MPI.DOUBLE, MPI.SUM);
        }
        return ((System.nanoTime() / 1e9) - start) / n;
    }
}
