package dev.ferry.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launchers clusters already run, across the three namespace hosts of a virtual cluster: MPICH's
 * Hydra ({@code mpiexec -hosts} with its ssh launcher) and Slurm ({@code srun -N 3} with PMI-2 and
 * PMIx: slurmctld here, a slurmd inside each host). Each job runs {@link HostRanks}' checks: every
 * pair, every collective with real node leaders, a window, each rank on its own host; directly and
 * through the node agents, which no Ferry launcher starts here: the first rank of each host does.
 */
class LaunchersAcrossHostsTest {
    private static final Path HYDRA = Path.of("/usr/bin/mpiexec.hydra");
    private static final long BOUND_S = 180;
    private static VirtualCluster cluster;
    private static SlurmCluster slurm;
    private static String slurmMissing;

    @BeforeAll
    static void up() throws Exception {
        String why = VirtualCluster.unavailable();
        Assumptions.assumeTrue(why == null, why);
        cluster = VirtualCluster.up(3);
        slurmMissing = SlurmCluster.unavailable();
        if (slurmMissing == null) {
            slurm = SlurmCluster.start(cluster);
        }
    }

    @AfterAll
    static void down() throws Exception {
        if (slurm != null) {
            slurm.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static List<String> rank() {
        return List.of(dev.ferry.launch.ChildJvm.javaExecutable().toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "exec", HostRanks.class.getName(), "check");
    }

    @ParameterizedTest(name = "{0}, FERRY_AGENT={1}")
    @CsvSource({"hydra, off", "hydra, on", "srun-pmi2, off", "srun-pmi2, on", "srun-pmix, off", "srun-pmix, on"})
    void sixRanksOnThreeHostsPassEveryCheck(String launcher, String agent) throws Exception {
        ProcessBuilder pb;
        if (launcher.equals("hydra")) {
            Assumptions.assumeTrue(Files.isExecutable(HYDRA), "mpiexec.hydra is not installed (apt-get install mpich; .ci/run does it)");
            List<String> cmd = new ArrayList<>(List.of(HYDRA.toString(), "-hosts", String.join(",", cluster.hosts()), "-n", "6", "-ppn", "2",
                    "-launcher", "ssh", "-launcher-exec", cluster.ssh(), "-iface", cluster.bridge(), "-genv", "FERRY_AGENT", agent,
                    "-genv", "FERRY_STATS", "on"));
            cmd.addAll(rank());
            pb = new ProcessBuilder(cmd);
        } else {
            Assumptions.assumeTrue(slurmMissing == null, slurmMissing);
            // srun inside the first host: its I/O connections come back to an address the hosts reach
            List<String> cmd = new ArrayList<>(List.of("env", "SLURM_CONF=" + slurm.conf(), "FERRY_AGENT=" + agent, "FERRY_STATS=on", "srun",
                    "-N", "3", "-n", "6", "--ntasks-per-node=2", "-K", "--mpi=" + launcher.substring(5)));
            cmd.addAll(rank());
            pb = new ProcessBuilder(cluster.command(cluster.hosts().get(0), cmd.toArray(String[]::new)));
        }
        String out = run(pb, launcher);
        for (int r = 0; r < 6; r++) {
            assertTrue(out.contains("rank " + r + " host " + cluster.hosts().get(r / 2) + "\n"), out);
            assertTrue(out.contains("rank " + r + " ok\n"), out);
        }
        assertTrue(out.contains("algorithms barrier=node_aware bcast=node_aware reduce=node_aware allreduce=node_aware"), out);
        // each rank's figures at close (FERRY_STATS): through its host's agent, or not at all
        assertEquals(agent.equals("on") ? 6 : 0, out.lines().filter(l -> l.contains("ferry stats: rank ") && l.contains("agent process")).count(), out);
        for (String h : cluster.hosts()) { // the agents end by themselves after their hosts' ranks
            assertEquals("", cluster.leftOnceEnded(h, "dev.ferry", java.time.Duration.ofSeconds(20)), "left on " + h);
        }
    }

    /**
     * Slurm's task prolog ({@code srun --task-prolog}, as {@code bin/ferry-task-prolog} runs it)
     * starts each host's agent before the step's tasks and turns agent mode on for them, which
     * are given no FERRY_AGENT: Slurm runs it for each task, the host's first starts the agent and
     * the other waits until it listens; each agent takes the key of the first rank to greet it.
     * Each rank uses the agent its host's prolog started, and nothing is left after the step.
     */
    @Test
    void srunsTaskPrologStartsEachHostsAgentAndTheRanksUseIt() throws Exception {
        Assumptions.assumeTrue(slurmMissing == null, slurmMissing);
        Path prolog = Path.of("target", "ferry-task-prolog-test").toAbsolutePath(); // where every host sees it (not /tmp)
        List<String> command = new ArrayList<>(rank().subList(0, 4));
        command.addAll(List.of(Main.class.getName(), "agent", "--slurm-task-prolog"));
        Files.writeString(prolog, "#!/bin/sh\nexec " + String.join(" ", command.stream().map(a -> "'" + a + "'").toList()) + "\n");
        assertTrue(prolog.toFile().setExecutable(true));
        List<String> cmd = new ArrayList<>(List.of("env", "SLURM_CONF=" + slurm.conf(), "FERRY_STATS=on", "srun",
                "-N", "3", "-n", "6", "--ntasks-per-node=2", "-K", "--mpi=pmix", "--task-prolog=" + prolog));
        cmd.addAll(rank());
        ProcessBuilder pb = new ProcessBuilder(cluster.command(cluster.hosts().get(0), cmd.toArray(String[]::new)));
        pb.environment().remove("FERRY_AGENT");
        String out = run(pb, "srun --task-prolog");
        java.util.Map<String, String> agentOf = new java.util.HashMap<>();
        for (String h : cluster.hosts()) {
            List<String> started = out.lines().filter(l -> l.matches("ferry: agent process \\d+ started for node " + h + " by the task prolog")).toList();
            assertEquals(1, started.size(), "one agent started on " + h + ": " + out);
            agentOf.put(h, started.get(0).split(" ")[3]);
        }
        for (int r = 0; r < 6; r++) {
            int rank = r;
            assertTrue(out.contains("rank " + r + " ok\n"), out);
            String host = cluster.hosts().get(r / 2);
            assertTrue(out.lines().anyMatch(l -> l.contains("ferry stats: rank " + rank + ":") && l.contains("agent process " + agentOf.get(host))),
                    "rank " + r + " used the agent its host's prolog started (" + agentOf.get(host) + "): " + out);
        }
        for (String h : cluster.hosts()) { // each agent ended with the step
            assertEquals("", cluster.leftOnceEnded(h, "dev.ferry", java.time.Duration.ofSeconds(20)), "left on " + h);
        }
    }

    /** Runs the launcher's command to its end, within the bound; its output, once it ended well. */
    private static String run(ProcessBuilder pb, String launcher) throws Exception {
        pb.redirectErrorStream(true);
        pb.environment().remove("FERRY_TCP_INTERFACES");
        Process p = pb.start();
        java.io.ByteArrayOutputStream seen = new java.io.ByteArrayOutputStream();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (var in = p.getInputStream()) {
                in.transferTo(seen);
            } catch (IOException ignored) {
                // ended
            }
        });
        if (!p.waitFor(BOUND_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(launcher + " did not end within " + BOUND_S + " s: " + seen + (slurm != null ? slurm.logs() : ""));
        }
        reader.join(TimeUnit.SECONDS.toMillis(BOUND_S));
        String out = seen.toString(StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out + (launcher.startsWith("srun") ? "\n" + slurm.logs() : ""));
        return out;
    }
}
