package dev.ferry;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** The window programs {@link WindowJobTest} runs as real JVMs; each prints "ok ..." lines the test checks. */
public final class WindowRanks {
    private WindowRanks() {
    }

    public static void main(String[] args) {
        try {
            switch (args[0]) {
                case "random" -> random(Long.parseLong(args[1]), Integer.parseInt(args[2]));
                case "shared" -> shared();
                case "dead" -> dead();
                case "deadHolder" -> deadHolder(Window.LockType.valueOf(args[1]));
                case "deadEpochs" -> deadEpochs();
                case "masked" -> masked(Long.parseLong(args[1]), Integer.parseInt(args[2]));
                case "passive" -> passive(Integer.parseInt(args[1]));
                case "large" -> large(Long.parseLong(args[1]));
                default -> throw new IllegalArgumentException("no program " + args[0]);
            }
        } catch (Throwable t) {
            // a failed check must not leave this rank in a collective free the others never reach
            t.printStackTrace();
            System.err.flush();
            Runtime.getRuntime().halt(1);
        }
    }

    /**
     * A put and a get of {@code bytes} (past 2 GiB) with the long-count forms: rank 0 puts a
     * pattern into rank 1's window under a lock, rank 1 checks every long, then rank 0 gets it
     * back into a zeroed segment and checks it too.
     */
    private static void large(long bytes) {
        try (Ferry f = Ferry.init(); java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined();
             Window w = Window.allocate(f.world(), f.rank() == 1 ? bytes : 8, 1)) {
            Comm c = f.world();
            if (c.rank() == 0) {
                MemorySegment m = arena.allocate(bytes, 8);
                for (long i = 0; i < bytes / 8; i++) {
                    m.setAtIndex(ValueLayout.JAVA_LONG, i, i * 0x9E3779B97F4A7C15L);
                }
                w.lock(Window.LockType.EXCLUSIVE, 1);
                w.put(m, 0L, bytes, Datatype.BYTE, 1, 0);
                w.unlock(1);
                c.barrier(); // rank 1 checks
                c.barrier();
                m.fill((byte) 0);
                w.lock(Window.LockType.SHARED, 1);
                w.get(m, 0L, bytes, Datatype.BYTE, 1, 0);
                w.unlock(1);
                for (long i = 0; i < bytes / 8; i++) {
                    if (m.getAtIndex(ValueLayout.JAVA_LONG, i) != i * 0x9E3779B97F4A7C15L) {
                        throw new AssertionError("get: long " + i + " differs");
                    }
                }
                System.out.println("ok large rank 0: put and got back " + bytes + " bytes, all checked");
            } else {
                c.barrier();
                MemorySegment mine = w.memory();
                for (long i = 0; i < bytes / 8; i++) {
                    if (mine.getAtIndex(ValueLayout.JAVA_LONG, i) != i * 0x9E3779B97F4A7C15L) {
                        throw new AssertionError("put: long " + i + " differs");
                    }
                }
                System.out.println("ok large rank " + c.rank() + ": " + bytes + " bytes put here, all checked");
                c.barrier();
            }
        }
    }

    /** Slots per rank: the first half take fetch-and-adds only, the second half xor-accumulates only. */
    private static final int SLOTS = 8;

