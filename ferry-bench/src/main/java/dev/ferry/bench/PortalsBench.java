package dev.ferry.bench;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.launch.run.Job;
import dev.ferry.launch.run.JobSpec;
import dev.ferry.spi.Transport;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
        List<String> java = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), PortalsBenchRank.class.getName(), o.benchmark()));
        java.addAll(List.of("--driver", d.name(), "--sizes", String.join(",", sizes.stream().map(String::valueOf).toList()),
                "--iterations", String.valueOf(o.iterations()), "--warmup", String.valueOf(o.warmup()), "--window", String.valueOf(o.window())));
        Map<String, String> env = new HashMap<>();
        env.put("FERRY_DRIVERS", d.name());
        env.put("FERRY_PROGRESS", "caller");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> problems = new ArrayList<>();
        int exit;
        try (PrintStream lines = new PrintStream(new EngineBench.LineSink(line -> {
            Result r = EngineBenchRank.parse(line);
            if (r != null) {
                out.accept(r);
            } else if (!line.isBlank()) {
                problems.add(line);
            }
        }), true, StandardCharsets.UTF_8); PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = new Job(new JobSpec(2, java, env, false, Duration.ofMinutes(30), Duration.ofSeconds(5)), lines, e).run();
        }
        if (exit != 0) {
            throw new IllegalStateException("the two-rank library job ended with status " + exit + ": "
                    + String.join(" | ", problems) + " " + err.toString(StandardCharsets.UTF_8).strip());
        }
    }
}
