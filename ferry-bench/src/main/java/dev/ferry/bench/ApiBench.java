package dev.ferry.bench;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.spi.Transport;

import java.util.List;
import java.util.function.Consumer;

/**
 * {@code ferry bench latency|bw|bibw|mbw-mr}: OSU's point-to-point benchmarks on the application
 * API between two ranks (a real job of two JVMs over the driver {@code --driver}), with memory
 * segments and with byte arrays, each run beside the engine's own figure from the same run
 * (engine-latency or engine-bandwidth), so the API's cost reads off adjacent lines. Latency with
 * {@code --mode bsend} adds a phase of buffered sends ({@code buffers=segment,mode=bsend}).
 */
final class ApiBench {
    /** The largest size the array and engine phases take: a byte array's length. */
    static final long ARRAY_MAX = Integer.MAX_VALUE - 8;

    private ApiBench() {
    }

    static void run(DiscoveredDriver d, BenchOptions o, List<Long> sizes, boolean reversed, Progress progress, Consumer<Result> out)
            throws Exception {
        if (d.properties().capabilities().transport() == Transport.SELF) {
            throw new UsageException("the API benchmarks need a driver between processes (--driver shm or tcp), not " + d.name());
        }
        BenchOptions engine = o.as(o.latency() ? BenchOptions.ENGINE_LATENCY : BenchOptions.ENGINE_BANDWIDTH).withSizes(sizes);
        // --mode bsend: buffered sends (segments, from an attached buffer) beside the standard ones
        List<String> phases = new java.util.ArrayList<>(o.mode().equals("bsend") ? List.of("engine", "segment", "bsend", "array") : List.of("engine", "segment", "array"));
        if (o.buffers().equals("arena")) {
            phases.add(2, "arena"); // segments of Ferry.allocate beside the others
        }
        // sizes past an array's (2 GiB) go with segments alone, through the long-count calls
        List<Long> small = sizes.stream().filter(n -> n <= ARRAY_MAX).toList();
        for (String phase : reversed ? phases.reversed() : phases) {
            List<Long> these = phase.equals("segment") || phase.equals("arena") ? sizes : small;
            if (these.isEmpty()) {
                continue;
            }
            progress.update(o.benchmark() + " " + d.name() + " " + phase + " (two ranks)", 0, 1);
            if (phase.equals("engine")) {
                EngineBench.twoRanks(d, engine.withSizes(these), EngineBenchRank.class, List.of(engine.benchmark(), "offheap"), out);
            } else if (phase.equals("arena") && d.properties().capabilities().transport() != Transport.LOCAL) {
                // the arena is the shm driver's: each rank has shm too, for its arena (the rank checks its peer is on another node)
                EngineBench.ranks(2, d, o.withSizes(these), ApiBenchRank.class, List.of(o.benchmark(), phase), java.util.Map.of("FERRY_DRIVERS", "shm," + d.name()), out);
            } else {
                EngineBench.twoRanks(d, o.withSizes(these), ApiBenchRank.class, List.of(o.benchmark(), phase), out);
            }
        }
    }
}
