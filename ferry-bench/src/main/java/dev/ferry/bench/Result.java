package dev.ferry.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One line of benchmark output.
 *
 * @param benchmark  driver-latency or driver-bandwidth
 * @param driver     the driver, or ref-shm / ref-nio
 * @param size       message size in bytes
 * @param iterations round trips or messages timed
 * @param medianUs   median one-way latency (latency), or median time per message (bandwidth), in microseconds
 * @param p99Us      99th percentile of the same
 * @param mbPerS     bandwidth in 10^6 bytes per second, or null for latency
 * @param extra      further fields (e.g. "buffers"), printed after the others
 */
public record Result(String benchmark, String driver, long size, long iterations, double medianUs, double p99Us,
                     Double mbPerS, Map<String, Object> extra) {
    public Result {
        extra = Map.copyOf(extra);
    }

    /** The fields in output order. */
    public Map<String, Object> fields() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("benchmark", benchmark);
        m.put("driver", driver);
        m.put("size", size);
        m.put("iterations", iterations);
        m.put("median_us", Stats.round(medianUs, 4));
        m.put("p99_us", Stats.round(p99Us, 4));
        if (mbPerS != null) {
            m.put("mb_per_s", Stats.round(mbPerS, 5));
        }
        new java.util.TreeMap<>(extra).forEach(m::put);
        return m;
    }
}
