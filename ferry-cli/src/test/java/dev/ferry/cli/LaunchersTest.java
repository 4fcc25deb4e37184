package dev.ferry.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ferry's examples under the launchers clusters run, for real: Slurm's {@code srun} with PMI-2
 * and with PMIx (a single-node Slurm this test starts, {@link SlurmCluster}), Open MPI's
 * {@code mpirun} (PMIx) and MPICH's Hydra (PMI-2). Each job's output is checked: every rank's
 * hello, the put-get windows, the counter's total, and the protocol the ranks spoke. Skipped with
 * the reason when this machine cannot run a launcher (not root, or its package missing).
 */
class LaunchersTest {
    /** Open MPI's own name for mpirun: Debian's alternatives may point mpirun at MPICH's. */
    private static final Path MPIRUN = Path.of("/usr/bin/mpirun.openmpi");
    private static final Path HYDRA = Path.of("/usr/bin/mpiexec.hydra");
    private static SlurmCluster slurm;
    private static String slurmMissing;

    @BeforeAll
    static void startSlurm() throws Exception {
        slurmMissing = SlurmCluster.unavailable();
        if (slurmMissing == null) {
            slurm = SlurmCluster.start();
        }
    }

    @AfterAll
    static void stopSlurm() throws Exception {
        if (slurm != null) {
            slurm.close();
        }
    }

    @ParameterizedTest(name = "{0} -n {1} {2}")
    @CsvSource({
            "srun-pmi2, 1, hello", "srun-pmi2, 4, hello", "srun-pmi2, 2, put-get", "srun-pmi2, 4, counter", "srun-pmi2, 3, wireup",
            "srun-pmix, 1, hello", "srun-pmix, 4, hello", "srun-pmix, 2, put-get", "srun-pmix, 4, counter", "srun-pmix, 3, wireup",
            "mpirun, 1, hello", "mpirun, 4, hello", "mpirun, 2, put-get", "mpirun, 4, counter", "mpirun, 3, wireup",
            "hydra, 2, put-get", "hydra, 4, counter"})
    void anExampleRunsUnderTheLauncher(String launcher, int n, String example) throws Exception {
        Job job = run(launcher, n, List.of("--example", example));
        String out = job.out;
        String context = job.context;
        assertEquals(0, job.exit, context);
        assertFalse(out.contains("WRONG") || out.contains("Exception"), context);
        String protocol = launcher.equals("srun-pmi2") || launcher.equals("hydra") ? "pmi-2" : "pmix";
        switch (example) {
            case "hello" -> {
                for (int r = 0; r < n; r++) {
                    assertTrue(out.contains("hello from rank " + r + " of " + n + " on node "), context);
                }
            }
            case "put-get" -> {
                // launchers forward the ranks' output in pieces that may interleave: count, do not match lines
                assertEquals(n, out.split("my window holds", -1).length - 1, context);
                for (int r = 0; r < n; r++) {
                    assertTrue(out.contains("hello from rank " + r), context);
                }
            }
            case "counter" -> assertTrue(out.contains("counter = " + n * 1000L + " (" + n + " ranks x 1000)"), context);
            case "wireup" -> assertTrue(out.contains("wired up " + n + " ranks on 1 node(s) over " + protocol), context);
            default -> throw new IllegalArgumentException(example);
        }
    }

    /**
     * Java MPI programs of both families (ferry-mpi's {@code src/programs}, compiled here against
     * the {@code mpi} package) started by the launcher as plain {@code java} processes, as their
     * users start them: every program checks its own result and prints "ok".
     */
    @ParameterizedTest(name = "{0} -n {1} {2}")
    @CsvSource({
            "hydra, 4, openmpi.Stencil, 1", "hydra, 3, mpijava.Pi, 1", "hydra, 3, checks.ApiChecks, 12",
            "mpirun, 4, openmpi.Counter, 1", "mpirun, 2, mpijava.PingPong, 1", "mpirun, 4, mpijava.SerializedObjects, 1",
            "srun-pmi2, 4, mpijava.MatMul, 1", "srun-pmi2, 3, openmpi.Ring, 1",
            "srun-pmix, 4, openmpi.Pi, 1", "srun-pmix, 4, mpijava.Stencil, 1"})
    void anMpiProgramRunsUnderTheLauncher(String launcher, int n, String program, int oks) throws Exception {
        Job job = run(launcher, n, List.of(program), mpiPrograms() + java.io.File.pathSeparator + System.getProperty("java.class.path"));
        assertEquals(0, job.exit, job.context);
        assertFalse(job.out.contains("WRONG") || job.out.contains("Exception"), job.context);
        assertEquals(oks, job.out.lines().filter(l -> l.startsWith("ok ")).count(), job.context);
    }

