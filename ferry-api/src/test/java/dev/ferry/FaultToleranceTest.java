package dev.ferry;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * ULFM on in-process jobs, with a progress thread and without: revoke, agree, shrink,
 * getFailed and ackFailed, with ranks that die ({@link Engine#crash}: as a killed process leaves)
 * before the calls and in the middle of them (a hook that holds back a dying rank's messages
 * from a chosen step on).
 */
class FaultToleranceTest {
    static final Duration BOUND = Duration.ofSeconds(60);

    private static FerryConfig config(boolean thread) {
        return new FerryConfig().progressThread(thread);
    }

    /** Leaves as a killed process would. */
    private static void die(Ferry f) {
        f.engine.crash();
    }

    /**
     * After a collective that every rank has entered: each rank of {@code dying} waits until every
     * other rank has left it too, so that its death, right after, fails nobody's collective (a
     * barrier may end at one rank while another still waits to hear it has ended, and a death
     * heard meanwhile fails it there, as ULFM allows).
     */
    private static void allPast(Comm w, int... dying) {
        int r = w.rank();
        for (int d : dying) {
            if (d != r) {
                w.send(new byte[0], 0, 0, d, PAST);
            }
        }
        if (Arrays.stream(dying).anyMatch(d -> d == r)) {
            for (int j = 0; j < w.size(); j++) {
                if (j != r) {
                    w.recv(new byte[0], 0, 0, j, PAST);
                }
            }
        }
    }

    private static final int PAST = 4242;

    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void agreeAndsTheFlagsOfEveryMember(boolean thread) {
        Ferry.runInProcess(5, BOUND, config(thread), f -> {
            Comm w = f.world();
            int r = w.rank();
            assertEquals(0b1010, w.agree(r == 3 ? 0b1010 : 0b1110)); // the AND of every member's
            assertEquals(-1, w.agree(-1));
            for (int i = 0; i < 20; i++) { // one after another, each the same everywhere
                assertEquals(i & 0b110, w.agree(r == i % 5 ? i & 0b110 : i | 0b110));
            }
            int[] flag = {r + 1 == w.size() ? 1 : 3};
            Request q = w.iagree(flag);
            q.await();
            assertEquals(1, flag[0]);
            assertEquals(0, w.getFailed().size());
        });
    }

    /** On 2 to 16 ranks: two die (one on 2), the survivors agree alike, shrink, and the shrunk communicator works. */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8, 16})
    void agreeAndShrinkFrom2To16Ranks(int n) {
        int[] dead = n == 2 ? new int[] {1} : new int[] {1, n - 2};
        Ferry.runInProcess(n, BOUND, config(n % 4 == 0), f -> {
            Comm w = f.world();
            int r = w.rank();
            assertEquals(1, w.agree(1));
            allPast(w, dead);
            if (Arrays.stream(dead).anyMatch(d -> d == r)) {
                die(f);
                return;
            }
            int[] flag = {r == 0 ? 0b01 : 0b11};
            try {
                w.iagree(flag).await();
            } catch (FerryException e) {
                assertEquals(ErrorClass.PROC_FAILED, e.errorClass(), e.getMessage());
            }
            assertEquals(0b01, flag[0]);
            w.ackFailed(Integer.MAX_VALUE);
            Comm s = w.shrink();
            while (s.size() > n - dead.length) { // a death this rank's agreement did not see yet: once more
                s.ackFailed(Integer.MAX_VALUE);
                Comm t = s.shrink();
                s.free();
                s = t;
            }
            assertEquals(n - dead.length, s.size());
            int[] sum = new int[1];
            s.allreduce(new int[] {r}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
            assertEquals(n * (n - 1) / 2 - Arrays.stream(dead).sum(), sum[0]);
            s.free();
        });
    }

    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void revokeFailsPendingAndLaterOperationsEverywhereButAgreementStillWorks(boolean thread) {
        Ferry.runInProcess(4, BOUND, config(thread), f -> {
            Comm c = f.world().dup();
            int r = c.rank();
            Window win = Window.allocate(c, 8, 8); // a window is an object of its own: revoking c leaves it working (as ULFM has it)
            Request pending = c.irecv(new int[1], 0, 1, Ferry.ANY_SOURCE, 7); // nobody sends it
            f.world().barrier();
            if (r == 2) {
                c.revoke();
            }
            FerryException e = assertThrows(FerryException.class, pending::await);
            assertEquals(ErrorClass.REVOKED, e.errorClass(), e.getMessage());
            assertTrue(c.isRevoked());
            assertEquals(ErrorClass.REVOKED, assertThrows(FerryException.class, () -> c.send(new int[1], 0, 1, (r + 1) % 4, 0)).errorClass());
            assertEquals(ErrorClass.REVOKED, assertThrows(FerryException.class, c::barrier).errorClass());
            assertEquals(ErrorClass.REVOKED, assertThrows(FerryException.class, c::dup).errorClass());
            assertEquals(0, c.agree(r == 0 ? 0 : 1)); // agreement works on a revoked communicator
            try (Comm s = c.shrink()) { // and so does shrink: nobody failed, so all are in it
                assertEquals(4, s.size());
                assertEquals(r, s.rank());
                assertFalse(s.isRevoked());
                int[] sum = new int[1];
                s.allreduce(new int[] {r}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
                assertEquals(6, sum[0]);
            }
            win.fence();
            win.put(new long[] {r}, 0, 1, Datatype.LONG, (r + 1) % 4, 0);
            win.fence();
            long[] got = new long[1];
            win.get(got, 0, 1, Datatype.LONG, r, 0);
            win.fence();
            assertEquals((r + 3) % 4, got[0], "the window of the revoked communicator still carries puts");
            win.free();
            c.free();
            f.world().barrier(); // the world was never revoked
        });
    }

    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void survivorsOfADeadRankAgreeAcknowledgeAndShrink(boolean thread) {
        Ferry.runInProcess(5, BOUND, config(thread), f -> {
            Comm w = f.world();
            int r = w.rank();
            w.barrier();
            allPast(w, 2);
            if (r == 2) {
                die(f);
                return;
            }
            // an unacknowledged failure: agree raises PROC_FAILED at every survivor, flags still agreed
            int[] flag = {r == 4 ? 0b01 : 0b11};
            Request a = w.iagree(flag);
            FerryException e = assertThrows(FerryException.class, a::await);
            assertEquals(ErrorClass.PROC_FAILED, e.errorClass());
            assertTrue(e.getMessage().contains("rank 2"), e.getMessage());
            assertEquals(0b01, flag[0]);
            // a receive from any rank is PENDING until the failure is acknowledged
            assertEquals(ErrorClass.PROC_FAILED_PENDING, assertThrows(FerryException.class,
                    () -> w.irecv(new int[1], 0, 1, Ferry.ANY_SOURCE, 9).await()).errorClass());
            assertEquals(ErrorClass.PROC_FAILED, assertThrows(FerryException.class,
                    () -> w.recv(new int[1], 0, 1, Ferry.ANY_SOURCE, 9)).errorClass(), "a blocking one says PROC_FAILED");
            Group failed = w.getFailed();
            assertEquals(1, failed.size());
            assertArrayEquals(new int[] {2}, failed.translateRanks(new int[] {0}, w.group()));
            assertEquals(1, w.ackFailed(Integer.MAX_VALUE));
            assertEquals(1, w.ackFailed(0));
            assertEquals(0b11, w.agree(r == 4 ? 0b11 : 0b111), "acknowledged by all: no error");
            Request any = w.irecv(new int[1], 0, 1, Ferry.ANY_SOURCE, 9); // works again
            Comm s = w.shrink();
            assertEquals(4, s.size());
            assertEquals(r < 2 ? r : r - 1, s.rank());
            int[] sum = new int[1];
            s.allreduce(new int[] {r}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
            assertEquals(0 + 1 + 3 + 4, sum[0]);
            w.send(new int[] {r}, 0, 1, Datatype.INT, s.group().translateRanks(new int[] {(s.rank() + 1) % 4}, w.group())[0], 9);
            any.await();
            s.free();
        });
    }

    /**
     * A second rank dies in the middle of an agreement (rank 5 died before it), its messages of one
     * step reaching rank 3 only: a member that never contributes (CONTRIBUTE), the coordinator
     * after proposing to rank 3 alone (PROPOSE: the next coordinator must adopt that proposal), or
     * after committing to rank 3 alone (COMMIT: rank 3 returned with it, so everyone must). The
     * victim's flags (0b01, the others' 0b11) tell whether its contribution counted: the
     * survivors all decide the same, and all raise PROC_FAILED for rank 5 alike.
     */
    @ParameterizedTest(name = "dies at step {0}")
    @ValueSource(ints = {FaultTolerance.CONTRIBUTE, FaultTolerance.PROPOSE, FaultTolerance.COMMIT})
    void aRankThatDiesMidwayLeavesOneDecision(int step) {
        int victim = step == FaultTolerance.CONTRIBUTE ? 1 : 0; // rank 0 coordinates
        int expected = step == FaultTolerance.CONTRIBUTE ? 0b11 : 0b01;
        int[][] decided = new int[6][];
        boolean[] raised = new boolean[6];
        Ferry.runInProcess(6, BOUND, config(false), f -> {
            Comm w = f.world();
            int r = w.rank();
            AtomicBoolean dying = new AtomicBoolean();
            if (r == victim) {
                f.messaging.faults.sendHook = (s, to) -> {
                    if (s == step) { // this step reaches rank 3 alone; nothing after it goes
                        dying.set(true);
                        return to != 3;
                    }
                    return dying.get();
                };
            }
            w.barrier();
            allPast(w, 5);
            if (r == 5) {
                die(f); // the first failure
                return;
            }
            int[] flag = {r == victim ? 0b01 : 0b11};
            Request a = w.iagree(flag);
            if (r == victim) {
                long end = System.nanoTime() + BOUND.toNanos();
                while (!dying.get() && !a.test()) {
                    assertTrue(System.nanoTime() < end, "no end");
                    Thread.onSpinWait();
                }
                assertTrue(dying.get(), "the hook fired");
                die(f);
                return;
            }
            try {
                a.await();
            } catch (FerryException e) {
                assertEquals(ErrorClass.PROC_FAILED, e.errorClass(), e.getMessage());
                raised[r] = true;
            }
            decided[r] = flag.clone();
            w.ackFailed(Integer.MAX_VALUE);
            Comm s = w.shrink();
            while (s.size() > 4) { // the victim died after the decision counted it: shrink once more
                s.ackFailed(Integer.MAX_VALUE);
                Comm t = s.shrink();
                s.free();
                s = t;
            }
            assertEquals(4, s.size(), "survivors");
            s.free();
        });
        for (int r = 0; r < 5; r++) {
            if (r != victim) {
                assertEquals(expected, decided[r][0], "rank " + r);
                assertEquals(raised[2], raised[r], "PROC_FAILED raised alike at every survivor");
            }
        }
    }

    /**
     * A rank that closes while others wait for its messages (as one that throws out of its
     * {@code try} does) tells them at once, with the first failure it had seen: rank 3 dies, rank
     * 0 fails on that and leaves, and ranks 1 and 2, waiting for rank 0, hear that it left and
     * why. Their goodbyes at close still run.
     */
    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void aRankThatLeavesFailsTheReceivesWaitingForItNamingTheFirstFailure(boolean thread) {
        Ferry.runInProcess(4, BOUND, config(thread), f -> {
            Comm w = f.world();
            int r = w.rank();
            if (r != 0) {
                int[] v = {r};
                w.sendrecvReplace(v, 0, 1, Datatype.INT, 0, 1, 0, 1); // a connection with rank 0 each
            } else {
                for (int k = 1; k < 4; k++) {
                    int[] v = {0};
                    w.sendrecvReplace(v, 0, 1, Datatype.INT, k, 1, k, 1);
                }
            }
            w.barrier();
            allPast(w, 3);
            if (r == 3) {
                die(f);
                return;
            }
            if (r == 0) {
                FerryException e = assertThrows(FerryException.class, () -> w.recv(new int[1], 0, 1, 3, 2));
                assertEquals(ErrorClass.PROC_FAILED, e.errorClass());
                return; // leaves on that failure, as a rank whose exception ends its try block
            }
            FerryException e = assertThrows(FerryException.class, () -> w.recv(new int[1], 0, 1, 0, 5)); // rank 0 never sends it
            assertEquals(ErrorClass.PROC_FAILED, e.errorClass(), e.getMessage());
            assertTrue(e.getMessage().contains("rank 0 of the job closed its Ferry instance"), e.getMessage());
            assertTrue(e.getMessage().contains("before that it had seen: rank 3 of the job failed"), e.getMessage());
            assertEquals(ErrorClass.PROC_FAILED, assertThrows(FerryException.class, () -> w.ssend(new int[1], 0, 1, 0, 6)).errorClass(),
                    "nobody there matches a synchronous send any more");
        });
    }

    /** A second rank dies while the survivors of the first shrink: the shrink still completes, without both. */
    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void aRankThatDiesDuringShrinkIsLeftOut(boolean thread) {
        Ferry.runInProcess(6, BOUND, config(thread), f -> {
            Comm w = f.world();
            int r = w.rank();
            w.barrier();
            allPast(w, 5, 1); // rank 1 too dies (in the shrink): not before every rank is past the barrier, which its death would fail
            if (r == 5) {
                die(f);
                return;
            }
            AtomicBoolean dying = new AtomicBoolean();
            if (r == 1) { // the coordinator's successor-to-be: it dies once it has contributed to the shrink
                f.messaging.faults.sendHook = (s, to) -> {
                    if (dying.get()) {
                        return true;
                    }
                    if (s == FaultTolerance.CONTRIBUTE) {
                        dying.set(true); // this contribution goes; nothing after it
                    }
                    return false;
                };
            }
            Comm s;
            if (r == 1) {
                Thread.ofPlatform().start(() -> {
                    long end = System.nanoTime() + BOUND.toNanos();
                    while (!dying.get() && System.nanoTime() < end) {
                        Thread.onSpinWait();
                    }
                    die(f);
                });
                assertThrows(RuntimeException.class, w::shrink); // its engine goes under it
                return;
            }
            s = w.shrink();
            assertTrue(s.size() == 4 || s.size() == 5, "size " + s.size());
            if (s.size() == 5) { // rank 1's death came after the decision: the shrunk one has it, and shrinks again
                s.ackFailed(s.getFailed().size());
                Comm t = s.shrink();
                s.free();
                s = t;
            }
            assertEquals(4, s.size());
            int[] sum = new int[1];
            s.allreduce(new int[] {r}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
            assertEquals(0 + 2 + 3 + 4, sum[0]);
            s.free();
        });
    }
}
