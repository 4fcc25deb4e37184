package dev.ferry.bench;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.spi.Transport;

import java.util.List;
import java.util.function.Consumer;

/**
 * {@code ferry bench barrier|bcast|reduce|allreduce|allgather|alltoall}: OSU's collective
 * benchmarks on the application API, one job of N JVMs per {@code --ranks} entry over the driver
 * {@code --driver}; each job measures Ferry's collective and the same operation built naively
 * from point-to-point in alternating batches ({@link CollBenchRank}), and the lines always go
 * through {@link Rounds}, which sets {@code ratio_to_naive} beside Ferry's.
 */
final class CollBench {
    private CollBench() {
    }

    static void run(DiscoveredDriver d, BenchOptions o, boolean reversed, Progress progress, Consumer<Result> out) throws Exception {
        if (d.properties().capabilities().transport() == Transport.SELF) {
            throw new UsageException("the collective benchmarks need a driver between processes (--driver shm or tcp), not " + d.name());
        }
        List<Integer> ranks = reversed ? o.ranks().reversed() : o.ranks();
        for (int n : ranks) {
            progress.update(o.benchmark() + " " + d.name() + " (" + n + " ranks)", 0, 1);
            EngineBench.ranks(n, d, o, CollBenchRank.class, List.of(o.benchmark(), reversed ? "naive-first" : "ferry-first"), out);
        }
    }
}
