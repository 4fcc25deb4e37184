package dev.ferry;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.*;

/** Windows with ranks as threads of one JVM: each synchronization mode, each operation, the errors. */
class WindowTest {
    static final Duration BOUND = Duration.ofMinutes(2);

    @Test
    void fencePutGetAndAccumulate() {
        Ferry.runInProcess(4, BOUND, f -> {
            Comm w = f.world();
            int n = w.size(), me = w.rank();
            try (Window win = Window.allocate(w, 8L * n, 8)) {
                win.fence();
                win.put(new long[] {100 + me}, 0, 1, Datatype.LONG, (me + 1) % n, me);
                win.accumulate(new long[] {me + 1}, 0, 1, Datatype.LONG, 0, 0, Op.SUM);
                win.fence();
                for (int r = 0; r < n; r++) {
                    long want = r == (me + n - 1) % n ? 100 + r : 0;
                    if (me == 0 && r == 0) {
                        want += n * (n + 1) / 2;
                    }
                    assertEquals(want, win.memory().get(ValueLayout.JAVA_LONG, 8L * r), "slot " + r + " at rank " + me);
                }
                long[] got = new long[n];
                win.get(got, 0, n, Datatype.LONG, (me + 1) % n, 0);
                win.fence();
                assertEquals(100 + me, got[me]);
            }
        });
    }

