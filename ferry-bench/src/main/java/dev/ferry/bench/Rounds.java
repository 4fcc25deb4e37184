package dev.ferry.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lines of {@code --rounds N}: the whole command runs N times, so the phases it compares
 * (say the driver's figures, the engine's and the references') interleave instead of following
 * each other once. On a shared machine whose speed drifts by 2x over minutes, a comparison of two
 * phases taken once each reads the drift as much as the difference; interleaved rounds expose
 * both. Each kind of line (benchmark, driver, size and extra fields) becomes one line: its median,
 * p99 and bandwidth are the medians over the rounds of each round's figure, its iterations the
 * sum, and it carries {@code rounds} and the rounds' own medians ({@code round_medians_us}, and
 * {@code round_mb_per_s} for bandwidth), in order, so that paired ratios can be read off.
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

    /** One line of one round. */
    void add(Result r) {
        lines.computeIfAbsent(new Key(r.benchmark(), r.driver(), r.size(), r.extra()), k -> new ArrayList<>()).add(r);
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
            extra.put("rounds", n);
            extra.put("round_medians_us", roundMedians);
            if (bandwidth) {
                extra.put("round_mb_per_s", roundMbs);
            }
            Key k = e.getKey();
            out.add(new Result(k.benchmark(), k.driver(), k.size(), iterations, Stats.median(medians), Stats.median(p99s),
                    bandwidth ? Stats.median(mbs) : null, extra));
        }
        return out;
    }
}
