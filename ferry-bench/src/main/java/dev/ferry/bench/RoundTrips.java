package dev.ferry.bench;

/**
 * How latency benchmarks time round trips: in batches long enough (about 2 us) that reading the
 * clock costs under 2% of a sample; one sample per batch, as one-way microseconds (half the round
 * trip).
 */
final class RoundTrips {
    private static final double TARGET_BATCH_NANOS = 2_000;

    private RoundTrips() {
    }

    /** One-way latency of each batch in microseconds, the round trips timed, and their distribution. */
    record Timing(double[] oneWayUs, long roundTrips, Latencies distribution) {
    }

    /**
     * Times about {@code iterations} round trips, after as many as 20 000 untimed ones through this
     * same loop: the caller's warm-up compiled its own loop, not this one, and compiling this one
     * while it is timed stalled the spinning ranks on two cores (the library's latencies had a p99
     * of 400 us at 50 000 iterations and of 2-4 us at 1.5 million: a fixed cost per run).
     */
    static Timing time(long iterations, Runnable roundTrip) {
        batches(Math.min(iterations, 20_000), roundTrip);
        return batches(iterations, roundTrip);
    }

    private static Timing batches(long iterations, Runnable roundTrip) {
        long t0 = System.nanoTime();
        int probe = (int) Math.min(100, iterations);
        for (int i = 0; i < probe; i++) {
            roundTrip.run();
        }
        double rtt = (double) (System.nanoTime() - t0) / probe;
        long batch = Math.max(1, Math.min(iterations / 20 + 1, (long) Math.ceil(TARGET_BATCH_NANOS / Math.max(rtt, 1))));
        int samples = (int) Math.max(1, iterations / batch);
        double[] oneWayUs = new double[samples];
        Latencies distribution = new Latencies();
        for (int s = 0; s < samples; s++) {
            long start = System.nanoTime();
            for (long i = 0; i < batch; i++) {
                roundTrip.run();
            }
            oneWayUs[s] = (System.nanoTime() - start) / (double) batch / 2 / 1000;
            distribution.record(oneWayUs[s]);
        }
        return new Timing(oneWayUs, samples * batch, distribution);
    }
}
