package dev.ferry;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Rounds, views over subsets of ranks, and pooled temporaries. */
class ScheduleTest {
    @Test
    void aLocalStepAfterTransfersOpensTheNextRound() {
        Schedule s = new Schedule(new TempPool());
        MemorySegment m = MemorySegment.ofArray(new byte[4]);
        List<String> ran = new ArrayList<>();
        s.local(() -> ran.add("a")).send(1, m).recv(2, m);
        s.local(() -> ran.add("b")).send(3, m).next().next();
        List<Schedule.Round> rounds = s.rounds();
        assertEquals(2, rounds.size());
        assertEquals(2, rounds.get(0).transfers);
        assertEquals(1, rounds.get(0).locals.size());
        assertTrue(rounds.get(0).sends[0] && !rounds.get(0).sends[1]);
        assertEquals(1, rounds.get(1).transfers);
        assertEquals(3, rounds.get(1).peers[0]);
    }

    @Test
    void aViewMapsTheAlgorithmsRanksToTheCommunicators() {
        Schedule s = new Schedule(new TempPool());
        MemorySegment m = MemorySegment.ofArray(new byte[1]);
        s.over(new int[] {4, 7, 9}).send(2, m).recv(0, m).over(null).send(2, m);
        Schedule.Round r = s.rounds().get(0);
        assertEquals(9, r.peers[0]);
        assertEquals(4, r.peers[1]);
        assertEquals(2, r.peers[2]);
    }

    @Test
    void temporariesAreReusedOnceGivenBack() {
        TempPool pool = new TempPool();
        Schedule s = new Schedule(pool);
        MemorySegment t = s.temp(100);
        assertEquals(100, t.byteSize());
        assertTrue(t.isNative());
        long address = t.address();
        s.release();
        Schedule again = new Schedule(pool);
        assertEquals(address, again.temp(120).address(), "the same 128-byte block comes back");
        assertEquals(0, again.temp(0).byteSize());
    }
}
