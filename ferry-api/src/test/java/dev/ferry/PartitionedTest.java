package dev.ferry;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.*;

/** MPI-4's partitioned communication, on ranks as threads of one JVM; caller and thread progress. */
class PartitionedTest {
    static final Duration BOUND = Duration.ofSeconds(60);

    private static FerryConfig config(boolean thread) {
        return new FerryConfig().progressThread(thread);
    }

    /** 16 partitions readied by 4 threads in a shuffled order, 5 rounds of one request pair, every element checked. */
    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void partitionsReadiedByThreadsInAnyOrderArriveWholeEveryRound(boolean thread) {
        int parts = 16, count = 1000;
        Ferry.runInProcess(2, BOUND, config(thread), f -> {
            Comm w = f.world();
            double[] buf = new double[parts * count];
            if (w.rank() == 0) {
                PartitionedRequest s = w.psendInit(buf, parts, count, Datatype.DOUBLE, 1, 3);
                ExecutorService pool = Executors.newFixedThreadPool(4);
                try {
                    for (int round = 0; round < 5; round++) {
                        s.start();
                        List<Integer> order = new ArrayList<>();
                        for (int p = 0; p < parts; p++) {
                            order.add(p);
                        }
                        Collections.shuffle(order, new java.util.Random(round));
                        List<Future<?>> done = new ArrayList<>();
                        int r = round;
                        for (int t = 0; t < 4; t++) {
                            List<Integer> mine = order.subList(t * parts / 4, (t + 1) * parts / 4);
                            done.add(pool.submit(() -> {
                                for (int p : mine) {
                                    for (int i = 0; i < count; i++) {
                                        buf[p * count + i] = r * 1e6 + p * count + i;
                                    }
                                    s.pready(p);
                                }
                            }));
                        }
                        for (Future<?> d : done) {
                            d.get();
                        }
                        s.await();
                        assertFalse(s.isActive());
                    }
                    s.free();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                } finally {
                    pool.shutdown();
                }
            } else {
                PartitionedRequest r = w.precvInit(buf, parts, count, Datatype.DOUBLE, 0, 3);
                for (int round = 0; round < 5; round++) {
                    r.start();
                    Status st = r.await();
                    assertEquals(parts * count * 8L, st.bytes());
                    assertEquals(0, st.source());
                    assertEquals(3, st.tag());
                    for (int p = 0; p < parts; p++) {
                        assertTrue(r.parrived(p));
                    }
                    for (int i = 0; i < parts * count; i++) {
                        assertEquals(round * 1e6 + i, buf[i], "round " + round + ", element " + i);
                    }
                }
                r.free();
            }
        });
    }

    /**
     * The first partition arrives before the last is readied: the sender readies partition 0, and
     * readies the others only when the receiver says (by a message of its own) that it has it.
     */
    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void aReadiedPartitionMovesAtOnce(boolean thread) {
        Ferry.runInProcess(2, BOUND, config(thread), f -> {
            Comm w = f.world();
            int[] buf = new int[8 * 4096];
            if (w.rank() == 0) {
                PartitionedRequest s = w.psendInit(buf, 8, 4096, Datatype.INT, 1, 0);
                s.start();
                java.util.Arrays.fill(buf, 0, 4096, 42);
                s.pready(0);
                w.recv(new int[1], 0, 1, 1, 99); // partition 0 arrived there
                s.preadyRange(1, 7);
                s.await();
            } else {
                PartitionedRequest r = w.precvInit(buf, 8, 4096, Datatype.INT, 0, 0);
                r.start();
                long deadline = System.nanoTime() + BOUND.toNanos() / 2;
                while (!r.parrived(0)) {
                    assertTrue(System.nanoTime() < deadline, "partition 0 did not arrive while the others were not readied");
                    Thread.onSpinWait();
                }
                assertFalse(r.parrived(7));
                assertFalse(r.isDone());
                assertEquals(42, buf[4095]);
                w.send(new int[1], 0, 1, 0, 99);
                r.await();
            }
        });
    }

    /** Sender and receiver cut the message differently: 8 parts sent, received as 4 and as 16. */
    @Test
    void senderAndReceiverMayCutTheMessageDifferently() {
        Ferry.runInProcess(3, BOUND, f -> {
            Comm w = f.world();
            long[] buf = new long[8000];
            if (w.rank() == 0) {
                for (int i = 0; i < buf.length; i++) {
                    buf[i] = i * 7L;
                }
                PartitionedRequest a = w.psendInit(buf, 8, 1000, Datatype.LONG, 1, 5);
                PartitionedRequest b = w.psendInit(buf, 8, 1000, Datatype.LONG, 2, 5);
                PersistentRequest.startAll(a, b);
                a.preadyList(7, 3, 5, 1);
                a.preadyList(0, 2, 4, 6);
                b.preadyRange(0, 7);
                Request.waitAll(a, b);
            } else {
                int parts = w.rank() == 1 ? 4 : 16;
                PartitionedRequest r = w.precvInit(buf, parts, 8000 / parts, Datatype.LONG, 0, 5);
                r.start();
                r.await();
                for (int i = 0; i < buf.length; i++) {
                    assertEquals(i * 7L, buf[i]);
                }
                for (int p = 0; p < parts; p++) {
                    assertTrue(r.parrived(p));
                }
            }
        });
    }

