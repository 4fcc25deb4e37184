package dev.ferry.bench;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ferry bench report [--quick|--full] [--out DIR] [--peers auto|none|LIST] [--rounds N]}:
 * runs the suite ({@link ReportSuite}) and the peers found ({@link ReportPeers}) in interleaved
 * rounds, then writes {@code DIR/results.jsonl} (every line of every round) and
 * {@code DIR/index.html} ({@link ReportPage}: a plot per benchmark, medians over the rounds).
 *
 * <pre>
 *   bin/ferry bench report --quick --out /tmp/report      # then open /tmp/report/index.html
 * </pre>
 */
final class ReportCommand {
    static final String USAGE = """
            usage: ferry bench report [--quick | --full] [--out DIR] [--peers auto|none|LIST] [--rounds N]
              --quick              the suite sized to finish in a few minutes on two cores (default)
              --full               every size from 1 B to 4 MiB, ten times the iterations
              --out DIR            where index.html and results.jsonl go (default ferry-report)
              --peers auto|none|LIST
                                   the libraries measured beside Ferry: auto (every one installed of
                                   mpich, openmpi, ucx), none, or a comma-separated list
              --rounds N           run the suite and the peers N times, every other round in reverse;
                                   the page shows the median over the rounds (default 1; --full 3)
              --only NAMES         only the steps whose names start so (latency, bw, bcast, ...)
              --sizes LIST         other point-to-point sizes than the suite's
              --iterations N       other iterations than the suite's
              --warmup N           untimed iterations per size for every step (0: no
                                   warm-up; by default each step's own, at least 0.5 s)
              --verbose            a line per step with the time it took (a terminal shows a
                                   progress bar either way)
              -h, --help           this text""";

