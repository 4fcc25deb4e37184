package dev.ferry.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Options of {@code ferry bench driver-latency|driver-bandwidth}.
 *
 * <pre>{@code
 * BenchOptions o = BenchOptions.parse("driver-latency", List.of("--driver", "self", "--sizes", "0,8,64", "--format", "json"));
 * }</pre>
 *
 * @param benchmark  driver-latency or driver-bandwidth
 * @param driver     the driver's name
 * @param sizes      message sizes in bytes
 * @param iterations round trips (latency) or messages (bandwidth) per size, before the byte budget caps it
 * @param warmup     untimed iterations per size
 * @param window     sends in flight per bandwidth sample
 * @param format     table, csv or json
 * @param references whether to measure ref-shm and ref-nio in the same run
 * @param rounds     how many times the whole command runs, its phases interleaved (see {@link Rounds})
 * @param posted     receives each rank posts on other tags before an API benchmark times anything
 * @param ranks      the numbers of ranks a collective benchmark runs on
 * @param mode       the API latency's send mode beside the standard send: {@code standard} (none) or {@code bsend};
 *                   passive's target entry: {@code standard}, or {@code counted} (it counts the operations)
 * @param threads    partitioned: the threads that ready the partitions (the rank's main thread among them)
 */
public record BenchOptions(String benchmark, String driver, List<Long> sizes, long iterations, long warmup,
                           int window, String format, boolean references, int rounds, int posted, List<Integer> ranks,
                           List<String> peerPrefix, String mode, int threads, String buffers) {
    public static final String LATENCY = "driver-latency";
    public static final String BANDWIDTH = "driver-bandwidth";
    public static final String ENGINE_LATENCY = "engine-latency";
    public static final String ENGINE_BANDWIDTH = "engine-bandwidth";
    public static final String PTL_PUT_LATENCY = "ptl-put-latency";
    public static final String PTL_GET_LATENCY = "ptl-get-latency";
    public static final String PTL_ATOMIC_LATENCY = "ptl-atomic-latency";
    public static final String PTL_PUT_BANDWIDTH = "ptl-put-bandwidth";
    private static final List<String> PORTALS = List.of(PTL_PUT_LATENCY, PTL_GET_LATENCY, PTL_ATOMIC_LATENCY, PTL_PUT_BANDWIDTH);
    /** The Portals library serving a process that makes no call (its passive progress). */
    public static final String PASSIVE = "passive";
    /** MPI-4's partitioned communication between two ranks, beside one send of the same bytes. */
    public static final String PARTITIONED = "partitioned";
    /** OSU's overlap: a large receive posted, a computation, the wait; caller and thread progress, and agent mode with each. */
    public static final String OVERLAP = "overlap";
    /** OSU's one-sided benchmarks on the application API's windows (passive target: lock once, flush per operation or window). */
    public static final String PUT_LATENCY = "put-latency";
    public static final String GET_LATENCY = "get-latency";
    public static final String ACC_LATENCY = "acc-latency";
    public static final String FETCH_OP_LATENCY = "fetch-op-latency";
    public static final String CAS_LATENCY = "cas-latency";
    public static final String PUT_BW = "put-bw";
    public static final String GET_BW = "get-bw";
    public static final List<String> WINDOWS = List.of(PUT_LATENCY, GET_LATENCY, ACC_LATENCY, FETCH_OP_LATENCY, CAS_LATENCY, PUT_BW, GET_BW);
    /** OSU's point-to-point benchmarks on the application API. */
    public static final String API_LATENCY = "latency";
    public static final String BW = "bw";
    public static final String BIBW = "bibw";
    public static final String MBW_MR = "mbw-mr";
    private static final List<String> API = List.of(API_LATENCY, BW, BIBW, MBW_MR);
    /** OSU's collective benchmarks on the application API, each beside the same operation built naively from point-to-point. */
    public static final List<String> COLLECTIVES = List.of("barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall", "agree", "shrink", "allreduce-init");
    /** Every benchmark {@code ferry bench} runs (besides {@code jmh} and {@code wireup}). */
    public static final List<String> KNOWN = List.of(LATENCY, BANDWIDTH, ENGINE_LATENCY, ENGINE_BANDWIDTH, PTL_PUT_LATENCY, PTL_GET_LATENCY,
            PTL_ATOMIC_LATENCY, PTL_PUT_BANDWIDTH, PUT_LATENCY, GET_LATENCY, ACC_LATENCY, FETCH_OP_LATENCY, CAS_LATENCY, PUT_BW, GET_BW,
            API_LATENCY, BW, BIBW, MBW_MR, "barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall", "agree", "shrink", "allreduce-init", PARTITIONED, OVERLAP, PASSIVE);
    /** Bytes one size may move (each way) before its iteration count is cut: keeps 4 MiB sizes to seconds. */
    public static final long BYTE_BUDGET = 2L << 30;
    /** Most rounds one command may ask for. */
    public static final int MAX_ROUNDS = 99;
    /** Least duration of each warm-up. */
    public static final long WARMUP_NANOS = 500_000_000L;
    /** A warm-up also lasts until this JVM's JIT compiled nothing for this long... */
    static final long JIT_QUIET_NANOS = 250_000_000L;
    /** ...but no longer than this: a JIT that never settles does not stall the benchmark. */
    static final long WARMUP_MAX_NANOS = 5_000_000_000L;

    public static BenchOptions parse(String benchmark, List<String> args) {
        if (!KNOWN.contains(benchmark)) {
            throw new UsageException("unknown benchmark '" + benchmark + "' (known: " + String.join(", ", KNOWN) + ")");
        }
        boolean lat = benchmark.endsWith("latency");
        boolean portals = PORTALS.contains(benchmark);
        boolean collective = COLLECTIVES.contains(benchmark);
        boolean windows = WINDOWS.contains(benchmark);
        boolean passive = benchmark.equals(PASSIVE);
        boolean partitioned = benchmark.equals(PARTITIONED);
        boolean overlap = benchmark.equals(OVERLAP);
        String driver = passive ? "self,shm,tcp" : overlap ? "tcp"
                : benchmark.startsWith("engine-") || portals || windows || API.contains(benchmark) || collective || partitioned ? "shm" : "self";
        List<Long> sizes = passive || benchmark.equals(PTL_ATOMIC_LATENCY) || List.of(ACC_LATENCY, FETCH_OP_LATENCY, CAS_LATENCY).contains(benchmark) ? List.of(8L)
                : windows && lat ? List.of(8L, 4096L, 65536L, 1048576L)
                : portals && lat ? List.of(8L, 4096L, 65536L, 1048576L)
                : collective ? (benchmark.equals("barrier") || benchmark.equals("shrink") ? List.of(0L) : benchmark.equals("agree") ? List.of(4L)
                        : List.of(8L, 1024L, 65536L, 1048576L))
                : partitioned || overlap ? List.of(4194304L)
                : lat ? List.of(0L, 8L, 64L, 512L, 4096L, 32768L, 262144L, 1048576L)
                : List.of(4096L, 65536L, 1048576L, 4194304L);
        long iterations = passive ? 200 : overlap ? 200 : collective || partitioned ? 2_000 : lat ? 100_000 : 20_000;
        List<Integer> ranks = List.of(2, 4);
        long warmup = -1;
        int window = 16;
        String format = "table";
        boolean refs = true;
        int rounds = 1;
        int posted = 0;
        List<String> peerPrefix = List.of();
        String mode = "standard";
        int threads = 4;
        String buffers = "";
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--driver" -> driver = value(args, ++i, a);
                case "--sizes" -> sizes = sizes(value(args, ++i, a));
                case "--iterations" -> iterations = positive(value(args, ++i, a), a);
                case "--warmup" -> warmup = nonNegative(value(args, ++i, a), a);
                case "--threads" -> threads = (int) Math.min(64, positive(value(args, ++i, a), a));
                case "--window" -> window = (int) Math.min(1024, positive(value(args, ++i, a), a));
                case "--format" -> {
                    format = value(args, ++i, a).toLowerCase(Locale.ROOT);
                    if (!List.of("table", "csv", "json").contains(format)) {
                        throw new UsageException("--format takes table, csv or json, not '" + args.get(i) + "'");
                    }
                }
                case "--no-references" -> refs = false;
                case "--ranks" -> {
                    if (!collective) {
                        throw new UsageException("--ranks is for the collective benchmarks (" + String.join(", ", COLLECTIVES) + "), not " + benchmark);
                    }
                    List<Integer> rs = new java.util.ArrayList<>();
                    for (String v : value(args, ++i, a).split(",")) {
                        long n = positive(v, a);
                        if (n > 64) {
                            throw new UsageException("--ranks takes at most 64 ranks, not " + v);
                        }
                        rs.add((int) n);
                    }
                    ranks = List.copyOf(rs);
                }
                case "--posted" -> {
                    if (!API.contains(benchmark)) {
                        throw new UsageException("--posted is for the API benchmarks (latency, bw, bibw, mbw-mr), not " + benchmark);
                    }
                    posted = (int) Math.min(1_000_000, nonNegative(value(args, ++i, a), a));
                }
                case "--peer-prefix" -> {
                    if (!benchmark.equals(LATENCY) && !benchmark.equals(BANDWIDTH)) {
                        throw new UsageException("--peer-prefix is for driver-latency and driver-bandwidth, not " + benchmark);
                    }
                    peerPrefix = List.of(value(args, ++i, a).strip().split("\\s+"));
                }
                case "--mode" -> {
                    if (!benchmark.equals(API_LATENCY) && !passive) {
                        throw new UsageException("--mode is for latency (the API's ping-pong) and passive, not " + benchmark);
                    }
                    mode = value(args, ++i, a).toLowerCase(Locale.ROOT);
                    List<String> modes = passive ? List.of("standard", "counted") : List.of("standard", "bsend");
                    if (!modes.contains(mode)) {
                        throw new UsageException("--mode takes " + String.join(" or ", modes) + " for " + benchmark + ", not '" + args.get(i) + "'");
                    }
                }
                case "--buffers" -> {
                    boolean api = benchmark.equals(BW) || benchmark.equals(BIBW);
                    if (!benchmark.equals(ENGINE_BANDWIDTH) && !overlap && !api && !passive) {
                        throw new UsageException("--buffers is for engine-bandwidth, bw, bibw, overlap and passive, not " + benchmark);
                    }
                    buffers = value(args, ++i, a).toLowerCase(Locale.ROOT);
                    if (!(benchmark.equals(ENGINE_BANDWIDTH) ? List.of("offheap", "arena", "both") : List.of("offheap", "arena")).contains(buffers)) {
                        throw new UsageException("--buffers takes offheap, arena" + (benchmark.equals(ENGINE_BANDWIDTH) ? " or both" : "") + ", not '" + args.get(i) + "'");
                    }
                }
                case "--rounds" -> {
                    rounds = (int) positive(value(args, ++i, a), a);
                    if (rounds > MAX_ROUNDS) {
                        throw new UsageException("--rounds takes at most " + MAX_ROUNDS + ", not " + args.get(i));
                    }
                }
                default -> throw new UsageException("unknown option '" + a + "' for " + benchmark);
            }
        }
        if (warmup < 0) {
            warmup = Math.max(10, iterations / 10);
        }
        return new BenchOptions(benchmark, driver, sizes, iterations, warmup, window, format, refs, rounds, posted, ranks, peerPrefix, mode, threads, buffers);
    }

    /** Whether this is a latency (ping-pong) benchmark. */
    public boolean latency() {
        return benchmark.endsWith("latency");
    }

    /** Whether this measures the engine, the library or the API (two ranks) rather than a driver alone. */
    public boolean engine() {
        return benchmark.startsWith("engine-") || portals() || windows() || api() || collective();
    }

    /** Whether this measures the application API (latency, bw, bibw, mbw-mr). */
    public boolean api() {
        return API.contains(benchmark);
    }

    /** Whether this is a collective benchmark (barrier, bcast, reduce, allreduce, allgather, alltoall). */
    public boolean collective() {
        return COLLECTIVES.contains(benchmark);
    }

    /** Whether this measures the Portals library (put-latency, get-latency, atomic-latency, put-bandwidth). */
    public boolean portals() {
        return PORTALS.contains(benchmark);
    }

    /** Whether this is {@code overlap}: a large receive hidden behind computation. */
    public boolean overlap() {
        return benchmark.equals(OVERLAP);
    }

    /** Whether this is {@code partitioned}: MPI-4's partitioned communication beside one send. */
    public boolean partitioned() {
        return benchmark.equals(PARTITIONED);
    }

    /** Whether this is {@code passive}: operations served by a process that makes no Portals call. */
    public boolean passive() {
        return benchmark.equals(PASSIVE);
    }

    /** Whether this measures the application API's windows (put-latency .. get-bw). */
    public boolean windows() {
        return WINDOWS.contains(benchmark);
    }

    /** The same options for another benchmark (the driver-level figures of an engine run). */
    public BenchOptions as(String other) {
        return new BenchOptions(other, driver, sizes, iterations, warmup, window, format, references, rounds, posted, ranks, peerPrefix, mode, threads, buffers);
    }

    /** The same options with other sizes (those a driver can carry). */
    public BenchOptions withSizes(List<Long> other) {
        return new BenchOptions(benchmark, driver, List.copyOf(other), iterations, warmup, window, format, references, rounds, posted, ranks, peerPrefix, mode, threads, buffers);
    }

    /** Iterations for one size: the asked count, cut so that one size moves at most {@link #BYTE_BUDGET}. */
    public long iterationsFor(long size) {
        return Math.max(1, Math.min(iterations, BYTE_BUDGET / Math.max(size, 1)));
    }

    /** Untimed iterations before a size is measured (at least; see {@link #warmupNanos()}). */
    public long warmupFor(long size) {
        return warmup == 0 ? 0 : Math.min(warmup, Math.max(1, iterationsFor(size) / 10 + 1));
    }

    /**
     * Least time a warm-up lasts, whatever its count: long enough for the JIT to finish with the
     * measured code, so that whatever is measured first is not handicapped by compilation
     * competing for the cores. None with {@code --warmup 0}.
     */
    public long warmupNanos() {
        return warmup == 0 ? 0 : WARMUP_NANOS;
    }

    /**
     * Runs {@code step} for the warm-up: at least {@link #warmupFor} times and {@link #warmupNanos()}
     * long, and until the JIT is quiet ({@link JitQuiet}).
     */
    public void warmUp(long size, Runnable step) {
        long n = warmupFor(size);
        JitQuiet quiet = new JitQuiet(warmupNanos());
        for (long i = 0; i < n || !quiet.settled(); i++) {
            step.run();
        }
    }

    static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new UsageException("option " + option + " needs a value");
        }
        return args.get(i);
    }

    static long positive(String v, String option) {
        long n = number(v, option);
        if (n < 1) {
            throw new UsageException(option + " must be at least 1, not " + v);
        }
        return n;
    }

    private static long nonNegative(String v, String option) {
        long n = number(v, option);
        if (n < 0) {
            throw new UsageException(option + " must not be negative: " + v);
        }
        return n;
    }

    private static long number(String v, String option) {
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new UsageException(option + " takes a whole number, not '" + v + "'");
        }
    }

    /** Parses "0,8,64,4k,1m": sizes in bytes, with optional k/m/g suffixes (powers of 1024). */
    static List<Long> sizes(String list) {
        List<Long> out = new ArrayList<>();
        for (String raw : list.split(",")) {
            String s = raw.strip().toLowerCase(Locale.ROOT);
            long mult = 1;
            if (s.endsWith("k")) {
                mult = 1L << 10;
            } else if (s.endsWith("m")) {
                mult = 1L << 20;
            } else if (s.endsWith("g")) {
                mult = 1L << 30;
            }
            String digits = mult == 1 ? s : s.substring(0, s.length() - 1);
            try {
                long n = Long.parseLong(digits) * mult;
                if (n < 0) {
                    throw new NumberFormatException();
                }
                out.add(n);
            } catch (NumberFormatException e) {
                throw new UsageException("--sizes: '" + raw.strip() + "' is not a size in bytes (in '" + list + "')");
            }
        }
        return List.copyOf(out);
    }
}
