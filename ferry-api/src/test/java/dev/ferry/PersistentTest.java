package dev.ferry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.*;

/** Persistent point-to-point and collectives (MPI-4), on ranks as threads of one JVM; caller and thread progress. */
class PersistentTest {
    static final Duration BOUND = Duration.ofSeconds(60);

    /** A ring exchange with one send and one receive request each, 20 rounds of new data; a synchronous one; ANY_SOURCE. */
    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void pointToPointRequestsRunManyRounds(boolean thread) {
        Ferry.runInProcess(3, BOUND, new FerryConfig().progressThread(thread), f -> {
            Comm w = f.world();
            int n = w.size(), me = w.rank();
            long[] out = new long[1000], in = new long[1000];
            PersistentRequest s = w.sendInit(out, 0, 1000, Datatype.LONG, (me + 1) % n, 4);
            PersistentRequest ss = w.ssendInit(out, 0, 10, Datatype.LONG, (me + 1) % n, 5);
            PersistentRequest r = w.recvInit(in, 0, 1000, Datatype.LONG, (me + n - 1) % n, 4);
            PersistentRequest any = w.recvInit(in, 0, 10, Datatype.LONG, Ferry.ANY_SOURCE, 5);
            assertFalse(s.isActive());
            for (int round = 0; round < 20; round++) {
                Arrays.fill(out, round * 10L + me);
                PersistentRequest.startAll(r, s);
                Status[] st = Request.waitAll(r, s);
                assertEquals((me + n - 1) % n, st[0].source());
                assertEquals(1000, st[0].count());
                for (long v : in) {
                    assertEquals(round * 10L + (me + n - 1) % n, v);
                }
                PersistentRequest.startAll(any, ss);
                Request.waitAll(any, ss);
                assertEquals(round * 10L + (me + n - 1) % n, in[9]);
            }
            for (PersistentRequest q : new PersistentRequest[] {s, ss, r, any}) {
                q.free();
            }
        });
    }

    /**
     * Every persistent collective, started three times with new data each round on 5 ranks, gives
     * what its blocking form gives; non-persistent collectives run between the rounds.
     */
    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void everyPersistentCollectiveGivesWhatItsBlockingFormGives(boolean thread) {
        Ferry.runInProcess(5, BOUND, new FerryConfig().progressThread(thread), f -> {
            Comm w = f.world();
            int p = w.size(), me = w.rank(), n = 6;
            int[] send = new int[n * p], got = new int[n * p], want = new int[n * p];
            int[] counts = new int[p], displs = new int[p], mineEach = new int[p]; // rank i's count i + 1; this rank's from each
            for (int i = 0; i < p; i++) {
                counts[i] = i + 1;
                displs[i] = i * n;
                mineEach[i] = me + 1;
            }
            Datatype t = Datatype.INT;
            PersistentRequest[] reqs = {
                    w.barrierInit(),
                    w.bcastInit(got, 0, n, t, 2),
                    w.reduceInit(send, 0, got, 0, n, t, Op.SUM, 1),
                    w.allreduceInit(send, 0, got, 0, n, t, Op.MAX),
                    w.reduceScatterBlockInit(send, 0, got, 0, 2, t, Op.SUM),
                    w.reduceScatterInit(send, 0, got, 0, counts, t, Op.SUM),
                    w.scanInit(send, 0, got, 0, n, t, Op.SUM),
                    w.exscanInit(send, 0, got, 0, n, t, Op.SUM),
                    w.gatherInit(send, 0, n, t, got, 0, n, t, 0),
                    w.gathervInit(send, 0, me + 1, t, got, 0, counts, displs, t, 3),
                    w.scatterInit(send, 0, n, t, got, 0, n, t, 4),
                    w.scattervInit(send, 0, counts, displs, t, got, 0, me + 1, t, 1),
                    w.allgatherInit(send, 0, n, t, got, 0, n, t),
                    w.allgathervInit(send, 0, me + 1, t, got, 0, counts, displs, t),
                    w.alltoallInit(send, 0, n / p + 1, t, got, 0, n / p + 1, t),
                    w.alltoallvInit(send, 0, counts, displs, t, got, 0, mineEach, displs, t),
            };
            for (int round = 0; round < 3; round++) {
                for (int k = 0; k < reqs.length; k++) {
                    for (int i = 0; i < send.length; i++) {
                        send[i] = (round + 1) * 1000 + me * 100 + k * 10 + i % 10;
                    }
                    Arrays.fill(got, -1);
                    if (k == 1 && me == 2) {
                        System.arraycopy(send, 0, got, 0, n); // the bcast's root sends from its receive buffer
                    }
                    int[] before = got.clone();
                    reqs[k].start();
                    reqs[k].await();
                    int[] mine = got.clone();
                    System.arraycopy(before, 0, got, 0, got.length);
                    blocking(w, k, send, got, counts, displs, mineEach, n);
                    System.arraycopy(got, 0, want, 0, got.length);
                    assertArrayEquals(want, mine, "collective " + k + ", round " + round + ", rank " + me);
                    w.allreduce(Ferry.IN_PLACE, 0, new int[1], 0, 1, t, Op.SUM); // another collective between rounds
                }
            }
            for (PersistentRequest q : reqs) {
                q.free();
            }
        });
    }