    /**
     * Rounds of random concurrent fetch-and-adds and xor-accumulates from every rank to every
     * rank, each round in another synchronization mode (fence, lockAll, lock per target, start /
     * post to everyone), then each rank checks its own window exactly: every slot's final value,
     * and that the values the fetch-and-adds saw chain one into the next.
     */
    private static void random(long seed, int opsPerRound) {
        try (Ferry f = Ferry.init()) {
            Comm w = f.world();
            int n = w.size(), me = w.rank();
            String[] modes = {"fence", "lockAll", "lock", "pscw"};
            Window win = Window.allocate(w, 8L * SLOTS, 8); // freed at the end, not by a try: a failed check halts instead
            {
                List<long[]> all = new ArrayList<>(); // every rank's (target, slot, added, fetched) of every round
                long[] xors = new long[n * SLOTS];
                for (int round = 0; round < modes.length; round++) {
                    Random rnd = new Random(seed * 31 + round * 7919L + me);
                    long[] mine = new long[4 * opsPerRound];
                    long[][] fetched = new long[opsPerRound][1];
                    long[] xorOut = new long[n * SLOTS];
                    open(win, modes[round], n);
                    int lockedTarget = -1;
                    for (int i = 0; i < opsPerRound; i++) {
                        int t = rnd.nextInt(n);
                        if (modes[round].equals("lock") && t != lockedTarget) {
                            if (lockedTarget >= 0) {
                                win.unlock(lockedTarget);
                            }
                            win.lock(rnd.nextBoolean() ? Window.LockType.SHARED : Window.LockType.EXCLUSIVE, t);
                            lockedTarget = t;
                        }
                        if (rnd.nextBoolean()) {
                            int slot = rnd.nextInt(SLOTS / 2);
                            long v = 1 + rnd.nextInt(1000);
                            win.fetchAndOp(new long[] {v}, 0, fetched[i], 0, Datatype.LONG, t, slot, Op.SUM);
                            mine[4 * i] = t;
                            mine[4 * i + 1] = slot;
                            mine[4 * i + 2] = v;
                        } else {
                            int slot = SLOTS / 2 + rnd.nextInt(SLOTS / 2);
                            long v = rnd.nextLong();
                            win.accumulate(new long[] {v}, 0, 1, Datatype.LONG, t, slot, Op.BXOR);
                            xorOut[t * SLOTS + slot] ^= v;
                            mine[4 * i] = -1;
                        }
                    }
                    if (lockedTarget >= 0) {
                        win.unlock(lockedTarget);
                    }
                    close(win, modes[round], n);
                    for (int i = 0; i < opsPerRound; i++) {
                        mine[4 * i + 3] = fetched[i][0];
                    }
                    long[] every = new long[4 * opsPerRound * n];
                    w.allgather(mine, 0, mine.length, Datatype.LONG, every, 0, mine.length, Datatype.LONG);
                    all.add(every);
                    long[] x = new long[n * SLOTS];
                    w.allreduce(xorOut, 0, x, 0, x.length, Datatype.LONG, Op.BXOR);
                    for (int k = 0; k < x.length; k++) {
                        xors[k] ^= x[k];
                    }
                }
                w.barrier();
                int checked = check(win.memory(), all, xors, me);
                System.out.println("ok random rank " + me + " of " + n + ": " + checked + " fetch-and-adds chain exactly, "
                        + SLOTS + " slots exact after " + modes.length + " rounds (" + String.join(", ", modes) + ")");
            }
            win.free();
        }
    }

    private static void open(Window win, String mode, int n) {
        switch (mode) {
            case "fence" -> win.fence();
            case "lockAll" -> win.lockAll();
            case "pscw" -> {
                Group everyone = win.comm().group();
                win.post(everyone);
                win.start(everyone);
            }
            default -> {
            }
        }
    }

    private static void close(Window win, String mode, int n) {
        switch (mode) {
            case "fence" -> win.fence();
            case "lockAll" -> win.unlockAll();
            case "pscw" -> {
                win.complete();
                win.waitFor();
            }
            default -> win.comm().barrier();
        }
    }

    private static int check(MemorySegment mem, List<long[]> all, long[] xors, int me) {
        int checked = 0;
        for (int slot = 0; slot < SLOTS / 2; slot++) {
            List<long[]> ops = new ArrayList<>();
            for (long[] every : all) {
                for (int i = 0; i < every.length; i += 4) {
                    if (every[i] == me && every[i + 1] == slot) {
                        ops.add(new long[] {every[i + 2], every[i + 3]});
                    }
                }
            }
            ops.sort((a, b) -> Long.compare(a[1], b[1]));
            long value = 0;
            for (long[] op : ops) {
                if (op[1] != value) {
                    throw new IllegalStateException("rank " + me + " slot " + slot + ": a fetch-and-add saw " + op[1] + " where the chain of "
                            + ops.size() + " adds says " + value);
                }
                value += op[0];
                checked++;
            }
            long got = mem.get(ValueLayout.JAVA_LONG, 8L * slot);
            if (got != value) {
                throw new IllegalStateException("rank " + me + " slot " + slot + " holds " + got + ", the adds make " + value);
            }
        }
        for (int slot = SLOTS / 2; slot < SLOTS; slot++) {
            long got = mem.get(ValueLayout.JAVA_LONG, 8L * slot);
            if (got != xors[me * SLOTS + slot]) {
                throw new IllegalStateException("rank " + me + " slot " + slot + " holds " + got + ", the xors make " + xors[me * SLOTS + slot]);
            }
        }
        return checked;
    }

