package dev.ferry.core.agent;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.*;

/** Forward and dispatch over a ring in memory, between threads of one process. */
class CommandRingTest {
    private static final CommandRing.Liveness ALIVE = () -> { };

    /** An agent thread that answers each call with its argument times the call index, until stopped. */
    private static Thread agent(CommandRing ring, AtomicBoolean stop, ConcurrentLinkedQueue<Long> order) {
        Thread t = new Thread(() -> {
            while (!stop.get()) {
                if (ring.dispatch((call, payload, argBytes) -> {
                    long v = payload.get(ValueLayout.JAVA_LONG, 0);
                    order.add(v);
                    if (call == 99) {
                        return AgentError.NO_CALL.code();
                    }
                    payload.set(ValueLayout.JAVA_LONG, 0, v * call);
                    return 8;
                }, 16) == 0) {
                    Thread.onSpinWait();
                }
            }
        }, "agent");
        t.start();
        return t;
    }

    @Test
    void threadsForwardManyCommandsThroughAFewSlotsAndEachGetsItsOwnAnswer() throws Exception {
        try (Arena a = Arena.ofShared()) {
            MemorySegment m = a.allocate(ChannelLayout.bytes(4, 64), 64);
            CommandRing agentSide = CommandRing.create(m, 4, 64, 1, 2);
            CommandRing rankSide = CommandRing.open(m);
            assertEquals(32, rankSide.payloadBytes());
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<Long> order = new ConcurrentLinkedQueue<>();
            Thread t = agent(agentSide, stop, order);
            Thread[] ranks = new Thread[3];
            Throwable[] failed = new Throwable[1];
            for (int k = 0; k < ranks.length; k++) {
                int id = k;
                ranks[k] = new Thread(() -> {
                    try (Arena mine = Arena.ofConfined()) {
                        MemorySegment args = mine.allocate(8), ret = mine.allocate(8);
                        for (long i = 0; i < 3000; i++) {
                            long v = id * 1_000_000L + i;
                            args.set(ValueLayout.JAVA_LONG, 0, v);
                            assertEquals(8, rankSide.forward(3, args, 8, ret, ALIVE));
                            assertEquals(v * 3, ret.get(ValueLayout.JAVA_LONG, 0));
                        }
                    } catch (Throwable e) {
                        failed[0] = e;
                    }
                });
                ranks[k].start();
            }
            for (Thread r : ranks) {
                r.join(60_000);
                assertFalse(r.isAlive(), "a rank thread is still waiting");
            }
            stop.set(true);
            t.join(10_000);
            assertNull(failed[0], () -> "a rank thread failed: " + failed[0]);
            assertEquals(9000, order.size());
            // each thread's commands were dispatched in the order it forwarded them
            long[] last = {-1, -1, -1};
            for (long v : order) {
                int id = (int) (v / 1_000_000L);
                assertTrue(v > last[id], "thread " + id + "'s " + v + " after " + last[id]);
                last[id] = v;
            }
        }
    }

    @Test
    void anErrorComesBackAsItsCodeAndTheSlotServesAgain() throws Exception {
        try (Arena a = Arena.ofShared()) {
            MemorySegment m = a.allocate(ChannelLayout.bytes(2, 64), 64);
            CommandRing ring = CommandRing.create(m, 2, 64, 1, 2);
            AtomicBoolean stop = new AtomicBoolean();
            Thread t = agent(ring, stop, new ConcurrentLinkedQueue<>());
            MemorySegment args = a.allocate(8), ret = a.allocate(8);
            for (int i = 0; i < 5; i++) {
                args.set(ValueLayout.JAVA_LONG, 0, i);
                assertEquals(AgentError.NO_CALL.code(), ring.forward(99, args, 8, ret, ALIVE));
                assertEquals(8, ring.forward(2, args, 8, ret, ALIVE));
                assertEquals(2L * i, ret.get(ValueLayout.JAVA_LONG, 0));
            }
            assertThrows(IllegalArgumentException.class, () -> ring.forward(2, a.allocate(64), 33, ret, ALIVE), "more than a slot carries");
            stop.set(true);
            t.join(10_000);
        }
    }

    @Test
    void aWaitingRankFailsAsSoonAsItsLivenessSaysTheAgentIsGone() {
        try (Arena a = Arena.ofShared()) {
            MemorySegment m = a.allocate(ChannelLayout.bytes(2, 64), 64);
            CommandRing ring = CommandRing.create(m, 2, 64, 1, 2);
            MemorySegment args = a.allocate(8), ret = a.allocate(8);
            long start = System.nanoTime();
            int[] asked = {0};
            AgentException e = assertThrows(AgentException.class, () -> ring.forward(1, args, 8, ret, () -> {
                if (++asked[0] == 3) {
                    throw new AgentException("gone");
                }
            }));
            assertEquals("gone", e.getMessage());
            assertTrue(System.nanoTime() - start < 10_000_000_000L, "failed within the bound");
            assertThrows(AgentException.class, () -> CommandRing.open(a.allocate(ChannelLayout.bytes(2, 64))), "no magic: not a ring");
        }
    }
}
