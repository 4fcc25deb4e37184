package dev.ferry.driver.ucx;

import dev.ferry.spi.Hints;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** UCX is told the endpoints a rank will hold at once: the engine's expectation where it gave one, else the job's size. */
class UcxHintsTest {
    @Test
    void theEstimatedEndpointsFollowTheEnginesExpectation() {
        assertEquals(1000, UcxWorker.estimatedEndpoints(new Hints(1000, 0, true, Map.of())));
        assertEquals(16, UcxWorker.estimatedEndpoints(new Hints(1000, 0, true, Map.of(Hints.PEERS_EXPECTED, "16"))));
        assertEquals(1000, UcxWorker.estimatedEndpoints(new Hints(1000, 0, true, Map.of(Hints.PEERS_EXPECTED, "many"))));
    }
}
