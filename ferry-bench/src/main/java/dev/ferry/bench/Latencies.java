package dev.ferry.bench;

import org.HdrHistogram.DoubleHistogram;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A latency distribution as samples are taken, in an HdrHistogram (three significant digits over
 * any range): what the JSON lines report as {@code p50_us}, {@code p90_us}, {@code p99_us} and
 * {@code p999_us}, and what {@code ferry bench report} plots by percentile.
 *
 * <pre>{@code
 * Latencies l = new Latencies();
 * for (double us : samples) l.record(us);
 * Map<String, Object> extra = l.percentiles();   // {p50_us=0.31, p90_us=0.35, p999_us=1.9}
 * }</pre>
 */
public final class Latencies {
    private final DoubleHistogram histogram = new DoubleHistogram(3);

    /** Adds one sample, in microseconds. */
    public void record(double us) {
        histogram.recordValue(Math.max(us, 1e-6));
    }

    /** Samples recorded. */
    public long count() {
        return histogram.getTotalCount();
    }

    /** The value below which {@code percentile} percent of the samples lie, in microseconds. */
    public double percentile(double percentile) {
        return histogram.getValueAtPercentile(percentile);
    }

    /**
     * p50, p90 and p99.9 in microseconds (four significant digits), as JSON fields beside a
     * result's median and p99 (the samples' own, nearest rank).
     */
    public Map<String, Object> percentiles() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("p50_us", Stats.round(percentile(50), 4));
        m.put("p90_us", Stats.round(percentile(90), 4));
        m.put("p999_us", Stats.round(percentile(99.9), 4));
        return m;
    }

    /** {@code fields} with these percentiles added. */
    public Map<String, Object> with(Map<String, Object> fields) {
        Map<String, Object> m = new LinkedHashMap<>(fields);
        m.putAll(percentiles());
        return m;
    }
}
