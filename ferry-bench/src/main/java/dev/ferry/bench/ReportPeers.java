package dev.ferry.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The other communication libraries on this machine, measured beside Ferry in the same run:
 * MPICH and Open MPI through an OSU-style C program ({@code osu-p2p.c}, shipped with Ferry) that
 * each one's {@code mpicc} builds at run time, and UCX through {@code ucx_perftest}
 * ({@link UcxPerftest}). A peer that is
 * not installed (or whose compiler cannot build the program) is listed as missing with the
 * reason, never invented.
 *
 * <pre>{@code
 * ReportPeers peers = ReportPeers.find(List.of("mpich", "openmpi", "ucx"), workDir);
 * peers.found().forEach(p -> p.run("1,8,4k", 2000, line -> System.out.println(line)));
 * peers.missing().forEach((name, why) -> System.out.println(name + ": " + why));
 * }</pre>
 */
final class ReportPeers {
    /** Every peer the report knows. */
    static final List<String> KNOWN = List.of("mpich", "openmpi", "ucx");
    private static final long BOUND_SECONDS = 300;

    /** How a peer measures: over {@code sizes} (bytes, comma-separated), handing each JSON line to {@code out}. */
    interface Runner {
        void run(String sizes, int iterations, java.util.function.Consumer<String> out) throws IOException, InterruptedException;
    }

    /** A peer ready to run: its name, its version as it gives it, how it is measured (for the page) and the runner. */
    record Peer(String name, String version, String how, Runner runner) {
        /** Measures over {@code sizes} (as ferry bench takes them: 4k, 1m); hands each JSON line to {@code out}. */
        void run(String sizes, int iterations, java.util.function.Consumer<String> out) throws IOException, InterruptedException {
            runner.run(ReportPeers.bytes(sizes), iterations, out);
        }
    }

    record Result(int exit, String output) {
    }

    private final List<Peer> found;
    private final Map<String, String> missing;

    private ReportPeers(List<Peer> found, Map<String, String> missing) {
        this.found = found;
        this.missing = missing;
    }

    List<Peer> found() {
        return found;
    }

    /** The peers asked for that are not here, each with why. */
    Map<String, String> missing() {
        return missing;
    }

    /** Finds and builds {@code names} (of {@link #KNOWN}) in {@code work}, looking on this process's PATH. */
    static ReportPeers find(List<String> names, Path work) throws IOException, InterruptedException {
        return find(names, work, System.getenv().getOrDefault("PATH", ""));
    }

    /** Finds and builds {@code names} in {@code work}, looking for their commands on {@code path}. */
    static ReportPeers find(List<String> names, Path work, String path) throws IOException, InterruptedException {
        List<Peer> found = new ArrayList<>();
        Map<String, String> missing = new LinkedHashMap<>();
        Path source = work.resolve("osu-p2p.c");
        try (InputStream in = ReportPeers.class.getResourceAsStream("osu-p2p.c")) {
            Files.write(source, in.readAllBytes());
        }
        for (String name : names) {
            switch (name) {
                case "mpich" -> mpi(name, "mpicc.mpich", List.of("mpiexec.mpich", "-n", "2"), source, work, path, found, missing);
                case "openmpi" -> {
                    List<String> run = new ArrayList<>(List.of("mpirun.openmpi", "--oversubscribe", "-np", "2"));
                    if ("root".equals(System.getProperty("user.name"))) {
                        run.add(1, "--allow-run-as-root");
                    }
                    mpi(name, "mpicc.openmpi", run, source, work, path, found, missing);
                }
                case "ucx" -> {
                    if (onPath("ucx_perftest", path) == null) {
                        missing.put(name, "ucx_perftest is not installed (Debian: ucx-utils)");
                    } else {
                        Result v = exec(List.of("ucx_info", "-v"), 30);
                        String version = v.output.lines().filter(l -> l.contains("version")).findFirst().orElse("").replace("#", "").strip();
                        found.add(new Peer(name, version, "ucx_perftest's tag_lat and tag_bw, UCX_TLS=sm,self, two processes on this node",
                                UcxPerftest::run));
                    }
                }
                default -> throw new IllegalArgumentException("--peers: unknown peer '" + name + "' (known: " + String.join(", ", KNOWN) + ")");
            }
        }
        return new ReportPeers(List.copyOf(found), missing);
    }

    private static void mpi(String name, String mpicc, List<String> launcher, Path source, Path work, String path, List<Peer> found,
                            Map<String, String> missing) throws IOException, InterruptedException {
        if (onPath(mpicc, path) == null) {
            missing.put(name, mpicc + " is not installed");
            return;
        }
        if (onPath(launcher.get(0), path) == null) {
            missing.put(name, launcher.get(0) + " is not installed");
            return;
        }
        Path binary = work.resolve("osu-p2p-" + name);
        Result built = exec(List.of(mpicc, "-O2", "-o", binary.toString(), source.toString()), 120);
        if (built.exit != 0) {
            missing.put(name, mpicc + " cannot build the benchmark: " + built.output.lines().filter(l -> l.contains("error")).findFirst().orElse(built.output.strip()));
            return;
        }
        Result v = exec(List.of(launcher.get(0), "--version"), 30);
        String version = v.output.lines().filter(l -> l.matches(".*[0-9]+\\.[0-9]+.*")).findFirst().orElse("").strip();
        List<String> program = new ArrayList<>(launcher);
        program.add(binary.toString());
        found.add(new Peer(name, version, "osu-p2p.c built with its mpicc, two ranks on this node", (sizes, iterations, out) -> {
            List<String> cmd = new ArrayList<>(program);
            cmd.addAll(List.of(name, sizes, String.valueOf(iterations), "16"));
            Result r = exec(cmd, BOUND_SECONDS);
            if (r.exit != 0) {
                throw new IOException(name + " exited " + r.exit + ": " + r.output.strip());
            }
            r.output.lines().filter(l -> l.startsWith("{")).forEach(out);
        }));
    }

    /** The full path of {@code command} on {@code path} (directories separated by ':'), or null. */
    static Path onPath(String command, String path) {
        for (String dir : path.split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, command);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** Sizes as ferry bench takes them (4k, 1m) in bytes, for the C program and ucx_perftest. */
    static String bytes(String sizes) {
        return String.join(",", BenchOptions.sizes(sizes).stream().map(String::valueOf).toList());
    }

    static Result exec(List<String> cmd, long boundSeconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        byte[][] out = new byte[1][];
        Thread reader = Thread.ofVirtual().start(() -> {
            try {
                out[0] = p.getInputStream().readAllBytes();
            } catch (IOException e) {
                out[0] = ("(output unreadable: " + e.getMessage() + ")").getBytes(StandardCharsets.UTF_8);
            }
        });
        if (!p.waitFor(boundSeconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + " did not end within " + boundSeconds + " s");
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        return new Result(p.exitValue(), out[0] == null ? "" : new String(out[0], StandardCharsets.UTF_8));
    }
}
