package dev.ferry;

import javax.management.JMX;
import javax.management.ObjectName;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.Map;

/**
 * Three ranks on nodes of their own, in agent mode: rank 1 posts receives the node agent may
 * match (seed 004's tag-matching offload) and computes with no call while their messages come
 * from rank 0 (into native memory, once into a Java array, twice into a derived layout), and once from rank 2 for a
 * receive of any source; every message must land where
 * MPI's rules put it, whole, whatever matched it. Rank 1 prints its counters of receives armed
 * for and matched by the agent (FERRY_JMX=on).
 */
final class AgentMatchRanks {
    private static final int SIZE = 1 << 20, GO = 1;
    /** A run of small (eager) messages, each of its own tag, the bytes of each, and of each receive. */
    static final int RUN = 32, SMALL = 4096, RUN_RECEIVE = 256 << 10;

    private AgentMatchRanks() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        try (Ferry f = Ferry.init(); Arena arena = Arena.ofShared()) {
            Comm w = f.world();
            MemorySegment a = arena.allocate(SIZE, 4096), b = arena.allocate(SIZE, 4096);
            w.barrier(); // the ranks know each other: a receive is handed to the agent only on an open connection
            if (w.rank() == 0) {
                sender(w, a, rounds);
            } else if (w.rank() == 1) {
                receiver(w, a, b, rounds);
            } else {
                whenAsked(w, a, 800, 80); // 8: for rank 1's receive of any source
            }
            w.barrier();
            if (w.rank() == 1) {
                Map<String, Long> c = counters(1);
                System.out.println("ok agent-match counters: armed " + c.getOrDefault("receives armed for the agent", 0L) + ", matched by the agent "
                        + c.getOrDefault("receives matched by the agent", 0L));
            }
        }
    }

    /** The counters rank {@code rank} of this process publishes (FERRY_JMX=on). */
    static Map<String, Long> counters(int rank) throws Exception {
        ObjectName me = ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName("dev.ferry:type=Rank,*"), null).stream()
                .filter(n -> String.valueOf(rank).equals(n.getKeyProperty("rank"))).findFirst().orElseThrow();
        return JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(), me, FerryMXBean.class).getCounters();
    }

    private static void sender(Comm w, MemorySegment m, int rounds) {
        byte[] go = new byte[1];
        // 1: one receive at a time, armed alone; odd rounds synchronous (the ACK follows the agent's match)
        for (int i = 0; i < rounds; i++) {
            w.recv(go, 0, 1, Datatype.BYTE, 1, GO);
            fill(m, i);
            if (i % 2 == 0) {
                w.send(m, 0L, SIZE, Datatype.BYTE, 1, 10 + i % 2);
            } else {
                w.ssend(m, 0L, SIZE, Datatype.BYTE, 1, 10 + i % 2);
            }
        }
        // 2: a small message, then a large one, on one tag: the first receive takes the small one
        w.recv(go, 0, 1, Datatype.BYTE, 1, GO);
        fill(m, 100);
        w.send(m, 0L, 100, Datatype.BYTE, 1, 20);
        w.send(m, 0L, SIZE, Datatype.BYTE, 1, 20);
        // 3: a receive cancelled while armed; the next one takes the message
        whenAsked(w, m, 300, 30);
        // 4: an ANY_SOURCE receive, armed alone, takes the first message; the exact one behind it, not armed, the second
        whenAsked(w, m, 400, 40);
        sendFilled(w, m, 401, 40);
        // 5: longer than the armed receive: the rank's own matching truncates it
        whenAsked(w, m, 500, 50);
        // 6: a receive of any tag, armed alone, takes a message of tag 60
        whenAsked(w, m, 600, 60);
        // 7: a receive of any tag behind one of tag 70 is not armed: tag 70 goes to the first, 71 to it
        whenAsked(w, m, 700, 70);
        sendFilled(w, m, 701, 71);
        // 9: into a Java array, which the agent pulls into memory of its reach, copied in once placed
        whenAsked(w, m, 900, 90);
        // 10: a run of small messages, each of a tag of its own, one after another
        w.recv(go, 0, 1, Datatype.BYTE, 1, GO);
        for (int i = 0; i < RUN; i++) {
            fill(m, SMALL, 1000 + i);
            w.send(m, 0L, SMALL, Datatype.BYTE, 1, 1000 + i);
        }
        // 11: into derived layouts, a large message (rendezvous) and a small one (eager), each sent contiguous
        whenAsked(w, m, 1100, 110);
        fill(m, SMALL, 1110);
        w.send(m, 0L, SMALL, Datatype.BYTE, 1, 111);
    }

    /** Once rank 1 says its receives are posted: a message of {@code SIZE} bytes filled from {@code seed}, of tag {@code tag}. */
    private static void whenAsked(Comm w, MemorySegment m, int seed, int tag) {
        w.recv(new byte[1], 0, 1, Datatype.BYTE, 1, GO);
        sendFilled(w, m, seed, tag);
    }

    private static void sendFilled(Comm w, MemorySegment m, int seed, int tag) {
        fill(m, seed);
        w.send(m, 0L, SIZE, Datatype.BYTE, 1, tag);
    }

    private static void receiver(Comm w, MemorySegment a, MemorySegment b, int rounds) throws Exception {
        byte[] go = new byte[1];
        for (int i = 0; i < rounds; i++) {
            Request r = w.irecv(a, 0L, SIZE, Datatype.BYTE, 0, 10 + i % 2);
            w.send(go, 0, 1, Datatype.BYTE, 0, GO);
            compute(5_000_000L);
            Status s = r.await();
            expect(s, 0, 10 + i % 2, SIZE, "round " + i);
            check(a, SIZE, i, "round " + i);
        }
        System.out.println("ok agent-match " + rounds + " receives computed through, every byte checked");

        Request first = w.irecv(a, 0L, SIZE, Datatype.BYTE, 0, 20), second = w.irecv(b, 0L, SIZE, Datatype.BYTE, 0, 20);
        w.send(go, 0, 1, Datatype.BYTE, 0, GO);
        compute(5_000_000L);
        expect(first.await(), 0, 20, 100, "the first receive of tag 20");
        check(a, 100, 100, "the first receive of tag 20");
        expect(second.await(), 0, 20, SIZE, "the second receive of tag 20");
        check(b, SIZE, 100, "the second receive of tag 20");
        System.out.println("ok agent-match in order: the small message first");

        Request cancelled = w.irecv(b, 0L, SIZE, Datatype.BYTE, 0, 30);
        if (!cancelled.cancel() || !cancelled.await().isCancelled()) {
            throw new AssertionError("an armed receive that nothing matched was not cancelled: " + cancelled.status());
        }
        Request next = w.irecv(a, 0L, SIZE, Datatype.BYTE, 0, 30);
        postedThenCompute(w);
        landed(next, a, 30, 300, "the receive after the cancelled one");
        System.out.println("ok agent-match cancelled while armed");

        Request any = w.irecv(a, 0L, SIZE, Datatype.BYTE, Ferry.ANY_SOURCE, 40), exact = w.irecv(b, 0L, SIZE, Datatype.BYTE, 0, 40);
        postedThenCompute(w);
        landed(any, a, 40, 400, "the ANY_SOURCE receive");
        landed(exact, b, 40, 401, "the receive behind it");
        System.out.println("ok agent-match ANY_SOURCE first, the receive behind it second");

        Request shorter = w.irecv(a, 0L, SIZE / 2, Datatype.BYTE, 0, 50);
        postedThenCompute(w);
        try {
            shorter.await();
            throw new AssertionError("a message longer than its receive was not reported truncated");
        } catch (FerryException e) {
            if (e.status().error() != ErrorClass.TRUNCATE || e.status().bytes() != SIZE) {
                throw new AssertionError("a message longer than its receive: " + e.status(), e);
            }
        }
        System.out.println("ok agent-match truncated");

        Request anyTag = w.irecv(a, 0L, SIZE, Datatype.BYTE, 0, Ferry.ANY_TAG);
        postedThenCompute(w);
        landed(anyTag, a, 60, 600, "the receive of any tag");
        System.out.println("ok agent-match any tag");

        Request seventy = w.irecv(a, 0L, SIZE, Datatype.BYTE, 0, 70), behind = w.irecv(b, 0L, SIZE, Datatype.BYTE, 0, Ferry.ANY_TAG);
        postedThenCompute(w);
        landed(seventy, a, 70, 700, "the receive of tag 70");
        landed(behind, b, 71, 701, "the receive of any tag behind it");
        System.out.println("ok agent-match any tag behind a receive of one");

        Request fromAny = w.irecv(a, 0L, SIZE, Datatype.BYTE, Ferry.ANY_SOURCE, 80);
        w.send(go, 0, 1, Datatype.BYTE, 2, GO);
        compute(5_000_000L);
        expect(fromAny.await(), 2, 80, SIZE, "the receive of any source, from rank 2");
        check(a, SIZE, 800, "the receive of any source, from rank 2");
        System.out.println("ok agent-match any source: rank 2's message");

        long[] array = new long[SIZE / 8];
        Request intoArray = w.irecv(array, 0, array.length, Datatype.LONG, 0, 90);
        postedThenCompute(w);
        expect(intoArray.await(), 0, 90, SIZE, "the receive into a Java array");
        check(MemorySegment.ofArray(array), SIZE, 900, "the receive into a Java array");
        System.out.println("ok agent-match into a Java array");

        // eager messages that come while the rank computes are matched one after another: what is
        // left of one the agent took (its credits) does not hold back the next
        long matchedBefore = counters(1).getOrDefault("receives matched by the agent", 0L);
        Request[] run = new Request[RUN];
        MemorySegment into = Arena.ofAuto().allocate((long) RUN * RUN_RECEIVE, 4096);
        for (int i = 0; i < RUN; i++) {
            run[i] = w.irecv(into, (long) i * RUN_RECEIVE, RUN_RECEIVE, Datatype.BYTE, 0, 1000 + i);
        }
        postedThenCompute(w);
        for (int i = 0; i < RUN; i++) {
            expect(run[i].await(), 0, 1000 + i, SMALL, "small message " + i);
            check(into.asSlice((long) i * RUN_RECEIVE, SMALL), SMALL, 1000 + i, "small message " + i);
        }
        System.out.println("ok agent-match a run of " + RUN + " small messages, " + (counters(1).getOrDefault("receives matched by the agent", 0L) - matchedBefore)
                + " matched by the agent");

        // every other long of a buffer twice the message's size (an MPI vector): the agent stages
        // what it matched, the rank scatters it once; the longs between are never written
        long derivedBefore = counters(1).getOrDefault("receives matched by the agent", 0L);
        Datatype everyOther = Datatype.vector(SIZE / 8, 1, 2, Datatype.LONG), everyOtherSmall = Datatype.vector(SMALL / 8, 1, 2, Datatype.LONG);
        MemorySegment spread = Arena.ofAuto().allocate(2L * SIZE, 8), spreadSmall = Arena.ofAuto().allocate(2L * SMALL, 8);
        spread.fill((byte) 0x5A);
        spreadSmall.fill((byte) 0x5A);
        Request large = w.irecv(spread, 0L, 1, everyOther, 0, 110), small = w.irecv(spreadSmall, 0L, 1, everyOtherSmall, 0, 111);
        postedThenCompute(w);
        expect(large.await(), 0, 110, SIZE, "the large receive into a vector");
        expect(small.await(), 0, 111, SMALL, "the small receive into a vector");
        checkEveryOther(spread, SIZE, 1100, "the large receive into a vector");
        checkEveryOther(spreadSmall, SMALL, 1110, "the small receive into a vector");
        System.out.println("ok agent-match into derived layouts, " + (counters(1).getOrDefault("receives matched by the agent", 0L) - derivedBefore)
                + " matched by the agent");
    }

    /** The even longs of {@code m} hold {@code bytes} filled from {@code seed}; the odd ones are untouched (0x5A bytes). */
    private static void checkEveryOther(MemorySegment m, long bytes, int seed, String what) {
        for (long i = 0; i < bytes / 8; i++) {
            if (m.getAtIndex(ValueLayout.JAVA_LONG, 2 * i) != (i * 0x9E3779B97F4A7C15L ^ seed)) {
                throw new AssertionError(what + ": long " + i + " differs");
            }
            if (m.getAtIndex(ValueLayout.JAVA_LONG, 2 * i + 1) != 0x5A5A5A5A5A5A5A5AL) {
                throw new AssertionError(what + ": the gap after long " + i + " was written");
            }
        }
    }

    /** Tells rank 0 the receives are posted, then computes 5 ms with no call to Ferry. */
    private static void postedThenCompute(Comm w) {
        w.send(new byte[1], 0, 1, Datatype.BYTE, 0, GO);
        compute(5_000_000L);
    }

    /** {@code r} ends with a whole message of {@code SIZE} bytes from rank 0 with {@code tag}, filled from {@code seed}, in {@code into}. */
    private static void landed(Request r, MemorySegment into, int tag, int seed, String what) {
        expect(r.await(), 0, tag, SIZE, what);
        check(into, SIZE, seed, what);
    }

    private static void expect(Status s, int source, int tag, long bytes, String what) {
        if (s.source() != source || s.tag() != tag || s.bytes() != bytes) {
            throw new AssertionError(what + ": status " + s + ", wanted source " + source + ", tag " + tag + ", " + bytes + " bytes");
        }
    }

    /** Computes for {@code nanos} with no call to Ferry. */
    private static void compute(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    private static void fill(MemorySegment m, int seed) {
        fill(m, SIZE, seed);
    }

    private static void fill(MemorySegment m, long bytes, int seed) {
        for (long i = 0; i < bytes / 8; i++) {
            m.setAtIndex(ValueLayout.JAVA_LONG, i, i * 0x9E3779B97F4A7C15L ^ seed);
        }
    }

    private static void check(MemorySegment m, long bytes, int seed, String what) {
        for (long i = 0; i < bytes / 8; i++) {
            if (m.getAtIndex(ValueLayout.JAVA_LONG, i) != (i * 0x9E3779B97F4A7C15L ^ seed)) {
                throw new AssertionError(what + ": long " + i + " differs");
            }
        }
    }
}
