package dev.ferry.bench;

import java.util.Map;
import java.util.function.LongFunction;

/**
 * Timing one-sided operations that complete as a whole (the library's operation with its ack or
 * reply, a window's operation with its flush): a latency sample is one operation, a bandwidth
 * sample a window of them and one completion. Shared by {@link PortalsBenchRank} and
 * {@link WindowBenchRank}.
 *
 * <pre>{@code
 * Result r = WholeOperations.latency(o, 8, () -> { put(...); await(); }, n -> Map.of("op", "put+ack"));
 * }</pre>
 */
final class WholeOperations {
    private WholeOperations() {
    }

    /**
     * {@code one} timed {@link BenchOptions#iterationsFor} times (after the caller's warm-up): each
     * sample the whole operation; {@code extra} makes the line's extra fields from the number of
     * operations timed, once they ran.
     */
    static Result latency(BenchOptions o, long size, Runnable one, LongFunction<Map<String, Object>> extra) {
        RoundTrips.Timing t = RoundTrips.time(o.iterationsFor(size), one);
        double[] whole = t.oneWayUs().clone();
        for (int i = 0; i < whole.length; i++) {
            whole[i] *= 2; // RoundTrips halves a round trip; an operation is the whole of it
        }
        return new Result(o.benchmark(), o.driver(), size, t.roundTrips(), Stats.median(whole), Stats.quantile(whole, 0.99), null,
                extra.apply(t.roundTrips()));
    }

    /** Samples of {@code window}, which moves {@code o.window()} operations of {@code size} bytes and waits for them. */
    static Result bandwidth(BenchOptions o, long size, Runnable window, LongFunction<Map<String, Object>> extra) {
        int w = o.window();
        int samples = (int) Math.max(1, o.iterationsFor(size) / w);
        double[] mbps = new double[samples];
        double[] perOpUs = new double[samples];
        for (int s = 0; s < samples; s++) {
            long t0 = System.nanoTime();
            window.run();
            long t = System.nanoTime() - t0;
            mbps[s] = (double) w * size / t * 1000;
            perOpUs[s] = t / (double) w / 1000;
        }
        return new Result(o.benchmark(), o.driver(), size, (long) samples * w, Stats.median(perOpUs), Stats.quantile(perOpUs, 0.99),
                Stats.median(mbps), extra.apply((long) samples * w));
    }

    /** Bytes this thread allocates in {@code n} runs of {@code one}, per run (the hot path's garbage; 0 is the goal). */
    static double allocatedPerRun(Runnable one, int n) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < n; i++) {
            one.run();
        }
        return (double) (mx.getCurrentThreadAllocatedBytes() - before) / n;
    }

    /** A RESULT line for the job runner ({@link EngineBenchRank#parse}): the extra fields as k=v pairs, or - for none. */
    static void print(Result r) {
        Double mb = r.mbPerS();
        StringBuilder kv = new StringBuilder();
        r.extra().forEach((k, v) -> kv.append(kv.isEmpty() ? "" : ",").append(k).append('=').append(v));
        System.out.println("RESULT " + r.benchmark() + " " + r.driver() + " " + r.size() + " " + r.iterations() + " "
                + r.medianUs() + " " + r.p99Us() + " " + (mb == null ? "-" : mb) + " " + (kv.isEmpty() ? "-" : kv));
        System.out.flush();
    }
}
