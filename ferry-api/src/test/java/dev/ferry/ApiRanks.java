package dev.ferry;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Programs for {@link ApiJobTest}: each rank of a real job (separate JVMs) runs one and prints
 * {@code ok ...} lines the test checks.
 */
public final class ApiRanks {
    private ApiRanks() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "mixed" -> mixed(Integer.parseInt(args[1]));
            case "dead" -> dead();
            case "throws" -> throwsWhileOthersWait();
            case "collectives" -> collectives(Long.parseLong(args[1]), Integer.parseInt(args[2]));
            case "collective-dead" -> collectiveDead();
            case "node-arena" -> nodeArena();
            case "arena-bcast" -> arenaBcast();
            case "split-dead" -> splitDead();
            case "idle" -> idle(Long.parseLong(args[1]));
            case "large" -> large(Long.parseLong(args[1]));
            case "large-object" -> largeObject(Integer.parseInt(args[1]));
            case "large-collectives" -> largeCollectives(Long.parseLong(args[1]));
            case "large-bsend-inter" -> largeBsendAndInter(Long.parseLong(args[1]));
            default -> throw new IllegalArgumentException("no program " + args[0]);
        }
    }

    /**
     * Rank 0 sends {@code count} shorts (more than 2^31 of them, past 4 GiB) in one message to
     * every other rank, one after another, with the long-count calls; each receives them whole,
     * checks every byte, and reports the length its status gives.
     */
    private static void large(long count) {
        try (Ferry f = Ferry.init(); Arena arena = Arena.ofConfined()) {
            Comm w = f.world();
            long bytes = count * 2;
            MemorySegment m = arena.allocate(bytes, 8);
            if (w.rank() == 0) {
                for (long i = 0; i < bytes / 8; i++) {
                    m.setAtIndex(ValueLayout.JAVA_LONG, i, mix(i));
                }
                for (int peer = 1; peer < w.size(); peer++) {
                    long t = System.nanoTime();
                    w.send(m, 0L, count, Datatype.SHORT, peer, 5);
                    System.out.println("ok large rank 0 sent " + bytes + " bytes to rank " + peer + " in " + (System.nanoTime() - t) / 1_000_000 + " ms");
                }
            } else {
                Status s = w.recv(m, 0L, count, Datatype.SHORT, 0, 5);
                for (long i = 0; i < bytes / 8; i++) {
                    if (m.getAtIndex(ValueLayout.JAVA_LONG, i) != mix(i)) {
                        throw new AssertionError("rank " + w.rank() + ": long " + i + " differs");
                    }
                }
                System.out.println("ok large rank " + w.rank() + " received " + s.countLong() + " shorts, " + s.bytes() + " bytes, all checked, over "
                        + w.route(0).rails());
            }
            w.barrier();
        }
    }

    /**
     * Collectives past 2^31 elements with the long-count forms: a bcast of {@code count} bytes
     * from rank 0, then an allreduce (MAX) of {@code count} bytes (a multiple of 8) to which rank r
     * brings {@code (i + r) % 7} at byte i; every byte checked.
     */
    private static void largeCollectives(long count) {
        try (Ferry f = Ferry.init(); Arena arena = Arena.ofConfined()) {
            Comm w = f.world();
            MemorySegment m = arena.allocate(count, 8);
            if (w.rank() == 0) {
                for (long i = 0; i < count / 8; i++) {
                    m.setAtIndex(ValueLayout.JAVA_LONG, i, mix(i));
                }
            }
            w.bcast(m, 0L, count, Datatype.BYTE, 0);
            for (long i = 0; i < count / 8; i++) {
                if (m.getAtIndex(ValueLayout.JAVA_LONG, i) != mix(i)) {
                    throw new AssertionError("rank " + w.rank() + ": bcast long " + i + " differs");
                }
            }
            int p = w.size();
            // byte i of rank r is (i + r) % 7: a pattern of 56 bytes (7 longs), written and checked a long at a time
            long[] mine = period(w.rank(), 0), best = period(0, p - 1);
            for (long j = 0; j < count / 8; j++) {
                m.setAtIndex(ValueLayout.JAVA_LONG, j, mine[(int) (j % 7)]);
            }
            w.allreduce(Ferry.IN_PLACE, 0L, m, 0L, count, Datatype.BYTE, Op.MAX);
            for (long j = 0; j < count / 8; j++) {
                if (m.getAtIndex(ValueLayout.JAVA_LONG, j) != best[(int) (j % 7)]) {
                    throw new AssertionError("rank " + w.rank() + ": allreduce long " + j + " differs");
                }
            }
            System.out.println("ok large-collectives rank " + w.rank() + ": bcast and allreduce of " + count + " bytes, all checked ("
                    + w.lastCollectiveAlgorithm() + ")");
        }
    }

    /**
     * Past 2^31 bytes, on two ranks: rank 0 bsends {@code count} bytes (a multiple of 8) to rank 1
     * from an attached buffer of that size; then, on the intercommunicator between {0} and {1},
     * rank 0 bcasts them to rank 1, and rank 1 reduces other bytes to rank 0 (its partial result
     * a temporary past 2 GiB). Every byte checked at the receiver.
     */
    private static void largeBsendAndInter(long count) {
        try (Ferry f = Ferry.init(); Arena arena = Arena.ofShared()) {
            Comm w = f.world();
            int me = w.rank();
            MemorySegment m = arena.allocate(count, 8);
            fill(m, 0);
            if (me == 0) {
                try (Arena attached = Arena.ofShared()) {
                    f.attachBuffer(attached.allocate(count + Ferry.BSEND_OVERHEAD, 8));
                    w.bsend(m, 0L, count, Datatype.BYTE, 1, 4);
                    fill(m, 1); // the message was copied: this changes nothing at rank 1
                    f.detachBuffer();
                }
            } else {
                Status s = w.recv(m, 0L, count, Datatype.BYTE, 0, 4);
                check(m, 0, "bsend");
                System.out.println("ok large-bsend rank 1 received " + s.countLong() + " bytes, all checked");
            }
            Comm inter = w.split(me, 0).createIntercomm(0, w, 1 - me, 8);
            inter.bcast(m, 0L, count, Datatype.BYTE, me == 0 ? Ferry.ROOT : 0);
            if (me == 1) {
                check(m, 1, "inter bcast");
                fill(m, 2);
            }
            inter.reduce(m, 0L, m, 0L, count, Datatype.BYTE, Op.MAX, me == 0 ? Ferry.ROOT : 0); // rank 0 receives what rank 1's group reduced
            if (me == 0) {
                check(m, 2, "inter reduce");
            }
            System.out.println("ok large-inter rank " + me + ": bcast and reduce of " + count + " bytes between the groups, all checked ("
                    + inter.lastCollectiveAlgorithm() + ")");
        }
    }

    private static void fill(MemorySegment m, int seed) {
        for (long i = 0; i < m.byteSize() / 8; i++) {
            m.setAtIndex(ValueLayout.JAVA_LONG, i, mix(i + seed));
        }
    }

    private static void check(MemorySegment m, int seed, String what) {
        for (long i = 0; i < m.byteSize() / 8; i++) {
            if (m.getAtIndex(ValueLayout.JAVA_LONG, i) != mix(i + seed)) {
                throw new AssertionError(what + ": long " + i + " differs");
            }
        }
    }

    /** An object graph of one large array, some smaller ones and a name: what {@link #largeObject} sends. */
    record Big(String name, long[] data, List<int[]> parts) implements java.io.Serializable {
    }

    /**
     * Rank 0 sends one object holding {@code longs} longs and ten arrays of 1 Mi ints (past 2 GiB
     * in all) with {@link ObjectMessages} to every other rank in turn; each checks all of it.
     */
    private static void largeObject(int longs) {
        try (Ferry f = Ferry.init()) {
            Comm w = f.world();
            if (w.rank() == 0) {
                long[] data = new long[longs];
                for (int i = 0; i < longs; i++) {
                    data[i] = mix(i);
                }
                List<int[]> parts = new ArrayList<>();
                for (int k = 0; k < 10; k++) {
                    int[] p = new int[1 << 20];
                    java.util.Arrays.fill(p, k);
                    parts.add(p);
                }
                Big big = new Big("big", data, parts);
                for (int peer = 1; peer < w.size(); peer++) {
                    long t = System.nanoTime();
                    ObjectMessages.send(w, big, peer, 3);
                    System.out.println("ok large-object rank 0 sent to rank " + peer + " in " + (System.nanoTime() - t) / 1_000_000 + " ms");
                }
            } else {
                ObjectMessages.Received r = ObjectMessages.recv(w, Ferry.ANY_SOURCE, 3);
                Big big = (Big) r.object();
                for (int i = 0; i < big.data().length; i++) {
                    if (big.data()[i] != mix(i)) {
                        throw new AssertionError("rank " + w.rank() + ": long " + i + " differs");
                    }
                }
                for (int k = 0; k < 10; k++) {
                    if (big.parts().get(k)[12345] != k || big.parts().get(k).length != 1 << 20) {
                        throw new AssertionError("rank " + w.rank() + ": part " + k + " differs");
                    }
                }
                System.out.println("ok large-object rank " + w.rank() + " received " + big.name() + " of " + r.bytes() + " bytes from rank "
                        + r.source() + ", all checked, over " + w.route(0).rails());
            }
            w.barrier();
        }
    }

    /** The 7 longs of bytes {@code (i + from) % 7}, or with {@code upTo} > 0 the most of {@code (i + r) % 7} over r = 0..upTo. */
    private static long[] period(int from, int upTo) {
        long[] out = new long[7];
        for (int j = 0; j < 56; j++) {
            long b = 0;
            for (int r = from; r <= from + upTo; r++) {
                b = Math.max(b, (j + r) % 7);
            }
            out[j / 8] |= b << (8 * (j % 8));
        }
        return out;
    }

    private static long mix(long i) {
        return i * 0x9E3779B97F4A7C15L ^ i >>> 7;
    }

    /**
     * Every rank, rank 0 included (to itself), sends {@code n} messages to rank 0, sizes from 4 B to
     * 200 KB (immediate and rendezvous); rank 0 receives them all with ANY_SOURCE and ANY_TAG and
     * checks that each sender's arrive whole and in order, whichever driver carried them.
     */
    private static void mixed(int n) {
        try (Ferry f = Ferry.init()) {
            Comm w = f.world();
            List<Request> sends = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int len = i % 10 == 0 ? 50_000 : 2 + i % 17;
                int[] msg = new int[len];
                msg[0] = i;
                msg[len - 1] = w.rank();
                sends.add(w.isend(msg, 0, len, 0, i % 5));
                if (w.rank() == 0) {
                    continue; // rank 0 receives below, after starting all its sends to itself
                }
            }
            if (w.rank() == 0) {
                int[] next = new int[w.size()];
                int[] into = new int[50_000];
                for (int k = 0; k < n * w.size(); k++) {
                    Status s = w.recv(into, 0, into.length, Ferry.ANY_SOURCE, Ferry.ANY_TAG);
                    int src = s.source();
                    if (into[0] != next[src] || into[s.count() - 1] != src || s.tag() != next[src] % 5) {
                        throw new IllegalStateException("from rank " + src + ": message " + into[0] + " (tag " + s.tag() + ") where " + next[src] + " was due");
                    }
                    next[src]++;
                }
                System.out.println("ok mixed rank 0: " + n + " messages from each of " + w.size() + " ranks, in order per sender");
            }
            Request.waitAll(sends.toArray(Request[]::new));
            // the job ends together: rank 0 tells everyone it has all
            if (w.rank() == 0) {
                for (int r = 1; r < w.size(); r++) {
                    w.send(new byte[0], 0, 0, r, 99);
                }
            } else {
                w.recv(new byte[0], 0, 0, 0, 99);
            }
        }
    }

    /**
     * Rank 2 dies (halts) once the others have a receive posted for it: their receives from it, and
     * their ANY_SOURCE ones, fail naming it; they still talk to each other.
     */
    /** The randomized collectives of {@link CollectivesTest}, blocking then non-blocking, on the world and on a split half. */
    private static void collectives(long seed, int trials) {
        try (Ferry f = Ferry.init()) {
            Comm w = f.world();
            RandomCollectives.randomCollectives(w, seed, trials, false);
            RandomCollectives.randomCollectives(w, seed + 1, trials / 2, true);
            largeBcasts(w);
            try (Comm half = w.split(w.rank() % 2, w.size() - w.rank())) {
                RandomCollectives.randomCollectives(half, seed + 2, trials / 2, false);
            }
            System.out.println("ok collectives rank " + w.rank() + " of " + w.size() + " ran " + new java.util.TreeSet<>(RandomCollectives.USED));
        }
    }

    /**
     * A bcast of several of the arena's chunks and a part of one (1,000,003 bytes) from every root,
     * each byte checked: the chunks arrive whole and in their places.
     */
    private static void largeBcasts(Comm w) {
        byte[] b = new byte[1_000_003];
        for (int root = 0; root < w.size(); root++) {
            for (int i = 0; i < b.length; i++) {
                b[i] = w.rank() == root ? pattern(i, root) : 0;
            }
            w.bcast(b, 0, b.length, Datatype.BYTE, root);
            RandomCollectives.USED.add("bcast:" + w.lastCollectiveAlgorithm());
            for (int i = 0; i < b.length; i++) {
                if (b[i] != pattern(i, root)) {
                    throw new IllegalStateException("rank " + w.rank() + ", bcast of " + b.length + " B from " + root + ": byte " + i + " is " + b[i]);
                }
            }
        }
    }

    /** A byte that depends on every bit of its index: a chunk in another's place shows. */
    private static byte pattern(int i, int root) {
        return (byte) ((i * 0x9E3779B1) >>> 24 ^ root);
    }

    /**
     * Large blocking allreduces and bcasts on the world of a job over several nodes: within each
     * node through its shared arena. Sizes grow (the slots grow with them), roots and operations
     * change, and a non-blocking allreduce (never through the arena) comes between; every element
     * is checked. Prints the algorithms each rank used.
     */
    private static void nodeArena() {
        try (Ferry f = Ferry.init()) {
            Comm w = f.world();
            int p = w.size(), me = w.rank();
            java.util.Set<String> used = new java.util.TreeSet<>();
            int round = 0;
            for (int n : new int[] {20_000, 50_000, 150_000, 50_000}) {
                round++;
                long[] mine = new long[n], sum = new long[n], max = new long[n];
                for (int i = 0; i < n; i++) {
                    mine[i] = (long) (me + 1) * (i + round);
                }
                w.allreduce(mine, 0, sum, 0, n, Datatype.LONG, Op.SUM);
                used.add("allreduce:" + w.lastCollectiveAlgorithm());
                w.iallreduce(mine, 0, max, 0, n, Datatype.LONG, Op.MAX).await();
                double[] data = new double[n];
                int root = round % p;
                if (me == root) {
                    for (int i = 0; i < n; i++) {
                        data[i] = i * 0.5 + round;
                    }
                }
                w.bcast(data, 0, n, Datatype.DOUBLE, root);
                used.add("bcast:" + w.lastCollectiveAlgorithm());
                long ranks = (long) p * (p + 1) / 2;
                for (int i = 0; i < n; i++) {
                    if (sum[i] != ranks * (i + round) || max[i] != (long) p * (i + round) || data[i] != i * 0.5 + round) {
                        throw new IllegalStateException("round " + round + ", element " + i + " of " + n + ": sum " + sum[i]
                                + ", max " + max[i] + ", bcast " + data[i]);
                    }
                }
            }
            System.out.println("ok node-arena rank " + me + " of " + p + " ran " + used);
        }
    }

    /**
     * The arena's bcast on one node of 3 JVMs, as the rule picks it at 64 KiB: the root leaves
     * once its data is in its slot, before rank 2 has even begun (rank 2 waits for the root's word
     * that it left, within a bound), and its next bcast writes the slot only after rank 2 has
     * copied the first one out. Each rank then roots one. Then rank 2 dies without taking part in
     * a bcast whose data it owes the root a receipt for: the root's next bcast or the one after
     * fails PROC_FAILED, and so does rank 1's.
     */
    private static void arenaBcast() {
        try (Ferry f = Ferry.init()) {
            Comm w = f.world();
            int me = w.rank(), n = 8192;
            double[] a = new double[n];
            w.bcast(a, 0, n, Datatype.DOUBLE, 1); // the first use maps the slots: a collective step of its own
            java.util.Arrays.fill(a, me == 0 ? 1 : -1);
            if (me == 2) {
                Request left = w.irecv(new byte[0], 0, 0, 0, 5);
                if (!left.awaitUntil(System.nanoTime() + 60_000_000_000L)) {
                    throw new IllegalStateException("rank 2: the root did not leave its bcast within 60 s while rank 2 had not begun");
                }
            }
            w.bcast(a, 0, n, Datatype.DOUBLE, 0);
            String alg = w.lastCollectiveAlgorithm();
            expect(a, 1, "bcast 1", me);
            if (me == 0) {
                w.send(new byte[0], 0, 0, 2, 5);
                java.util.Arrays.fill(a, 2); // at once into the slot again, while rank 2 may still read the first
            }
            w.bcast(a, 0, n, Datatype.DOUBLE, 0);
            expect(a, 2, "bcast 2", me);
            for (int root = 0; root < w.size(); root++) {
                java.util.Arrays.fill(a, me == root ? 10 + root : -1);
                w.bcast(a, 0, n, Datatype.DOUBLE, root);
                expect(a, 10 + root, "bcast from " + root, me);
            }
            System.out.println("ok arena-bcast rank " + me + " ran " + alg);
            System.out.flush();
            if (me == 2) {
                Runtime.getRuntime().halt(3);
            }
            long t0 = System.nanoTime();
            for (int k = 1; k <= 2; k++) {
                try {
                    w.bcast(a, 0, n, Datatype.DOUBLE, 0);
                } catch (FerryException e) {
                    if (e.errorClass() != ErrorClass.PROC_FAILED) {
                        throw e;
                    }
                    System.out.println("ok arena-bcast rank " + me + ": bcast " + k + " after rank 2 died failed PROC_FAILED within "
                            + (System.nanoTime() - t0) / 1_000_000 + " ms");
                    return;
                }
            }
            throw new IllegalStateException("rank " + me + ": two bcasts completed although rank 2 died before the first");
        }
    }

    /**
     * Two JVMs on one node: rank 1 sends rank 0 a stream of 4 MiB messages from native memory, which
     * the two copy together (rank 1 writes its share while it waits), and halts in the middle of the
     * stream, 1 ms into its 21st send. Rank 0 checks every message it receives whole, then its
     * receive fails PROC_FAILED naming rank 1 within a bound, whatever the halt interrupted.
     */
    private static void splitDead() {
        try (Ferry f = Ferry.init()) {
            Comm w = f.world();
            int size = 4 << 20;
            MemorySegment buf = Arena.global().allocate(size, 64);
            for (int i = 8; i < size; i++) {
                buf.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + (i >> 12)));
            }
            if (w.rank() == 1) {
                java.util.concurrent.atomic.AtomicInteger sending = new java.util.concurrent.atomic.AtomicInteger();
                Thread killer = new Thread(() -> {
                    while (sending.get() < 21) {
                        Thread.onSpinWait();
                    }
                    long end = System.nanoTime() + 1_000_000;
                    while (System.nanoTime() < end) {
                        Thread.onSpinWait();
                    }
                    Runtime.getRuntime().halt(3);
                });
                killer.setDaemon(true);
                killer.start();
                for (long k = 1; ; k++) {
                    buf.set(ValueLayout.JAVA_LONG, 0, k);
                    sending.set((int) k);
                    w.send(buf, 0, size, Datatype.BYTE, 0, 1);
                }
            }
            MemorySegment expected = Arena.global().allocate(size, 64);
            expected.copyFrom(buf);
            long whole = 0;
            long t0 = 0;
            try {
                while (true) {
                    buf.fill((byte) 0);
                    Status s = w.recv(buf, 0, size, Datatype.BYTE, 1, 1);
                    long k = buf.get(ValueLayout.JAVA_LONG, 0);
                    if (s.count() != size || k != whole + 1 || MemorySegment.mismatch(buf, 8, size, expected, 8, size) >= 0) {
                        throw new IllegalStateException("message " + (whole + 1) + " arrived wrong: number " + k + ", " + s.count() + " bytes");
                    }
                    whole++;
                    t0 = System.nanoTime();
                }
            } catch (FerryException e) {
                if (e.errorClass() != ErrorClass.PROC_FAILED || !e.getMessage().contains("rank 1")) {
                    throw e;
                }
            }
            System.out.println("ok split-dead rank 0: " + whole + " messages whole, then PROC_FAILED naming rank 1 within "
                    + (System.nanoTime() - t0) / 1_000_000 + " ms of the last");
        }
    }

    private static void expect(double[] a, double v, String what, int rank) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] != v) {
                throw new IllegalStateException("rank " + rank + ", " + what + ": element " + i + " is " + a[i] + ", not " + v);
            }
        }
    }

    /** Rank 2 dies between two allreduces; the others' next allreduce fails PROC_FAILED within a bound. */
    private static void collectiveDead() {
        try (Ferry f = Ferry.init()) {
            Comm w = f.world();
            int[] sum = new int[1];
            w.allreduce(new int[] {1}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
            if (w.rank() == 2) {
                System.out.println("ok collective-dead rank 2 dies after an allreduce of " + sum[0]);
                System.out.flush();
                Runtime.getRuntime().halt(3);
            }
            long t0 = System.nanoTime();
            try {
                w.allreduce(new int[] {1}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
                throw new IllegalStateException("an allreduce with a dead member completed: " + sum[0]);
            } catch (FerryException e) {
                if (e.errorClass() != ErrorClass.PROC_FAILED) {
                    throw e;
                }
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("ok collective-dead rank " + w.rank() + ": allreduce failed PROC_FAILED within " + ms + " ms");
        }
    }

    private static void dead() throws Exception {
        try (Ferry f = Ferry.init(); java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            Comm w = f.world();
            if (w.rank() == 2) {
                w.recv(new byte[0], 0, 0, 0, 1);
                w.recv(new byte[0], 0, 0, 1, 1);
                System.out.println("ok dead rank 2 dies");
                System.out.flush();
                Runtime.getRuntime().halt(3);
            }
            Request fromIt = w.irecv(new int[1], 0, 1, 2, 0);
            // native, larger than a packet and of a tag no earlier receive takes: in agent mode it is armed for the agent to match
            java.lang.foreign.MemorySegment big = arena.allocate(1 << 20);
            Request any = w.irecv(big, 0L, big.byteSize(), Datatype.BYTE, Ferry.ANY_SOURCE, 7);
            boolean counted = "on".equals(System.getenv("FERRY_JMX")); // the counters are published then
            long armed = counted ? AgentMatchRanks.counters(w.rank()).getOrDefault("receives armed for the agent", 0L) : -1;
            w.send(new byte[0], 0, 0, 2, 1);
            long t0 = System.nanoTime();
            for (Request r : new Request[] {fromIt, any}) {
                try {
                    r.await();
                    throw new IllegalStateException("a receive involving the dead rank completed: " + r.status());
                } catch (FerryException e) { // from any rank: another's message could still match it, so ULFM's PENDING
                    ErrorClass expected = r == any ? ErrorClass.PROC_FAILED_PENDING : ErrorClass.PROC_FAILED;
                    if (e.errorClass() != expected || !e.getMessage().contains("rank 2")) {
                        throw e;
                    }
                }
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            int[] v = {w.rank()};
            w.sendrecvReplace(v, 0, 1, Datatype.INT, 1 - w.rank(), 5, 1 - w.rank(), 5);
            if (v[0] != 1 - w.rank()) {
                throw new IllegalStateException("the survivors' exchange gave " + v[0]);
            }
            System.out.println("ok dead rank " + w.rank() + ": both receives failed (PROC_FAILED, PROC_FAILED_PENDING) naming rank 2 within " + ms + " ms; the survivors still talk");
            if (counted) {
                System.out.println("ok dead rank " + w.rank() + ": receives armed for the agent " + armed);
            }
        }
    }

    /**
     * Every rank talks to rank 1, then rank 1 throws out of its try block while the others wait
     * in a receive from it; each prints how long its receive took to fail, and why.
     */
    private static void throwsWhileOthersWait() {
        try (Ferry f = Ferry.init()) {
            Comm w = f.world();
            int[] v = {w.rank()};
            if (w.rank() == 1) {
                for (int k = 0; k < w.size(); k++) {
                    if (k != 1) {
                        w.sendrecvReplace(v, 0, 1, Datatype.INT, k, 1, k, 1);
                    }
                }
                w.barrier();
                throw new IllegalStateException("rank 1 fails on purpose");
            }
            w.sendrecvReplace(v, 0, 1, Datatype.INT, 1, 1, 1, 1);
            w.barrier();
            long t0 = System.nanoTime();
            try {
                w.recv(new int[1], 0, 1, 1, 2);
                throw new IllegalStateException("a receive from the rank that threw completed");
            } catch (FerryException e) {
                System.out.println("ok throws rank " + w.rank() + ": the receive from rank 1 failed " + e.errorClass() + " after "
                        + (System.nanoTime() - t0) / 1_000_000 + " ms: " + e.getMessage());
            }
        }
    }

    /**
     * Rank 0 sleeps {@code ms} without calling Ferry, then sends every other rank a word; they wait
     * for it in a blocking receive. Each prints its process's CPU as a share of a core over the wait
     * and over its second half (the steady state, without the JIT's start-up work).
     *
     * <pre>
     *   bin/ferry run -n 4 --ranks-per-node 2 -cp ferry-api/target/test-classes dev.ferry.ApiRanks idle 20000
     * </pre>
     */
    private static void idle(long ms) throws InterruptedException {
        try (Ferry f = Ferry.init()) {
            Comm w = f.world();
            w.sendrecv(new byte[0], 0, 0, Datatype.BYTE, (w.rank() + 1) % w.size(), 1,
                    new byte[0], 0, 0, Datatype.BYTE, (w.rank() + w.size() - 1) % w.size(), 1); // every rank is up
            var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime(), t0 = System.nanoTime();
            long[] half = new long[2];
            Thread midway = Thread.ofPlatform().daemon().start(() -> {
                try {
                    Thread.sleep(ms / 2);
                } catch (InterruptedException e) {
                    return;
                }
                half[0] = os.getProcessCpuTime();
                half[1] = System.nanoTime();
            });
            if (w.rank() == 0) {
                Thread.sleep(ms);
                for (int r = 1; r < w.size(); r++) {
                    w.send(new byte[1], 0, 1, r, 2);
                }
            } else {
                w.recv(new byte[1], 0, 1, 0, 2);
            }
            long cpu1 = os.getProcessCpuTime(), t1 = System.nanoTime();
            midway.join();
            System.out.printf("ok idle rank %d (%s): %.1f ms of CPU in %.0f ms, %.2f%% of a core; second half %.2f%%%n", w.rank(),
                    w.rank() == 0 ? "sleeping, no Ferry call" : "blocked in recv", (cpu1 - cpu0) / 1e6, (t1 - t0) / 1e6,
                    100.0 * (cpu1 - cpu0) / (t1 - t0), 100.0 * (cpu1 - half[0]) / (t1 - half[1]));
        }
    }
}
