package dev.ferry.examples;

import dev.ferry.launch.run.CapturedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The API examples as real jobs; the ring and the ping-pong with 8 ranks, more than this
 * machine's cores: blocking receives that yield and then sleep let the rank holding the message
 * run, so both end well within their bound.
 */
class ExamplesJobTest {
    private static final Duration BOUND = Duration.ofSeconds(180);

    @Test
    void aRingOfEightRanksTurnsToTheEnd() throws Exception {
        CapturedJob.Result r = CapturedJob.run(8, Map.of(), BOUND, Ring.class, "200");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("ring: 200 rounds of 8 ranks, token 1400 (expected 1400)"), r.toString());
    }

    /** Two nodes of four ranks: pairs 2-3 and 4-5 span them (tcp, or the node agents). */
    @ParameterizedTest(name = "FERRY_AGENT={0}")
    @ValueSource(strings = {"off", "on"})
    void fourPairsPingPongToTheEnd(String agent) throws Exception {
        CapturedJob.Result r = CapturedJob.run(8, Map.of("FERRY_RANKS_PER_NODE", "4", "FERRY_AGENT", agent), BOUND, PingPong.class, "2000", "64");
        assertEquals(0, r.exit(), r.toString());
        for (int pair = 0; pair < 8; pair += 2) {
            assertTrue(r.out().contains("pingpong " + pair + "-" + (pair + 1) + ": 2000 rounds of 64 bytes"), r.toString());
        }
    }

    /**
     * The window examples over shm and tcp, or shm and the node agents (two ranks per node): every
     * rank's greeting lands, every ticket is taken once.
     */
    @ParameterizedTest(name = "FERRY_AGENT={0}")
    @ValueSource(strings = {"off", "on"})
    void putGetAndTheCounterOnWindows(String agent) throws Exception {
        CapturedJob.Result r = CapturedJob.run(4, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_AGENT", agent), BOUND, PutGet.class);
        assertEquals(0, r.exit(), r.toString());
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(r.out().contains("rank " + rank + ": my window holds \"hello from rank " + (rank + 3) % 4 + "\"; rank " + (rank + 2) % 4
                    + "'s holds \"hello from rank " + (rank + 1) % 4 + "\""), r.toString());
        }
        r = CapturedJob.run(4, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_AGENT", agent), BOUND, Counter.class, "300");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("counter = 1200 (4 ranks x 300)"), r.toString());
        for (String type : new String[] {"EXCLUSIVE", "SHARED"}) { // rank 1 checks its counter
            r = CapturedJob.run(2, Map.of("FERRY_RANKS_PER_NODE", "1", "FERRY_AGENT", agent), BOUND, LockCycle.class, type, "200", "3");
            assertEquals(0, r.exit(), r.toString());
            assertTrue(r.out().contains("lock-cycle " + type + ": lock, 8-byte accumulate, unlock: median "), r.toString());
        }
    }

    /**
     * The survivor example loses a rank at each step of a round (chosen by the seed: the test
     * looks for one that kills a rank at that step, and another in the same round or during the
     * recovery in round 2), over shm and tcp or shm and the node agents, with and without a progress
     * thread (each step directly and through the agents, each in the other progress mode): the
     * survivors finish with the serial answer, and no rank the plan spared dies. The job's status
     * is the first dead rank's (3).
     */
    @ParameterizedTest(name = "a death at {0}, progress {1}, FERRY_AGENT={2}")
    @CsvSource({"COMPUTE, caller, off", "COMPUTE, thread, on", "BEFORE_HELD, thread, off", "BEFORE_HELD, caller, on",
            "BEFORE_VALUES, caller, off", "BEFORE_VALUES, thread, on", "BEFORE_AGREE, thread, off", "BEFORE_AGREE, caller, on",
            "BEFORE_SHRINK, caller, off", "BEFORE_SHRINK, thread, on"})
    void theSurvivorsFinishWithTheSerialAnswer(Survivor.Step step, String progress, String agent) throws Exception {
        int ranks = 5;
        long seed = 1;
        while (!dies(Survivor.plan(seed, 2, ranks), step)) {
            seed++;
        }
        long chosen = seed;
        CapturedJob.Result r = CapturedJob.run(ranks, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_PROGRESS", progress, "FERRY_AGENT", agent), BOUND,
                Survivor.class, String.valueOf(chosen), "2");
        assertEquals(3, r.exit(), r.toString());
        assertTrue(r.out().lines().anyMatch(l -> l.contains("pi is 3.141592653590, exactly the serial sum, after ")
                && l.contains("of 5 ranks (seed " + chosen + ";")), r.toString());
        assertFalse(r.err().contains("Exception in thread"), "a rank the plan spared died: " + r);
    }

    /**
     * Whether the plan kills a rank at {@code step} for sure: in round 1 with the other death in
     * round 2 (its recovery); or, before the shrink (reached only when round 1 failed), in round 1
     * beside a death that fails it.
     */
    private static boolean dies(java.util.List<Survivor.Death> plan, Survivor.Step step) {
        Survivor.Death a = plan.get(0), b = plan.get(1);
        if (step == Survivor.Step.BEFORE_SHRINK) {
            return b.round() == 1 && b.step() == step && a.round() == 1 && a.step() != step;
        }
        return a.round() == 1 && a.step() == step && b.round() == 2;
    }

    @Test
    void piSumsTheRanksParts() throws Exception {
        CapturedJob.Result r = CapturedJob.run(3, Map.of(), BOUND, Pi.class, "1000000");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("pi is about 3.14159265"), r.toString());
    }
}
