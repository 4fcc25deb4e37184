package dev.ferry.portals;

import dev.ferry.launch.run.CapturedJob;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The library across real processes, where process boundaries matter: shm between JVMs (and its
 * direct access to another process's memory), atomics under contention from shm and tcp peers, a
 * dead peer, a rank that throws, a small heap. The rest runs in-process: {@link PortalsInProcessTest}.
 */
class PortalsJobTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(300);

    private static List<String> passed(int n, Map<String, String> env, String... program) throws Exception {
        CapturedJob.Result r = CapturedJob.run(n, env, TIMEOUT, PortalsRanks.class, program);
        System.out.println(r.okLines());
        assertEquals(0, r.exit(), r.toString());
        return r.okLines();
    }

    @Test
    void everySizeOverShm() throws Exception {
        assertEquals(3, passed(3, Map.of("FERRY_DRIVERS", "self,shm"), "ops").size());
    }

    /**
     * Every size again with memAlloc windows that count nothing: between the three ranks (one node)
     * every put and get but those to itself and the first to each peer (which asks for its
     * directory) is done directly, 0 B to 4 MiB + 3, every byte checked; then with the progress thread.
     */
    @Test
    void everySizeDirectlyOverShm() throws Exception {
        for (String progress : List.of("caller", "thread")) {
            List<String> ok = passed(3, Map.of("FERRY_DRIVERS", "self,shm", "FERRY_PROGRESS", progress), "ops", "direct");
            assertEquals(3, ok.size(), ok.toString());
            // 11 sizes x 3 targets x (put + get) = 66 per rank; 22 to itself go by message, and the first put to each of the two peers
            assertTrue(ok.stream().allMatch(l -> l.endsWith("; 42 of 66 done directly; 0 served by the node agent")), ok.toString());
        }
    }

    /** The reference implementation's test_flowctl_noeq, ported (ReferenceTests), for ME and LE, 3 ranks over shm. */
    @Test
    void referenceFlowControlWithAnExhaustedEventQueue() throws Exception {
        for (String iface : List.of("1", "2")) {
            CapturedJob.Result r = CapturedJob.run(3, Map.of("FERRY_DRIVERS", "self,shm"), TIMEOUT, ReferenceTests.class, "flowctl-noeq", iface);
            assertEquals(0, r.exit(), r.toString());
            assertEquals(3, r.okLines().size(), r.toString());
        }
    }

    /**
     * Every size again, memAlloc windows that count nothing, one rank per node through the node
     * agents: what travels whole in its request (and finds the rank's earlier messages parsed) is
     * put by the target's agent, which acknowledges it too; the rest by the target. Every byte is
     * checked either way.
     */
    @Test
    void everySizeThroughTheNodeAgentsSomeServedByThem() throws Exception {
        List<String> ok = passed(3, Map.of("FERRY_RANKS_PER_NODE", "1", "FERRY_AGENT", "on"), "ops", "direct");
        assertEquals(3, ok.size(), ok.toString());
        assertTrue(ok.stream().allMatch(l -> l.contains("; 0 of 66 done directly; ")), ok.toString());
        assertTrue(ok.stream().anyMatch(l -> l.matches(".*; [1-9][0-9]* served by the node agent")), ok.toString());
    }

    /**
     * A target that makes no call: puts, atomics, a get and a swap on its published entry complete,
     * done and answered by its node's agent in agent mode (every one: the agent served them all),
     * by its progress thread otherwise (the agent served none). An entry that counts them has
     * every one counted either way; once a triggered operation waits on its count, the agent
     * serves the next put too (no same-node peer would: its count would not wake the target),
     * and the target's progress fires it.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}, FERRY_PROGRESS={1}, entry {2}")
    @org.junit.jupiter.params.provider.CsvSource({"on, caller, plain", "off, thread, plain", "on, caller, counted", "off, thread, counted"})
    void putsToATargetThatMakesNoCallComplete(String agent, String progress, String entry, @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        List<String> ok = passed(2, Map.of("FERRY_RANKS_PER_NODE", "1", "FERRY_AGENT", agent, "FERRY_PROGRESS", progress,
                "FERRY_TEST_SIGNAL", dir.resolve("stopped").toString()), "offload", "100", entry);
        int served = agent.equals("on") ? 105 : 0;
        assertTrue(ok.contains("ok offload rank 0: 105 operations completed while rank 1 made no Portals call"), ok.toString());
        assertTrue(ok.contains("ok offload rank 1: 100 puts, a fetch-add, an add, a get, a swap and the flag landed while rank 1 made no Portals call; "
                + served + " served by the node agent"), ok.toString());
        if (entry.equals("counted")) {
            assertTrue(ok.contains("ok offload rank 1: counted 105 operations, failures 0"), ok.toString());
            int next = agent.equals("on") ? served + 1 : 0;
            assertTrue(ok.contains("ok offload rank 1: the next put fired the triggered increment (1, count 106); " + next + " served by the node agent"),
                    ok.toString());
        }
    }

    /** Write-after-write order between a put the target performs and one its node's agent performs, across nodes. */
    @Test
    void aPutTheAgentServesNeverOvertakesOneTheTargetDoes() throws Exception {
        List<String> ok = passed(2, Map.of("FERRY_RANKS_PER_NODE", "1", "FERRY_AGENT", "on"), "order", "200");
        assertTrue(ok.contains("ok order rank 1: the last put landed last (401)"), ok.toString());
    }

    /** Two ranks reach rank 0 over shm (itself, rank 1), two over tcp or the node agents (ranks 2, 3): atomics stay atomic across rails. */
    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"off", "on"})
    void atomicsFromShmAndTcpPeersOnOneCounter(String agent) throws Exception {
        List<String> ok = passed(4, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_AGENT", agent), "hammer", "300");
        assertTrue(ok.stream().anyMatch(l -> l.startsWith("ok hammer: counter 2400")), ok.toString());
        // rank 1 shares rank 0's node and the counter is memAlloc memory: its atomics were atomic instructions
        // on rank 0's memory, racing rank 0's own (it serves ranks 2 and 3 with the same instructions)
        assertTrue(ok.stream().anyMatch(l -> l.matches("ok hammer rank 1: .* [1-9][0-9]* operations done directly")), ok.toString());
        assertTrue(ok.stream().anyMatch(l -> l.matches("ok hammer rank 2: .* 0 operations done directly")), ok.toString());
    }

    /** Direct access: operations complete on a same-node peer's published entry while that peer makes no call. */
    @Test
    void operationsOnAPublishedEntryNeedNothingOfItsProcess() throws Exception {
        List<String> ok = passed(2, Map.of("FERRY_DRIVERS", "self,shm"), "direct");
        assertTrue(ok.stream().anyMatch(l -> l.startsWith("ok direct rank 1: a put, a fetch-add and a swap landed")), ok.toString());
        assertTrue(ok.stream().anyMatch(l -> l.startsWith("ok direct rank 0: once unlinked")), ok.toString());
    }

    @Test
    void aDeadPeerFailsOnlyItsOwnOperations() throws Exception {
        CapturedJob.Result r = CapturedJob.run(3, Map.of("FERRY_DRIVERS", "self,shm"), TIMEOUT, PortalsRanks.class, "failure");
        System.out.println(r.okLines());
        assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok failure rank 0: the get from the dead rank failed NI_UNDELIVERABLE")), r.toString());
        assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok failure rank 1 served")), r.toString());
        assertEquals(3, r.exit(), "rank 2's own status: " + r);
    }

    /** Over shm, over tcp, and (tcp's place taken by the node agent) through the agent. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}, FERRY_AGENT={1}")
    @org.junit.jupiter.params.provider.CsvSource({"'self,shm', off", "'self,tcp', off", "'self,tcp', on"})
    void aRankThatThrowsAndFinalizesFailsTheBarrierItNeverEntered(String drivers, String agent) throws Exception {
        // Before: rank 1's fini released the others' barrier, then all three waited in fini for ever.
        CapturedJob.Result r = CapturedJob.run(3, Map.of("FERRY_DRIVERS", drivers, "FERRY_AGENT", agent), java.time.Duration.ofSeconds(60),
                PortalsRanks.class, "throws");
        assertEquals(1, r.exit(), r.toString());
        for (int rank : new int[] {0, 2}) {
            assertTrue(r.okLines().contains("ok throws rank " + rank + ": PTL_FAIL: barrier: rank 1 called fini() instead: it will never enter this barrier"),
                    r.toString());
        }
        assertTrue(r.err().contains("rank 1 exited with status 1 after an uncaught exception in thread \"main\" java.lang.IllegalStateException: rank 1 fails on purpose"),
                r.toString());
    }

    /** Two ranks of one node over shm; of two nodes through their agents. */
    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"off", "on"})
    void anInitiatorWaitsForRoomRatherThanQueueingWithoutEnd(String agent) throws Exception {
        // Before: every put queued an 8 KiB buffer; with a 64 MiB heap (and as much direct memory)
        // rank 0 ran out of memory after some 8,000 puts to a target that made no progress. And
        // the target held its acks in buffers as large, until the initiator read them.
        Map<String, String> env = agent.equals("on") ? Map.of("FERRY_RANKS_PER_NODE", "1", "FERRY_AGENT", "on", "JDK_JAVA_OPTIONS", "-Xmx64m")
                : Map.of("FERRY_DRIVERS", "self,shm", "JDK_JAVA_OPTIONS", "-Xmx64m");
        CapturedJob.Result r = CapturedJob.run(2, env, TIMEOUT, PortalsRanks.class, "flood", "40000");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok flood rank 0: 40000 puts acknowledged")), r.toString());
        assertTrue(r.okLines().contains("ok flood rank 1 received 40000 puts (0)") || r.okLines().contains("ok flood rank 1 received 40000 puts (1)"), r.toString());
    }
}