    /**
     * Partitioned inits match in the order made, by source and tag; a derived datatype's parts
     * scatter into place; no receive of point-to-point, not even ANY_TAG, takes a partition.
     */
    @Test
    void initsMatchInOrderAndStayApartFromPointToPoint() {
        Datatype pairs = Datatype.vector(2, 1, 2, Datatype.INT); // ints 0 and 2 of every 3
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            if (w.rank() == 0) {
                int[] one = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
                int[] two = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
                PartitionedRequest a = w.psendInit(one, 2, 4, Datatype.INT, 1, 9); // 8 ints: the receiver's 4 pairs
                PartitionedRequest b = w.psendInit(two, 2, 6, Datatype.INT, 1, 9);
                PersistentRequest.startAll(a, b);
                b.preadyRange(0, 1);
                a.preadyRange(0, 1);
                Request.waitAll(a, b);
                w.send(new int[] {77}, 0, 1, 1, 9);
            } else {
                int[] first = new int[12], second = new int[12];
                PartitionedRequest a = w.precvInit(first, 2, 2, pairs, 0, 9);
                PartitionedRequest b = w.precvInit(second, 2, 6, Datatype.INT, 0, 9);
                int[] p2p = new int[1];
                Status s = w.recv(p2p, 0, 1, Ferry.ANY_SOURCE, Ferry.ANY_TAG); // the only point-to-point message
                assertEquals(77, p2p[0]);
                assertEquals(9, s.tag());
                PersistentRequest.startAll(a, b);
                Request.waitAll(a, b);
                assertArrayEquals(new int[] {1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1}, first);
                assertArrayEquals(new int[] {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, second);
            }
        });
    }

    /** Misuse gets MPI's answer, naming the argument, and changes nothing. */
    @Test
    void misuseIsRefusedNamingTheArgument() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            int[] buf = new int[64];
            if (w.rank() == 0) {
                assertEquals(ErrorClass.TAG, assertThrows(FerryException.class, () -> w.psendInit(buf, 4, 16, Datatype.INT, 1, 1 << 30)).errorClass());
                assertEquals(ErrorClass.ARG, assertThrows(FerryException.class, () -> w.psendInit(buf, 0, 16, Datatype.INT, 1, 0)).errorClass());
                assertEquals(ErrorClass.COUNT, assertThrows(FerryException.class, () -> w.psendInit(buf, 4, 17, Datatype.INT, 1, 0)).errorClass());
                assertEquals(ErrorClass.RANK, assertThrows(FerryException.class, () -> w.psendInit(buf, 4, 16, Datatype.INT, 2, 0)).errorClass());
                PartitionedRequest s = w.psendInit(buf, 4, 16, Datatype.INT, 1, 0);
                assertTrue(s.isDone()); // inactive: a wait returns at once
                FerryException e = assertThrows(FerryException.class, () -> s.pready(0));
                assertEquals(ErrorClass.REQUEST, e.errorClass());
                s.start();
                assertEquals(ErrorClass.REQUEST, assertThrows(FerryException.class, s::start).errorClass());
                assertEquals(ErrorClass.ARG, assertThrows(FerryException.class, () -> s.pready(4)).errorClass());
                assertEquals(ErrorClass.ARG, assertThrows(FerryException.class, () -> s.preadyRange(2, 4)).errorClass());
                assertEquals(ErrorClass.ARG, assertThrows(FerryException.class, () -> s.preadyList(1, -1)).errorClass());
                assertEquals(ErrorClass.REQUEST, assertThrows(FerryException.class, () -> s.parrived(0)).errorClass());
                s.pready(2);
                e = assertThrows(FerryException.class, () -> s.pready(2));
                assertEquals(ErrorClass.ARG, e.errorClass());
                assertTrue(e.getMessage().contains("partition 2"), e.getMessage());
                assertEquals(ErrorClass.REQUEST, assertThrows(FerryException.class, s::free).errorClass());
                s.preadyList(0, 1, 3);
                s.await();
                s.free();
                assertEquals(ErrorClass.REQUEST, assertThrows(FerryException.class, s::start).errorClass());
                PartitionedRequest big = w.psendInit(buf, 2, 32, Datatype.INT, 1, 1); // 256 bytes against the receiver's 128
                big.start();
                big.preadyRange(0, 1);
                big.await();
            } else {
                assertEquals(ErrorClass.RANK, assertThrows(FerryException.class, () -> w.precvInit(buf, 4, 16, Datatype.INT, Ferry.ANY_SOURCE, 0)).errorClass());
                PartitionedRequest r = w.precvInit(buf, 4, 16, Datatype.INT, 0, 0);
                assertEquals(ErrorClass.REQUEST, assertThrows(FerryException.class, () -> r.parrived(0)).errorClass());
                r.start();
                assertEquals(ErrorClass.REQUEST, assertThrows(FerryException.class, () -> r.pready(0)).errorClass());
                r.await();
                PartitionedRequest small = w.precvInit(buf, 4, 8, Datatype.INT, 0, 1);
                small.start();
                FerryException e = assertThrows(FerryException.class, small::await);
                assertEquals(ErrorClass.COUNT, e.errorClass());
                assertTrue(e.getMessage().contains("256 bytes") || e.getMessage().contains("128 bytes"), e.getMessage());
            }
        });
    }

    @Test
    void toAndFromProcNullCompleteWithoutData() {
        Ferry.runInProcess(1, BOUND, f -> {
            Comm w = f.world();
            PartitionedRequest s = w.psendInit(new int[8], 2, 4, Datatype.INT, Ferry.PROC_NULL, 0);
            PartitionedRequest r = w.precvInit(new int[8], 2, 4, Datatype.INT, Ferry.PROC_NULL, 0);
            PersistentRequest.startAll(s, r);
            s.preadyRange(0, 1);
            assertTrue(r.parrived(1));
            assertEquals(Ferry.PROC_NULL, r.await().source());
            s.await();
        });
    }
}
