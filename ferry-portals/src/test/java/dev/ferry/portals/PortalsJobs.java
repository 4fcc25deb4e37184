package dev.ferry.portals;

import dev.ferry.launch.run.Job;
import dev.ferry.launch.run.JobSpec;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Runs a rank program as a real job of JVMs (ferry run's job runner) and collects its output. */
final class PortalsJobs {
    record Result(int exit, String out, String err) {
        List<String> okLines() {
            return out.lines().map(l -> l.replaceFirst("^\\[\\d+\\] ", "")).filter(l -> l.startsWith("ok ")).toList();
        }

        @Override
        public String toString() {
            return "exit " + exit + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    private PortalsJobs() {
    }

    static Result run(int ranks, Map<String, String> env, Duration timeout, String... args) throws Exception {
        List<String> java = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED", "-Xss1m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), PortalsRanks.class.getName()));
        java.addAll(List.of(args));
        java.util.Map<String, String> e = new java.util.HashMap<>(env);
        e.putIfAbsent("FERRY_TCP_INTERFACES", "lo");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8); PrintStream er = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = new Job(new JobSpec(ranks, java, e, true, timeout, Duration.ofSeconds(20)), o, er).run();
        }
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
