package dev.ferry.examples;

import dev.ferry.launch.run.CapturedJob;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    @Test
    void fourPairsPingPongToTheEnd() throws Exception {
        CapturedJob.Result r = CapturedJob.run(8, Map.of("FERRY_RANKS_PER_NODE", "4"), BOUND, PingPong.class, "2000", "64");
        assertEquals(0, r.exit(), r.toString());
        for (int pair = 0; pair < 8; pair += 2) {
            assertTrue(r.out().contains("pingpong " + pair + "-" + (pair + 1) + ": 2000 rounds of 64 bytes"), r.toString());
        }
    }

    /** The window examples over shm and tcp (two ranks per node): every rank's greeting lands, every ticket is taken once. */
    @Test
    void putGetAndTheCounterOnWindows() throws Exception {
        CapturedJob.Result r = CapturedJob.run(4, Map.of("FERRY_RANKS_PER_NODE", "2"), BOUND, PutGet.class);
        assertEquals(0, r.exit(), r.toString());
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(r.out().contains("rank " + rank + ": my window holds \"hello from rank " + (rank + 3) % 4 + "\"; rank " + (rank + 2) % 4
                    + "'s holds \"hello from rank " + (rank + 1) % 4 + "\""), r.toString());
        }
        r = CapturedJob.run(4, Map.of("FERRY_RANKS_PER_NODE", "2"), BOUND, Counter.class, "300");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("counter = 1200 (4 ranks x 300)"), r.toString());
        for (String type : new String[] {"EXCLUSIVE", "SHARED"}) { // rank 1 checks its counter
            r = CapturedJob.run(2, Map.of("FERRY_RANKS_PER_NODE", "1"), BOUND, LockCycle.class, type, "200", "3");
            assertEquals(0, r.exit(), r.toString());
            assertTrue(r.out().contains("lock-cycle " + type + ": lock, 8-byte accumulate, unlock: median "), r.toString());
        }
    }

    @Test
    void piSumsTheRanksParts() throws Exception {
        CapturedJob.Result r = CapturedJob.run(3, Map.of(), BOUND, Pi.class, "1000000");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("pi is about 3.14159265"), r.toString());
    }
}
