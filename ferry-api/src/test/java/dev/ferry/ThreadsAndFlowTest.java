package dev.ferry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
    /**
     * 3000 messages of 1 KiB to a rank that does not receive for a while: it keeps at most the
     * eager credits it gave (256 KiB by default, or the pool), the rest come as rendezvous
     * envelopes (no data), and the last message, sent blocking on another tag, is not stuck
     * behind the flood. Then everything arrives in order.
     */
    @ParameterizedTest(name = "FERRY_EAGER_POOL={0}")
    @ValueSource(strings = {"off", "64k"})
    void aFloodedReceiverKeepsAtMostItsCreditsAndLosesNothing(String pool) {
        int count = 3000, size = 1024;
        AtomicLong held = new AtomicLong();
        AtomicLong envelopes = new AtomicLong();
        Ferry.runInProcess(2, BOUND, new FerryConfig().set("FERRY_EAGER_POOL", pool), f -> {
            Comm w = f.world();
            if (w.rank() == 0) {
                Request[] rs = new Request[count];
                for (int i = 0; i < count; i++) {
                    byte[] b = new byte[size];
                    ByteBuffer.wrap(b).putInt(0, i);
                    rs[i] = w.isend(b, 0, size, 1, 1);
                }
                w.send(new byte[0], 0, 0, 1, 2); // "all started": received first, before the flood
                Request.waitAll(rs);
                envelopes.set(f.engine.stats().envelopes());
            } else {
                w.recv(new byte[0], 0, 0, 0, 2); // every message of the flood is before it: kept or envelopes
                held.set(f.engine.stats().heldMax());
                byte[] b = new byte[size];
                for (int i = 0; i < count; i++) {
                    w.recv(b, 0, size, 0, 1);
                    assertEquals(i, ByteBuffer.wrap(b).getInt(0));
                }
            }
        });
        long credits = pool.equals("off") ? 262144 : 65536 + FLOOR;
        assertTrue(held.get() > 0 && held.get() <= credits, "kept " + held.get() + " bytes unreceived; the credits given were at most " + credits);
        assertTrue(envelopes.get() > 0 && envelopes.get() < count, "envelopes " + envelopes.get());
    }

    /**
     * MPI's progress rule: rank 0 starts 400 sends on tag 1 and then one on tag 2; rank 1 receives
     * tag 2 first. The tag-1 messages hold all of rank 0's credits unreceived, so the tag-2 one
     * must get through as an envelope (it waited for credits forever before).
     */
    @ParameterizedTest(name = "FERRY_EAGER_POOL={0}")
    @ValueSource(strings = {"off", "64k"})
    void aMessageBehindUnreceivedOnesStillMatches(String pool) {
        int count = 400, size = 1024;
        Ferry.runInProcess(2, BOUND, new FerryConfig().set("FERRY_EAGER_POOL", pool), f -> {
            Comm w = f.world();
            if (w.rank() == 0) {
                Request[] rs = new Request[count + 1];
                for (int i = 0; i < count; i++) {
                    byte[] b = new byte[size];
                    ByteBuffer.wrap(b).putInt(0, i);
                    rs[i] = w.isend(b, 0, size, 1, 1);
                }
                rs[count] = w.isend(new byte[] {42}, 0, 1, 1, 2);
                Request.waitAll(rs);
            } else {
                byte[] last = new byte[1];
                w.recv(last, 0, 1, 0, 2);
                assertEquals(42, last[0]);
                byte[] b = new byte[size];
                for (int i = 0; i < count; i++) {
                    w.recv(b, 0, size, 0, 1);
                    assertEquals(i, ByteBuffer.wrap(b).getInt(0));
                }
            }
        });
    }

    /** What a peer may leave unreceived without asking, with a pool: one largest eager message (at most 8 KiB and its header). */
    private static final long FLOOR = 8192 + 16;

    /**
     * Seven senders flood one receiver with a pool of 64 KiB: what it keeps unreceived stays within
     * the pool (and one eager message per sender); each sender's messages arrive whole and in order.
     */
    @Test
    void sevenSendersShareTheReceiversPool() {
        int ranks = 8, count = 200, size = 1024;
        AtomicLong held = new AtomicLong();
        Ferry.runInProcess(ranks, BOUND, new FerryConfig().set("FERRY_EAGER_POOL", "64k"), f -> {
            Comm w = f.world();
            if (w.rank() != 0) {
                Request[] rs = new Request[count];
                for (int i = 0; i < count; i++) {
                    byte[] b = new byte[size];
                    ByteBuffer.wrap(b).putInt(0, w.rank()).putInt(4, i);
                    rs[i] = w.isend(b, 0, size, 0, 1);
                }
                w.send(new byte[0], 0, 0, 0, 2);
                Request.waitAll(rs);
            } else {
                for (int r = 1; r < ranks; r++) {
                    w.recv(new byte[0], 0, 0, r, 2); // each sender's flood is before it
                }
                held.set(f.engine.stats().heldMax());
                int[] next = new int[ranks];
                byte[] b = new byte[size];
                for (int i = 0; i < (ranks - 1) * count; i++) {
                    Status st = w.recv(b, 0, size, Ferry.ANY_SOURCE, 1);
                    ByteBuffer bb = ByteBuffer.wrap(b);
                    assertEquals(st.source(), bb.getInt(0));
                    assertEquals(next[st.source()]++, bb.getInt(4), "order from rank " + st.source());
                }
            }
        });
        assertTrue(held.get() > 0 && held.get() <= 65536 + 7 * FLOOR, "kept " + held.get() + " bytes from 7 senders; the pool is 65536, and each has "
                + FLOOR + " at most without asking");
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