    /** The blocking form of request {@code k} of the test above, into {@code got}. */
    private static void blocking(Comm w, int k, int[] send, int[] got, int[] counts, int[] displs, int[] mineEach, int n) {
        int me = w.rank(), p = w.size();
        Datatype t = Datatype.INT;
        switch (k) {
            case 0 -> w.barrier();
            case 1 -> w.bcast(got, 0, n, t, 2);
            case 2 -> w.reduce(send, 0, got, 0, n, t, Op.SUM, 1);
            case 3 -> w.allreduce(send, 0, got, 0, n, t, Op.MAX);
            case 4 -> w.reduceScatterBlock(send, 0, got, 0, 2, t, Op.SUM);
            case 5 -> w.reduceScatter(send, 0, got, 0, counts, t, Op.SUM);
            case 6 -> w.scan(send, 0, got, 0, n, t, Op.SUM);
            case 7 -> w.exscan(send, 0, got, 0, n, t, Op.SUM);
            case 8 -> w.gather(send, 0, n, t, got, 0, n, t, 0);
            case 9 -> w.gatherv(send, 0, me + 1, t, got, 0, counts, displs, t, 3);
            case 10 -> w.scatter(send, 0, n, t, got, 0, n, t, 4);
            case 11 -> w.scatterv(send, 0, counts, displs, t, got, 0, me + 1, t, 1);
            case 12 -> w.allgather(send, 0, n, t, got, 0, n, t);
            case 13 -> w.allgatherv(send, 0, me + 1, t, got, 0, counts, displs, t);
            case 14 -> w.alltoall(send, 0, n / p + 1, t, got, 0, n / p + 1, t);
            case 15 -> w.alltoallv(send, 0, counts, displs, t, got, 0, mineEach, displs, t);
            default -> throw new IllegalArgumentException("no collective " + k);
        }
    }

    /** A round started while the last is in flight, or a request freed then, is refused; a freed one cannot start. */
    /** The long-count inits are the int ones widened: an allreduce, a gatherv and an alltoallv with long counts and displacements. */
    @Test
    void longCountInitsGiveWhatTheIntInitsGive() {
        Ferry.runInProcess(3, BOUND, f -> {
            Comm w = f.world();
            int me = w.rank(), p = w.size();
            long[] x = {me + 1}, sum = new long[1];
            long[] block = {me, me}, gathered = new long[2 * p];
            long[] ones = new long[p], twos = new long[p], at = new long[p];
            java.util.Arrays.fill(ones, 1);
            java.util.Arrays.fill(twos, 2);
            java.util.Arrays.setAll(at, i -> 2L * i);
            long[] out = new long[p], in = new long[p];
            java.util.Arrays.setAll(out, i -> 10L * me + i);
            long[] unit = new long[p], step = new long[p];
            java.util.Arrays.fill(unit, 1);
            java.util.Arrays.setAll(step, i -> i);
            PersistentRequest all = w.allreduceInit(x, 0L, sum, 0L, 1L, Datatype.LONG, Op.SUM);
            PersistentRequest gv = w.gathervInit(block, 0L, 2L, Datatype.LONG, gathered, 0L, twos, at, Datatype.LONG, 0);
            PersistentRequest a2a = w.alltoallvInit(out, 0L, unit, step, Datatype.LONG, in, 0L, unit, step, Datatype.LONG);
            for (int round = 0; round < 2; round++) {
                x[0] = me + 1 + round;
                PersistentRequest.startAll(all, gv, a2a);
                Request.waitAll(all, gv, a2a);
                assertEquals(p * (p + 1) / 2 + p * round, sum[0]);
                for (int r = 0; r < p; r++) {
                    assertEquals(10L * r + me, in[r]);
                    if (me == 0) {
                        assertEquals(r, gathered[2 * r + 1]);
                    }
                }
            }
            for (PersistentRequest r : new PersistentRequest[] {all, gv, a2a}) {
                r.free();
            }
        });
    }

    @Test
    void startingAnActiveRequestIsRefused() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            double[] x = {f.rank()}, y = new double[1];
            PersistentRequest sum = w.allreduceInit(x, 0, y, 0, 1, Datatype.DOUBLE, Op.SUM);
            assertTrue(sum.isDone()); // never started: inactive, a wait returns at once
            if (w.rank() == 0) {
                PersistentRequest r = w.recvInit(new int[1], 0, 1, Datatype.INT, 1, 0);
                r.start();
                FerryException e = assertThrows(FerryException.class, r::start);
                assertEquals(ErrorClass.REQUEST, e.errorClass());
                assertTrue(e.getMessage().contains("active"), e.getMessage());
                assertEquals(ErrorClass.REQUEST, assertThrows(FerryException.class, r::free).errorClass());
                w.barrier();
                r.await();
                r.free();
                assertEquals(ErrorClass.REQUEST, assertThrows(FerryException.class, r::start).errorClass());
            } else {
                w.barrier();
                w.send(new int[] {1}, 0, 1, 0, 0);
            }
            sum.start();
            assertEquals(1.0, sum.await() == null ? -1 : y[0]);
            sum.free();
        });
    }
}
