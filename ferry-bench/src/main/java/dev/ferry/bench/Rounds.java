package dev.ferry.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.ToDoubleBiFunction;

/**
 * The lines of {@code --rounds N}: the whole command runs N times, so the phases it compares
 * (say the driver's figures, the engine's and the references') interleave instead of following
 * each other once. On a shared machine whose speed drifts by 2x over minutes, a comparison of two
 * phases taken once each reads the drift as much as the difference; interleaved rounds expose
 * both. Each kind of line (benchmark, driver, size and extra fields) becomes one line: its median,
 * p99 and bandwidth are the medians over the rounds of each round's figure, its iterations the
 * sum, and it carries {@code rounds} and the rounds' own medians ({@code round_medians_us}, and
 * {@code round_mb_per_s} for bandwidth), in order, and the comparisons the goals are stated in,
 * taken round by round ({@link #compare}).
 *
 * <pre>{@code
 * Rounds r = new Rounds();
 * r.add(result);            // every line of every round
 * r.merged().forEach(printer::print);
 * }</pre>
 */
final class Rounds {
    private record Key(String benchmark, String driver, long size, Map<String, Object> extra) {
    }

    private final Map<Key, List<Result>> lines = new LinkedHashMap<>();

    /** Extra fields that are measurements, not kinds: not part of a line's key; the merged line keeps their largest value. */
    private static final List<String> MEASURED = List.of("alloc_b_per_op");
    /**
     * A latency's percentiles (HdrHistogram's), partitioned's lead of its first partition, and
     * overlap's share hidden and the phases it comes from: not part of a line's key; the merged
     * line keeps their median over the rounds.
     */
    private static final List<String> PERCENTILES = List.of("p50_us", "p90_us", "p999_us", "first_lead_us", "overlap_pct", "alone_us", "compute_us");

    /** One line of one round. */
    void add(Result r) {
        Map<String, Object> kind = r.extra();
        if (MEASURED.stream().anyMatch(kind::containsKey) || PERCENTILES.stream().anyMatch(kind::containsKey)) {
            kind = new HashMap<>(kind);
            kind.keySet().removeAll(MEASURED);
            kind.keySet().removeAll(PERCENTILES);
        }
        lines.computeIfAbsent(new Key(r.benchmark(), r.driver(), r.size(), kind), k -> new ArrayList<>()).add(r);
    }