    private static synchronized String mpiPrograms() throws Exception {
        Path out = Path.of("target/mpi-programs");
        List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-cp", System.getProperty("java.class.path"), "-nowarn"));
        try (var files = Files.walk(Path.of("../ferry-mpi/src/programs/java"))) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
        }
        java.io.ByteArrayOutputStream diagnostics = new java.io.ByteArrayOutputStream();
        if (javax.tools.ToolProvider.getSystemJavaCompiler().run(null, diagnostics, diagnostics, args.toArray(new String[0])) != 0) {
            throw new AssertionError("the mpi programs do not compile:\n" + diagnostics);
        }
        return out.toAbsolutePath().toString();
    }

    /**
     * A rank that throws ends the job as the launcher ends a job whose process failed (mpirun
     * always; srun with {@code -K}, --kill-on-bad-exit, as for any MPI program), and the error
     * names the rank; the others, waiting in a fence it never enters, do not hang. (Not Hydra
     * here: its PMI-2 fence answers at once, a get waits instead, so the others pass the fence.)
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"srun-pmi2", "srun-pmix", "mpirun"})
    void aRankThatThrowsEndsTheJobNamingIt(String launcher) throws Exception {
        Job job = run(launcher, 3, List.of("-cp", System.getProperty("java.class.path"), TestRanks.class.getName(), "throw"));
        assertTrue(job.exit != 0, job.context);
        assertTrue(job.out.contains("ferry exec: rank 1: dev.ferry.cli.TestRanks failed: java.lang.IllegalStateException: rank 1 failed on purpose"),
                job.context);
    }

    /** A PMIx conversation that cannot start (no server at the address given) stops the rank with one line naming what was found. */
    @org.junit.jupiter.api.Test
    void aBrokenPmixConversationIsOneLineNamingTheEnvironment() throws Exception {
        Assumptions.assumeTrue(Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libpmix.so.2")) || Files.exists(Path.of("/usr/lib/libpmix.so.2")),
                "libpmix2 is not installed (.ci/run installs it)");
        ProcessBuilder pb = new ProcessBuilder(dev.ferry.launch.ChildJvm.javaExecutable().toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "exec", "--example", "hello").redirectErrorStream(true);
        pb.environment().put("PMIX_NAMESPACE", "nowhere");
        pb.environment().put("PMIX_RANK", "0");
        pb.environment().put("PMIX_SERVER_URI4", "pmix-server.1;tcp4://127.0.0.1:1");
        Process p = pb.start();
        String out = outputOf(p, "a rank with a broken PMIx server address").strip();
        assertEquals(1, p.exitValue(), out);
        assertEquals(1, out.lines().count(), out);
        assertTrue(out.contains("started under PMIx (PMIX_NAMESPACE=nowhere, PMIX_RANK=0): PMIx_Init failed"), out);
    }

    private record Job(int exit, String out, String context) {
    }

    private static Job run(String launcher, int n, List<String> program) throws Exception {
        return run(launcher, n, program, null);
    }

    /** With {@code classPath} set, the program is a plain java main class on it; else a ferry exec program. */
    private static Job run(String launcher, int n, List<String> program, String classPath) throws Exception {
        List<String> cmd = new ArrayList<>();
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        switch (launcher) {
            case "srun-pmi2", "srun-pmix" -> {
                Assumptions.assumeTrue(slurmMissing == null, slurmMissing);
                cmd.addAll(List.of("srun", "-O", "-K", "--mpi=" + launcher.substring(5), "-n", String.valueOf(n)));
                slurm.configure(pb);
            }
            case "mpirun" -> {
                Assumptions.assumeTrue(Files.isExecutable(MPIRUN), "Open MPI's mpirun is not installed (apt-get install openmpi-bin; .ci/run does it)");
                cmd.addAll(List.of(MPIRUN.toString(), "--oversubscribe", "-np", String.valueOf(n)));
                if ("root".equals(System.getProperty("user.name"))) {
                    cmd.add("--allow-run-as-root");
                }
            }
            case "hydra" -> {
                Assumptions.assumeTrue(Files.isExecutable(HYDRA), "mpiexec.hydra is not installed (apt-get install mpich; .ci/run does it)");
                cmd.addAll(List.of(HYDRA.toString(), "-n", String.valueOf(n)));
            }
            default -> throw new IllegalArgumentException(launcher);
        }
        if (classPath != null) {
            cmd.addAll(List.of(dev.ferry.launch.ChildJvm.javaExecutable().toString(), "--enable-native-access=ALL-UNNAMED", "-cp", classPath));
        } else {
            cmd.addAll(List.of(dev.ferry.launch.ChildJvm.javaExecutable().toString(), "--enable-native-access=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"), Main.class.getName(), "exec"));
        }
        cmd.addAll(program);
        pb.environment().put("FERRY_TCP_INTERFACES", "lo");
        Process p = pb.start();
        String what = launcher + " -n " + n + " " + String.join(" ", program.subList(Math.max(0, program.size() - 2), program.size()));
        String out = outputOf(p, what);
        return new Job(p.exitValue(), out, what + ":\n" + out + (slurm != null && launcher.startsWith("srun") ? "\n" + slurm.logs() : ""));
    }

    /** The process's output once it ended; it and its children are killed after 180 s, failing the test. */
    private static String outputOf(Process p, String what) throws Exception {
        java.util.concurrent.CompletableFuture<byte[]> output = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return p.getInputStream().readAllBytes();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError(what + " did not end within 180 s");
        }
        return new String(output.get(30, TimeUnit.SECONDS), StandardCharsets.UTF_8);
    }
}
