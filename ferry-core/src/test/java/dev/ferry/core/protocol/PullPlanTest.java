package dev.ferry.core.protocol;

import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.Request;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PullPlanTest {
    private static final int PULL_DATA = 24;

    /** A packet whose entry {@code i} at {@code i * PULL_DATA} holds pull data starting with the long {@code 100 + i}. */
    private static MemorySegment packet(int entries) {
        MemorySegment p = Arena.ofAuto().allocate((long) entries * PULL_DATA, 8);
        for (int i = 0; i < entries; i++) {
            p.set(ValueLayout.JAVA_LONG, (long) i * PULL_DATA, 100 + i);
        }
        return p;
    }

    @Test
    void runsThePlannedPullsInOrderWithTheirOwnPullData() {
        PullPlan plan = new PullPlan(PULL_DATA);
        MemorySegment p = packet(PullPlan.SIZE);
        RecvRequest[] r = new RecvRequest[PullPlan.SIZE];
        for (int i = 0; i < PullPlan.SIZE; i++) {
            assertFalse(plan.full());
            plan.add(r[i] = new RecvRequest(), 1000 + i, p, (long) i * PULL_DATA, PULL_DATA);
        }
        assertTrue(plan.full());
        p.fill((byte) 0); // the packet goes back to the driver: the plan kept copies
        List<String> ran = new ArrayList<>();
        int[] k = {0};
        plan.run((req, accepted, data) -> {
            assertSame(r[k[0]], req);
            ran.add(accepted + ":" + data.get(ValueLayout.JAVA_LONG, 0));
            k[0]++;
        });
        assertEquals(PullPlan.SIZE, ran.size());
        assertEquals("1000:100", ran.get(0));
        assertEquals("1015:115", ran.get(15));
        assertEquals(0, plan.count());
    }

    @Test
    void aPullRunAtOnceDoesNotOverwriteAPlannedOne() {
        PullPlan plan = new PullPlan(PULL_DATA);
        MemorySegment p = packet(2);
        plan.add(new RecvRequest(), 1, p, 0, PULL_DATA);
        MemorySegment now = plan.now(p, PULL_DATA, PULL_DATA);
        assertEquals(101, now.get(ValueLayout.JAVA_LONG, 0));
        long[] seen = new long[1];
        plan.run((req, accepted, data) -> seen[0] = data.get(ValueLayout.JAVA_LONG, 0));
        assertEquals(100, seen[0]);
    }

    @Test
    void aFailureWhileRunningDrainsOnlyThePullsNotYetRun() {
        PullPlan plan = new PullPlan(PULL_DATA);
        MemorySegment p = packet(4);
        RecvRequest[] r = new RecvRequest[4];
        for (int i = 0; i < 4; i++) {
            plan.add(r[i] = new RecvRequest(), i, p, (long) i * PULL_DATA, PULL_DATA);
        }
        List<Request> failed = new ArrayList<>();
        List<RecvRequest> ran = new ArrayList<>();
        plan.run((req, accepted, data) -> {
            ran.add(req);
            if (accepted == 1) { // the second pull fails its gate, which drains the plan
                plan.drain(failed::add);
            }
        });
        assertEquals(List.of(r[0], r[1]), ran);
        assertEquals(List.of(r[2], r[3]), failed);
        assertEquals(0, plan.count());
    }
}
