package dev.ferry.bench;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.spi.Transport;

import java.util.List;
import java.util.function.Consumer;

/**
 * {@code ferry bench passive}: the Portals library serving a rank that makes no Portals call, with
 * the library's defaults (a job of one rank over self, of two over shm or tcp; {@link PassiveBenchRank}).
 *
 * <pre>
 *   ferry bench passive --driver self,shm,tcp --iterations 200 --format json
 *   FERRY_AGENT=on FERRY_RANKS_PER_NODE=1 ferry bench passive --driver tcp --buffers arena   # puts the agent serves
 * </pre>
 */
final class PassiveBench {
    private PassiveBench() {
    }

    static void run(DiscoveredDriver d, BenchOptions o, Progress progress, Consumer<Result> out) throws Exception {
        boolean self = d.properties().capabilities().transport() == Transport.SELF;
        progress.update(o.benchmark() + " " + d.name() + (self ? " (one rank)" : " (two ranks)"), 0, 1);
        // memAlloc memory is the shm driver's arena: over another driver each rank has shm too
        java.util.Map<String, String> env = o.buffers().equals("arena") && d.properties().capabilities().transport() == Transport.REMOTE
                ? java.util.Map.of("FERRY_DRIVERS", "shm," + d.name()) : java.util.Map.of();
        EngineBench.ranks(self ? 1 : 2, d, o.withSizes(List.of(8L)), PassiveBenchRank.class, List.of(o.benchmark()), env, out);
    }
}
