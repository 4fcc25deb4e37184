package dev.ferry;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;

/** Several threads per rank at once, a flooded receiver, and a peer that leaves. */
class ThreadsAndFlowTest {
    static final Duration BOUND = Duration.ofSeconds(120);

    /**
     * 4 ranks, 4 threads each: thread t of every rank sends 300 messages (4 B to 40 KiB, so both
     * protocols) to every other rank on tag t, and receives its 900 with ANY_SOURCE on tag t,
     * checking that each sender's sequence arrives in order and whole.
     */
    @Test
    void fourThreadsPerRankSendAndReceiveWithWildcardsAtOnce() {
        stress(new FerryConfig());
    }

    /** The same with a progress thread per rank: the callers hand it their steps. */
    @Test
    void fourThreadsPerRankWithAProgressThread() {
        stress(new FerryConfig().progressThread(true));
    }

    private static void stress(FerryConfig config) {
        int ranks = 4, threads = 4, perPeer = 300;
        Ferry.runInProcess(ranks, BOUND, config, f -> {
            Comm w = f.world();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> work = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int tag = t;
                    work.add(pool.submit(() -> {
                        // each step: a message to every peer, then as many received from anyone
                        // (a program that sent everything before receiving anything would be
                        // unsafe: flow control may hold sends until their receiver receives)
                        List<Request> sends = new ArrayList<>();
                        int[] next = new int[ranks];
                        int[] into = new int[10_000];
                        for (int i = 0; i < perPeer; i++) {
                            for (int peer = 0; peer < ranks; peer++) {
                                if (peer != w.rank()) {
                                    int n = 1 + (i * 7919 + tag * 31) % (i % 50 == 0 ? 10_000 : 64);
                                    int[] msg = new int[n];
                                    msg[0] = i;
                                    msg[n - 1] = i;
                                    sends.add(w.isend(msg, 0, n, peer, tag));
                                }
                            }
                            for (int k = 0; k < ranks - 1; k++) {
                                Status s = w.recv(into, 0, into.length, Ferry.ANY_SOURCE, tag);
                                assertEquals(tag, s.tag());
                                assertEquals(next[s.source()], into[0], "thread " + tag + ": rank " + s.source() + "'s messages out of order");
                                assertEquals(next[s.source()], into[s.count() - 1]);
                                next[s.source()]++;
                            }
                        }
                        Request.waitAll(sends.toArray(Request[]::new));
                        for (int peer = 0; peer < ranks; peer++) {
                            assertEquals(peer == w.rank() ? 0 : perPeer, next[peer]);
                        }
                        return null;
                    }));
                }
                for (Future<?> fu : work) {
                    fu.get(100, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
        });
    }

    /**
     * Rank 0 floods rank 1 with 3000 messages of 1 KiB while rank 1 makes progress but receives
     * nothing: the sends are throttled by flow control, rank 1 holds a bounded amount of unexpected
     * data, and every message arrives, in order, once it receives.
     */
    @Test
    void aFloodedReceiverIsProtectedByFlowControlAndLosesNothing() {
        int count = 3000, size = 1024;
        AtomicInteger sentBeforeReceiving = new AtomicInteger(-1);
        AtomicLong held = new AtomicLong();
        AtomicInteger unexpected = new AtomicInteger();
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            if (w.rank() == 0) {
                Request[] rs = new Request[count];
                for (int i = 0; i < count; i++) {
                    byte[] b = new byte[size];
                    ByteBuffer.wrap(b).putInt(0, i);
                    rs[i] = w.isend(b, 0, size, 1, 1);
                }
                w.send(new byte[0], 0, 0, 1, 2); // "all started"; stuck behind the flood if flow control holds it
                long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (held.get() == 0) { // wait for rank 1 to have looked while not receiving
                    Request.testAny(rs);
                    assertTrue(System.nanoTime() < end, "rank 1 never reported");
                }
                Request.waitAll(rs);
            } else {
                // progress without receiving: probing for a tag nobody sends, 20 000 times
                for (int i = 0; i < 20_000; i++) {
                    assertNull(w.iprobe(0, 3));
                }
                unexpected.set(f.messaging.unexpectedCount());
                sentBeforeReceiving.set(unexpected.get());
                held.set(Math.max(1, f.engine.stats().heldMax()));
                byte[] b = new byte[size];
                for (int i = 0; i < count; i++) {
                    w.recv(b, 0, size, 0, 1);
                    assertEquals(i, ByteBuffer.wrap(b).getInt(0));
                }
                w.recv(new byte[0], 0, 0, 0, 2);
            }
        });
        assertTrue(unexpected.get() < count, "flow control let all " + count + " messages in before a receive: " + unexpected.get());
        assertTrue(held.get() < (long) count * size / 4, "held " + held.get() + " bytes unexpected");
    }

    /** A peer that leaves fails the receives aimed at it, ANY_SOURCE ones included (PENDING, as ULFM has it), and nothing else. */
    @Test
    void aPeerThatLeavesFailsTheReceivesThatInvolveIt() {
        Ferry.runInProcess(3, BOUND, f -> {
            Comm w = f.world();
            if (w.rank() == 2) {
                return; // leaves at once: its close meets nobody and disconnects
            }
            Request fromIt = w.irecv(new int[1], 0, 1, 2, 0);
            Request any = w.irecv(new int[1], 0, 1, Ferry.ANY_SOURCE, 0);
            FerryException x = assertThrows(FerryException.class, fromIt::await);
            assertEquals(ErrorClass.PROC_FAILED, x.errorClass());
            assertTrue(x.getMessage().contains("rank 2"), x.getMessage());
            x = assertThrows(FerryException.class, any::await);
            assertEquals(ErrorClass.PROC_FAILED_PENDING, x.errorClass(), "from any rank: another's message could still have matched it");
            x = assertThrows(FerryException.class, () -> w.recv(new int[1], 0, 1, 2, 0));
            assertEquals(ErrorClass.PROC_FAILED, x.errorClass());
            x = assertThrows(FerryException.class, () -> w.ssend(new int[1], 0, 1, 2, 0));
            assertEquals(ErrorClass.PROC_FAILED, x.errorClass());
            // the two others still talk
            int[] v = {w.rank()};
            w.sendrecvReplace(v, 0, 1, Datatype.INT, 1 - w.rank(), 1, 1 - w.rank(), 1);
            assertEquals(1 - w.rank(), v[0]);
        });
    }
}
