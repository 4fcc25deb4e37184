import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The side-by-side run of issue 33: the OSU-style benchmarks of ferry-mpi/src/programs/java/osu,
 * unchanged, on Ferry (its mpi package in both APIs, and the twin on Ferry's own API), on the Open
 * MPI Java bindings (built from Debian's openmpi source package by build-openmpi-java.sh) and on
 * MPJ Express (Debian's libmpj-java, multicore device), two ranks on this machine; and, in
 * mpiJava's API alone, an Allreduce of 1,000 small MPI.OBJECT objects (object-allreduce). Rounds are
 * interleaved (every configuration once per round); each configuration's figure is the median of
 * its rounds' medians. Prints the JSON lines of every run, then a table with ratios.
 *
 *   java ferry-mpi/tools/SideBySide.java --ompi /tmp/ompi-java --mpj /tmp/mpj-home [--rounds 3] [--only NAMES|BENCHES]
 *
 * Needs bin/ferry built; JDK 25 runs every JVM, with the same heap and GC flags.
 */
public class SideBySide {
    static final List<String> JVM = List.of("-XX:+UseSerialGC", "-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch");
    static final Pattern FIELD = Pattern.compile("\"(\\w+)\":(\"[^\"]*\"|[-0-9.]+)");

    record Config(String name, String bench, String buffer, List<String> command, Map<String, String> env) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opt = new LinkedHashMap<>(Map.of("--rounds", "3", "--iterations", "2000", "--repetitions", "31"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            opt.put(args[i], args[i + 1]);
        }
        Path top = Path.of("").toAbsolutePath();
        String jvm = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String javac = Path.of(System.getProperty("java.home"), "bin", "javac").toString();
        Path work = Files.createTempDirectory("side-by-side");
        String ferryCp = run(List.of(top.resolve("bin/ferry").toString(), "classpath"), Map.of()).strip();
        Path osu = top.resolve("ferry-mpi/src/programs/java/osu");
        // the same sources, compiled against each implementation's mpi package
        compile(javac, ferryCp, work.resolve("ferry"), osu.resolve("OsuOpenMpi.java"), osu.resolve("OsuMpiJava.java"), osu.resolve("OsuFerryApi.java"));
        String ompi = opt.get("--ompi"), mpj = opt.get("--mpj");
        if (ompi != null) {
            compile(javac, ompi + "/lib/mpi.jar", work.resolve("ompi"), osu.resolve("OsuOpenMpi.java"));
        }
        if (mpj != null) {
            compile(javac, mpj + "/lib/mpj.jar", work.resolve("mpj"), osu.resolve("OsuMpiJava.java"));
        }
        String it = opt.get("--iterations"), reps = opt.get("--repetitions");
        List<Config> configs = new ArrayList<>();
        for (String[] b : new String[][] {{"latency", "8"}, {"bw", "1048576"}, {"bibw", "1048576"}, {"allreduce", "8"}, {"object-allreduce", "1000"}}) {
            String bench = b[0], size = b[1];
            String iters = bench.equals("latency") || bench.endsWith("allreduce") ? it : String.valueOf(Integer.parseInt(it) * 10);
            boolean objects = bench.equals("object-allreduce"); // mpiJava's MPI.OBJECT: its API only
            if (objects) {
                configs.add(ferry("ferry-mpijava", bench, "array", top, work, ferryCp, "osu.OsuMpiJava", List.of("ferry", bench, size, iters, reps)));
            }
            for (String kind : objects ? List.<String>of() : List.of("array", "segment")) {
                configs.add(ferry("ferry-api", bench, kind, top, work, ferryCp, "osu.OsuFerryApi", List.of("ferry", bench, kind, size, iters, reps)));
            }
            for (String kind : objects ? List.<String>of() : List.of("array", "buffer")) {
                configs.add(ferry("ferry-mpi", bench, kind, top, work, ferryCp, "osu.OsuOpenMpi", List.of("ferry", bench, kind, size, iters, reps)));
            }
            if (!objects) {
                configs.add(ferry("ferry-mpijava", bench, "array", top, work, ferryCp, "osu.OsuMpiJava", List.of("ferry", bench, size, iters, reps)));
            }
            if (ompi != null && !objects) {
                for (String kind : bench.equals("bw") || bench.equals("bibw") ? List.of("buffer") : List.of("array", "buffer")) {
                    List<String> cmd = new ArrayList<>(List.of(ompi + "/bin/mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2",
                            "--mca", "btl", "self,vader", "-x", "LD_LIBRARY_PATH", jvm));
                    cmd.addAll(JVM);
                    cmd.addAll(List.of("-Djava.library.path=" + ompi + "/lib", "-cp", ompi + "/lib/mpi.jar" + File.pathSeparator + work.resolve("ompi"),
                            "osu.OsuOpenMpi", "openmpi-java", bench, kind, size, iters, reps));
                    configs.add(new Config("openmpi-java", bench, kind, cmd, Map.of("LD_LIBRARY_PATH", ompi + "/lib")));
                }
            }
            if (mpj != null) {
                // MPJ Express's starter starts the JVM of its ranks (threads of one JVM, the multicore device) with the
                // java on PATH and the JVM options among its own
                List<String> cmd = new ArrayList<>(List.of(jvm, "-jar", mpj + "/lib/starter.jar", "-np", "2", "-dev", "multicore"));
                cmd.addAll(JVM);
                cmd.add("-XX:MaxDirectMemorySize=2g"); // its buffer pool takes 256 MiB a rank, more than the 512 MiB heap allows
                cmd.addAll(List.of("-cp", work.resolve("mpj").toString(), "osu.OsuMpiJava", "mpj-express", bench, size, iters, reps));
                configs.add(new Config("mpj-express", bench, "array", cmd,
                        Map.of("MPJ_HOME", mpj, "PATH", Path.of(jvm).getParent() + File.pathSeparator + System.getenv("PATH"))));
            }
        }
        if (opt.containsKey("--only")) {
            List<String> only = List.of(opt.get("--only").split(","));
            configs.removeIf(c -> !only.contains(c.name) && !only.contains(c.bench));
        }
        Map<String, List<Double>> figures = new TreeMap<>();
        int rounds = Integer.parseInt(opt.get("--rounds"));
        for (int round = 1; round <= rounds; round++) {
            List<Config> order = new ArrayList<>(configs);
            if (round % 2 == 0) {
                java.util.Collections.reverse(order); // interleaved, alternating directions
            }
            for (Config c : order) {
                String out;
                try {
                    out = run(c.command, c.env);
                } catch (IOException e) {
                    System.out.println("# round " + round + " " + c.name + " " + c.bench + " " + c.buffer + ": " + e.getMessage());
                    continue;
                }
                if (opt.containsKey("--verbose")) {
                    System.out.println("# " + c.name + " " + c.bench + ": " + out.strip().replace("\n", "\n# "));
                }
                for (String line : out.lines().filter(l -> l.startsWith("{\"bench\"")).toList()) {
                    Map<String, String> f = fields(line);
                    String value = f.containsKey("median_us") ? f.get("median_us") : f.get("median_mb_s");
                    System.out.println(line.replace("{\"bench\"", "{\"round\":" + round + ",\"config\":\"" + c.name + "\",\"bench\""));
                    figures.computeIfAbsent(c.bench + " " + f.get("size") + " " + c.name + " " + c.buffer, k -> new ArrayList<>()).add(Double.parseDouble(value));
                }
            }
        }
        System.out.println();
        System.out.printf("%-34s %12s %8s  %s%n", "benchmark size implementation buffer", "median", "rounds", "ratio to openmpi-java (same buffer) | to ferry-api (array/segment)");
        for (var e : figures.entrySet()) {
            double m = median(e.getValue());
            String[] k = e.getKey().split(" ");
            Double ref = figures.containsKey(k[0] + " " + k[1] + " openmpi-java " + k[3]) ? median(figures.get(k[0] + " " + k[1] + " openmpi-java " + k[3])) : null;
            String apiKind = k[3].equals("buffer") ? "segment" : "array";
            Double api = figures.containsKey(k[0] + " " + k[1] + " ferry-api " + apiKind) ? median(figures.get(k[0] + " " + k[1] + " ferry-api " + apiKind)) : null;
            System.out.printf("%-34s %12.4f %8d  %s | %s%n", e.getKey(), m, e.getValue().size(),
                    ref == null ? "-" : String.format("%.3f", m / ref), api == null ? "-" : String.format("%.3f", m / api));
        }
    }

    static Config ferry(String name, String bench, String kind, Path top, Path work, String ferryCp, String main, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(top.resolve("bin/ferry").toString(), "run", "-n", "2", "--env", "FERRY_PROGRESS=caller"));
        for (String j : JVM) {
            cmd.add("-J" + j);
        }
        cmd.addAll(List.of("-cp", work.resolve("ferry").toString(), main));
        cmd.addAll(args);
        return new Config(name, bench, kind, cmd, Map.of());
    }

    static void compile(String javac, String cp, Path out, Path... sources) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(javac, "-nowarn", "-d", out.toString(), "-cp", cp));
        Arrays.stream(sources).forEach(s -> cmd.add(s.toString()));
        run(cmd, Map.of());
    }

    static String run(List<String> cmd, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + new String(out, StandardCharsets.UTF_8).strip().lines().reduce((a, b) -> b).orElse(""));
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    static Map<String, String> fields(String line) {
        Map<String, String> m = new LinkedHashMap<>();
        Matcher x = FIELD.matcher(line);
        while (x.find()) {
            m.put(x.group(1), x.group(2).replace("\"", ""));
        }
        return m;
    }

    static double median(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a[a.length / 2];
    }
}