    /**
     * Every rank applies random masked atomics to its own word at every other rank (directly over
     * shm, by message over tcp), checking each old value against seed 004's pseudo-code; then each
     * target checks the words it holds.
     */
    private static void masked(long seed, int n) {
        try (Ferry f = Ferry.init()) {
            Comm w = f.world();
            int size = w.size(), me = w.rank();
            Window win = Window.allocate(w, 8L * size, 8);
            long[] finals = new long[size];
            win.lockAll();
            for (int t = 0; t < size; t++) {
                finals[t] = Seed004.check(win, t, me, seed + 1000L * me + t, n, 0);
            }
            win.unlockAll();
            long[] mine = new long[size];
            w.alltoall(finals, 0, 1, Datatype.LONG, mine, 0, 1, Datatype.LONG);
            w.barrier();
            for (int o = 0; o < size; o++) {
                long got = win.memory().get(ValueLayout.JAVA_LONG, 8L * o);
                if (got != mine[o]) {
                    throw new IllegalStateException("rank " + o + "'s word here is 0x" + Long.toHexString(got) + ", its model says 0x" + Long.toHexString(mine[o]));
                }
            }
            win.free();
            System.out.println("ok masked rank " + me + " of " + size + ": " + n * size + " masked operations agree with the seed's pseudo-code");
        }
    }

