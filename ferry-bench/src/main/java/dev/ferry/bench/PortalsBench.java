package dev.ferry.bench;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.spi.Transport;

import java.util.List;
import java.util.function.Consumer;

/**
 * {@code ferry bench put-latency|get-latency|atomic-latency|put-bandwidth}: the Portals library
 * between two ranks (a real job of two JVMs) over the driver named by {@code --driver}. Latency
 * lines time one whole operation with its answer (put + ack, get + reply, fetch-add or
 * compare-and-swap + reply): compare them with a reference's round trip, twice its one-way line.
 */
final class PortalsBench {
    private PortalsBench() {
    }

    static void run(DiscoveredDriver d, BenchOptions o, List<Long> sizes, Progress progress, Consumer<Result> out) throws Exception {
        if (d.properties().capabilities().transport() == Transport.SELF) {
            throw new UsageException("the library benchmarks need a driver between processes (--driver shm or tcp), not " + d.name());
        }
        progress.update(o.benchmark() + " " + d.name() + " (two ranks)", 0, 1);
        // the sizes the driver can carry (feasible) replace the asked ones
        EngineBench.twoRanks(d, o.withSizes(sizes), PortalsBenchRank.class, List.of(o.benchmark()), out);
    }
}
