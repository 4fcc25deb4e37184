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

    /** One-way latency of each batch in microseconds, and the round trips timed. */
    record Timing(double[] oneWayUs, long roundTrips) {
    }

    /** Times about {@code iterations} round trips. */
    static Timing time(long iterations, Runnable roundTrip) {
        long t0 = System.nanoTime();
        int probe = (int) Math.min(100, iterations);
        for (int i = 0; i < probe; i++) {
            roundTrip.run();
        }
        double rtt = (double) (System.nanoTime() - t0) / probe;
        long batch = Math.max(1, Math.min(iterations / 20 + 1, (long) Math.ceil(TARGET_BATCH_NANOS / Math.max(rtt, 1))));
        int samples = (int) Math.max(1, iterations / batch);
        double[] oneWayUs = new double[samples];
        for (int s = 0; s < samples; s++) {
            long start = System.nanoTime();
            for (long i = 0; i < batch; i++) {
                roundTrip.run();
            }
            oneWayUs[s] = (System.nanoTime() - start) / (double) batch / 2 / 1000;
        }
        return new Timing(oneWayUs, samples * batch);
    }
}