    /**
     * The last rank computes without calling Ferry until its window holds what the others' locked
     * accumulates add up to: only its passive progress can serve them (over tcp when it is on a
     * node of its own).
     */
    private static void passive(int n) {
        try (Ferry f = Ferry.init()) {
            Comm w = f.world();
            int size = w.size(), me = w.rank(), target = size - 1;
            Window win = Window.allocate(w, 8, 8);
            w.barrier();
            if (me == target) {
                long want = (long) n * (size - 1), deadline = System.nanoTime() + 120_000_000_000L;
                long t0 = System.nanoTime();
                java.lang.invoke.VarHandle word = ValueLayout.JAVA_LONG.varHandle();
                while ((long) word.getVolatile(win.memory(), 0L) != want) { // no Ferry call in this loop; a volatile read the JIT cannot hoist
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the window holds " + win.memory().get(ValueLayout.JAVA_LONG, 0) + " after 120 s, not " + want);
                    }
                    Thread.onSpinWait();
                }
                System.out.println("ok passive rank " + me + ": " + want + " accumulates landed in " + (System.nanoTime() - t0) / 1_000_000
                        + " ms while it made no call");
            } else {
                for (int i = 0; i < n; i++) {
                    win.lock(i % 2 == 0 ? Window.LockType.EXCLUSIVE : Window.LockType.SHARED, target);
                    win.accumulate(new long[] {1}, 0, 1, Datatype.LONG, target, 0, Op.SUM);
                    win.unlock(target);
                }
                System.out.println("ok passive rank " + me + ": " + n + " locked accumulates done");
            }
            win.free();
        }
    }

    /** allocateShared on one node: each rank stores into its own memory, then loads every other rank's directly. */
    private static void shared() {
        try (Ferry f = Ferry.init()) {
            Comm w = f.world();
            int n = w.size(), me = w.rank();
            Window win = Window.allocateShared(w, 8L * (me + 1), 8);
            {
                for (int k = 0; k <= me; k++) {
                    win.memory().set(ValueLayout.JAVA_LONG, 8L * k, 1000L * me + k);
                }
                win.sync();
                w.barrier();
                win.sync();
                long sum = 0;
                for (int r = 0; r < n; r++) {
                    MemorySegment m = win.sharedQuery(r);
                    if (m.byteSize() != 8L * (r + 1)) {
                        throw new IllegalStateException("rank " + r + "'s shared memory is " + m.byteSize() + " bytes here");
                    }
                    for (int k = 0; k <= r; k++) {
                        long v = m.get(ValueLayout.JAVA_LONG, 8L * k);
                        if (v != 1000L * r + k) {
                            throw new IllegalStateException("rank " + r + "'s word " + k + " reads " + v + " here");
                        }
                        sum += v;
                    }
                }
                w.barrier(); // everyone has read before anyone stores
                // a store through the mapping lands in the owner's memory
                win.sharedQuery((me + 1) % n).set(ValueLayout.JAVA_LONG, 0, -1 - me);
                win.sync();
                w.barrier();
                win.sync();
                long mine = win.memory().get(ValueLayout.JAVA_LONG, 0);
                if (mine != -1 - (me + n - 1) % n) {
                    throw new IllegalStateException("my word 0 is " + mine + " after my left neighbour's store");
                }
                System.out.println("ok shared rank " + me + " of " + n + ": read every rank's memory directly (sum " + sum
                        + ") and a neighbour's store landed");
            }
            win.free();
        }
    }

    /** Rank 2 dies; the others' operations aimed at it fail PROC_FAILED within a bound, and they still reach each other. */
    private static void dead() {
        Ferry f = Ferry.init();
        Comm w = f.world();
        Window win = Window.allocate(w, 64, 8);
        if (w.rank() == 2) { // dies once both others hold a shared lock on it: their epochs outlive it
            w.recv(new byte[0], 0, 0, 0, 8);
            w.recv(new byte[0], 0, 0, 1, 8);
            System.out.println("ok dead rank 2 dies with its window");
            System.out.flush();
            Runtime.getRuntime().halt(3);
        }
        win.lock(Window.LockType.SHARED, 2);
        w.send(new byte[0], 0, 0, 2, 8);
        long t0 = System.nanoTime();
        String failed;
        try {
            for (int i = 0; i < 1000; i++) {
                win.accumulate(new long[] {1}, 0, 1, Datatype.LONG, 2, 0, Op.SUM);
                win.flush(2);
            }
            throw new IllegalStateException("1000 flushed accumulates to a dead rank succeeded");
        } catch (FerryException e) {
            if (e.errorClass() != ErrorClass.PROC_FAILED) {
                throw e;
            }
            failed = e.getMessage();
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        Window survivors = null;
        // the live peer is still served: the other survivor's window takes an accumulate
        int other = 1 - w.rank();
        Window again = win;
        again.lock(Window.LockType.EXCLUSIVE, other); // the shared lock on rank 2 is still held: a failed flush ends no epoch
        again.accumulate(new long[] {1}, 0, 1, Datatype.LONG, 2, 0, Op.SUM); // fails, but at a flush of rank 2
        again.accumulate(new long[] {5}, 0, 1, Datatype.LONG, other, 1, Op.SUM);
        again.flush(other); // the live peer's operations alone: not held up, nor failed, by the dead rank's
        // request forms: one to the dead rank fails; one to the live peer, issued after it, completes
        Request toDead = again.raccumulate(new long[] {1}, 0, 1, Datatype.LONG, 2, 0, Op.SUM);
        Request toLive = again.raccumulate(new long[] {2}, 0, 1, Datatype.LONG, other, 1, Op.SUM);
        toLive.await();
        try {
            toDead.await();
            throw new IllegalStateException("an raccumulate to the dead rank completed");
        } catch (FerryException e) {
            if (e.errorClass() != ErrorClass.PROC_FAILED || !e.getMessage().contains("raccumulate to rank 2")) {
                throw e;
            }
        }
        again.accumulate(new long[] {-2}, 0, 1, Datatype.LONG, other, 1, Op.SUM); // back to 5 below
        again.flush(other);
        try {
            again.flush(2);
            throw new IllegalStateException("a flush of the dead rank succeeded");
        } catch (FerryException e) {
            if (e.errorClass() != ErrorClass.PROC_FAILED) {
                throw e;
            }
        }
        again.unlock(other);
        try {
            again.unlock(2);
        } catch (FerryException e) {
            // the lock's release could not reach the dead rank either
        }
        w.send(new byte[0], 0, 0, other, 9);
        w.recv(new byte[0], 0, 0, other, 9);
        long v = win.memory().get(ValueLayout.JAVA_LONG, 8);
        if (v != 5) {
            throw new IllegalStateException("the survivor's accumulate left " + v);
        }
        System.out.println("ok dead rank " + w.rank() + ": operations to rank 2 failed PROC_FAILED within " + ms + " ms ("
                + failed.lines().findFirst().orElse("") + "); the survivors still reach each other");
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    /**
     * Rank 1 takes rank 0's lock ({@code held}: exclusive or shared), puts, and dies inside the
     * epoch; ranks 2 and 3, which then ask for that lock (2 exclusively, 3 shared), get it once
     * rank 1 is known dead (or at once, a shared one beside a dead shared holder), and rank 0 then
     * takes its own exclusively and reads what they left.
     */
    private static void deadHolder(Window.LockType held) {
        Ferry f = Ferry.init();
        Comm w = f.world();
        Window win = Window.allocate(w, 64, 8);
        w.barrier();
        byte[] none = new byte[0];
        if (w.rank() == 1) {
            win.lock(held, 0);
            win.put(new long[] {11}, 0, 1, Datatype.LONG, 0, 0);
            win.flush(0);
            for (int r : new int[] {0, 2, 3}) {
                w.send(none, 0, 0, r, 8);
            }
            System.out.println("ok deadHolder rank 1 dies holding rank 0's " + held + " lock");
            System.out.flush();
            Runtime.getRuntime().halt(3);
        }
        w.recv(none, 0, 0, 1, 8); // rank 1 holds the lock now
        long t0 = System.nanoTime();
        if (w.rank() == 2 || w.rank() == 3) {
            Window.LockType type = w.rank() == 2 ? Window.LockType.EXCLUSIVE : Window.LockType.SHARED;
            win.lock(type, 0);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            win.accumulate(new long[] {w.rank()}, 0, 1, Datatype.LONG, 0, 1, Op.SUM);
            win.unlock(0);
            w.send(none, 0, 0, 0, 9);
            System.out.println("ok deadHolder rank " + w.rank() + " took a " + type + " lock beside the dead rank 1's " + held + " one after " + ms + " ms");
        } else {
            w.recv(none, 0, 0, 2, 9);
            w.recv(none, 0, 0, 3, 9);
            win.lock(Window.LockType.EXCLUSIVE, 0);
            long sum = win.memory().get(ValueLayout.JAVA_LONG, 8);
            win.unlock(0);
            if (sum != 5) {
                throw new IllegalStateException("ranks 2 and 3 left " + sum + " in rank 0's window, not 2 + 3");
            }
            System.out.println("ok deadHolder rank 0 holds its own lock again after the others (sum " + sum + ")");
        }
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    /**
     * Rank 2 dies; ranks 0 and 1 then open every kind of epoch that involves it (fence, start,
     * post and waitFor, test, lockAll), and each fails with PROC_FAILED naming rank 2 instead of
     * waiting; a failed lockAll leaves no lock behind (each survivor then takes the other's
     * exclusively).
     */
    private static void deadEpochs() {
        Ferry f = Ferry.init();
        Comm w = f.world();
        Window win = Window.allocate(w, 64, 8);
        w.barrier();
        byte[] none = new byte[0];
        if (w.rank() == 2) {
            w.send(none, 0, 0, 0, 8);
            w.send(none, 0, 0, 1, 8);
            Runtime.getRuntime().halt(3);
        }
        w.recv(none, 0, 0, 2, 8);
        Group dead = w.group().incl(2);
        List<String> calls = new ArrayList<>();
        expectFailed("fence", win::fence, calls);
        expectFailed("start", () -> win.start(dead), calls);
        expectFailed("post", () -> win.post(dead), calls); // its word to the dead rank fails
        expectFailed("waitFor", win::waitFor, calls);
        expectFailed("lockAll", win::lockAll, calls);
        int other = 1 - w.rank();
        win.lock(Window.LockType.EXCLUSIVE, other); // nothing of the failed lockAll held it
        win.accumulate(new long[] {1}, 0, 1, Datatype.LONG, other, 0, Op.SUM);
        win.unlock(other);
        w.send(none, 0, 0, other, 9);
        w.recv(none, 0, 0, other, 9);
        System.out.println("ok deadEpochs rank " + w.rank() + ": " + String.join(", ", calls));
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    private static void expectFailed(String what, Runnable call, List<String> calls) {
        long t0 = System.nanoTime();
        try {
            call.run();
            throw new IllegalStateException(what + " with a dead member succeeded");
        } catch (FerryException e) {
            if (e.errorClass() != ErrorClass.PROC_FAILED || !e.getMessage().contains("rank 2")) {
                throw new IllegalStateException(what + ": " + e.errorClass() + " " + e.getMessage(), e);
            }
        }
        calls.add(what + " failed PROC_FAILED in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }
}
