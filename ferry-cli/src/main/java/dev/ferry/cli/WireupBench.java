package dev.ferry.cli;

import dev.ferry.bench.Stats;
import dev.ferry.core.util.Json;
import dev.ferry.launch.ChildJvm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ferry bench wireup [-n 4,16] [--runs 5]}: starts {@code ferry run -n N --example wireup}
 * again and again, each in a JVM of its own as a user would, and reports how long after that
 * launcher started every rank was past the bootstrap exchange (driver URLs and node identities
 * through PMI, and the fence), how long the whole job took, and its CPU time (all of it, and the
 * ranks' per rank).
 */
final class WireupBench {
    private static final Pattern REPORT = Pattern.compile("wire-up: (\\d+) ranks past the bootstrap exchange (\\d+) ms");
    private static final Pattern CPU = Pattern.compile("cpu: (\\d+) ranks ([0-9.]+) s, launcher ([0-9.]+) s");

    /** One run: to every rank past the exchange, to the job's end (ms), the ranks' and the launcher's CPU (s). */
    private record Run(double wireupMs, double wallMs, double ranksCpu, double launcherCpu) {
    }

    private WireupBench() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        List<Integer> sizes = List.of(4, 16);
        int runs = 5;
        String format = "json";
        try {
            for (int i = 0; i < args.size(); i++) {
                switch (args.get(i)) {
                    case "-n" -> sizes = parseList(value(args, ++i, "-n"));
                    case "--runs" -> runs = Integer.parseInt(value(args, ++i, "--runs"));
                    case "--format" -> format = value(args, ++i, "--format");
                    default -> throw new IllegalArgumentException("unknown option '" + args.get(i) + "'");
                }
            }
            if (runs < 1 || !List.of("json", "table").contains(format)) {
                throw new IllegalArgumentException("--runs must be at least 1 and --format json or table");
            }
        } catch (IllegalArgumentException e) {
            err.println("ferry bench wireup: " + e.getMessage());
            return 2;
        }
        for (int n : sizes) {
            double[] ms = new double[runs], wall = new double[runs], cpu = new double[runs], perRank = new double[runs];
            for (int r = 0; r < runs; r++) {
                try {
                    Run run = once(n);
                    ms[r] = run.wireupMs();
                    wall[r] = run.wallMs();
                    cpu[r] = run.ranksCpu() + run.launcherCpu();
                    perRank[r] = run.ranksCpu() / n;
                } catch (IOException | IllegalStateException e) {
                    err.println("ferry bench wireup: run " + (r + 1) + " with " + n + " ranks failed: " + e.getMessage());
                    return 1;
                }
            }
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("benchmark", "wireup");
            line.put("ranks", n);
            line.put("runs", runs);
            line.put("median_ms", Stats.median(ms));
            line.put("min_ms", Stats.quantile(ms, 0));
            line.put("max_ms", Stats.quantile(ms, 1));
            line.put("job_wall_median_ms", Stats.median(wall));
            line.put("job_cpu_median_s", Stats.median(cpu));
            line.put("cpu_per_rank_median_s", Stats.median(perRank));
            out.println(format.equals("json") ? Json.write(line)
                    : String.format(java.util.Locale.ROOT, "wireup %3d ranks: median %6.0f ms (min %.0f, max %.0f, %d runs); whole job %.2f s wall, %.2f s CPU, %.3f s CPU per rank",
                    n, Stats.median(ms), Stats.quantile(ms, 0), Stats.quantile(ms, 1), runs, Stats.median(wall) / 1000, Stats.median(cpu), Stats.median(perRank)));
        }
        return 0;
    }

    private static Run once(int n) throws IOException {
        long start = System.nanoTime();
        List<String> cmd = new ArrayList<>(List.of(ChildJvm.javaExecutable().toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "run", "-n", String.valueOf(n), "--report-wireup", "--example", "wireup"));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        Double ms = null;
        double ranksCpu = -1, launcherCpu = -1;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                Matcher m = REPORT.matcher(line);
                if (m.find() && Integer.parseInt(m.group(1)) == n) {
                    ms = Double.parseDouble(m.group(2));
                }
                Matcher c = CPU.matcher(line);
                if (c.find() && Integer.parseInt(c.group(1)) == n) {
                    ranksCpu = Double.parseDouble(c.group(2));
                    launcherCpu = Double.parseDouble(c.group(3));
                }
            }
        }
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("ferry run did not end within 120 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        double wallMs = (System.nanoTime() - start) / 1e6;
        if (p.exitValue() != 0 || ms == null || ranksCpu < 0) {
            throw new IllegalStateException("ferry run exited " + p.exitValue() + (ms == null || ranksCpu < 0 ? " without a wire-up and CPU report" : ""));
        }
        return new Run(ms, wallMs, ranksCpu, launcherCpu);
    }

    private static List<Integer> parseList(String s) {
        List<Integer> out = new ArrayList<>();
        for (String p : s.split(",")) {
            int n = Integer.parseInt(p.strip());
            if (n < 1) {
                throw new IllegalArgumentException("rank counts must be at least 1");
            }
            out.add(n);
        }
        return out;
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new IllegalArgumentException("option " + option + " needs a value");
        }
        return args.get(i);
    }
}
