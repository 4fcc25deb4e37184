package dev.ferry.cli;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * ferry run as a user runs it: a launcher JVM of its own, ranks that are real JVMs, and after
 * every ending, normal or not, no rank process and no /dev/shm file of the job left.
 */
class JobTest {
    private static final long BOUND_S = 60;

    /** A running launcher: its process, its output lines as they come. */
    private static final class Launcher {
        final Process process;
        final LinkedBlockingQueue<String> out = new LinkedBlockingQueue<>();
        final List<String> err = new CopyOnWriteArrayList<>();

        Launcher(String... args) throws IOException {
            ProcessBuilder pb = new ProcessBuilder(TestJars.launcher(TestJars.classPath(), args));
            pb.environment().put("FERRY_TCP_INTERFACES", "lo");
            process = pb.start();
            readers.add(reader(process.getInputStream(), out::add));
            readers.add(reader(process.getErrorStream(), err::add));
        }

        private final List<Thread> readers = new ArrayList<>();

        private static Thread reader(java.io.InputStream in, java.util.function.Consumer<String> sink) {
            return Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        sink.accept(line);
                    }
                } catch (IOException ignored) {
                    // ended
                }
            });
        }

        /** Reads the ranks' "pid P job J" lines: the pids, and the job id. */
        List<Long> pids(int n, String[] job) throws InterruptedException {
            List<Long> pids = new ArrayList<>();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_S);
            while (pids.size() < n) {
                String line = out.poll(Math.max(1, end - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null) {
                    fail("only " + pids.size() + " of " + n + " ranks reported within " + BOUND_S + " s; stderr " + err);
                }
                String[] w = line.replaceFirst("^\\[\\d+\\] ", "").split(" ");
                if (w.length == 4 && w[0].equals("pid")) {
                    pids.add(Long.parseLong(w[1]));
                    job[0] = w[3];
                }
            }
            return pids;
        }

        int exit() throws InterruptedException {
            if (!process.waitFor(BOUND_S, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("ferry run did not end within " + BOUND_S + " s; stderr " + err);
            }
            for (Thread t : readers) {
                t.join(TimeUnit.SECONDS.toMillis(BOUND_S)); // every line read (a rank may hold the pipes a little longer)
            }
            return process.exitValue();
        }
    }

    private static String testClasses() {
        return TestJars.testClasses();
    }

    /**
     * Nothing of the job is left: every rank process gone, no file in /dev/shm whose name holds the
     * job's random part (whatever a driver made of the rest of the id), no JVM performance file of a rank.
     */
    private static void nothingLeft(List<Long> pids, String job) throws IOException {
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "rank process " + pid + " is still alive");
            Path perf = Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"), Long.toString(pid));
            assertFalse(Files.exists(perf), "left: " + perf);
        }
        assertTrue(shmFilesOf(job).isEmpty(), "left in /dev/shm: " + shmFilesOf(job));
    }

    /** The job's files in /dev/shm: names holding the random part of its id. */
    private static List<Path> shmFilesOf(String job) throws IOException {
        assertNotNull(job);
        String random = job.substring(Math.max(job.lastIndexOf('-'), job.lastIndexOf('_')) + 1);
        assertTrue(random.length() >= 8, "job id " + job);
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(Path.of("/dev/shm"), "ferry-*" + random + "*")) {
            s.forEach(found::add);
        }
        return found;
    }

    /**
     * The ranks' pids once each has made its shm segment; some segments are there then (so that a
     * test of cleaning up is not vacuous; a rank that died early may have had its own reclaimed by
     * a rank that started after it).
     */
    private static List<Long> ranksWithSegments(Launcher l, int n, String[] job) throws Exception {
        List<Long> pids = l.pids(n, job);
        assertFalse(shmFilesOf(job[0]).isEmpty(), "no segment of the job while it runs");
        return pids;
    }

    @Test
    void fourRanksSayHello() throws Exception {
        Launcher l = new Launcher("run", "-n", "4", "--tag-output", "--example", "hello");
        assertEquals(0, l.exit(), "stderr: " + l.err);
        List<String> lines = new ArrayList<>();
        l.out.drainTo(lines);
        assertEquals(4, lines.size(), lines.toString());
        for (int r = 0; r < 4; r++) {
            int rank = r;
            assertTrue(lines.stream().anyMatch(s -> s.matches("\\[" + rank + "] hello from rank " + rank + " of 4 on node .+")), lines.toString());
        }
    }

    @Test
    void standardInputGoesToRankZeroAndTheOthersReadItsEnd() throws Exception {
        Launcher l = new Launcher("run", "-n", "3", "-cp", testClasses(), HostRanks.class.getName(), "stdin");
        try (java.io.OutputStream in = l.process.getOutputStream()) {
            in.write("12\n".getBytes(StandardCharsets.UTF_8)); // as: echo 12 | ferry run ...
        }
        assertEquals(0, l.exit(), "stderr: " + l.err);
        List<String> lines = new ArrayList<>();
        l.out.drainTo(lines);
        assertTrue(lines.contains("rank 0 read: 12"), lines.toString());
        assertTrue(lines.contains("rank 1 read: EOF") && lines.contains("rank 2 read: EOF"), lines.toString());
    }

    @Test
    void eightRanksOnTwoCoresPassATokenOverShm() throws Exception {
        Launcher l = new Launcher("run", "-n", "8", "--drivers", "shm", "--timeout", "120", "--example", "ring", "200");
        assertEquals(0, l.exit(), "stderr: " + l.err);
        List<String> lines = new ArrayList<>();
        l.out.drainTo(lines);
        assertTrue(lines.stream().anyMatch(line -> line.startsWith("ring: 200 rounds of 8 ranks, token 1400 (expected 1400)")), lines.toString());
    }

    @Test
    void aFinishedJobLeavesNothing() throws Exception {
        Launcher l = new Launcher("run", "-n", "3", "-cp", testClasses(), TestRanks.class.getName(), "ok");
        String[] job = new String[1];
        List<Long> pids = l.pids(3, job);
        assertEquals(0, l.exit(), "stderr: " + l.err);
        nothingLeft(pids, job[0]);
    }

    @Test
    void anAbortEndsTheJobWithItsCode() throws Exception {
        Launcher l = new Launcher("run", "-n", "4", "--grace", "1", "-cp", testClasses(), TestRanks.class.getName(), "abort");
        String[] job = new String[1];
        List<Long> pids = ranksWithSegments(l, 4, job);
        assertEquals(7, l.exit(), "stderr: " + l.err);
        assertTrue(l.err.stream().anyMatch(s -> s.contains("rank 1 aborted the job with code 7")), l.err.toString());
        nothingLeft(pids, job[0]);
    }

    @Test
    void aRankThatThrowsEndsTheJobNamingTheException() throws Exception {
        Launcher l = new Launcher("run", "-n", "3", "--grace", "1", "-cp", testClasses(), TestRanks.class.getName(), "throw");
        String[] job = new String[1];
        List<Long> pids = ranksWithSegments(l, 3, job);
        assertEquals(1, l.exit(), "stderr: " + l.err);
        assertTrue(l.err.stream().anyMatch(s -> s.contains("rank 1 exited with status 1")
                && s.contains("java.lang.IllegalStateException: rank 1 failed on purpose")), l.err.toString());
        nothingLeft(pids, job[0]);
    }

    @Test
    void aRankKilledBySigkillEndsTheJob() throws Exception {
        Launcher l = new Launcher("run", "-n", "4", "--grace", "1", "-cp", testClasses(), TestRanks.class.getName(), "die");
        String[] job = new String[1];
        List<Long> pids = ranksWithSegments(l, 4, job);
        assertEquals(137, l.exit(), "stderr: " + l.err);
        assertTrue(l.err.stream().anyMatch(s -> s.contains("rank 1 exited with status 137 (signal 9)")), l.err.toString());
        nothingLeft(pids, job[0]);
    }

    /**
     * With --continue-on-failure a rank's death does not end the job: the survivor example's
     * ranks recover (revoke, agree, shrink) and finish, and the launcher names the dead rank and
     * ends with status 0. Without it, the grace of 1 s is too short for them: the job ends with
     * the dead rank's status and no answer.
     */
    @Test
    void continueOnFailureLetsTheSurvivorsFinish() throws Exception {
        long seed = 1;
        while (dev.ferry.examples.Survivor.plan(seed, 1, 4).get(0).round() != 1) {
            seed++;
        }
        int victim = dev.ferry.examples.Survivor.plan(seed, 1, 4).get(0).rank();
        Launcher l = new Launcher("run", "-n", "4", "--continue-on-failure", "--grace", "1", "--example", "survivor", String.valueOf(seed), "1");
        assertEquals(0, l.exit(), "stderr: " + l.err);
        assertTrue(l.out.stream().anyMatch(s -> s.contains("exactly the serial sum") && s.contains("on 3 survivors of 4 ranks")),
                l.out + " stderr: " + l.err);
        assertTrue(l.err.stream().anyMatch(s -> s.contains("rank " + victim + " exited with status 3; the others go on (--continue-on-failure)")), l.err.toString());
        assertTrue(l.err.stream().anyMatch(s -> s.contains("the job went on without rank " + victim + " (status 3)")), l.err.toString());

        l = new Launcher("run", "-n", "4", "--grace", "1", "--example", "survivor", String.valueOf(seed), "1");
        assertEquals(3, l.exit(), "stderr: " + l.err);
        assertTrue(l.err.stream().anyMatch(s -> s.contains("rank " + victim + " exited with status 3; ending the job")), l.err.toString());
    }

    /**
     * The same across two nodes played here (two ranks each), directly over tcp and through the
     * nodes' agents: the dead rank's peers on the other node learn of its death from their agent.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"off", "on"})
    void continueOnFailureAcrossNodes(String agent) throws Exception {
        for (long seed : new long[] {1, 3}) {
            Launcher l = new Launcher("run", "-n", "4", "--ranks-per-node", "2", "--env", "FERRY_AGENT=" + agent, "--continue-on-failure",
                    "--grace", "1", "--timeout", "60", "--example", "survivor", String.valueOf(seed), "1");
            assertEquals(0, l.exit(), "seed " + seed + ", stderr: " + l.err);
            assertTrue(l.out.stream().anyMatch(s -> s.contains("exactly the serial sum") && s.contains("on 3 survivors of 4 ranks")),
                    "seed " + seed + ": " + l.out + " stderr: " + l.err);
        }
    }

    /**
     * In agent mode {@code ferry run} starts each node's agent beside the ranks (two nodes played
     * here: two agents), the ranks use those agents (their stats name the process), and the
     * agents are gone when the launcher returns.
     */
    @Test
    void theLauncherStartsEachNodesAgentAndTheRanksUseIt() throws Exception {
        Launcher l = new Launcher("run", "-n", "4", "--ranks-per-node", "2", "--env", "FERRY_AGENT=on", "--stats", "--timeout", "60",
                "--example", "hello");
        assertEquals(0, l.exit(), "stderr: " + l.err);
        java.util.Map<String, Long> agentOf = new java.util.HashMap<>(); // node -> agent process
        for (String e : l.err) {
            var m = java.util.regex.Pattern.compile("ferry run: agent process (\\d+) started for node .*#(\\d+)").matcher(e);
            if (m.find()) {
                agentOf.put(m.group(2), Long.parseLong(m.group(1)));
            }
        }
        assertEquals(java.util.Set.of("0", "1"), agentOf.keySet(), "one agent per node, started by the launcher: " + l.err);
        int seen = 0;
        for (String e : l.err) {
            var m = java.util.regex.Pattern.compile("ferry stats: rank (\\d+):.* agent process (\\d+)").matcher(e);
            if (m.find()) {
                seen++;
                int rank = Integer.parseInt(m.group(1));
                assertEquals(agentOf.get(String.valueOf(rank / 2)), Long.parseLong(m.group(2)), "rank " + rank + " uses its node's agent: " + l.err);
            }
        }
        assertEquals(4, seen, l.err.toString());
        for (long pid : agentOf.values()) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "agent " + pid + " outlived its job");
        }
    }

    /** A job that times out shows where it waited: every rank's threads and its node's agent's (agent mode), then it ends. */
    @Test
    void aTimeoutShowsTheThreadsThenEndsTheJob() throws Exception {
        Launcher l = new Launcher("run", "-n", "2", "--timeout", "3", "--env", "FERRY_AGENT=on", "-cp", testClasses(), TestRanks.class.getName(), "hang");
        String[] job = new String[1];
        List<Long> pids = ranksWithSegments(l, 2, job);
        assertEquals(124, l.exit(), "stderr: " + l.err);
        assertTrue(l.err.stream().anyMatch(s -> s.contains("timed out after 3 s")), l.err.toString());
        List<String> out = new ArrayList<>();
        l.out.drainTo(out);
        assertEquals(2, out.stream().filter(s -> s.contains("Full thread dump")).count(), "a dump per rank: " + out);
        assertEquals(2, out.stream().filter(s -> s.contains("at dev.ferry.cli.TestRanks.main(")).count(), "each rank's main thread, where it waits: " + out);
        List<String> agentDump = l.err.stream().filter(s -> s.matches("ferry run: agent \\d+: .*")).toList();
        assertTrue(agentDump.stream().anyMatch(s -> s.contains("Full thread dump")), "the agent's threads: " + l.err);
        assertTrue(agentDump.stream().anyMatch(s -> s.contains("at dev.ferry.core.agent.")), "the agent's own frames: " + l.err);
        nothingLeft(pids, job[0]);
    }

    @Test
    void sigtermToTheLauncherEndsTheWholeJob() throws Exception {
        Launcher l = new Launcher("run", "-n", "3", "-cp", testClasses(), TestRanks.class.getName(), "hang");
        String[] job = new String[1];
        List<Long> pids = ranksWithSegments(l, 3, job);
        l.process.toHandle().destroy(); // SIGTERM (Process.destroy would also close our ends of its pipes)
        assertEquals(143, l.exit(), "stderr: " + l.err);
        assertTrue(l.err.stream().anyMatch(s -> s.contains("ferry run: signalled")), l.err.toString());
        assertTrue(l.err.stream().noneMatch(s -> s.contains("exited with status")), "a rank blamed: " + l.err);
        List<String> last = new ArrayList<>();
        l.out.drainTo(last);
        for (int r = 0; r < 3; r++) {
            assertTrue(last.contains("ending rank " + r), "what rank " + r + " printed while it ended is lost: " + last);
        }
        nothingLeft(pids, job[0]);
    }

    @Test
    void ranksEndWhenTheLauncherIsKilled() throws Exception {
        Launcher l = new Launcher("run", "-n", "3", "-cp", testClasses(), TestRanks.class.getName(), "hang");
        String[] job = new String[1];
        List<Long> pids = ranksWithSegments(l, 3, job);
        l.process.toHandle().destroyForcibly(); // SIGKILL: the launcher cannot end them itself
        assertEquals(137, l.exit());
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_S);
        for (long pid : pids) {
            var h = ProcessHandle.of(pid);
            if (h.isPresent()) {
                try {
                    h.get().onExit().get(Math.max(1, end - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    fail("rank process " + pid + " still alive " + BOUND_S + " s after its launcher was killed");
                }
            }
        }
        nothingLeft(pids, job[0]);
    }
}