    /** 4 ranks keep the shared holders as bits of the lock word; 34 in slots of their own (past 32 members). */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} ranks")
    @org.junit.jupiter.params.provider.ValueSource(ints = {4, 34})
    void exclusiveLocksSerializeReadModifyWriteAndSharedLocksSeeNoHalfWrite(int ranks) {
        int rounds = ranks > WindowLocks.WORD_MEMBERS ? 2 : 50;
        Ferry.runInProcess(ranks, BOUND, f -> {
            Comm w = f.world();
            int n = w.size();
            try (Window win = Window.allocate(w, 16, 8)) {
                long[] v = new long[1];
                for (int i = 0; i < rounds; i++) {
                    win.lock(Window.LockType.EXCLUSIVE, 0); // a non-atomic get, add, put: only the lock makes it safe
                    win.get(v, 0, 1, Datatype.LONG, 0, 0);
                    win.flush(0);
                    v[0]++;
                    win.put(v, 0, 1, Datatype.LONG, 0, 0); // odd while this rank holds it...
                    win.flush(0);
                    v[0]++;
                    win.put(v, 0, 1, Datatype.LONG, 0, 0); // ...even again when it lets go
                    win.unlock(0);
                    win.lock(Window.LockType.SHARED, 0);
                    win.get(v, 0, 1, Datatype.LONG, 0, 0);
                    win.flush(0);
                    assertEquals(0, v[0] % 2, "a shared holder saw an exclusive holder's half-done update");
                    win.accumulate(new long[] {2}, 0, 1, Datatype.LONG, 0, 1, Op.SUM);
                    win.unlock(0);
                }
                w.barrier();
                if (w.rank() == 0) {
                    assertEquals(2L * n * rounds, win.memory().get(ValueLayout.JAVA_LONG, 0));
                    assertEquals(2L * n * rounds, win.memory().get(ValueLayout.JAVA_LONG, 8));
                }
                w.barrier();
            }
        });
    }

    @Test
    void postStartCompleteWaitAndTest() {
        Ferry.runInProcess(4, BOUND, f -> {
            Comm w = f.world();
            int me = w.rank();
            try (Window win = Window.allocate(w, 8L * 4, 8)) {
                Group g = w.group();
                if (me == 0) { // the target of ranks 1..3
                    win.post(g.incl(1, 2, 3));
                    win.waitFor();
                    for (int r = 1; r < 4; r++) {
                        assertEquals(r * 10L, win.memory().get(ValueLayout.JAVA_LONG, 8L * r));
                    }
                    win.post(g.incl(1, 2, 3));
                    long deadline = System.nanoTime() + BOUND.toNanos();
                    while (!win.test()) {
                        assertTrue(System.nanoTime() < deadline, "test never saw the origins complete");
                    }
                    assertEquals(3L, win.memory().get(ValueLayout.JAVA_LONG, 0));
                } else {
                    win.start(g.incl(0));
                    win.put(new long[] {me * 10L}, 0, 1, Datatype.LONG, 0, me);
                    win.complete();
                    win.start(g.incl(0));
                    win.accumulate(new long[] {1}, 0, 1, Datatype.LONG, 0, 0, Op.SUM);
                    win.complete();
                }
            }
        });
    }

    @Test
    void atomicsFetchCompareAndSwapReplaceNoOpAndTheMaskedExtensions() {
        Ferry.runInProcess(3, BOUND, f -> {
            Comm w = f.world();
            int n = w.size(), me = w.rank();
            try (Window win = Window.allocate(w, 64, 8)) {
                win.lockAll();
                long[] old = new long[1];
                win.fetchAndOp(new long[] {1}, 0, old, 0, Datatype.LONG, 0, 0, Op.SUM);
                win.flushAll();
                assertTrue(old[0] >= 0 && old[0] < n);
                // compare-and-swap: exactly one rank wins slot 1
                long[] won = new long[1];
                win.compareAndSwap(new long[] {me + 1}, 0, new long[] {0}, 0, won, 0, Datatype.LONG, 0, 1);
                win.flushAll();
                int[] winners = new int[1];
                w.allreduce(new int[] {won[0] == 0 ? 1 : 0}, 0, winners, 0, 1, Datatype.INT, Op.SUM);
                assertEquals(1, winners[0]);
                w.barrier();
                // NO_OP reads, REPLACE writes
                long[] seen = new long[1];
                win.fetchAndOp(null, 0, seen, 0, Datatype.LONG, 0, 0, Op.NO_OP);
                win.flushAll();
                assertEquals(n, seen[0]);
                w.barrier();
                if (me == 1) {
                    win.accumulate(new double[] {2.5}, 0, 1, Datatype.DOUBLE, 0, 2, Op.REPLACE);
                    win.accumulate(new double[] {-7.25}, 0, 1, Datatype.DOUBLE, 0, 3, Op.REPLACE);
                    win.flushAll();
                }
                w.barrier();
                double[] d = new double[2];
                win.getAccumulate(null, 0, d, 0, 2, Datatype.DOUBLE, 0, 2, Op.NO_OP);
                win.flushAll();
                assertArrayEquals(new double[] {2.5, -7.25}, d);
                w.barrier();
                // the masked extensions: each rank adds 1 to its own 16-bit field of one word; a field's carry stays in it
                long field = 1L << (16 * me);
                win.maskedFetchAdd(0, 5, field, 0x8000_8000_8000_8000L);
                w.barrier();
                long word = win.maskedCompareSwap(0, 5, 0, 0, 0, 0); // compare nothing, swap nothing: a read
                assertEquals(0x0000_0001_0001_0001L, word);
                w.barrier();
                if (me == 0) {
                    assertEquals(word, win.maskedCompareSwap(0, 5, 0x01L, 0xffL, 0xabL << 56, 0xffL << 56));
                    assertEquals(0xab00_0001_0001_0001L, win.maskedCompareSwap(0, 5, 0, 0, 0, 0));
                    assertEquals(0xab00_0001_0001_0001L, win.maskedFetchAdd(0, 5, 0xffffL, 0x8000L)); // the low field wraps alone
                    assertEquals(0xab00_0001_0001_0000L, win.maskedCompareSwap(0, 5, 0, 0, 0, 0));
                }
                win.unlockAll();
            }
        });
    }

    @Test
    void maskedAtomicsAgreeWithTheSeedsPseudoCodeOnRandomVectors() {
        assertEquals(0x0102_0300_0408_fe00L, Seed004.maskedFetchAdd(0x0001_02ff_0305_fdffL, 0x0101_0101_0103_0101L, 0x8080_8080_8080_8080L),
                "the transcription itself, on a vector worked out by hand");
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            try (Window win = Window.allocate(w, 16, 8)) {
                if (w.rank() == 0) {
                    win.lock(Window.LockType.EXCLUSIVE, 1);
                    long last = Seed004.check(win, 1, 1, 2004, 500, 0);
                    win.unlock(1);
                    w.send(new long[] {last}, 0, 1, 1, 0);
                } else {
                    long[] last = new long[1];
                    w.recv(last, 0, 1, 0, 0);
                    assertEquals(last[0], win.memory().get(ValueLayout.JAVA_LONG, 8));
                }
            }
        });
    }

    @Test
    void minlocAndMaxlocAccumulateAtomicallyFromEveryRank() {
        Ferry.runInProcess(4, BOUND, f -> {
            Comm w = f.world();
            int n = w.size(), me = w.rank();
            try (Window win = Window.allocate(w, 4 * 16, 8)) { // four DOUBLE_INT pairs (16-byte extent) at rank 0
                if (me == 0) {
                    for (int k = 0; k < 4; k++) {
                        win.memory().set(ValueLayout.JAVA_DOUBLE, 16L * k, k < 2 ? Double.MAX_VALUE : -Double.MAX_VALUE);
                        win.memory().set(ValueLayout.JAVA_INT, 16L * k + 8, -1);
                    }
                }
                w.barrier();
                win.lockAll();
                java.util.Random rnd = new java.util.Random(me);
                MemorySegment pair = Arena.ofAuto().allocate(2 * 16, 8);
                for (int i = 0; i < 50; i++) {
                    double v = rnd.nextInt(1000); // ties among ranks: the lower index must win
                    for (int k = 0; k < 2; k++) {
                        pair.set(ValueLayout.JAVA_DOUBLE, 16L * k, v);
                        pair.set(ValueLayout.JAVA_INT, 16L * k + 8, me * 1000 + i);
                    }
                    win.accumulate(pair, 0, 2, Datatype.DOUBLE_INT, 0, 0, Op.MINLOC); // pairs 0 and 1
                    win.accumulate(pair, 0, 2, Datatype.DOUBLE_INT, 0, 4, Op.MAXLOC); // pairs 2 and 3 (bytes 32..63: 4 units of 8)
                }
                win.unlockAll();
                double[] all = new double[n * 50];
                double[] mine = new double[50];
                rnd = new java.util.Random(me);
                for (int i = 0; i < 50; i++) {
                    mine[i] = rnd.nextInt(1000);
                }
                w.allgather(mine, 0, 50, Datatype.DOUBLE, all, 0, 50, Datatype.DOUBLE);
                w.barrier();
                if (me == 0) {
                    double min = Double.MAX_VALUE, max = -Double.MAX_VALUE;
                    int minAt = Integer.MAX_VALUE, maxAt = Integer.MAX_VALUE;
                    for (int r = 0; r < n; r++) {
                        for (int i = 0; i < 50; i++) {
                            double v = all[r * 50 + i];
                            int at = r * 1000 + i;
                            if (v < min || (v == min && at < minAt)) {
                                min = v;
                                minAt = at;
                            }
                            if (v > max || (v == max && at < maxAt)) {
                                max = v;
                                maxAt = at;
                            }
                        }
                    }
                    for (int k = 0; k < 2; k++) {
                        assertEquals(min, win.memory().get(ValueLayout.JAVA_DOUBLE, 16L * k));
                        assertEquals(minAt, win.memory().get(ValueLayout.JAVA_INT, 16L * k + 8));
                        assertEquals(max, win.memory().get(ValueLayout.JAVA_DOUBLE, 16L * (k + 2)));
                        assertEquals(maxAt, win.memory().get(ValueLayout.JAVA_INT, 16L * (k + 2) + 8));
                    }
                }
                w.barrier();
            }
        });
    }

    @Test
    void noncontiguousTargetsRequestFormsAndWindowsOverTheCallersMemory() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            int me = w.rank(), peer = 1 - me;
            try (Arena confined = Arena.ofConfined()) {
                FerryException e = assertThrows(FerryException.class, () -> Window.create(w, confined.allocate(64), 4));
                assertEquals(ErrorClass.BUFFER, e.errorClass(), "the library writes from other threads: refused before anyone waits");
            }
            try (Arena a = Arena.ofShared()) {
                MemorySegment mem = a.allocate(8 * 16, 8);
                try (Window win = Window.create(w, mem, 4)) {
                    win.lock(Window.LockType.EXCLUSIVE, peer);
                    Datatype everyOther = Datatype.vector(4, 1, 2, Datatype.INT);
                    Request r = win.rput(new int[] {1, 2, 3, 4}, 0, 4, Datatype.INT, peer, 0);
                    r.await();
                    win.put(new int[] {7, 8, 9, 10}, 0, 4, Datatype.INT, peer, 8, 1, everyOther);
                    int[] back = new int[8];
                    Request g = win.rget(back, 0, 8, Datatype.INT, peer, 8);
                    g.await();
                    assertArrayEquals(new int[] {7, 0, 8, 0, 9, 0, 10, 0}, back);
                    win.accumulate(new int[] {1, 1, 1, 1}, 0, 4, Datatype.INT, peer, 8, 1, everyOther, Op.SUM);
                    int[] res = new int[4];
                    win.rgetAccumulate(new int[] {0, 0, 0, 0}, 0, res, 0, 4, Datatype.INT, peer, 0, Op.BOR).await();
                    assertArrayEquals(new int[] {1, 2, 3, 4}, res);
                    win.unlock(peer);
                    w.barrier();
                    assertEquals(8, mem.get(ValueLayout.JAVA_INT, 4 * 8));
                    assertEquals(0, mem.get(ValueLayout.JAVA_INT, 4 * 9));
                    assertEquals(11, mem.get(ValueLayout.JAVA_INT, 4 * 14));
                    w.barrier();
                }
            }
        });
    }

    @Test
    void dynamicWindowsAttachDetachAndAddressByTheTargetsAddress() {
        Ferry.runInProcess(3, BOUND, f -> {
            Comm w = f.world();
            int n = w.size(), me = w.rank();
            try (Arena a = Arena.ofShared(); Window win = Window.createDynamic(w)) {
                MemorySegment first = a.allocate(64, 8), second = a.allocate(32, 8);
                win.attach(first);
                win.attach(second);
                long[] bases = new long[2 * n];
                w.allgather(new long[] {first.address(), second.address()}, 0, 2, Datatype.LONG, bases, 0, 2, Datatype.LONG);
                int right = (me + 1) % n;
                win.lock(Window.LockType.SHARED, right);
                win.put(new long[] {me, me + 100}, 0, 2, Datatype.LONG, right, bases[2 * right] + 8);
                win.accumulate(new int[] {5}, 0, 1, Datatype.INT, right, bases[2 * right + 1] + 4, Op.SUM);
                win.unlock(right);
                FerryException outside = assertThrows(FerryException.class,
                        () -> win.put(new long[1], 0, 1, Datatype.LONG, right, bases[2 * right] + 60)); // runs 4 bytes past the end
                assertEquals(ErrorClass.RMA_SYNC, outside.errorClass(), "outside an epoch first");
                win.lock(Window.LockType.SHARED, right);
                outside = assertThrows(FerryException.class, () -> win.put(new long[1], 0, 1, Datatype.LONG, right, bases[2 * right] + 60));
                assertEquals(ErrorClass.RMA_RANGE, outside.errorClass());
                win.unlock(right);
                w.barrier();
                int left = (me + n - 1) % n;
                assertEquals(left, first.get(ValueLayout.JAVA_LONG, 8));
                assertEquals(left + 100, first.get(ValueLayout.JAVA_LONG, 16));
                assertEquals(5, second.get(ValueLayout.JAVA_INT, 4));
                win.detach(second);
                FerryException notThere = assertThrows(FerryException.class, () -> win.detach(second));
                assertEquals(ErrorClass.RMA_ATTACH, notThere.errorClass());
                w.barrier();
                // the origin's copy of the table still shows the detached range: the operation finds nothing there
                win.lock(Window.LockType.SHARED, right);
                win.accumulate(new int[] {1}, 0, 1, Datatype.INT, right, bases[2 * right + 1], Op.SUM);
                FerryException gone = assertThrows(FerryException.class, () -> win.flush(right));
                assertEquals(ErrorClass.RMA_ATTACH, gone.errorClass());
                win.unlock(right);
                w.barrier();
                assertEquals(5, second.get(ValueLayout.JAVA_INT, 4), "detached memory was not touched");
            }
        });
    }

    @Test
    void aTargetThatNeverCallsStillServesLocksPutsAndAtomics() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            try (Window win = Window.allocate(w, 8, 8)) {
                if (w.rank() == 0) {
                    win.lock(Window.LockType.EXCLUSIVE, 1);
                    win.accumulate(new long[] {41}, 0, 1, Datatype.LONG, 1, 0, Op.SUM);
                    win.accumulate(new long[] {1}, 0, 1, Datatype.LONG, 1, 0, Op.SUM);
                    win.unlock(1);
                    w.send(new byte[0], 0, 0, 1, 0);
                } else {
                    // compute (no Ferry call) until the value appears: only passive progress can serve rank 0
                    long deadline = System.nanoTime() + BOUND.toNanos();
                    java.lang.invoke.VarHandle word = ValueLayout.JAVA_LONG.varHandle();
                    while ((long) word.getVolatile(win.memory(), 0L) != 42) { // a volatile read the JIT cannot hoist
                        assertTrue(System.nanoTime() < deadline, "the passive target never got the accumulates");
                        Thread.onSpinWait();
                    }
                    w.recv(new byte[0], 0, 0, 0, 0);
                }
            }
        });
    }

    @Test
    void withAProgressThread() {
        Ferry.runInProcess(3, BOUND, new FerryConfig().progressThread(true), f -> {
            Comm w = f.world();
            try (Window win = Window.allocate(w, 8, 8)) {
                win.lockAll();
                win.accumulate(new long[] {w.rank() + 1}, 0, 1, Datatype.LONG, 0, 0, Op.SUM);
                win.unlockAll();
                w.barrier();
                win.fence();
                long[] v = new long[1];
                win.get(v, 0, 1, Datatype.LONG, 0, 0);
                win.fence();
                assertEquals(6, v[0]);
            }
        });
    }

    @Test
    void misuseIsAClearErrorAndNeverTouchesMemoryOutsideTheWindow() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            Window win = Window.allocate(w, 16, 8);
            FerryException e = assertThrows(FerryException.class, () -> win.put(new long[] {1}, 0, 1, Datatype.LONG, 1, 0));
            assertEquals(ErrorClass.RMA_SYNC, e.errorClass());
            win.fence();
            e = assertThrows(FerryException.class, () -> win.put(new long[] {1, 2}, 0, 2, Datatype.LONG, 1, 1));
            assertEquals(ErrorClass.RMA_RANGE, e.errorClass());
            assertTrue(e.getMessage().contains("16 bytes"), e.getMessage());
            e = assertThrows(FerryException.class, () -> win.get(new long[1], 0, 1, Datatype.LONG, 1, -1));
            assertEquals(ErrorClass.DISP, e.errorClass());
            e = assertThrows(FerryException.class, () -> win.put(new long[1], 0, 1, Datatype.LONG, 2, 0));
            assertEquals(ErrorClass.RANK, e.errorClass());
            e = assertThrows(FerryException.class, () -> win.accumulate(new double[1], 0, 1, Datatype.DOUBLE, 1, 0, Op.BXOR));
            assertEquals(ErrorClass.OP, e.errorClass());
            e = assertThrows(FerryException.class, () -> win.accumulate(new int[2], 0, 1, Datatype.INT, 1, 0, Op.MAXLOC));
            assertEquals(ErrorClass.TYPE, e.errorClass(), "MAXLOC takes pairs");
            e = assertThrows(FerryException.class, () -> win.accumulate(new int[2], 0, 1, Datatype.INT2, 1, 0, Op.create((a, b, n, t) -> { }, true)));
            assertEquals(ErrorClass.OP, e.errorClass(), "no user-defined operation one-sided (MPI)");
            e = assertThrows(FerryException.class, () -> win.flushAll());
            assertEquals(ErrorClass.RMA_SYNC, e.errorClass());
            e = assertThrows(FerryException.class, () -> win.unlock(1));
            assertEquals(ErrorClass.RMA_SYNC, e.errorClass());
            e = assertThrows(FerryException.class, () -> win.sharedQuery(0));
            assertEquals(ErrorClass.RMA_SHARED, e.errorClass());
            win.fence();
            assertEquals(0, win.memory().get(ValueLayout.JAVA_LONG, 8), "a refused put wrote nothing");
            win.free();
            e = assertThrows(FerryException.class, () -> win.fence());
            assertEquals(ErrorClass.WIN, e.errorClass());
            e = assertThrows(FerryException.class, () -> Window.allocate(w, 8, 0));
            assertEquals(ErrorClass.DISP, e.errorClass());
        });
    }

    @Test
    void manyWindowsComeAndGoAndLargeTransfersStageOnTheirOwn() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            int big = (int) (WindowLibrary.STAGING / 4) + 1000; // ints: larger than the staging area
            for (int i = 0; i < 20; i++) {
                try (Window win = Window.allocate(w, 4L * big, 4)) {
                    win.fence();
                    if (i % 5 == 0 && w.rank() == 0) {
                        int[] data = new int[big];
                        for (int k = 0; k < big; k++) {
                            data[k] = k ^ i;
                        }
                        win.put(data, 0, big, Datatype.INT, 1, 0);
                    }
                    win.fence();
                    if (i % 5 == 0 && w.rank() == 1) {
                        for (int k = 0; k < big; k += 997) {
                            assertEquals(k ^ i, win.memory().get(ValueLayout.JAVA_INT, 4L * k));
                        }
                    }
                }
            }
        });
    }

    /** The long-count forms (MPI-4's MPI_Put_c and the rest) do what the int forms do, and refuse a count past the buffer. */
    @Test
    void longCountFormsDoWhatTheIntFormsDo() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm c = f.world();
            try (Window w = Window.allocate(c, 64, 8)) {
                w.fence();
                if (c.rank() == 0) {
                    w.put(new long[] {1, 2, 3, 4}, 1L, 3L, Datatype.LONG, 1, 0);
                    w.accumulate(new long[] {10, 20}, 0L, 2L, Datatype.LONG, 1, 4, Op.SUM);
                    assertEquals(ErrorClass.COUNT, assertThrows(FerryException.class,
                            () -> w.put(new long[4], 0L, 5L, Datatype.LONG, 1, 0)).errorClass());
                }
                w.fence();
                if (c.rank() == 0) {
                    long[] got = new long[6], one = new long[1];
                    w.get(got, 0L, 6L, Datatype.LONG, 1, 0);
                    w.rget(one, 0L, 1L, Datatype.LONG, 1, 1).await();
                    w.fence();
                    assertArrayEquals(new long[] {2, 3, 4, 0, 10, 20}, got);
                    assertEquals(3, one[0]);
                    // the atomics with long offsets
                    long[] old = new long[2];
                    w.fetchAndOp(new long[] {0, 5}, 1L, old, 1L, Datatype.LONG, 1, 0, Op.SUM);
                    w.compareAndSwap(new long[] {0, 99}, 1L, new long[] {0, 0, 3}, 2L, old, 0L, Datatype.LONG, 1, 1);
                    w.fence();
                    assertArrayEquals(new long[] {3, 2}, old, "the old values fetched");
                    w.get(got, 0L, 2L, Datatype.LONG, 1, 0);
                    w.fence();
                    assertEquals(7, got[0]);
                    assertEquals(99, got[1], "swapped: the word was 3");
                } else {
                    w.fence();
                    w.fence();
                    w.fence();
                }
            }
        });
    }
}
