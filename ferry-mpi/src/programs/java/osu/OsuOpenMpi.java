package osu;

import mpi.*;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * OSU-style benchmarks written against the Open MPI Java bindings' API, to run unchanged on Ferry's
 * mpi package and on Open MPI's own bindings: latency (ping-pong, one-way time), bw (a window of 64
 * non-blocking sends, then an ack), bibw (both ways at once) between ranks 0 and 1, and allreduce
 * (sum of doubles) on every rank. Buffers are byte arrays or direct byte buffers. Each size is
 * timed in several repetitions; rank 0 prints one JSON line per size with the median.
 *
 * <pre>
 *   java osu.OsuOpenMpi IMPL latency|bw|bibw|allreduce array|buffer SIZES [ITERATIONS [REPETITIONS]]
 * </pre>
 */
public class OsuOpenMpi {
    static final int WINDOW = 64;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String impl = args[0], test = args[1], kind = args[2];
        int[] sizes = Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray();
        int iters = args.length > 4 ? Integer.parseInt(args[4]) : 10000;
        int reps = args.length > 5 ? Integer.parseInt(args[5]) : 5;
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        for (int bytes : sizes) {
            int base = test.equals("latency") || test.equals("allreduce") ? iters : Math.max(10, iters / 100);
            int n = bytes >= 65536 ? Math.max(10, base / 10) : base;
            // warm up until this JVM's compiler has been quiet for a second (on 2 cores it competes with the ranks);
            // rank 0 decides for everybody
            long quietSince = System.nanoTime(), compiled = compileMillis(), begin = System.nanoTime();
            for (int[] more = {1}; more[0] == 1; ) {
                once(test, rank, bytes, n, kind);
                long now = System.nanoTime(), c = compileMillis();
                if (c != compiled) {
                    compiled = c;
                    quietSince = now;
                }
                more[0] = now - quietSince < 1_000_000_000L && now - begin < 20_000_000_000L ? 1 : 0;
                MPI.COMM_WORLD.bcast(more, 1, MPI.INT, 0);
            }
            double[] times = new double[reps];
            for (int r = 0; r < reps; r++) {
                times[r] = once(test, rank, bytes, n, kind);
            }
            Arrays.sort(times);
            double median = times[reps / 2];
            if (rank == 0) {
                String value = test.equals("latency") || test.equals("allreduce")
                        ? String.format("\"median_us\":%.4f", median * 1e6)
                        : String.format("\"median_mb_s\":%.1f", median);
                System.out.printf("{\"bench\":\"%s\",\"impl\":\"%s\",\"api\":\"openmpi\",\"buffer\":\"%s\",\"ranks\":%d,\"size\":%d,\"iterations\":%d,\"repetitions\":%d,%s}%n",
                        test, impl, kind, size, bytes, n, reps, value);
            }
        }
        MPI.Finalize();
    }

    /** One timed repetition of {@code test}. */
    static double once(String test, int rank, int bytes, int n, String kind) throws MPIException {
        return switch (test) {
            case "latency" -> latency(rank, bytes, n, kind);
            case "bw" -> bandwidth(rank, bytes, n, kind, false);
            case "bibw" -> bandwidth(rank, bytes, n, kind, true);
            case "allreduce" -> allreduce(bytes, n, kind);
            default -> throw new IllegalArgumentException("test: " + test);
        };
    }

    private static long compileMillis() {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        return jit == null ? 0 : jit.getTotalCompilationTime();
    }

    private static Object buffer(int bytes, String kind) {
        return kind.equals("buffer") ? MPI.newByteBuffer(Math.max(1, bytes)) : new byte[Math.max(1, bytes)];
    }

    /** One-way time of a ping-pong, in seconds. */
    static double latency(int rank, int bytes, int n, String kind) throws MPIException {
        Object buf = buffer(bytes, kind);
        Comm c = MPI.COMM_WORLD;
        c.barrier();
        double start = (System.nanoTime() / 1e9);
        if (rank == 0) {
            for (int i = 0; i < n; i++) {
                c.send(buf, bytes, MPI.BYTE, 1, 1);
                c.recv(buf, bytes, MPI.BYTE, 1, 1);
            }
        } else if (rank == 1) {
            for (int i = 0; i < n; i++) {
                c.recv(buf, bytes, MPI.BYTE, 0, 1);
                c.send(buf, bytes, MPI.BYTE, 0, 1);
            }
        }
        return ((System.nanoTime() / 1e9) - start) / (2.0 * n);
    }

    /** MB/s (10^6 bytes) from rank 0 to rank 1 (and back at once for bibw). */
    static double bandwidth(int rank, int bytes, int n, String kind, boolean both) throws MPIException {
        Comm c = MPI.COMM_WORLD;
        ByteBuffer[] sbufs = new ByteBuffer[WINDOW], rbufs = new ByteBuffer[WINDOW];
        byte[][] sarr = new byte[WINDOW][], rarr = new byte[WINDOW][];
        boolean direct = kind.equals("buffer");
        for (int w = 0; w < WINDOW; w++) {
            if (direct) {
                sbufs[w] = MPI.newByteBuffer(Math.max(1, bytes));
                rbufs[w] = MPI.newByteBuffer(Math.max(1, bytes));
            } else {
                sarr[w] = new byte[Math.max(1, bytes)];
                rarr[w] = new byte[Math.max(1, bytes)];
            }
        }
        byte[] ack = new byte[1];
        Request[] req = new Request[2 * WINDOW];
        c.barrier();
        double start = (System.nanoTime() / 1e9);
        for (int i = 0; i < n; i++) {
            int k = 0;
            if (rank == 0 || rank == 1 && both) {
                for (int w = 0; w < WINDOW; w++) {
                    req[k++] = direct ? c.iSend(sbufs[w], bytes, MPI.BYTE, 1 - rank, 2) : isendArray(c, sarr[w], bytes, 1 - rank);
                }
            }
            if (rank == 1 || rank == 0 && both) {
                for (int w = 0; w < WINDOW; w++) {
                    req[k++] = direct ? c.iRecv(rbufs[w], bytes, MPI.BYTE, 1 - rank, 2) : irecvArray(c, rarr[w], bytes, 1 - rank);
                }
            }
            if (k > 0) {
                Request.waitAll(Arrays.copyOf(req, k));
            }
            if (rank == 1) {
                c.send(ack, 1, MPI.BYTE, 0, 3);
            } else if (rank == 0) {
                c.recv(ack, 1, MPI.BYTE, 1, 3);
            }
        }
        double t = (System.nanoTime() / 1e9) - start;
        return (both ? 2.0 : 1.0) * bytes * WINDOW * (double) n / t / 1e6;
    }

    /**
     * The bindings' non-blocking calls take buffers; an array goes through a heap buffer over it
     * (Open MPI's bindings copy a heap buffer's array as they copy arrays).
     */
    private static Request isendArray(Comm c, byte[] a, int bytes, int dest) throws MPIException {
        return c.iSend(ByteBuffer.wrap(a), bytes, MPI.BYTE, dest, 2);
    }

    private static Request irecvArray(Comm c, byte[] a, int bytes, int source) throws MPIException {
        return c.iRecv(ByteBuffer.wrap(a), bytes, MPI.BYTE, source, 2);
    }

    /** Seconds per allreduce of bytes/8 doubles (rank 0's average). */
    static double allreduce(int bytes, int n, String kind) throws MPIException {
        int count = Math.max(1, bytes / 8);
        Object in, out;
        if (kind.equals("buffer")) {
            in = MPI.newDoubleBuffer(count);
            out = MPI.newDoubleBuffer(count);
        } else {
            in = new double[count];
            out = new double[count];
        }
        Intracomm c = MPI.COMM_WORLD;
        c.barrier();
        double start = (System.nanoTime() / 1e9);
        for (int i = 0; i < n; i++) {
            c.allReduce(in, out, count, MPI.DOUBLE, MPI.SUM);
        }
        return ((System.nanoTime() / 1e9) - start) / n;
    }
}
