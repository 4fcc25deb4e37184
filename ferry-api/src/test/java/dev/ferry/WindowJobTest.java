package dev.ferry;

import dev.ferry.launch.run.CapturedJob;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Windows across real processes: shm and tcp mixed, every synchronization mode, shared memory, a dead target. */
class WindowJobTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(300);
    /** Progress (FERRY_PROGRESS) and agent mode (FERRY_AGENT). */
    private static final String[][] MODES = {{"caller", "off"}, {"thread", "off"}, {"caller", "on"}};

    /** A put and a get of 2^31 + 8 bytes with the long-count forms between two JVMs of one node. */
    @Test
    void aPutAndAGetPast2GiBGoWhole() throws Exception {
        long bytes = (1L << 31) + 8;
        CapturedJob.Result r = CapturedJob.run(2, Map.of(), TIMEOUT, WindowRanks.class, "large", Long.toString(bytes));
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.okLines().contains("ok large rank 0: put and got back " + bytes + " bytes, all checked"), r.toString());
        assertTrue(r.okLines().contains("ok large rank 1: " + bytes + " bytes put here, all checked"), r.toString());
    }

    /**
     * Random concurrent fetch-and-adds and xor-accumulates among 5 JVMs (pairs on a node: shm and
     * tcp, or the node agents), caller and thread progress.
     */
    @Test
    void randomAtomicsInEveryModeAcrossShmAndTcp() throws Exception {
        for (String[] mode : MODES) {
            String progress = mode[0] + ", agent " + mode[1];
            CapturedJob.Result r = CapturedJob.run(5, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_PROGRESS", mode[0], "FERRY_AGENT", mode[1]), TIMEOUT,
                    WindowRanks.class, "random", "17", "200");
            assertEquals(0, r.exit(), progress + ": " + r);
            for (int rank = 0; rank < 5; rank++) {
                int k = rank;
                assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok random rank " + k + " of 5")), progress + ": " + r);
            }
        }
    }

    /** Seed 004's masked atomics, directly over shm and by message over tcp, against its pseudo-code. */
    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"off", "on"})
    void maskedAtomicsAgreeWithTheSeedAcrossShmAndTcp(String agent) throws Exception {
        CapturedJob.Result r = CapturedJob.run(4, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_AGENT", agent), TIMEOUT, WindowRanks.class, "masked", "4004", "300");
        assertEquals(0, r.exit(), r.toString());
        for (int rank = 0; rank < 4; rank++) {
            int k = rank;
            assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok masked rank " + k + " of 4")), r.toString());
        }
    }

    /** A target on a node of its own (tcp) that makes no call serves locks and accumulates from two origins, caller and thread progress. */
    @Test
    void aTargetThatMakesNoCallServesOverTcp() throws Exception {
        for (String[] mode : MODES) {
            String progress = mode[0] + ", agent " + mode[1];
            CapturedJob.Result r = CapturedJob.run(3, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_PROGRESS", mode[0], "FERRY_AGENT", mode[1]), TIMEOUT,
                    WindowRanks.class, "passive", "100");
            assertEquals(0, r.exit(), progress + ": " + r);
            assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok passive rank 2: 200 accumulates landed")), progress + ": " + r);
        }
    }

    @Test
    void allocateSharedMapsEveryRanksMemory() throws Exception {
        CapturedJob.Result r = CapturedJob.run(3, Map.of(), TIMEOUT, WindowRanks.class, "shared");
        assertEquals(0, r.exit(), r.toString());
        for (int rank = 0; rank < 3; rank++) {
            int k = rank;
            assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok shared rank " + k + " of 3")), r.toString());
        }
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"off", "on"})
    void aDeadTargetFailsTheOperationsAimedAtIt(String agent) throws Exception {
        // a node each: the survivors' operations to each other go by message, counted as the dead rank's are
        CapturedJob.Result r = CapturedJob.run(3, Map.of("FERRY_RANKS_PER_NODE", "1", "FERRY_AGENT", agent), TIMEOUT, WindowRanks.class, "dead");
        for (int rank = 0; rank < 2; rank++) {
            int k = rank;
            assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok dead rank " + k + ": operations to rank 2 failed PROC_FAILED")), r.toString());
        }
        assertEquals(3, r.exit(), "rank 2's own status: " + r);
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "the dead rank held a {0} lock, FERRY_AGENT={1}")
    @org.junit.jupiter.params.provider.CsvSource({"EXCLUSIVE, off", "SHARED, off", "EXCLUSIVE, on"})
    void aRankThatDiesHoldingALockLeavesItToTheSurvivors(String held, String agent) throws Exception {
        // two nodes of two: the lock's target and the dead holder share one (atomics in memory),
        // the waiters reach it by message
        CapturedJob.Result r = CapturedJob.run(4, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_AGENT", agent), TIMEOUT, WindowRanks.class, "deadHolder", held);
        assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok deadHolder rank 2 took a EXCLUSIVE lock beside the dead rank 1's " + held)), r.toString());
        assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok deadHolder rank 3 took a SHARED lock beside the dead rank 1's " + held)), r.toString());
        assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok deadHolder rank 0 holds its own lock again")), r.toString());
        assertEquals(3, r.exit(), "rank 1's own status: " + r);
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"off", "on"})
    void everyEpochWithADeadMemberFailsNamingItAndLeavesNoLockBehind(String agent) throws Exception {
        CapturedJob.Result r = CapturedJob.run(3, Map.of("FERRY_RANKS_PER_NODE", "1", "FERRY_AGENT", agent), TIMEOUT, WindowRanks.class, "deadEpochs");
        for (int rank = 0; rank < 2; rank++) {
            int k = rank;
            assertTrue(r.okLines().stream().anyMatch(l -> l.startsWith("ok deadEpochs rank " + k + ": fence failed PROC_FAILED")
                    && l.contains("start failed") && l.contains("post failed") && l.contains("waitFor failed") && l.contains("lockAll failed")), r.toString());
        }
        assertEquals(3, r.exit(), "rank 2's own status: " + r);
    }
}
