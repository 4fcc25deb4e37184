package dev.ferry.bench;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.launch.run.Job;
import dev.ferry.launch.run.JobSpec;
import dev.ferry.spi.Transport;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code ferry bench engine-latency|engine-bandwidth}: the engine between two ranks (a real job of
 * two JVMs, restricted to the driver named by {@code --driver}), preceded by the same driver's
 * driver-level figures from this run, so the engine's overhead reads off two adjacent lines.
 */
final class EngineBench {
    private EngineBench() {
    }

    static void run(DiscoveredDriver d, BenchOptions o, List<Long> sizes, boolean reversed, Progress progress, Consumer<Result> out)
            throws Exception {
        if (d.properties().capabilities().transport() == Transport.SELF) {
            throw new UsageException("the engine benchmarks need a driver between processes (--driver shm or tcp), not " + d.name());
        }
        BenchOptions driverLevel = o.as(o.latency() ? BenchOptions.LATENCY : BenchOptions.BANDWIDTH);
        // arena: engine.allocate(), the local driver's shared arena (which the node agent maps too)
        List<String> buffers = o.latency() ? List.of("offheap")
                : o.buffers().equals("both") ? List.of("offheap", "arena")
                : !o.buffers().isEmpty() ? List.of(o.buffers())
                : d.properties().capabilities().transport() == Transport.LOCAL ? List.of("offheap", "arena") : List.of("offheap");
        if (reversed) {
            for (String b : buffers.reversed()) {
                job(d, o, b, progress, out);
            }
        }
        if (o.latency()) {
            DriverBench.latency(d, driverLevel, sizes, progress, out);
        } else {
            DriverBench.bandwidth(d, driverLevel, sizes, progress, out);
        }
        if (!reversed) {
            for (String b : buffers) {
                job(d, o, b, progress, out);
            }
        }
    }

    private static void job(DiscoveredDriver d, BenchOptions o, String buffers, Progress progress, Consumer<Result> out) throws Exception {
        progress.update(o.benchmark() + " " + d.name() + " " + buffers + " (two ranks)", 0, 1);
        // the arena is the shm driver's: over another driver each rank has shm too (for its arena
        // alone: the rank checks that its peer is on another node, FERRY_RANKS_PER_NODE=1 say)
        Map<String, String> env = buffers.equals("arena") && d.properties().capabilities().transport() != Transport.LOCAL
                ? Map.of("FERRY_DRIVERS", "shm," + d.name()) : Map.of();
        ranks(2, d, o, EngineBenchRank.class, List.of(o.benchmark(), buffers), env, out);
    }

    /**
     * Runs {@code rank} as a job of two JVMs over driver {@code d} (caller progress), with
     * {@code first} and then the options as arguments; hands on the RESULT lines rank 0 prints.
     */
    static void twoRanks(DiscoveredDriver d, BenchOptions o, Class<?> rank, List<String> first, Consumer<Result> out) throws Exception {
        ranks(2, d, o, rank, first, out);
    }

    /** {@link #twoRanks} with {@code n} ranks. */
    static void ranks(int n, DiscoveredDriver d, BenchOptions o, Class<?> rank, List<String> first, Consumer<Result> out) throws Exception {
        ranks(n, d, o, rank, first, Map.of(), out);
    }

    /** {@link #ranks} with {@code extraEnv} for the ranks (it overrides the driver and progress set here). */
    static void ranks(int n, DiscoveredDriver d, BenchOptions o, Class<?> rank, List<String> first, Map<String, String> extraEnv,
                      Consumer<Result> out) throws Exception {
        // a fixed heap touched at start: on this VM the first touch of a page costs ~10 us, and
        // code that allocates (collectives) ran 10x slower while its young generation was new
        List<String> java = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC",
                "-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch",
                "-cp", System.getProperty("java.class.path"), rank.getName()));
        java.addAll(first);
        java.addAll(List.of("--driver", d.name(), "--sizes", String.join(",", o.sizes().stream().map(String::valueOf).toList()),
                "--iterations", String.valueOf(o.iterations()), "--warmup", String.valueOf(o.warmup()), "--window", String.valueOf(o.window())));
        if ((o.api() && o.latency() || o.passive()) && !o.mode().equals("standard")) {
            java.addAll(List.of("--mode", o.mode()));
        }
        if (o.partitioned()) {
            java.addAll(List.of("--threads", String.valueOf(o.threads())));
        }
        if (!o.buffers().isEmpty() && (o.overlap() || o.passive())) {
            java.addAll(List.of("--buffers", o.buffers()));
        }
        if (o.posted() > 0 && o.api()) {
            java.addAll(List.of("--posted", String.valueOf(o.posted())));
        }
        Map<String, String> env = new HashMap<>();
        env.put("FERRY_DRIVERS", d.name());
        env.put("FERRY_PROGRESS", "caller");
        env.putAll(extraEnv);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> problems = new ArrayList<>();
        int exit;
        try (PrintStream lines = new PrintStream(new LineSink(line -> {
            Result r = EngineBenchRank.parse(line);
            if (r != null) {
                out.accept(r);
            } else if (!line.isBlank()) {
                problems.add(line);
            }
        }), true, StandardCharsets.UTF_8); PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = new Job(new JobSpec(n, java, env, false, Duration.ofMinutes(30), Duration.ofSeconds(5)), lines, e).run();
        }
        if (exit != 0) {
            throw new IllegalStateException("the " + n + "-rank " + rank.getSimpleName() + " job ended with status " + exit + ": "
                    + String.join(" | ", problems) + " " + err.toString(StandardCharsets.UTF_8).strip());
        }
    }

    /** Splits what a job prints into lines. */
    private static final class LineSink extends OutputStream {
        private final Consumer<String> sink;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        LineSink(Consumer<String> sink) {
            this.sink = sink;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                sink.accept(line.toString(StandardCharsets.UTF_8));
                line.reset();
            } else {
                line.write(b);
            }
        }
    }
}
