package dev.ferry.bench;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.spi.Transport;

import java.util.List;
import java.util.function.Consumer;

/**
 * {@code ferry bench put-latency|get-latency|acc-latency|fetch-op-latency|cas-latency|put-bw|get-bw}:
 * OSU's one-sided benchmarks on the application API's windows, between two ranks (a real job of
 * two JVMs) over the driver named by {@code --driver}. Rank 1's window is allocated by Ferry (in
 * the shm arena over shm); rank 0 locks it once (shared) and times one operation and its flush
 * per sample (latency: the whole operation, compare with a reference's round trip), or a window
 * of operations and one flush (bandwidth).
 */
final class WindowBench {
    private WindowBench() {
    }

    static void run(DiscoveredDriver d, BenchOptions o, List<Long> sizes, Progress progress, Consumer<Result> out) throws Exception {
        if (d.properties().capabilities().transport() == Transport.SELF) {
            throw new UsageException("the window benchmarks need a driver between processes (--driver shm or tcp), not " + d.name());
        }
        progress.update(o.benchmark() + " " + d.name() + " (two ranks)", 0, 1);
        EngineBench.twoRanks(d, o.withSizes(sizes), WindowBenchRank.class, List.of(o.benchmark()), out);
    }
}
