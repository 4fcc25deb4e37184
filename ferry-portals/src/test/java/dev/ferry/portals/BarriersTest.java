package dev.ferry.portals;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The coordinator's counting, at rank 0 of three, with the answers it sends recorded. */
class BarriersTest {
    private record Sent(int to, byte type, long epoch, long detail) {
    }

    private final boolean[] dead = new boolean[3];
    private final List<Sent> sent = new ArrayList<>();
    private final Barriers b = new Barriers(0, 3, dead, (to, type, epoch, detail) -> sent.add(new Sent(to, type, epoch, detail)));

    @Test
    void aBarrierPassesWhenEveryLiveRankIsInIt() {
        b.arrived(1, 1);
        b.enterBarrier(1);
        assertTrue(!b.barrierDone(1));
        dead[2] = true;
        b.peerFailed();
        assertTrue(b.barrierDone(1));
        assertNull(b.barrierFailure(1));
        assertEquals(List.of(new Sent(1, PtlWire.RELEASE, 1, -1)), sent);
    }

    @Test
    void aFailedBarrierNamesTheRankThatEnteredFiniFirstEvenIfItDiedSince() {
        b.arrived(2, 1);            // rank 2 waits in the barrier
        b.arrived(1, Barriers.FINI); // rank 1 finalizes instead: rank 2's barrier fails, naming it
        assertEquals(List.of(new Sent(2, PtlWire.RELEASE, -1, 1)), sent);
        dead[1] = true;             // rank 1 ends
        b.peerFailed();
        b.arrived(2, Barriers.FINI); // rank 2 gives up and finalizes too
        b.enterBarrier(1);          // only now rank 0 enters the barrier
        assertTrue(b.barrierDone(1));
        assertEquals("rank 1 called fini() instead: it will never enter this barrier", b.barrierFailure(1));
    }
}
