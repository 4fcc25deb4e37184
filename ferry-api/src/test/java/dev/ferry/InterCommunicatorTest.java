package dev.ferry;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Arrays;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Intercommunicators (MPI_Intercomm_create, merge, point-to-point to the remote group and the
 * collectives between groups) on five in-process ranks split into evens (0, 2, 4) and odds (1, 3),
 * with caller and thread progress.
 */
class InterCommunicatorTest {
    static final Duration BOUND = Duration.ofSeconds(60);

    private static FerryConfig config(boolean thread) {
        return new FerryConfig().progressThread(thread);
    }

    /** The intercommunicator between evens and odds of {@code world}, made from their halves. */
    private static Comm evensAndOdds(Comm world) {
        boolean even = world.rank() % 2 == 0;
        Comm half = world.split(even ? 0 : 1, world.rank());
        return half.createIntercomm(0, world, even ? 1 : 0, 99);
    }

    private static int[] worldRanks(Group g) {
        return g.members.clone();
    }

    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void pointToPointAddressesTheRemoteGroup(boolean thread) {
        Ferry.runInProcess(5, BOUND, config(thread), f -> {
            Comm w = f.world();
            Comm inter = evensAndOdds(w);
            boolean even = w.rank() % 2 == 0;
            assertTrue(inter.isInter());
            assertFalse(w.isInter());
            assertEquals(even ? 3 : 2, inter.size());
            assertEquals(even ? 2 : 3, inter.remoteSize());
            assertEquals(w.rank() / 2, inter.rank());
            int[] remote = even ? new int[] {1, 3} : new int[] {0, 2, 4};
            assertArrayEquals(remote, worldRanks(inter.remoteGroup()));
            assertArrayEquals(even ? new int[] {0, 2, 4} : new int[] {1, 3}, worldRanks(inter.group()));
            // everyone sends its world rank to every remote rank; receives name remote ranks
            Request[] sends = new Request[inter.remoteSize()];
            for (int j = 0; j < inter.remoteSize(); j++) {
                sends[j] = inter.isend(new int[] {w.rank()}, 0, 1, j, 7);
            }
            int[] seen = new int[inter.remoteSize()];
            for (int k = 0; k < inter.remoteSize(); k++) {
                int[] got = new int[1];
                Status s = inter.recv(got, 0, 1, Ferry.ANY_SOURCE, 7);
                assertEquals(remote[s.source()], got[0], "the status names the sender's rank in the remote group");
                seen[s.source()]++;
            }
            assertArrayEquals(IntStream.range(0, seen.length).map(i -> 1).toArray(), seen);
            Request.waitAll(sends);
            FerryException bad = assertThrows(FerryException.class, () -> inter.send(new int[1], 0, 1, inter.remoteSize(), 7));
            assertEquals(ErrorClass.RANK, bad.errorClass());
            assertTrue(bad.getMessage().contains("remote group's ranks"), bad.getMessage());
            inter.free();
        });
    }

    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void collectivesMoveDataBetweenTheGroups(boolean thread) {
        Ferry.runInProcess(5, BOUND, config(thread), f -> {
            Comm w = f.world();
            Comm inter = evensAndOdds(w);
            boolean even = w.rank() % 2 == 0;
            int me = inter.rank(), q = inter.remoteSize();
            int[] remote = worldRanks(inter.remoteGroup());
            inter.barrier();

            // bcast from the evens' rank 1 (world 2) to the odds, then from the odds' rank 0 (world 1) to the evens
            int[] v = {even && me == 1 ? 42 : -1, 0};
            inter.bcast(v, 0, 2, Datatype.INT, even ? (me == 1 ? Ferry.ROOT : Ferry.PROC_NULL) : 1);
            assertEquals(even ? (me == 1 ? 42 : -1) : 42, v[0]);
            int[] u = {!even && me == 0 ? 17 : -1};
            inter.bcast(u, 0, 1, Datatype.INT, even ? 0 : (me == 0 ? Ferry.ROOT : Ferry.PROC_NULL));
            assertEquals(even || me == 0 ? 17 : -1, u[0]);

            // reduce: the odds' rank 1 (world 3) gets the evens' sum 0 + 2 + 4
            long[] sum = {-1};
            inter.reduce(new long[] {w.rank()}, 0, sum, 0, 1, Datatype.LONG, Op.SUM,
                    even ? 1 : (me == 1 ? Ferry.ROOT : Ferry.PROC_NULL));
            assertEquals(!even && me == 1 ? 6 : -1, sum[0]);

            // allreduce: each group gets the other's sum
            double[] all = new double[2];
            inter.allreduce(new double[] {w.rank(), 1}, 0, all, 0, 2, Datatype.DOUBLE, Op.SUM);
            assertArrayEquals(even ? new double[] {4, 2} : new double[] {6, 3}, all);

            // gather to the evens' rank 0 from the odds, in their rank order; scatter back
            int[] gathered = new int[q];
            inter.gather(new int[] {w.rank() * 10}, 0, 1, Datatype.INT, gathered, 0, 1, Datatype.INT,
                    even ? (me == 0 ? Ferry.ROOT : Ferry.PROC_NULL) : 0);
            if (even && me == 0) {
                assertArrayEquals(new int[] {10, 30}, gathered);
            }
            int[] piece = {-1};
            inter.scatter(new int[] {100, 300}, 0, 1, Datatype.INT, piece, 0, 1, Datatype.INT,
                    even ? (me == 0 ? Ferry.ROOT : Ferry.PROC_NULL) : 0);
            assertEquals(even ? -1 : (w.rank() == 1 ? 100 : 300), piece[0]);

            // allgather: each gets the other group's blocks, two ints each, in rank order
            int[] blocks = new int[2 * q];
            inter.allgather(new int[] {w.rank(), -w.rank()}, 0, 2, Datatype.INT, blocks, 0, 2, Datatype.INT);
            int[] expect = new int[2 * q];
            for (int j = 0; j < q; j++) {
                expect[2 * j] = remote[j];
                expect[2 * j + 1] = -remote[j];
            }
            assertArrayEquals(expect, blocks);

            // alltoall: block j to remote rank j says "from me to j"
            int[] out = new int[q], in = new int[q];
            for (int j = 0; j < q; j++) {
                out[j] = w.rank() * 100 + j;
            }
            inter.alltoall(out, 0, 1, Datatype.INT, in, 0, 1, Datatype.INT);
            for (int i = 0; i < q; i++) {
                assertEquals(remote[i] * 100 + me, in[i], "block from remote rank " + i);
            }
            assertTrue(inter.lastCollectiveAlgorithm().startsWith("inter"), inter.lastCollectiveAlgorithm());

            // the v forms: remote rank j's block is j + 1 ints, the blocks a gap of one apart
            int[] counts = new int[q], displs = new int[q];
            int span = 0;
            for (int j = 0; j < q; j++) {
                counts[j] = j + 1;
                displs[j] = span;
                span += j + 2;
            }
            int[] myBlock = new int[me + 1];
            Arrays.fill(myBlock, w.rank());
            int[] everyBlock = new int[span];
            Arrays.fill(everyBlock, -1);
            inter.allgatherv(myBlock, 0, me + 1, Datatype.INT, everyBlock, 0, counts, displs, Datatype.INT);
            int[] atRoot = new int[span];
            Arrays.fill(atRoot, -1);
            inter.gatherv(myBlock, 0, me + 1, Datatype.INT, atRoot, 0, counts, displs, Datatype.INT,
                    even ? (me == 0 ? Ferry.ROOT : Ferry.PROC_NULL) : 0);
            for (int j = 0; j < q; j++) {
                for (int i = 0; i < j + 1; i++) {
                    assertEquals(remote[j], everyBlock[displs[j] + i]);
                    assertEquals(even && me == 0 ? remote[j] : -1, atRoot[displs[j] + i]);
                }
                assertEquals(-1, everyBlock[displs[j] + j + 1], "the gap stays");
            }
            int[] mine = new int[me + 1];
            int[] fromRoot = new int[span];
            for (int j = 0; j < q; j++) {
                Arrays.fill(fromRoot, displs[j], displs[j] + j + 1, 70 + j);
            }
            inter.scatterv(fromRoot, 0, counts, displs, Datatype.INT, mine, 0, me + 1, Datatype.INT,
                    even ? (me == 0 ? Ferry.ROOT : Ferry.PROC_NULL) : 0);
            int[] expectMine = new int[me + 1];
            Arrays.fill(expectMine, even ? 0 : 70 + me);
            assertArrayEquals(expectMine, mine);
            // alltoallv: local rank a sends remote rank b a block of a + b + 1 ints saying a's job rank and b
            int[] sc = new int[q], sd = new int[q], rc = new int[q], rd = new int[q];
            int sTotal = 0, rTotal = 0;
            for (int j = 0; j < q; j++) {
                sc[j] = rc[j] = me + j + 1;
                sd[j] = sTotal;
                rd[j] = rTotal;
                sTotal += sc[j];
                rTotal += rc[j];
            }
            int[] vOut = new int[sTotal], vIn = new int[rTotal];
            for (int j = 0; j < q; j++) {
                Arrays.fill(vOut, sd[j], sd[j] + sc[j], w.rank() * 100 + j);
            }
            inter.alltoallv(vOut, 0, sc, sd, Datatype.INT, vIn, 0, rc, rd, Datatype.INT);
            for (int j = 0; j < q; j++) {
                for (int i = 0; i < rc[j]; i++) {
                    assertEquals(remote[j] * 100 + me, vIn[rd[j] + i], "from remote rank " + j);
                }
            }

            // the long-count forms take the same ways between the groups
            double[] allLong = new double[2];
            inter.allreduce(new double[] {w.rank(), 1}, 0L, allLong, 0L, 2L, Datatype.DOUBLE, Op.SUM);
            assertArrayEquals(all, allLong);
            int[] vInLong = new int[rTotal];
            inter.alltoallv(vOut, 0L, CollectiveCalls.widen(sc), CollectiveCalls.widen(sd), Datatype.INT,
                    vInLong, 0L, CollectiveCalls.widen(rc), CollectiveCalls.widen(rd), Datatype.INT);
            assertArrayEquals(vIn, vInLong);
            int[] everyBlockLong = new int[span];
            Arrays.fill(everyBlockLong, -1);
            inter.allgatherv(myBlock, 0L, me + 1L, Datatype.INT, everyBlockLong, 0L, CollectiveCalls.widen(counts),
                    CollectiveCalls.widen(displs), Datatype.INT);
            assertArrayEquals(everyBlock, everyBlockLong);

            FerryException nb = assertThrows(FerryException.class, inter::ibarrier);
            assertEquals(ErrorClass.COMM, nb.errorClass());
            assertTrue(nb.getMessage().contains("blocking barrier"), nb.getMessage());
            FerryException noSplit = assertThrows(FerryException.class, () -> inter.split(0, 0));
            assertEquals(ErrorClass.COMM, noSplit.errorClass());
            FerryException noWindow = assertThrows(FerryException.class, () -> Window.allocate(inter, 64, 1));
            assertEquals(ErrorClass.COMM, noWindow.errorClass());
        });
    }

    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void mergeOrdersTheGroupsByHighAndThenByLeader(boolean thread) {
        Ferry.runInProcess(5, BOUND, config(thread), f -> {
            Comm w = f.world();
            Comm inter = evensAndOdds(w);
            boolean even = w.rank() % 2 == 0;
            Comm evensFirst = inter.merge(!even);
            assertFalse(evensFirst.isInter());
            assertArrayEquals(new int[] {0, 2, 4, 1, 3}, worldRanks(evensFirst.group()));
            Comm oddsFirst = inter.merge(even);
            assertArrayEquals(new int[] {1, 3, 0, 2, 4}, worldRanks(oddsFirst.group()));
            Comm byLeader = inter.merge(true); // both high: the group whose leader has the lower job rank first
            assertArrayEquals(new int[] {0, 2, 4, 1, 3}, worldRanks(byLeader.group()));
            int[] total = new int[1];
            oddsFirst.allreduce(new int[] {w.rank()}, 0, total, 0, 1, Datatype.INT, Op.SUM);
            assertEquals(10, total[0]);
            FerryException notInter = assertThrows(FerryException.class, () -> w.merge(false));
            assertEquals(ErrorClass.COMM, notInter.errorClass());
        });
    }

    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void aDupHasItsOwnContextAndFreedIdsComeBack(boolean thread) {
        Ferry.runInProcess(2, BOUND, config(thread), f -> {
            Comm w = f.world();
            Comm self = w.split(w.rank(), 0); // each rank its own group
            Comm inter = self.createIntercomm(0, w, 1 - w.rank(), 5);
            Comm twin = inter.dup();
            assertTrue(twin.isInter());
            assertEquals(1, twin.remoteSize());
            inter.send(new int[] {1}, 0, 1, 0, 3);
            twin.send(new int[] {2}, 0, 1, 0, 3);
            int[] got = new int[1];
            twin.recv(got, 0, 1, 0, 3); // the dup's message, though the other came first
            assertEquals(2, got[0]);
            inter.recv(got, 0, 1, 0, 3);
            assertEquals(1, got[0]);
            twin.free();
            inter.free();
            // each intercommunicator takes two of 4096 ids: were they not given back, this would run out
            for (int i = 0; i < 2100; i++) {
                Comm c = self.createIntercomm(0, w, 1 - w.rank(), 6);
                c.free();
            }
        });
    }

    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void groupsThatOverlapAndBadLeadersAreRefusedAtEveryMember(boolean thread) {
        Ferry.runInProcess(4, BOUND, config(thread), f -> {
            Comm w = f.world();
            boolean low = w.rank() < 2;
            // a remote leader inside the local group: refused at every member, without a word to anyone else
            FerryException same = assertThrows(FerryException.class, () -> w.createIntercomm(0, w, 1, 4));
            assertEquals(ErrorClass.COMM, same.errorClass());
            assertTrue(same.getMessage().contains("is in the local group"), same.getMessage());
            // halves {0, 1} and {2, 3} whose leaders both name a rank outside the world
            Comm half = w.split(low ? 0 : 1, w.rank());
            FerryException e = assertThrows(FerryException.class, () -> half.createIntercomm(0, w, 9, 4));
            assertEquals(ErrorClass.RANK, e.errorClass());
            assertTrue(e.getMessage().contains("remoteLeader: 9"), e.getMessage());
            FerryException leader = assertThrows(FerryException.class, () -> half.createIntercomm(2, w, 0, 4));
            assertEquals(ErrorClass.RANK, leader.errorClass());
            // and the halves still make a working one afterwards
            Comm inter = half.createIntercomm(0, w, low ? 2 : 0, 4);
            int[] sum = new int[1];
            inter.allreduce(new int[] {w.rank()}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
            assertEquals(low ? 5 : 1, sum[0]);
        });
    }
}
