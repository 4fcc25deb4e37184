package dev.ferry.core.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine across real processes: shm only, tcp only, and a mixed job of two simulated nodes. */
class EngineJobTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(240);

    /** Runs a job of {@code n} ranks that must end with exit status 0. */
    private static Jobs.Result passed(int n, Map<String, String> env, String program) throws Exception {
        Jobs.Result r = Jobs.run(n, env, TIMEOUT, program);
        System.out.println(env + " " + r.okLines());
        assertEquals(0, r.exit(), env + ": " + r);
        return r;
    }

    /** Each of the {@code n} ranks reported, with itself through self and every other rank through {@code driver}. */
    private static void everyRankReachesTheOthersOnlyBy(Jobs.Result r, int n, String driver) {
        List<String> ok = r.okLines();
        assertEquals(n, ok.size(), r.toString());
        StringBuilder rails = new StringBuilder(".*rails");
        for (int i = 0; i < n; i++) {
            rails.append(' ').append(i).append("=(self|").append(driver).append(')');
        }
        String pattern = rails.append(";.*").toString();
        for (String l : ok) {
            assertTrue(l.matches(pattern), l);
        }
    }

    /** The rendezvous pulled (no CTS) and all rendezvous each rank started, from its {@code ok sizes} line. */
    private static long[] pulledOf(String okLine) {
        var m = java.util.regex.Pattern.compile("pulled rendezvous (\\d+) of (\\d+)").matcher(okLine);
        assertTrue(m.find(), okLine);
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    }

    @Test
    void everySizeOverShmOnly() throws Exception {
        Jobs.Result r = passed(3, Map.of("FERRY_DRIVERS", "self,shm"), "sizes");
        everyRankReachesTheOthersOnlyBy(r, 3, "shm");
        for (String l : r.okLines()) { // shm offers pull: every rendezvous to another rank is pulled (those to itself go by self)
            long[] p = pulledOf(l);
            assertTrue(p[0] > 0 && p[0] < p[1], l);
        }
    }

    @Test
    void everySizeOverShmWithoutPull() throws Exception {
        Jobs.Result r = passed(2, Map.of("FERRY_DRIVERS", "self,shm", "FERRY_RNDV_PULL", "off"), "sizes");
        everyRankReachesTheOthersOnlyBy(r, 2, "shm");
        for (String l : r.okLines()) {
            assertEquals(0, pulledOf(l)[0], l);
        }
    }

    @Test
    void aRankWithoutPullStillPullsWhatItIsSent() throws Exception {
        Jobs.Result r = passed(2, Map.of("FERRY_DRIVERS", "self,shm"), "sizes-rank1-without-pull");
        everyRankReachesTheOthersOnlyBy(r, 2, "shm");
        for (String l : r.okLines()) {
            long pulled = pulledOf(l)[0];
            assertTrue(l.contains("ok sizes rank 1 ") ? pulled == 0 : pulled > 0, l);
        }
    }

    @Test
    void rendezvousWaitingTogetherArePulledInBatchesInOrder(@TempDir java.nio.file.Path dir) throws Exception {
        Jobs.Result r = passed(2, Map.of("FERRY_DRIVERS", "self,shm", "FERRY_TEST_SIGNAL", dir.resolve("posted").toString()), "planned");
        assertEquals("ok planned sent 40; pulled rendezvous 40 of 40", okLine(r, "ok planned sent"), r.toString());
        // all 40 RTS wait in the ring when rank 1 starts: parsed 16, 16 and 8 at a time, then pulled
        assertEquals("ok planned received 40 in order; 40 pulls in 3 batches", okLine(r, "ok planned received"), r.toString());
    }

    @Test
    void aBurstOfRtsLeavesInOnePacketAndItsCtsComeBackInOne() throws Exception {
        Jobs.Result r = passed(2, Map.of("FERRY_DRIVERS", "self,tcp"), "rts-burst");
        assertEquals("ok rts-burst sent 16; 16 entries in 1 aggregated packets; 16 chunks in 1 DATA packets; 0 exposed", okLine(r, "ok rts-burst sent"), r.toString());
        assertEquals("ok rts-burst received 16; 16 entries in 1 aggregated packets", okLine(r, "ok rts-burst received"), r.toString());
    }

    @Test
    void aBurstOfPulledRtsLeavesAsTheFirstAloneThenTheRestInOnePacket() throws Exception {
        Jobs.Result r = passed(2, Map.of("FERRY_DRIVERS", "self,shm"), "rts-burst");
        // the first at once (the target starts pulling), the other 15 at the first progress pass
        assertEquals("ok rts-burst sent 16; 15 entries in 1 aggregated packets; 0 chunks in 0 DATA packets; 16 exposed",
                okLine(r, "ok rts-burst sent"), r.toString());
        assertTrue(r.okLines().contains("ok rts-burst received 16; 0 entries in 0 aggregated packets"), r.toString());
    }

    @Test
    void unexpectedRendezvousAreReceivedInAnyOrder() throws Exception {
        for (String drivers : List.of("self,shm", "self,tcp", "self,ucx")) {
            // ucx over shared memory: pulled by UCX's tagged rendezvous, prefixes by gets, drops by an empty receive
            Jobs.Result r = passed(2, Map.of("FERRY_DRIVERS", drivers, "FERRY_UCX_TLS", "sm"), "unexpected");
            assertTrue(r.okLines().contains("ok unexpected received 86 in reverse order, 28 truncated, 14 dropped"), drivers + ": " + r);
            String sent = okLine(r, "ok unexpected sent");
            long pulled = Long.parseLong(sent.replaceFirst(".*pulled rendezvous (\\d+) of.*", "$1"));
            if (drivers.contains("shm")) { // more wait than shm keeps exposed (64): the rest go by CTS
                assertTrue(pulled > 0 && pulled <= 64, drivers + ": " + sent);
            } else if (drivers.contains("ucx")) { // ucx keeps no table of exposures: every one is pulled
                assertEquals(100, pulled, drivers + ": " + sent);
            } else {
                assertEquals(0, pulled, drivers + ": " + sent);
            }
        }
    }

    @Test
    void everySizeOverTcpOnly() throws Exception {
        everyRankReachesTheOthersOnlyBy(passed(3, Map.of("FERRY_DRIVERS", "self,tcp"), "sizes"), 3, "tcp");
    }

    /** The engine over the ucx driver (UCX on shared memory: a LOCAL driver, so same-node peers take it). */
    @Test
    void everySizeOverUcx() throws Exception {
        for (String tls : List.of("sm", "tcp")) {
            Jobs.Result r = passed(2, Map.of("FERRY_DRIVERS", "self,ucx", "FERRY_UCX_TLS", tls), "sizes");
            everyRankReachesTheOthersOnlyBy(r, 2, "ucx");
            for (String l : r.okLines()) { // rendezvous by pull: the target takes the BULK message or pulls with gets
                assertTrue(pulledOf(l)[0] > 0, tls + ": " + l);
            }
        }
    }

    /**
     * Two nodes of two ranks: shm within a node, tcp between them; in agent mode the node agents
     * between them, whose rendezvous are pulled (by the agents) where direct tcp's are put, sent
     * from a heap array (which the agents reach through a staging copy) as from native memory.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}, {1}")
    @org.junit.jupiter.params.provider.CsvSource({"off, sizes", "on, sizes", "on, sizes-from-heap"})
    void mixedJobUsesShmWithinANodeAndTcpBetweenNodes(String agent, String program) throws Exception {
        Jobs.Result r = passed(4, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_AGENT", agent), program);
        List<String> ok = r.okLines();
        assertEquals(4, ok.size(), r.toString());
        String net = agent.equals("on") ? "agent" : "tcp";
        assertTrue(ok.stream().anyMatch(l -> l.contains("rank 0 ") && l.contains("rails 0=self 1=shm 2=" + net + " 3=" + net + ";")), ok.toString());
        assertTrue(ok.stream().anyMatch(l -> l.contains("rank 3 ") && l.contains("rails 0=" + net + " 1=" + net + " 2=shm 3=self;")), ok.toString());
        // a rank's rendezvous go to itself (never pulled), to its shm peer (pulled) and to the two ranks of the
        // other node: by pull through the agents, so most are pulled; by put over tcp, so most are not
        // (from a heap array, shm sends its peer the bytes, which have no address it could read: every pull is the agents')
        for (String l : ok) {
            long[] p = pulledOf(l);
            assertTrue(program.equals("sizes-from-heap") ? p[0] > 0 : agent.equals("on") ? 2 * p[0] > p[1] : p[0] > 0 && 2 * p[0] < p[1], l);
        }
        // waits spin briefly where the agents carry traffic (a spinning rank would hold their core), or the node is crowded
        boolean crowded = 2 > Runtime.getRuntime().availableProcessors();
        String spin = agent.equals("on") || crowded ? "waits spin 2 us" : "waits spin 200 us";
        assertTrue(ok.stream().allMatch(l -> l.endsWith(spin)), ok.toString());
    }

    /**
     * Through the node agents a rendezvous moves while its sender makes no call: the agents pull
     * it, from native memory as it is, from a heap array through the exposure's staging copy (up
     * to 64 MiB; past that it goes through the rings), and from the engine's shared arena. The
     * agents map the arena, and the staging: bytes there move between their links and that memory
     * at both ends (the receiver's memory is of the same kind), with no copy through their own. (Agent mode's own offload: over tcp directly the sender itself
     * writes the chunks.)
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "from {0} memory")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"native", "heap", "arena"})
    void theAgentsMoveARendezvousWhileTheSenderMakesNoCall(String memory, @TempDir java.nio.file.Path dir) throws Exception {
        Jobs.Result r = Jobs.run(2, Map.of("FERRY_RANKS_PER_NODE", "1", "FERRY_AGENT", "on", "FERRY_TEST_SIGNAL", dir.resolve("received").toString()),
                TIMEOUT, "sender-computes", memory);
        assertEquals(0, r.exit(), r.toString());
        // arena memory the agents map; heap memory goes through staging they map (up to 64 MiB: the 16 MiB)
        long both = (16 << 20) + (64 << 20) + 1, mapped = switch (memory) {
            case "arena" -> both;
            case "heap" -> 16 << 20;
            default -> 0;
        };
        assertEquals("ok sender-computes received " + (16 << 20) + " and " + ((64 << 20) + 1) + "; mapped " + mapped,
                okLine(r, "ok sender-computes received"), r.toString());
        // past 64 MiB heap memory is not staged: it goes through the rings, by rendezvous-put
        assertEquals("ok sender-computes sent " + (16 << 20) + " from " + memory + " memory while making no call, then " + ((64 << 20) + 1)
                + "; pulled rendezvous " + (memory.equals("heap") ? "1" : "2") + " of 2; mapped " + mapped,
                okLine(r, "ok sender-computes sent"), r.toString());
    }

    @Test
    void largeMessagesAreSplitOverTwoTcpRails() throws Exception {
        Jobs.Result r = passed(2, Map.of("FERRY_DRIVERS", "self,tcp", "FERRY_RAILS", "tcp:2"), "sizes");
        List<String> ok = r.okLines();
        assertEquals(2, ok.size(), r.toString());
        for (String l : ok) {
            assertTrue(l.contains("=tcp+tcp.1"), l);
            long a = Long.parseLong(l.replaceFirst(".* tcp=(\\d+).*", "$1"));
            long b = Long.parseLong(l.replaceFirst(".* tcp\\.1=(\\d+).*", "$1"));
            assertTrue(a > 0 && b > 0, "rendezvous bytes on both rails: " + l);
        }
    }

    @Test
    void multiRailOffKeepsOneRail() throws Exception {
        Jobs.Result r = passed(2, Map.of("FERRY_DRIVERS", "self,tcp", "FERRY_RAILS", "tcp:2", "FERRY_MULTIRAIL", "off"), "sizes");
        for (String l : r.okLines()) {
            assertTrue(l.matches(".*rails 0=(self|tcp) 1=(self|tcp);.*"), l);
        }
    }

    @Test
    void creditsBoundWhatASlowReceiverHolds() throws Exception {
        Jobs.Result r = passed(2, Map.of("FERRY_PROGRESS", "thread"), "flow");
        String recv = okLine(r, "ok flow received");
        long heldAfterPause = Long.parseLong(recv.replaceFirst(".*held after the pause (\\d+) B.*", "$1"));
        long heldMax = Long.parseLong(recv.replaceFirst(".*held at most (\\d+) B.*", "$1"));
        long credits = 262144;
        assertTrue(heldAfterPause > credits / 2, "the receiver kept what came during its pause: " + recv);
        assertTrue(heldMax <= credits, "held at most the credits: " + recv);
    }

    @Test
    void rendezvousCompletesWhileTheReceiverComputes() throws Exception {
        Jobs.Result r = passed(2, Map.of("FERRY_PROGRESS", "thread"), "overlap");
        assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok overlap completed")), r.toString());
    }

    @Test
    void aDeadPeerFailsOnlyItsOwnRequests() throws Exception {
        for (String drivers : List.of("self,shm", "self,tcp", "self,ucx")) {
            // over ucx (shared memory, the peer watched by pid) the dead rank holds an exposure: its BULK send must fail
            Jobs.Result r = Jobs.run(3, Map.of("FERRY_DRIVERS", drivers, "FERRY_UCX_TLS", "sm"), TIMEOUT, "failure");
            System.out.println(drivers + " " + r.okLines());
            assertEquals(3, r.exit(), drivers + ": " + r); // rank 2's own status
            List<String> ok = r.okLines();
            assertTrue(ok.stream().anyMatch(l -> l.startsWith("ok failure rank 0: send to the dead rank BROKEN")), drivers + ": " + r);
            assertTrue(ok.stream().anyMatch(l -> l.startsWith("ok failure rank 1 done")), drivers + ": " + r);
            // the survivors close cleanly too: no driver is torn down under a request to the dead rank
            assertTrue(ok.containsAll(List.of("ok failure rank 0 closed", "ok failure rank 1 closed")), drivers + ": " + r);
        }
    }

    /**
     * Agent mode, arena memory that the agents map: a rank that dies while its agent reads a pull
     * straight into its memory ends its sender's request and fails the sends that follow, and harms
     * nobody else; the agents go on
     * serving the other ranks of both nodes.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} memory")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"arena", "native"})
    void aRankDyingAsThePulledBytesLandInItsMemoryHarmsNobodyElse(String memory) throws Exception {
        Jobs.Result r = Jobs.run(4, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_AGENT", "on"), TIMEOUT, TIMEOUT, "dies-landing", memory); // the survivors go on
        assertEquals(3, r.exit(), r.toString()); // rank 2's own status
        List<String> ok = r.okLines();
        assertTrue(ok.contains("ok dies-landing rank 2 dies as the bytes land"), r.toString());
        assertTrue(ok.stream().anyMatch(l -> l.matches("ok dies-landing rank 0: the send to the dying rank ended; a later one (BROKEN|CLOSED)")), r.toString());
        assertTrue(ok.containsAll(List.of("ok dies-landing rank 1 swapped 16777216 with rank 3", "ok dies-landing rank 3 swapped 16777216 with rank 1")),
                r.toString());
        assertTrue(ok.containsAll(List.of("ok dies-landing rank 0 closed", "ok dies-landing rank 1 closed", "ok dies-landing rank 3 closed")), r.toString());
    }

    @Test
    void queuedSmallMessagesAreAggregated() throws Exception {
        for (String drivers : List.of("self,shm", "self,tcp")) {
            Jobs.Result r = passed(2, Map.of("FERRY_DRIVERS", drivers), "burst");
            String sent = okLine(r, "ok burst sent");
            long packets = Long.parseLong(sent.replaceFirst(".* in (\\d+) packets.*", "$1"));
            assertTrue(packets < 20000, drivers + ": queued messages should share packets: " + sent);
            assertTrue(r.okLines().contains("ok burst received 20000 in order"), r.toString());
        }
    }

    /** The job's first "ok" line starting with {@code prefix}; fails with the whole result when there is none. */
    private static String okLine(Jobs.Result r, String prefix) {
        return r.okLines().stream().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow(() -> new AssertionError(r.toString()));
    }

    /**
     * Progress thread mode: memory of a confined arena, which only its own thread may touch. A send
     * from it fails at once, saying so; a rendezvous received into it fails the progress pass,
     * and that fails the receive (with every other request of every peer) instead of a hang.
     */
    @Test
    void confinedMemoryFailsWithAReasonNotAHangInThreadMode() throws Exception {
        Jobs.Result r = Jobs.run(2, Map.of("FERRY_PROGRESS", "thread", "FERRY_DRIVERS", "self,tcp"), Duration.ofSeconds(90), "confined");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok confined send INVALID: ") && l.contains("confined arena")), r.toString());
        assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok confined receive BROKEN: the progress thread failed: ")
                && l.contains("WrongThreadException")), r.toString());
        assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok confined rendezvous sent, ")), r.toString());
    }

    @Test
    void aRankThatThrowsLeavesAtOnceAndItsPeersHearOfIt() throws Exception {
        for (String drivers : new String[] {"self,shm", "self,tcp"}) {
            long start = System.nanoTime();
            // Before: rank 1 waited in close's fence for ranks 0 and 2, which never came; the job ran into its timeout.
            // ranks 0 and 2 wait to be ended: a short grace, as rank 0 hears of rank 1 when its process ends
            Jobs.Result r = Jobs.run(3, Map.of("FERRY_DRIVERS", drivers), Duration.ofSeconds(90), Duration.ofSeconds(2), "throws");
            long seconds = (System.nanoTime() - start) / 1_000_000_000L;
            assertEquals(1, r.exit(), drivers + ": " + r);
            assertTrue(r.err().contains("rank 1 exited with status 1 after an uncaught exception in thread \"main\" java.lang.IllegalStateException: rank 1 fails on purpose"),
                    drivers + ": " + r);
            assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok throws rank 0 heard: rank 1 failed (CLOSED)")), drivers + ": " + r);
            assertTrue(seconds < 80, drivers + ": the job took " + seconds + " s");
        }
    }
}