    /** One line per kind, in the order the kinds first came. */
    List<Result> merged() {
        List<Result> out = new ArrayList<>();
        for (Map.Entry<Key, List<Result>> e : lines.entrySet()) {
            List<Result> rs = e.getValue();
            int n = rs.size();
            double[] medians = new double[n];
            double[] p99s = new double[n];
            double[] mbs = new double[n];
            long iterations = 0;
            boolean bandwidth = true;
            List<Double> roundMedians = new ArrayList<>();
            List<Double> roundMbs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Result r = rs.get(i);
                medians[i] = r.medianUs();
                p99s[i] = r.p99Us();
                iterations += r.iterations();
                roundMedians.add(Stats.round(r.medianUs(), 4));
                if (r.mbPerS() == null) {
                    bandwidth = false;
                } else {
                    mbs[i] = r.mbPerS();
                    roundMbs.add(Stats.round(r.mbPerS(), 5));
                }
            }
            Map<String, Object> extra = new HashMap<>(e.getKey().extra());
            for (String m : MEASURED) {
                rs.stream().map(r -> r.extra().get(m)).filter(java.util.Objects::nonNull).map(v -> Double.parseDouble(v.toString()))
                        .max(Double::compare).ifPresent(v -> extra.put(m, Math.round(v)));
            }
            for (String p : PERCENTILES) {
                double[] v = rs.stream().map(r -> r.extra().get(p)).filter(java.util.Objects::nonNull)
                        .mapToDouble(x -> Double.parseDouble(x.toString())).toArray();
                if (v.length > 0) {
                    extra.put(p, Stats.round(Stats.median(v), 4));
                }
            }
            extra.put("rounds", n);
            extra.put("round_medians_us", roundMedians);
            if (bandwidth) {
                extra.put("round_mb_per_s", roundMbs);
            }
            Key k = e.getKey();
            compare(k, rs, extra);
            out.add(new Result(k.benchmark(), k.driver(), k.size(), iterations, Stats.median(medians), Stats.median(p99s),
                    bandwidth ? Stats.median(mbs) : null, extra));
        }
        return out;
    }

    /**
     * Adds the comparisons the goals are stated in, taken round by round against the line measured
     * in the same round, then the median over the rounds: an engine latency's overhead over its
     * driver ({@code overhead_ns_vs_driver}), an engine bandwidth's ratio to its driver's with the
     * same buffers ({@code ratio_to_driver}) and, for the arena, to the memcpy reference
     * ({@code ratio_to_memcpy}), and a library operation's ratio to a reference round trip
     * ({@code ratio_to_ref_shm_round_trip}, {@code ratio_to_ref_nio_round_trip}); a ucx or ref-ucp
     * latency's ratio to the shm and tcp drivers' ({@code ratio_to_shm}, {@code ratio_to_tcp}), and
     * the ucx driver's to UCX's own floor ({@code ratio_to_ref_ucp}).
     */
    private void compare(Key k, List<Result> rs, Map<String, Object> extra) {
        Object buffers = k.extra().get("buffers");
        switch (k.benchmark()) {
            case BenchOptions.ENGINE_LATENCY -> put(extra, "overhead_ns_vs_driver",
                    paired(rs, find(BenchOptions.LATENCY, k.driver(), k.size(), null), (a, b) -> (a.medianUs() - b.medianUs()) * 1000));
            case BenchOptions.ENGINE_BANDWIDTH -> {
                put(extra, "ratio_to_driver",
                        paired(rs, find(BenchOptions.BANDWIDTH, k.driver(), k.size(), buffers), (a, b) -> a.mbPerS() / b.mbPerS()));
                if ("arena".equals(buffers)) {
                    put(extra, "ratio_to_memcpy", paired(rs, find(BenchOptions.BANDWIDTH, "ref-shm", k.size(), null), (a, b) -> a.mbPerS() / b.mbPerS()));
                }
            }
            case BenchOptions.PTL_PUT_LATENCY, BenchOptions.PTL_GET_LATENCY, BenchOptions.PTL_ATOMIC_LATENCY, BenchOptions.PUT_LATENCY,
                 BenchOptions.GET_LATENCY, BenchOptions.ACC_LATENCY, BenchOptions.FETCH_OP_LATENCY, BenchOptions.CAS_LATENCY -> {
                for (String ref : List.of("ref-shm", "ref-nio")) {
                    put(extra, "ratio_to_" + ref.replace('-', '_') + "_round_trip",
                            paired(rs, find(BenchOptions.LATENCY, ref, k.size(), null), (a, b) -> a.medianUs() / (2 * b.medianUs())));
                }
            }
            case BenchOptions.LATENCY -> {
                // the ucx goal is stated against the shm and tcp drivers; ref-ucp is UCX's own floor
                if (k.driver().equals("ucx") || k.driver().equals(RefUcp.NAME)) {
                    for (String other : List.of("shm", "tcp")) {
                        put(extra, "ratio_to_" + other, paired(rs, find(BenchOptions.LATENCY, other, k.size(), null), (a, b) -> a.medianUs() / b.medianUs()));
                    }
                }
                if (k.driver().equals("ucx")) {
                    put(extra, "ratio_to_ref_ucp", paired(rs, find(BenchOptions.LATENCY, RefUcp.NAME, k.size(), null), (a, b) -> a.medianUs() / b.medianUs()));
                }
            }
            case BenchOptions.API_LATENCY -> {
                put(extra, "overhead_ns_vs_engine", paired(rs, find(BenchOptions.ENGINE_LATENCY, k.driver(), k.size(), null),
                        (a, b) -> (a.medianUs() - b.medianUs()) * 1000));
                if (k.driver().equals("tcp")) {
                    put(extra, "ratio_to_ref_nio", paired(rs, find(BenchOptions.LATENCY, "ref-nio", k.size(), null), (a, b) -> a.medianUs() / b.medianUs()));
                }
            }
            case BenchOptions.BW, BenchOptions.BIBW, BenchOptions.MBW_MR -> {
                put(extra, "ratio_to_engine", paired(rs, find(BenchOptions.ENGINE_BANDWIDTH, k.driver(), k.size(), "offheap"),
                        (a, b) -> a.mbPerS() / b.mbPerS()));
                if (k.driver().equals("tcp")) {
                    put(extra, "ratio_to_ref_nio", paired(rs, find(BenchOptions.BANDWIDTH, "ref-nio", k.size(), null), (a, b) -> a.mbPerS() / b.mbPerS()));
                }
                put(extra, "ratio_to_ucx", paired(rs, find(BenchOptions.BANDWIDTH, "ucx", k.size(), "offheap"), (a, b) -> a.mbPerS() / b.mbPerS()));
                if (k.benchmark().equals(BenchOptions.MBW_MR)) {
                    put(extra, "mmsgs_per_s", paired(rs, rs, (a, b) -> 1 / a.medianUs()));
                }
            }
            case BenchOptions.PARTITIONED -> {
                if ("partitioned".equals(k.extra().get("impl"))) {
                    put(extra, "ratio_to_send", paired(rs, findImpl(k, "send"), (a, b) -> a.mbPerS() / b.mbPerS()));
                }
            }
            default -> {
                if (BenchOptions.COLLECTIVES.contains(k.benchmark()) && "ferry".equals(k.extra().get("impl"))) {
                    put(extra, "ratio_to_naive", paired(rs, findNaive(k), (a, b) -> a.medianUs() / b.medianUs()));
                }
            }
        }
    }

    /** The rounds of the line of implementation {@code impl} beside {@code of} (same benchmark, driver and size), or null. */
    private List<Result> findImpl(Key of, String impl) {
        for (Map.Entry<Key, List<Result>> e : lines.entrySet()) {
            Key k = e.getKey();
            if (k.benchmark().equals(of.benchmark()) && k.driver().equals(of.driver()) && k.size() == of.size() && impl.equals(k.extra().get("impl"))) {
                return e.getValue();
            }
        }
        return null;
    }

    /** The rounds of the naive line beside a collective's line (same benchmark, driver, size and ranks), or null. */
    private List<Result> findNaive(Key of) {
        for (Map.Entry<Key, List<Result>> e : lines.entrySet()) {
            Key k = e.getKey();
            if (k.benchmark().equals(of.benchmark()) && k.driver().equals(of.driver()) && k.size() == of.size()
                    && "naive".equals(k.extra().get("impl")) && java.util.Objects.equals(k.extra().get("ranks"), of.extra().get("ranks"))) {
                return e.getValue();
            }
        }
        return null;
    }

    private static void put(Map<String, Object> extra, String name, OptionalDouble value) {
        value.ifPresent(v -> extra.put(name, Stats.round(v, 3)));
    }

    /** The rounds of the line of {@code benchmark}, {@code driver} and {@code size} with those buffers (null: none), or null. */
    private List<Result> find(String benchmark, String driver, long size, Object buffers) {
        for (Map.Entry<Key, List<Result>> e : lines.entrySet()) {
            Key k = e.getKey();
            if (k.benchmark().equals(benchmark) && k.driver().equals(driver) && k.size() == size
                    && java.util.Objects.equals(k.extra().get("buffers"), buffers)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** The median over the rounds of {@code f(a's round i, b's round i)}; empty unless both lines have every round. */
    private static OptionalDouble paired(List<Result> a, List<Result> b, ToDoubleBiFunction<Result, Result> f) {
        if (b == null || a.size() != b.size()) {
            return OptionalDouble.empty();
        }
        double[] v = new double[a.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = f.applyAsDouble(a.get(i), b.get(i));
        }
        return OptionalDouble.of(Stats.median(v));
    }
}