    private ReportCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        ReportSuite suite = ReportSuite.quick();
        Path dir = Path.of("ferry-report");
        String peersArg = "auto";
        int rounds = -1;
        List<String> only = List.of();
        String sizes = null;
        int iterations = -1;
        long warmup = -1;
        boolean full = false;
        boolean verbose = false;
        try {
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "--quick" -> full = false;
                    case "--full" -> full = true;
                    case "--out" -> dir = Path.of(BenchOptions.value(args, ++i, a));
                    case "--peers" -> peersArg = BenchOptions.value(args, ++i, a);
                    case "--rounds" -> rounds = (int) number(BenchOptions.value(args, ++i, a), a, 1, 20);
                    case "--only" -> only = Arrays.asList(BenchOptions.value(args, ++i, a).split(","));
                    case "--sizes" -> sizes = BenchOptions.value(args, ++i, a);
                    case "--iterations" -> iterations = (int) number(BenchOptions.value(args, ++i, a), a, 10, 10_000_000);
                    case "--warmup" -> warmup = number(BenchOptions.value(args, ++i, a), a, 0, 10_000_000);
                    case "--verbose" -> verbose = true;
                    case "-h", "--help" -> {
                        out.println(USAGE);
                        return 0;
                    }
                    default -> throw new UsageException("unknown option '" + a + "' (see 'ferry bench report --help')");
                }
            }
        } catch (UsageException e) {
            err.println("ferry bench report: " + e.getMessage());
            return 2;
        }
        suite = (full ? ReportSuite.full() : suite).only(only).with(sizes, iterations).warmup(warmup);
        if (rounds < 0) {
            rounds = full ? 3 : 1;
        }
        List<String> peerNames = switch (peersArg) {
            case "auto" -> ReportPeers.KNOWN;
            case "none" -> List.of();
            default -> Arrays.asList(peersArg.split(","));
        };
        String command = "ferry bench report " + String.join(" ", args);
        System.setProperty("java.awt.headless", "true"); // the plots are drawn into SVG, never on a screen
        long t0 = System.nanoTime();
        try {
            Files.createDirectories(dir);
            Path work = Files.createTempDirectory("ferry-report-peers"); // the peers' program, built here and removed after
            ReportPeers peers;
            try {
                peers = ReportPeers.find(peerNames, work);
            } catch (IllegalArgumentException e) {
                err.println("ferry bench report: " + e.getMessage());
                return 2;
            }
            peers.missing().forEach((n, why) -> err.println("ferry bench report: peer " + n + " missing: " + why));
            boolean peerSteps = suite.steps().stream().anyMatch(s -> s.name().startsWith("latency") || s.name().startsWith("bw"));
            int total = rounds * (suite.steps().size() + (peerSteps ? peers.found().size() : 0));
            int done = 0;
            Progress progress = Progress.forTerminal(err);
            Rounds merged = new Rounds();
            List<String> raw = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                List<Runnable> phases = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (ReportSuite.Step s : suite.steps()) {
                    names.add(s.name());
                    phases.add(() -> step(s, raw, merged, err));
                }
                if (peerSteps) {
                    for (ReportPeers.Peer p : peers.found()) {
                        names.add(p.name());
                        ReportSuite sz = suite;
                        phases.add(() -> peer(p, sz, raw, merged, err));
                    }
                }
                for (int k = 0; k < phases.size(); k++) {
                    int idx = round % 2 == 1 ? phases.size() - 1 - k : k; // every other round in reverse
                    String what = "round " + (round + 1) + "/" + rounds + ": " + names.get(idx);
                    progress.update(what, done, total);
                    long s0 = System.nanoTime();
                    phases.get(idx).run();
                    done++;
                    if (verbose) {
                        err.println("ferry bench report: " + what + ": " + (System.nanoTime() - s0) / 1_000_000_000L + " s (" + done + " of " + total + " done)");
                    }
                }
            }
            progress.clear();
            Files.write(dir.resolve("results.jsonl"), raw, StandardCharsets.UTF_8);
            List<Result> results = merged.merged();
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            Files.writeString(dir.resolve("index.html"), ReportPage.html(results, peers.found(), peers.missing(), command, took));
            try (var files = Files.list(work)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(work);
            out.println("ferry bench report: " + dir.resolve("index.html") + " (" + results.size() + " lines from " + raw.size()
                    + " measurements, " + took.toSeconds() + " s)");
            return 0;
        } catch (IOException | InterruptedException | RuntimeException e) {
            err.println("ferry bench report: " + e);
            return 1;
        }
    }

    /** One ferry bench command, its JSON lines kept raw and merged. */
    private static void step(ReportSuite.Step s, List<String> raw, Rounds merged, PrintStream err) {
        List<String> args = new ArrayList<>(s.args());
        args.addAll(List.of("--format", "json"));
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ByteArrayOutputStream errs = new ByteArrayOutputStream();
        int code = BenchCommand.run(args, new PrintStream(buf, true, StandardCharsets.UTF_8), new PrintStream(errs, true, StandardCharsets.UTF_8));
        if (code != 0) {
            throw new IllegalStateException("ferry bench " + String.join(" ", s.args()) + " failed (" + code + "): "
                    + errs.toString(StandardCharsets.UTF_8).strip());
        }
        buf.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("{")).forEach(l -> keep(l, raw, merged));
    }

    private static void peer(ReportPeers.Peer p, ReportSuite suite, List<String> raw, Rounds merged, PrintStream err) {
        try {
            p.run(suite.sizes(), suite.iterations(), l -> keep(l, raw, merged));
        } catch (IOException e) {
            err.println("ferry bench report: peer " + p.name() + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void keep(String line, List<String> raw, Rounds merged) {
        raw.add(line);
        merged.add(parse(line));
    }

    /** A JSON line back as a result (its named fields; the rest in extra). */
    static Result parse(String line) {
        try {
            JsonNode n = ResultPrinter.JSON.readTree(line);
            Map<String, Object> extra = new LinkedHashMap<>();
            n.properties().forEach(e -> {
                if (!List.of("benchmark", "driver", "size", "iterations", "median_us", "p99_us", "mb_per_s").contains(e.getKey())) {
                    JsonNode v = e.getValue();
                    extra.put(e.getKey(), v.isNumber() ? (Object) v.numberValue() : v.isTextual() ? v.asText() : v.toString());
                }
            });
            return new Result(n.get("benchmark").asText(), n.get("driver").asText(), n.get("size").asLong(), n.get("iterations").asLong(),
                    n.get("median_us").asDouble(), n.path("p99_us").isNumber() ? n.get("p99_us").asDouble() : Double.NaN,
                    n.has("mb_per_s") ? n.get("mb_per_s").asDouble() : null, extra);
        } catch (IOException e) {
            throw new IllegalStateException("not a JSON line: " + line, e);
        }
    }

    private static long number(String v, String option, long min, long max) {
        try {
            long n = Long.parseLong(v);
            if (n < min || n > max) {
                throw new UsageException(option + " must be between " + min + " and " + max + ", not " + v);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " takes a whole number, not '" + v + "'");
        }
    }
}
