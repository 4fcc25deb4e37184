package dev.ferry.dist;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The binary distribution on a machine with only a JDK 25: unpacked away from the source tree,
 * with no Maven, it runs {@code ferry run}, {@code ferry exec}, {@code ferry info} and
 * {@code ferry javac}, and {@code ferry classpath} prints only what applications need.
 */
class DistributionTest {
    @TempDir
    static Path scratch;
    static Path home;
    static Commands sh;

    @BeforeAll
    static void unpack() throws Exception {
        home = Commands.unpack(scratch);
        sh = new Commands(scratch, Commands.withoutMaven(scratch));
    }

    private static String ferry() {
        return home.resolve("bin/ferry").toString();
    }

    /**
     * {@code bin/ferry-task-prolog} as slurmstepd runs it for a task: the lines Slurm reads (agent
     * mode on, the node agent's socket), and the agent it started listening after it exited;
     * outside Slurm it says why and fails.
     */
    @Test
    void theSlurmTaskPrologStartsTheNodesAgentAndTellsTheTask() throws Exception {
        String prolog = home.resolve("bin/ferry-task-prolog").toString();
        assertTrue(Files.isExecutable(Path.of(prolog)), "bin/ferry-task-prolog is not executable");
        Commands.Result outside = sh.run(60, prolog);
        assertEquals(1, outside.exit(), outside.output());
        assertTrue(outside.output().contains("SLURM_JOB_ID and SLURM_STEP_ID are not set"), outside.output());
        Path socket = scratch.resolve("step.sock");
        String out = sh.ok(60, "env", "SLURM_JOB_ID=7", "SLURM_STEP_ID=0", "SLURMD_NODENAME=n1", "FERRY_AGENT_SOCKET=" + socket, "FERRY_STATS=on",
                prolog).output();
        assertTrue(out.startsWith("export FERRY_AGENT=on\nexport FERRY_AGENT_SOCKET=" + socket + "\n"), out);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("print ferry: agent process (\\d+) started for node n1 by the task prolog").matcher(out);
        assertTrue(m.find(), out);
        ProcessHandle agent = ProcessHandle.of(Long.parseLong(m.group(1))).orElseThrow(() -> new AssertionError("the agent ended with its prolog: " + out));
        assertTrue(Files.exists(socket), "it listens at " + socket);
        agent.destroy(); // no rank comes: end it now rather than after its idle time
        agent.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
    }

    @Test
    void layoutHasTheLauncherLibrariesDocsAndExamples() {
        for (String p : List.of("bin/ferry", "README.md", "LICENSE", "docs/architecture.md", "docs/migrating.md",
                "lib/ferry-api-" + System.getProperty("ferry.version") + ".jar", "lib/tools",
                "examples/mpi/openmpi/Pi.java", "examples/api/dev/ferry/examples")) {
            assertTrue(Files.exists(home.resolve(p)), p + " missing from the distribution");
        }
        assertTrue(Files.isExecutable(home.resolve("bin/ferry")), "bin/ferry is not executable");
    }

    @Test
    void classpathIsWhatApplicationsNeedAndNoTool() throws Exception {
        String out = sh.ok(60, ferry(), "classpath").output().strip();
        List<String> entries = Arrays.asList(out.split(File.pathSeparator));
        for (String e : entries) {
            assertEquals(home.resolve("lib"), Path.of(e).getParent(), "entry outside lib/: " + e);
        }
        for (String needed : List.of("ferry-api-", "ferry-mpi-", "ferry-core-", "ferry-driver-shm-", "ferry-driver-tcp-", "agrona-")) {
            assertTrue(entries.stream().anyMatch(e -> Path.of(e).getFileName().toString().startsWith(needed)), needed + " missing: " + out);
        }
        for (String tool : List.of("ferry-cli", "ferry-bench", "ferry-examples", "jmh-core", "jopt-simple", "commons-math3", "progressbar", "jline")) {
            assertFalse(out.contains(tool), tool + " is not for applications: " + out);
        }
    }

    @Test
    void infoListsTheDrivers() throws Exception {
        String out = sh.ok(60, ferry(), "info").output();
        assertTrue(out.contains("Drivers (") && out.contains("shm") && out.contains("tcp"), out);
        assertFalse(out.contains(Commands.NO_MAVEN), out);
    }

    @Test
    void javacThenRunAnOpenMpiProgram() throws Exception {
        Path classes = scratch.resolve("pi-classes");
        sh.ok(120, ferry(), "javac", "-d", classes.toString(), home.resolve("examples/mpi/openmpi/Pi.java").toString());
        String out = sh.ok(120, ferry(), "run", "-n", "3", "-cp", classes.toString(), "openmpi.Pi").output();
        assertTrue(out.contains("pi is about 3.14159"), out);
        assertFalse(out.contains(Commands.NO_MAVEN), out);
    }

    @Test
    void runsTheBuiltInExamples() throws Exception {
        String out = sh.ok(120, ferry(), "run", "-n", "2", "--example", "hello").output();
        assertTrue(out.contains("hello from rank 0 of 2") && out.contains("hello from rank 1 of 2"), out);
    }

    @Test
    void execIsARankOfAnotherLaunchersJob() throws Exception {
        // without a launcher's PMI in the environment a rank is a job of one (MPI's singleton init)
        String alone = sh.ok(60, ferry(), "exec", "--example", "hello").output();
        assertTrue(alone.contains("hello from rank 0 of 1"), alone);
        // under MPICH's Hydra, which .ci/run installs, as the README's launcher table says
        String out = sh.ok(120, "mpiexec.hydra", "-n", "2", ferry(), "exec", "--example", "hello").output();
        assertTrue(out.contains("hello from rank 0 of 2") && out.contains("hello from rank 1 of 2"), out);
    }
}
