package dev.ferry.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code ferry run --hosts} on a virtual cluster of three namespace hosts (own network, /dev/shm,
 * /tmp and host name; sshd with the cluster's keys): ranks on real hosts, shm inside a host and tcp
 * between hosts, node-aware collectives with real leaders, windows, the launcher's standard input,
 * and failures (a rank killed, a host's proxy killed, the launcher killed, a host that cannot be
 * reached or lacks Ferry or runs another version) that end the job and leave nothing on any host.
 */
class HostsTest {
    private static final long BOUND_S = 120;
    private static VirtualCluster cluster;
    private static String h1, h2, h3;

    @BeforeAll
    static void up() throws IOException {
        String why = VirtualCluster.unavailable();
        Assumptions.assumeTrue(why == null, why);
        cluster = VirtualCluster.up(3);
        h1 = cluster.hosts().get(0);
        h2 = cluster.hosts().get(1);
        h3 = cluster.hosts().get(2);
        // The caches ferry run makes after the first job on a class path, made here once for the
        // ranks' class paths below, instead of by the launcher and each host's proxy at once (the
        // hosts share this home): a training job each, 15 s of a CI run's time otherwise, times three.
        String ferry = TestJars.classPath();
        for (String cp : List.of(ferry, testClasses() + java.io.File.pathSeparator + ferry, mpiPrograms() + java.io.File.pathSeparator + ferry)) {
            dev.ferry.launch.run.AotCache.make(cp);
        }
    }

    @AfterAll
    static void down() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** A launcher JVM of its own with the cluster's ssh; its output lines as they come. */
    private static final class Launcher {
        final Process process;
        final LinkedBlockingQueue<String> out = new LinkedBlockingQueue<>();
        final List<String> err = new CopyOnWriteArrayList<>();
        private final List<Thread> readers = new ArrayList<>();

        Launcher(String... args) throws IOException {
            this(Map.of(), args);
        }

        /** With {@code env} added to the launcher's environment (as a user sets FERRY_* before ferry run). */
        Launcher(Map<String, String> env, String... args) throws IOException {
            this(TestJars.classPath(), env, args);
        }

        /** With the launcher's (and so the proxies' and ranks') class path {@code classPath}. */
        Launcher(String classPath, Map<String, String> env, String... args) throws IOException {
            ProcessBuilder pb = new ProcessBuilder(TestJars.launcher(classPath, args));
            pb.environment().put("FERRY_SSH", cluster.ssh());
            pb.environment().remove("FERRY_TCP_INTERFACES");
            pb.environment().putAll(env);
            process = pb.start();
            readers.add(reader(process.getInputStream(), out::add));
            readers.add(reader(process.getErrorStream(), err::add));
        }

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

        /** The next line of output that starts with {@code prefix} (after the rank tag), within the bound. */
        String await(String prefix) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_S);
            String line;
            while ((line = out.poll(Math.max(1, end - System.nanoTime()), TimeUnit.NANOSECONDS)) != null) {
                if (line.replaceFirst("^\\[\\d+\\] ", "").startsWith(prefix)) {
                    return line;
                }
            }
            fail("no line starting '" + prefix + "' within " + BOUND_S + " s; stderr " + err);
            return null;
        }

        int exit() throws InterruptedException {
            if (!process.waitFor(BOUND_S, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("ferry run did not end within " + BOUND_S + " s; stderr " + err);
            }
            for (Thread t : readers) {
                t.join(TimeUnit.SECONDS.toMillis(BOUND_S));
            }
            return process.exitValue();
        }

        List<String> lines() {
            List<String> l = new ArrayList<>();
            out.drainTo(l);
            return l;
        }
    }

    private static String hosts() {
        return h1 + ":2," + h2 + ":2," + h3 + ":2";
    }

    private static String testClasses() {
        return TestJars.testClasses();
    }

    /** Nothing of the job on any host: no rank or proxy process, no Ferry file in /dev/shm. */
    private static void nothingLeft() throws IOException {
        for (String h : cluster.hosts()) {
            assertEquals("", cluster.leftOn(h, "dev.ferry"), "left on " + h);
        }
    }

    /** "yes" when {@code host} has {@code underHome} under its user's home directory, else "no". */
    private static String hasUnderHome(String host, String underHome) throws IOException {
        return cluster.exec(host, "sh", "-c", "test -e \"$(getent passwd $(id -un) | cut -d: -f6)/" + underHome + "\" && echo yes || echo no").strip();
    }

    @Test
    void aHostWithoutAnAheadOfTimeCacheMakesOneAfterAJobThatEndedWell() throws Exception {
        // under the build directory, which every host sees (each has a /tmp of its own)
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target").toAbsolutePath()), "aot-hosts");
        String cp = TestJars.jarred(System.getProperty("java.class.path"), dir); // a class path no host has a cache for yet
        String link = dev.ferry.launch.run.AotCache.linkUnderHome(cp);
        try {
            for (String h : List.of(h2, h3)) {
                assertEquals("no", hasUnderHome(h, link), h);
            }
            Launcher l = new Launcher(cp, Map.of(), "run", "--hosts", h2 + ":1," + h3 + ":1", "--example", "hello");
            assertEquals(0, l.exit(), "stderr " + l.err);
            for (String h : List.of(h2, h3)) {
                assertEquals("yes", hasUnderHome(h, link), "the proxy on " + h + " made its host's cache; stderr " + l.err);
            }
            nothingLeft();
        } finally {
            for (String h : cluster.hosts()) { // the cache and its link, as a user's would stay; removed here
                cluster.exec(h, "sh", "-c", "h=$(getent passwd $(id -un) | cut -d: -f6); rm -f \"$(readlink -f \"$h/" + link + "\")\" \"$h/" + link + "\"");
            }
            TestJars.delete(dir);
        }
    }

    @Test
    void sixRanksOnThreeHostsEachSeeTheirOwnHost() throws Exception {
        Launcher l = new Launcher("run", "--hosts", hosts(), "--tag-output", "--example", "hello");
        assertEquals(0, l.exit(), "stderr: " + l.err);
        List<String> lines = l.lines();
        assertEquals(6, lines.size(), lines.toString());
        for (int r = 0; r < 6; r++) {
            String expected = "[" + r + "] hello from rank " + r + " of 6 on node " + cluster.hosts().get(r / 2);
            assertTrue(lines.contains(expected), expected + " in " + lines);
        }
        nothingLeft();
    }

    @Test
    void peersOnTheSameHostUseShmAndTheOthersTcp() throws Exception {
        Launcher l = new Launcher("run", "--hosts", hosts(), "info");
        assertEquals(0, l.exit(), "stderr: " + l.err);
        String all = String.join("\n", l.lines());
        assertTrue(all.contains("rank 0 of 6 on node " + h1 + "/"), all);
        assertTrue(all.matches("(?s).*same node \\(1 peer\\): rails shm\\b.*"), all);
        assertTrue(all.matches("(?s).*remote +\\(4 peers\\): rails tcp\\b.*"), all);
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"off", "on"})
    void everyPairEveryCollectiveAndAWindowAcrossHosts(String agent) throws Exception {
        Launcher l = new Launcher(Map.of("FERRY_AGENT", agent), "run", "--hosts", hosts(), "--timeout", String.valueOf(BOUND_S),
                "-cp", testClasses(), HostRanks.class.getName(), "check");
        assertEquals(0, l.exit(), "stderr: " + l.err);
        List<String> lines = l.lines();
        for (int r = 0; r < 6; r++) {
            assertTrue(lines.contains("rank " + r + " host " + cluster.hosts().get(r / 2)), lines.toString());
            assertTrue(lines.contains("rank " + r + " ok"), lines.toString());
        }
        // three real nodes of two ranks: the node-aware algorithms, one leader per host
        assertTrue(lines.contains("algorithms barrier=node_aware bcast=node_aware reduce=node_aware allreduce=node_aware"), lines.toString());
        nothingLeft();
    }

    /**
     * Agent mode with each agent's links closed when idle for 20 ms and capped at one (three
     * hosts: each agent needs two): the links close in order and open again many times while
     * the job's checks run, and nothing is lost on the way.
     */
    @Test
    void agentLinksClosedWhenIdleAndCappedLoseNothingAcrossHosts() throws Exception {
        Launcher l = new Launcher(Map.of("FERRY_AGENT", "on", "FERRY_IDLE_CLOSE", "20ms", "FERRY_MAX_CONNECTIONS", "1"), "run", "--hosts", hosts(),
                "--stats", "--timeout", String.valueOf(BOUND_S), "-cp", testClasses(), HostRanks.class.getName(), "check");
        assertEquals(0, l.exit(), "stderr: " + l.err);
        List<String> lines = l.lines();
        for (int r = 0; r < 6; r++) {
            assertTrue(lines.contains("rank " + r + " ok"), lines.toString());
        }
        List<String> stats = l.err.stream().filter(s -> s.contains("ferry stats: rank ")).toList();
        assertEquals(6, stats.size(), l.err.toString());
        assertTrue(stats.stream().anyMatch(s -> s.matches(".*agent links evicted [1-9].*")), "the cap closed links: " + stats);
        assertTrue(l.err.stream().noneMatch(e -> e.contains("WARNING")), l.err.toString());
        nothingLeft();
    }

    /**
     * Three hosts of four ranks, every pair talking: directly, each rank pair of two hosts has its
     * own connection (16 per host pair); through the agents on two rails (FERRY_RAILS=agent:2),
     * each host pair has exactly one per rail, which {@code ss} on the hosts shows while the job
     * runs.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}, {1} rail(s): {2} connection(s) per host pair")
    @org.junit.jupiter.params.provider.CsvSource({"off, 1, 16", "on, 2, 2"})
    void connectionsPerHostPair(String agent, int rails, int expected) throws Exception {
        Launcher l = new Launcher(Map.of("FERRY_AGENT", agent, "FERRY_RAILS", "agent:" + rails), "run", "--hosts", h1 + ":4," + h2 + ":4," + h3 + ":4",
                "--stats", "--timeout", String.valueOf(BOUND_S), "-cp", testClasses(), HostRanks.class.getName(), "links");
        assertEquals(0, l.exit(), "stderr: " + l.err);
        // --stats: each rank's connections; in agent mode also its agent's links on every rail (a host whose
        // ranks all left first may have taken its agent, and so its links, with it by the time a rank says)
        List<String> stats = l.err.stream().filter(s -> s.contains("ferry stats: rank ")).toList();
        assertEquals(12, stats.size(), l.err.toString());
        String agentLinks = rails == 1 ? ".*, agent links to other nodes [12];.*" : ".*, agent links to other nodes [1-4], agent rails 2;.*";
        for (String line : stats) {
            assertTrue(line.contains("connections open 11 opened 11"), line);
            assertEquals(agent.equals("on"), line.matches(agentLinks), line);
        }
        if (agent.equals("on")) {
            // (nodes - 1) x rails links on a node
            assertTrue(stats.stream().anyMatch(s -> s.contains("agent links to other nodes " + 2 * rails + (rails == 1 ? ";" : ","))), stats.toString());
            // each host's proxy started its agent before its ranks, and they used that one
            Map<String, String> agentOf = new java.util.HashMap<>();
            for (String e : l.err) {
                var m = java.util.regex.Pattern.compile("ferry run: host (\\S+): agent process (\\d+) started for node").matcher(e);
                if (m.find()) {
                    agentOf.put(m.group(1), m.group(2));
                }
            }
            assertEquals(new java.util.HashSet<>(cluster.hosts()), agentOf.keySet(), l.err.toString());
            for (String line : stats) {
                var m = java.util.regex.Pattern.compile("rank (\\d+):.* agent process (\\d+)").matcher(line);
                assertTrue(m.find(), line);
                assertEquals(agentOf.get(cluster.hosts().get(Integer.parseInt(m.group(1)) / 4)), m.group(2), line);
            }
        }
        List<String> links = l.lines().stream().filter(s -> s.startsWith("links ")).toList();
        assertEquals(6, links.size(), links.toString()); // each host, to each of the two others
        for (String h : cluster.hosts()) {
            assertEquals(2, links.stream().filter(s -> s.startsWith("links " + h + " ")).count(), links.toString());
        }
        for (String line : links) {
            assertTrue(line.endsWith(" " + expected), line + " in " + links);
        }
        nothingLeft();
    }

    @Test
    void everyPairEveryCollectiveAndAWindowOverTlsSetOnTheLauncherAlone() throws Exception {
        Launcher l = new Launcher(Map.of("FERRY_TCP_TLS", "on"), "run", "--hosts", hosts(), "--timeout", String.valueOf(BOUND_S),
                "-cp", testClasses(), HostRanks.class.getName(), "check");
        assertEquals(0, l.exit(), "stderr: " + l.err);
        List<String> lines = l.lines();
        for (int r = 0; r < 6; r++) {
            assertTrue(lines.contains("rank " + r + " tls on"), "the launcher's setting reaches every host: " + lines);
            assertTrue(lines.contains("rank " + r + " ok"), lines.toString());
        }
        assertTrue(l.err.stream().noneMatch(e -> e.contains("WARNING")), l.err.toString());
        nothingLeft();
    }

    @Test
    void oneRankPerHostInTurnWithMapByNode() throws Exception {
        Launcher l = new Launcher("run", "-n", "4", "--hosts", hosts(), "--map-by", "node", "-cp", testClasses(),
                HostRanks.class.getName(), "check");
        assertEquals(0, l.exit(), "stderr: " + l.err);
        List<String> lines = l.lines();
        for (int r = 0; r < 4; r++) {
            assertTrue(lines.contains("rank " + r + " host " + cluster.hosts().get(r % 3)), lines.toString());
        }
    }

    @Test
    void aWindowJobAcrossHosts() throws Exception {
        Launcher l = new Launcher("run", "--hosts", h1 + "," + h2 + "," + h3, "--example", "put-get");
        assertEquals(0, l.exit(), "stderr: " + l.err);
        List<String> lines = l.lines();
        for (int r = 0; r < 3; r++) {
            assertTrue(lines.contains("rank " + r + ": my window holds \"hello from rank " + (r + 2) % 3 + "\"; rank "
                    + (r + 2) % 3 + "'s holds \"hello from rank " + (r + 1) % 3 + "\""), lines.toString());
        }
    }

    /** A job across hosts that times out shows every host's ranks' threads and, in agent mode, each host's agent's, then ends. */
    @Test
    void aTimeoutShowsTheThreadsOnEveryHost() throws Exception {
        Launcher l = new Launcher(Map.of("FERRY_AGENT", "on"), "run", "--hosts", hosts(), "--timeout", "6", "-cp", testClasses(),
                TestRanks.class.getName(), "hang");
        assertEquals(124, l.exit(), "stderr: " + l.err);
        List<String> lines = l.lines();
        assertEquals(6, lines.stream().filter(s -> s.contains("Full thread dump")).count(), "a dump per rank: " + lines);
        assertEquals(6, lines.stream().filter(s -> s.contains("at dev.ferry.cli.TestRanks.main(")).count(), "each rank's main thread: " + lines);
        for (String h : new String[] {h1, h2, h3}) {
            assertTrue(l.err.stream().anyMatch(s -> s.startsWith("ferry run: host " + h + ": agent ") && s.contains("Full thread dump")),
                    "the agent of " + h + ": " + l.err);
        }
        nothingLeft();
    }

    /** Programs of both Java MPI families, unmodified, compiled here against the mpi package: each checks its own result. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} on {1} ranks")
    @org.junit.jupiter.params.provider.CsvSource({"checks.ApiChecks, 4", "openmpi.Ring, 6", "mpijava.Pi, 6", "openmpi.Stencil, 6"})
    void mpiProgramsAcrossHosts(String main, int ranks) throws Exception {
        Launcher l = new Launcher("run", "-n", String.valueOf(ranks), "--hosts", hosts(), "--timeout", String.valueOf(BOUND_S),
                "-cp", mpiPrograms().toString(), main);
        assertEquals(0, l.exit(), "stderr: " + l.err);
        List<String> lines = l.lines();
        assertTrue(lines.stream().noneMatch(s -> s.contains("WRONG")), lines.toString());
        assertTrue(lines.stream().anyMatch(s -> s.startsWith("ok")), lines.toString());
        if (main.equals("checks.ApiChecks")) {
            assertEquals(12, lines.stream().filter(s -> s.startsWith("ok ")).count(), lines.toString());
        }
    }

    private static boolean programsCompiled;

    /** The mpi package's test programs, compiled (once per test run, so never stale) into this module's target, which the hosts see. */
    private static synchronized Path mpiPrograms() throws IOException {
        Path out = VirtualCluster.TOP.resolve("ferry-cli/target/mpi-programs");
        if (!programsCompiled) {
            programsCompiled = true;
            List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-cp", System.getProperty("java.class.path"), "-nowarn"));
            try (var files = Files.walk(VirtualCluster.TOP.resolve("ferry-mpi/src/programs/java"))) {
                files.filter(f -> f.toString().endsWith(".java") && !f.toString().contains("/osu/")).forEach(f -> args.add(f.toString()));
            }
            Files.createDirectories(out);
            int rc = javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new));
            assertEquals(0, rc, "the mpi programs do not compile");
        }
        return Path.of(TestJars.packed(out.toString()));
    }

    @Test
    void standardInputGoesToRankZeroOnItsHost() throws Exception {
        Launcher l = new Launcher("run", "--hosts", hosts(), "-cp", testClasses(), HostRanks.class.getName(), "stdin");
        try (OutputStream in = l.process.getOutputStream()) {
            in.write("forty-two\n".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(0, l.exit(), "stderr: " + l.err);
        List<String> lines = l.lines();
        assertTrue(lines.contains("rank 0 read: forty-two"), lines.toString());
        for (int r = 1; r < 6; r++) {
            assertTrue(lines.contains("rank " + r + " read: EOF"), lines.toString());
        }
    }

    @Test
    void standardInputToEveryRankWhenAsked() throws Exception {
        Launcher l = new Launcher("run", "--hosts", hosts(), "--stdin", "all", "-cp", testClasses(), HostRanks.class.getName(), "stdin");
        try (OutputStream in = l.process.getOutputStream()) {
            in.write("seven\n".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(0, l.exit(), "stderr: " + l.err);
        List<String> lines = l.lines();
        for (int r = 0; r < 6; r++) {
            assertTrue(lines.contains("rank " + r + " read: seven"), lines.toString());
        }
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"off", "on"})
    void aRankKilledOnOneHostEndsTheJobNamingRankAndHost(String agent) throws Exception {
        Launcher l = new Launcher(Map.of("FERRY_AGENT", agent), "run", "--hosts", hosts(), "--grace", "1", "-cp", testClasses(), HostRanks.class.getName(), "wait");
        String victim = null;
        for (int i = 0; i < 6; i++) {
            String line = l.await("pid ");
            if (line.endsWith(" host " + h2) && victim == null) {
                victim = line.split(" ")[1];
            }
        }
        assertTrue(victim != null, "no rank on " + h2);
        cluster.exec(h2, "kill", "-9", victim);
        int exit = l.exit();
        assertNotEquals(0, exit, "stderr: " + l.err);
        assertTrue(l.err.stream().anyMatch(s -> s.matches("ferry run: rank [23] on host " + h2 + " exited with status 137 \\(signal 9\\).*")),
                l.err.toString());
        nothingLeft();
    }

    /**
     * In agent mode, the agent of one host killed: its ranks find it gone within the bound, their
     * peers elsewhere lose them, and the job ends naming the agent; nothing stays on any host.
     */
    @Test
    void anAgentKilledEndsTheJobNamingIt() throws Exception {
        Launcher l = new Launcher(Map.of("FERRY_AGENT", "on"), "run", "--hosts", hosts(), "--grace", "1", "-cp", testClasses(),
                HostRanks.class.getName(), "wait");
        List<String> onH2 = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String line = l.await("pid ");
            if (line.endsWith(" host " + h2)) {
                onH2.add(line.replaceFirst("^\\[\\d+\\] ", "").split(" ")[1]);
            }
        }
        assertEquals(2, onH2.size(), onH2.toString());
        // the host's proxy started its agent before its ranks
        List<ProcessHandle> proxies = cluster.processes(h2, "dev.ferry.launch.hosts.Proxy");
        assertEquals(1, proxies.size(), proxies.toString());
        String agent = cluster.exec(h2, "pgrep", "-P", String.valueOf(proxies.get(0).pid()), "-f", "AgentMain").strip();
        assertTrue(agent.matches("\\d+"), "the agent on " + h2 + ": '" + agent + "'");
        cluster.exec(h2, "kill", "-9", agent);
        int exit = l.exit();
        assertNotEquals(0, exit, "stderr: " + l.err);
        assertTrue(l.err.stream().anyMatch(s -> s.contains("the agent (process " + agent + ") has died")), l.err.toString());
        nothingLeft();
    }

    @Test
    void aHostsProxyKilledEndsTheJobNamingTheHost() throws Exception {
        Launcher l = new Launcher("run", "--hosts", hosts(), "--grace", "1", "-cp", testClasses(), HostRanks.class.getName(), "wait");
        for (int i = 0; i < 6; i++) {
            l.await("pid ");
        }
        List<ProcessHandle> proxies = cluster.processes(h3, "dev.ferry.launch.hosts.Proxy");
        assertEquals(1, proxies.size(), proxies.toString());
        proxies.get(0).destroyForcibly();
        assertNotEquals(0, l.exit(), "stderr: " + l.err);
        assertTrue(l.err.stream().anyMatch(s -> s.contains("host " + h3 + " lost") && s.contains("ranks [4, 5]")), l.err.toString());
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!cluster.leftOn(h3, "dev.ferry").isEmpty() && System.nanoTime() < end) {
            Thread.onSpinWait(); // each look is a process: the ranks notice their proxy's end within a bound
        }
        nothingLeft();
    }

    @Test
    void killingTheLauncherEndsEveryRemoteRank() throws Exception {
        Launcher l = new Launcher("run", "--hosts", hosts(), "-cp", testClasses(), HostRanks.class.getName(), "wait");
        for (int i = 0; i < 6; i++) {
            l.await("pid ");
        }
        l.process.destroyForcibly(); // SIGKILL: no shutdown hook runs; the ssh sessions end with it
        l.exit();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String left = "?";
        while (System.nanoTime() < end) {
            left = "";
            for (String h : cluster.hosts()) {
                left += cluster.leftOn(h, "dev.ferry");
            }
            if (left.isEmpty()) {
                break;
            }
        }
        assertEquals("", left, "left on the hosts 30 s after the launcher was killed");
    }

    @Test
    void aHostThatCannotBeReachedIsNamedAndNothingStarts() throws Exception {
        Launcher l = new Launcher("run", "--hosts", h1 + ",nosuchhost", "--example", "hello");
        assertEquals(1, l.exit(), "stderr: " + l.err);
        assertTrue(l.err.stream().anyMatch(s -> s.startsWith("ferry run: host nosuchhost: ssh failed: ")
                && s.endsWith("the job was not started")), l.err.toString());
        assertTrue(l.lines().isEmpty());
        nothingLeft();
    }

    @Test
    void aHostWithoutFerryAtThePrefixIsNamed() throws Exception {
        Launcher l = new Launcher("run", "--hosts", h1 + "," + h2, "--prefix", "/nonexistent/ferry", "--example", "hello");
        assertEquals(1, l.exit(), "stderr: " + l.err);
        assertTrue(l.err.stream().anyMatch(s -> s.startsWith("ferry run: host " + h1 + ": cannot run Ferry's proxy there")
                && s.contains("/nonexistent/ferry/bin/ferry")), l.err.toString());
        nothingLeft();
    }

    @Test
    void aHostWhoseJavaIsOlderThan25IsNamed() throws Exception {
        Path old = Path.of("/usr/lib/jvm/java-17-openjdk-amd64/bin/java");
        Assumptions.assumeTrue(Files.isExecutable(old), "no JDK 17 here to play a host's old Java");
        Path prefix = VirtualCluster.TOP.resolve("ferry-cli/target/old-java-ferry");
        Files.createDirectories(prefix.resolve("bin"));
        Path ferry = prefix.resolve("bin/ferry");
        Files.writeString(ferry, "#!/bin/sh\nexec " + old + " -cp '" + System.getProperty("java.class.path") + "' "
                + dev.ferry.launch.hosts.Proxy.class.getName() + "\n");
        ferry.toFile().setExecutable(true);
        Launcher l = new Launcher("run", "--hosts", h2, "--prefix", prefix.toString(), "--example", "hello");
        assertEquals(1, l.exit(), "stderr: " + l.err);
        assertTrue(l.err.stream().anyMatch(s -> s.startsWith("ferry run: host " + h2 + ": the Java there") && s.contains("older than 25")),
                l.err.toString());
        nothingLeft();
    }

    @Test
    void aHostRunningAnotherFerryVersionIsRefused() throws Exception {
        // A Ferry of another version, as its proxy answers: its hello, then it waits for the job.
        Path prefix = VirtualCluster.TOP.resolve("ferry-cli/target/other-ferry");
        Files.createDirectories(prefix.resolve("bin"));
        byte[] hello = dev.ferry.launch.hosts.ProxyWire.strings(List.of("0.0.1-other", "somewhere"));
        StringBuilder printf = new StringBuilder("\\020\\377\\377\\377\\377"); // POSIX printf: octal escapes
        for (int shift = 24; shift >= 0; shift -= 8) {
            printf.append(String.format("\\%03o", (hello.length >>> shift) & 0xff));
        }
        for (byte b : hello) {
            printf.append(String.format("\\%03o", b & 0xff));
        }
        Path ferry = prefix.resolve("bin/ferry");
        Files.writeString(ferry, "#!/bin/sh\nprintf '" + printf + "'\ncat >/dev/null\n");
        ferry.toFile().setExecutable(true);
        Launcher l = new Launcher("run", "--hosts", h1, "--prefix", prefix.toString(), "--example", "hello");
        assertEquals(1, l.exit(), "stderr: " + l.err);
        assertTrue(l.err.stream().anyMatch(s -> s.startsWith("ferry run: host " + h1 + " runs Ferry 0.0.1-other, this launcher Ferry ")),
                l.err.toString());
        assertTrue(l.lines().isEmpty());
    }
}
