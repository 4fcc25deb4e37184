package dev.ferry;

import dev.ferry.launch.run.CapturedJob;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The API across real processes, where the drivers between them matter: shm and tcp mixed, and a peer that dies. */
class ApiJobTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(300);
    /** Progress (FERRY_PROGRESS) and agent mode (FERRY_AGENT): each mode of each, and both off-path modes with the agents. */
    private static final String[][] MODES = {{"caller", "off"}, {"thread", "off"}, {"caller", "on"}, {"thread", "on"}};

    /** Rank 0 hears from itself (self), rank 1 (shm) and ranks 2, 3 (tcp, or the node agents) through one ANY_SOURCE receive. */
    @Test
    void anyMatchesSelfShmAndTcpPeersInOrder() throws Exception {
        for (String[] mode : MODES) {
            String progress = mode[0] + ", agent " + mode[1];
            CapturedJob.Result r = CapturedJob.run(4, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_PROGRESS", mode[0], "FERRY_AGENT", mode[1]), TIMEOUT,
                    ApiRanks.class, "mixed", "400");
            assertEquals(0, r.exit(), progress + ": " + r);
            assertTrue(r.okLines().contains("ok mixed rank 0: 400 messages from each of 4 ranks, in order per sender"), progress + ": " + r);
        }
    }

    /**
     * Agent mode, caller and thread progress: rank 1 posts receives and computes with no call
     * while rank 0's messages come; the node agent matches the receives handed to it, and MPI's
     * order holds (a small message ahead of a large one on the same tag, an ANY_SOURCE receive
     * posted first, a receive cancelled while the agent held it, one too short for its message);
     * a receive of any source takes rank 2's message, its status naming rank 2; a receive into a
     * Java array is matched too, its bytes staged where the agent reaches them, and so are two into
     * a derived layout (every other long), one large and one small; a run of small (eager) messages
     * is matched one after another while the rank computes.
     */
    @Test
    void receivesTheAgentMatchesWhileTheRankComputesKeepMpiOrder() throws Exception {
        int rounds = 6;
        for (String progress : new String[] {"caller", "thread"}) {
            CapturedJob.Result r = CapturedJob.run(3, Map.of("FERRY_RANKS_PER_NODE", "1", "FERRY_PROGRESS", progress, "FERRY_AGENT", "on", "FERRY_JMX", "on"),
                    TIMEOUT, AgentMatchRanks.class, Integer.toString(rounds));
            assertEquals(0, r.exit(), progress + ": " + r);
            for (String ok : new String[] {"ok agent-match " + rounds + " receives computed through, every byte checked", "ok agent-match in order: the small message first",
                    "ok agent-match cancelled while armed", "ok agent-match ANY_SOURCE first, the receive behind it second", "ok agent-match truncated",
                    "ok agent-match any tag", "ok agent-match any tag behind a receive of one", "ok agent-match any source: rank 2's message",
                    "ok agent-match into a Java array",
                    "ok agent-match a run of " + AgentMatchRanks.RUN + " small messages, " + AgentMatchRanks.RUN + " matched by the agent",
                    "ok agent-match into derived layouts, 2 matched by the agent"}) {
                assertTrue(r.okLines().contains(ok), progress + ": " + ok + "\n" + r);
            }
            // armed: every round's receive, the first of tag 20, both of tag 30, the short one of tag 50, the
            // one of any source and tag 40 (not the exact one behind it), the first of any tag, the one of
            // tag 70 (not the one of any tag behind it), the one of any source and tag 80, the one into an
            // array; matched by the agent: every round's, the first of tag 20 (its small message, eager), the
            // second of tag 30, the one of any source and tag 40, the first of any tag, the one of tag 70,
            // rank 2's for the one of any source, the array's; and the run's and the two into derived layouts, both
            assertTrue(r.okLines().contains("ok agent-match counters: armed " + (rounds + 11 + AgentMatchRanks.RUN) + ", matched by the agent " + (rounds + 9 + AgentMatchRanks.RUN)), progress + ": " + r);
        }
    }

    /**
     * The jobs past 2 GiB between nodes, in both modes without running any leg twice: directly,
     * two ranks on nodes of their own (tcp); through the node agents, three ranks on nodes {0, 1}
     * and {2}, so rank 1 is reached over shm (the agent is off that path) and rank 2 through the
     * agents. Each case: mode, ranks, ranks per node. Here: the rails rank {@code k} is reached
     * over from rank 0.
     */
    private static String railsTo(int k, String agent, int perNode) {
        return k < perNode ? "[shm]" : agent.equals("on") ? "[agent]" : "[tcp]";
    }

    /**
     * One message of 2^31 + 16 shorts (4 GiB and 32 bytes) with the long-count calls from rank 0
     * to every other rank, every byte checked ({@link #railsTo}).
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}, {1} ranks, {2} per node")
    @org.junit.jupiter.params.provider.CsvSource({"off, 2, 1", "on, 3, 2"})
    void aMessagePast2To31ElementsAnd4GiBGoesWhole(String agent, int ranks, int perNode) throws Exception {
        long count = (1L << 31) + 16;
        CapturedJob.Result r = CapturedJob.run(ranks, Map.of("FERRY_RANKS_PER_NODE", String.valueOf(perNode), "FERRY_AGENT", agent), TIMEOUT,
                ApiRanks.class, "large", Long.toString(count));
        assertEquals(0, r.exit(), r.toString());
        for (int k = 1; k < ranks; k++) {
            assertTrue(r.okLines().contains("ok large rank " + k + " received " + count + " shorts, " + 2 * count + " bytes, all checked, over "
                    + railsTo(k, agent, perNode)), r.toString());
        }
    }

    /** A bcast and an allreduce of 2^31 + 48 bytes with the long-count forms ({@link #railsTo}). */
    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}, {1} ranks, {2} per node")
    @org.junit.jupiter.params.provider.CsvSource({"off, 2, 1", "on, 3, 2"})
    void collectivesPast2To31ElementsGoWhole(String agent, int ranks, int perNode) throws Exception {
        long count = (1L << 31) + 48; // a multiple of 8: the check reads longs
        CapturedJob.Result r = CapturedJob.run(ranks, Map.of("FERRY_RANKS_PER_NODE", String.valueOf(perNode), "FERRY_AGENT", agent), TIMEOUT,
                ApiRanks.class, "large-collectives", Long.toString(count));
        assertEquals(0, r.exit(), r.toString());
        for (int rank = 0; rank < ranks; rank++) {
            int k = rank;
            assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok large-collectives rank " + k + ": bcast and allreduce of " + count + " bytes")),
                    r.toString());
        }
    }

    /** A bsend, and an intercommunicator's bcast and reduce, of 2^31 + 64 bytes each with the long-count forms, between two JVMs. */
    @Test
    void aBsendAndIntercommunicatorCollectivesPast2GiB() throws Exception {
        long count = (1L << 31) + 64;
        CapturedJob.Result r = CapturedJob.run(2, Map.of(), TIMEOUT, ApiRanks.class, "large-bsend-inter", Long.toString(count));
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.okLines().contains("ok large-bsend rank 1 received " + count + " bytes, all checked"), r.toString());
        for (int rank = 0; rank < 2; rank++) {
            int k = rank;
            assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok large-inter rank " + k + ": bcast and reduce of " + count + " bytes")),
                    r.toString());
        }
    }

    /** An object of more than 2 GiB (its arrays out of band) with ObjectMessages from rank 0 to every other rank ({@link #railsTo}). */
    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}, {1} ranks, {2} per node")
    @org.junit.jupiter.params.provider.CsvSource({"off, 2, 1", "on, 3, 2"})
    void anObjectPast2GiBGoesWhole(String agent, int ranks, int perNode) throws Exception {
        int longs = 280_000_000; // 2.24 GB, and 40 MiB of smaller arrays
        CapturedJob.Result r = CapturedJob.run(ranks, Map.of("FERRY_RANKS_PER_NODE", String.valueOf(perNode), "FERRY_AGENT", agent), TIMEOUT,
                ApiRanks.class, "large-object", Integer.toString(longs));
        assertEquals(0, r.exit(), r.toString());
        for (int rank = 1; rank < ranks; rank++) {
            int k = rank;
            assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok large-object rank " + k + " received big of ")
                    && Long.parseLong(l.split(" ")[7]) > (1L << 31) && l.endsWith("over " + railsTo(k, agent, perNode))), r.toString());
        }
    }

    /**
     * Every collective across 5 JVMs, shm between pairs on a node and tcp (or the node agents)
     * between nodes, caller and thread progress.
     */
    @Test
    void collectivesAcrossProcessesWithShmAndTcpMixed() throws Exception {
        for (String[] mode : new String[][] {MODES[0], MODES[1], MODES[2]}) {
            String progress = mode[0] + ", agent " + mode[1];
            CapturedJob.Result r = CapturedJob.run(5, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_PROGRESS", mode[0], "FERRY_AGENT", mode[1]), TIMEOUT,
                    ApiRanks.class, "collectives", "41", "32");
            assertEquals(0, r.exit(), progress + ": " + r);
            for (int rank = 0; rank < 5; rank++) {
                int k = rank;
                // nodes {0, 1}, {2, 3}, {4}: the world's barrier, bcast, reduce and allreduce go node-aware
                assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok collectives rank " + k + " of 5")
                        && l.contains("allreduce:node_aware") && l.contains("bcast:node_aware") && l.contains("reduce:node_aware")
                        && l.contains("barrier:node_aware")), progress + ": " + r);
            }
        }
    }

    /**
     * Five JVMs on three nodes ({0, 1}, {2, 3}, {4}): large blocking allreduces and bcasts go
     * point-to-point within nodes, or, with {@code node_aware_arena} asked for, through each
     * node's shared arena.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"off", "on"})
    void nodeAwareCollectivesCanGoThroughEachNodesSharedArena(String agent) throws Exception {
        for (boolean arena : new boolean[] {true, false}) {
            Map<String, String> env = arena
                    ? Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_COLL_ALLREDUCE", "node_aware_arena", "FERRY_COLL_BCAST", "node_aware_arena", "FERRY_AGENT", agent)
                    : Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_AGENT", agent);
            CapturedJob.Result r = CapturedJob.run(5, env, TIMEOUT, ApiRanks.class, "node-arena");
            assertEquals(0, r.exit(), r.toString());
            for (int rank = 0; rank < 5; rank++) {
                // rank 4 is alone on its node: nothing to share there
                String expected = rank < 4 && arena ? "[allreduce:node_aware_arena, bcast:node_aware_arena]"
                        : "[allreduce:node_aware, bcast:node_aware]";
                assertTrue(r.okLines().contains("ok node-arena rank " + rank + " of 5 ran " + expected), env + ": " + r);
            }
        }
    }

    /** Four JVMs on one node: large blocking allreduces and bcasts go through the node's shared arena. */
    @Test
    void collectivesThroughTheNodesSharedArena() throws Exception {
        CapturedJob.Result r = CapturedJob.run(4, Map.of("FERRY_COLL_ALLREDUCE", "arena", "FERRY_COLL_BCAST", "arena"), TIMEOUT,
                ApiRanks.class, "collectives", "43", "48");
        assertEquals(0, r.exit(), r.toString());
        for (int rank = 0; rank < 4; rank++) {
            int k = rank;
            assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok collectives rank " + k + " of 4")
                    && l.contains("allreduce:arena") && l.contains("bcast:arena")), r.toString());
        }
    }

    /**
     * Three JVMs on one node: a 64 KiB bcast goes through the arena by default, its root leaves
     * before a late member has begun and does not overwrite its slot under it; a member that dies
     * owing the root its receipt fails the next bcasts of the others.
     */
    @Test
    void theArenasBcastLeavesTheRootEarlyAndStillDeliversEverything() throws Exception {
        CapturedJob.Result r = CapturedJob.run(3, Map.of(), TIMEOUT, ApiRanks.class, "arena-bcast");
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(r.okLines().contains("ok arena-bcast rank " + rank + " ran arena"), r.toString());
        }
        for (int rank = 0; rank < 2; rank++) {
            int k = rank;
            assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok arena-bcast rank " + k + ": bcast ")
                    && l.contains("failed PROC_FAILED")), r.toString());
        }
        assertEquals(3, r.exit(), "rank 2's own status: " + r);
    }

    /** A sender that dies while it and its receiver copy large messages together fails the receive, never hangs it. */
    @Test
    void aSenderThatDiesDuringSplitCopiesFailsTheReceive() throws Exception {
        CapturedJob.Result r = CapturedJob.run(2, Map.of(), TIMEOUT, ApiRanks.class, "split-dead");
        assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok split-dead rank 0: ") && !l.startsWith("ok split-dead rank 0: 0 ")), r.toString());
        assertEquals(3, r.exit(), "rank 1's own status: " + r);
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"off", "on"})
    void aDeadMemberFailsTheCollectivesOfTheOthers(String agent) throws Exception {
        CapturedJob.Result r = CapturedJob.run(4, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_AGENT", agent), TIMEOUT, ApiRanks.class, "collective-dead");
        for (int rank : new int[] {0, 1, 3}) {
            assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok collective-dead rank " + rank + ": allreduce failed PROC_FAILED")), r.toString());
        }
        assertEquals(3, r.exit(), "rank 2's own status: " + r);
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"off", "on"})
    void aDeadPeerFailsTheReceivesThatInvolveIt(String agent) throws Exception {
        CapturedJob.Result r = CapturedJob.run(3, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_AGENT", agent, "FERRY_JMX", "on"), TIMEOUT, ApiRanks.class, "dead");
        for (int rank = 0; rank < 2; rank++) {
            int k = rank;
            assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok dead rank " + k + ": both receives failed (PROC_FAILED, PROC_FAILED_PENDING) naming rank 2")), r.toString());
            // agent mode: the receive of any source was the agent's to match when rank 2 died
            assertTrue(r.okLines().contains("ok dead rank " + k + ": receives armed for the agent " + (agent.equals("on") ? 1 : 0)), r.toString());
        }
        assertEquals(3, r.exit(), "rank 2's own status: " + r);
    }

    /**
     * A rank that throws out of its try block, over shm and tcp, in both progress modes: the ranks
     * waiting for its messages fail at once (its close tells them), not after its close's 6 s.
     */
    @Test
    void aRankThatThrowsFailsTheReceivesWaitingForItAtOnce() throws Exception {
        for (String[] mode : new String[][] {MODES[0], MODES[1], MODES[2]}) {
            String progress = mode[0] + ", agent " + mode[1];
            CapturedJob.Result r = CapturedJob.run(4, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_PROGRESS", mode[0], "FERRY_AGENT", mode[1]), TIMEOUT,
                    ApiRanks.class, "throws");
            for (int rank : new int[] {0, 2, 3}) {
                assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok throws rank " + rank + ": the receive from rank 1 failed PROC_FAILED after ")
                        && l.contains("rank 1 of the job closed its Ferry instance")), progress + ": " + r);
            }
            assertEquals(1, r.exit(), "rank 1's own status: " + r);
        }
    }
}
