package dev.ferry.portals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.function.Consumer;

import static dev.ferry.portals.Portals.*;

/**
 * Rank programs for the library's multi-process tests, run under {@code ferry run}'s job runner.
 * Each prints {@code ok ...} lines the test checks and throws (exit status 1) on any error.
 * <ul>
 *   <li>{@code ops}: every rank puts every size class (0 B .. 4 MiB + 3, across the inline /
 *       separate-data boundary) into every rank's window, itself included, checks every byte it
 *       received, then gets every size back from every rank and checks it;</li>
 *   <li>{@code hammer}: every rank does fetch-add and compare-and-swap increments on one counter
 *       at rank 0; rank 0 checks the final value and that the old values returned are all
 *       different (each increment saw its own value);</li>
 *   <li>{@code failure}: rank 2 dies; rank 0's get from it fails with NI_UNDELIVERABLE, and
 *       ranks 0 and 1 carry on;</li>
 *   <li>{@code direct}: rank 1 publishes an entry on {@code memAlloc} memory, then makes no
 *       Portals call; rank 0's put, fetch-add, get and compare-and-swap on it complete all the
 *       same (direct access to rank 1's shared memory), and rank 1 sees them land; once rank 1
 *       unlinked the entry, rank 0's put goes by message and is dropped;</li>
 *   <li>{@code order}: rank 0 puts a value by message (to an entry that counts into a counter
 *       a triggered operation waits on, so not published) and then another to the same memory through a published entry; the second
 *       must land last (write-after-write order), every time;</li>
 *   <li>{@code flood}: rank 0 puts {@code n} 1000-byte messages to rank 1, which computes for
 *       3 s without a Portals call first: rank 0 waits for room rather than queueing them all
 *       (the job runs with a small heap), and every put lands and is acknowledged;</li>
 *   <li>{@code offload}: rank 1 publishes an entry on {@code memAlloc} memory, then makes no
 *       Portals call (and says so by creating the file {@code FERRY_TEST_SIGNAL}); rank 0's {@code n} puts of 1000 bytes and a flag into it land and are
 *       acknowledged all the same: with rank 1 on another node in agent mode, its node's agent
 *       performs and acknowledges them (rank 1 says how many it served); else rank 1's progress
 *       thread does. With {@code counted} the entry counts them, and rank 1 then says the count;
 *       then it waits for a triggered increment on it, which rank 0's next put fires (served
 *       by the agent too in agent mode: rank 1's progress fires it on the agent's count);</li>
 *   <li>{@code throws}: rank 1 throws before a barrier the others enter, and finalizes on its way
 *       out: their barrier fails naming it (once it released them, and all hung in fini).</li>
 * </ul>
 */
public final class PortalsRanks {
    static final long[] SIZES = {0, 1, 8, 1000, 4000, 8000, 8081, 16300, 65536, 262147, (4 << 20) + 3};
    static final long MAX = (4 << 20) + 8;

    private PortalsRanks() {
    }

    public static void main(String[] args) {
        try (PortalsLibrary p = PortalsLibrary.open()) {
            run(p, System.out::println, args);
        }
        System.out.flush();
    }

    /** Runs program {@code args} as this rank of {@code p}'s job, saying what it did through {@code out}. */
    static void run(PortalsLibrary p, Consumer<String> out, String... args) {
        switch (args[0]) {
            case "ops" -> ops(p, out, args.length > 1 && args[1].equals("direct"));
            case "hammer" -> hammer(p, out, Integer.parseInt(args[1]));
            case "failure" -> failure(p, out);
            case "direct" -> direct(p, out);
            case "order" -> order(p, out, Integer.parseInt(args[1]));
            case "throws" -> throwing(p, out);
            case "flood" -> flood(p, out, Integer.parseInt(args[1]));
            case "idle" -> idle(p, out, Long.parseLong(args[1]));
            case "offload" -> offload(p, out, Integer.parseInt(args[1]), args.length > 2 && args[2].equals("counted"));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static byte pattern(int src, long size, long i) {
        return (byte) (src * 31 + size * 7 + i * 13 + (i >>> 8));
    }

    static void fill(MemorySegment m, int src, long size) {
        for (long i = 0; i < size; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, pattern(src, size, i));
        }
    }

    static void check(MemorySegment m, int src, long size, String what) {
        for (long i = 0; i < size; i++) {
            if (m.get(ValueLayout.JAVA_BYTE, i) != pattern(src, size, i)) {
                throw new IllegalStateException(what + ": byte " + i + " of " + size + " from rank " + src + " is wrong");
            }
        }
    }

    /** With {@code direct}, the windows are memAlloc memory and count nothing: same-node peers put and get directly. */
    private static void ops(PortalsLibrary p, Consumer<String> out, boolean direct) {
        NiHandle ni = p.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = p.getId(ni).rank;
        int size = p.getMap(ni, 0).actualMapSize();
        int pt = p.ptAlloc(ni, 0, EQ_NONE, 5);
        MemorySegment window = direct ? p.memAlloc(MAX * size) : Arena.ofShared().allocate(MAX * size, 4096);
        CtHandle tct = p.ctAlloc(ni);
        Me me = new Me();
        me.start = window;
        me.length = window.byteSize();
        me.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE | (direct ? 0 : ME_EVENT_CT_COMM);
        me.ctHandle = tct;
        me.matchBits = 0xF00DL;
        p.meAppend(ni, pt, me, PRIORITY_LIST, null);
        MemorySegment mine = Arena.ofShared().allocate(MAX, 4096);
        MemorySegment back = Arena.ofShared().allocate(MAX, 4096);
        CtHandle ict = p.ctAlloc(ni);
        Md md = new Md();
        md.start = mine;
        md.length = MAX;
        md.options = MD_EVENT_CT_ACK;
        md.ctHandle = ict;
        MdHandle putMd = p.mdBind(ni, md);
        Md bmd = new Md();
        bmd.start = back;
        bmd.length = MAX;
        bmd.options = MD_EVENT_CT_REPLY;
        bmd.ctHandle = ict;
        MdHandle getMd = p.mdBind(ni, bmd);
        p.barrier();
        long acks = 0;
        long ops = 0;
        for (long s : SIZES) {
            fill(mine, rank, s);
            for (int t = 0; t < size; t++) {
                p.put(putMd, 0, s, CT_ACK_REQ, ProcessId.ofRank(t), pt, 0xF00DL, rank * MAX, null, s);
            }
            acks += size;
            CtEvent c = p.ctWait(ict, acks);
            if (c.failure() != 0) {
                throw new IllegalStateException("a put of " + s + " bytes failed: " + c);
            }
            ops += size;
            p.barrier(); // everyone's puts of this size are in
            for (int src = 0; src < size; src++) {
                check(window.asSlice(src * MAX, s), src, s, "put");
            }
            for (int t = 0; t < size; t++) {
                p.get(getMd, 0, s, ProcessId.ofRank(t), pt, 0xF00DL, t * MAX, null);
                acks++;
                c = p.ctWait(ict, acks);
                if (c.failure() != 0) {
                    throw new IllegalStateException("a get of " + s + " bytes failed: " + c);
                }
                check(back, t, s, "get from rank " + t);
            }
            ops += size;
            p.barrier(); // nobody overwrites a window someone still reads
        }
        if (direct) {
            out.accept("ok ops direct rank " + rank + " of " + size + ": " + SIZES.length + " sizes put to and got from every rank, every byte checked; "
                    + p.directOps() + " of " + ops + " done directly; " + agentServed(p) + " served by the node agent");
            return;
        }
        CtEvent served = p.ctGet(tct);
        if (served.success() != ops || served.failure() != 0) {
            throw new IllegalStateException("this rank's window saw " + served + ", expected " + ops + " operations");
        }
        out.accept("ok ops rank " + rank + " of " + size + ": " + SIZES.length + " sizes put to and got from every rank, every byte checked; "
                + served.success() + " operations served");
    }

    /** {@code n} fetch-adds and {@code n} compare-and-swap increments per rank on rank 0's counter. */
    private static void hammer(PortalsLibrary p, Consumer<String> out, int n) {
        NiHandle ni = p.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = p.getId(ni).rank;
        int size = p.getMap(ni, 0).actualMapSize();
        int pt = p.ptAlloc(ni, 0, EQ_NONE, 0);
        MemorySegment counter = p.memAlloc(8); // shared memory: rank 1, on rank 0's node, adds to it directly
        MemorySegment olds = Arena.ofShared().allocate(8L * 2 * n * size, 8);
        if (rank == 0) {
            Me c = new Me();
            c.start = counter;
            c.length = 8;
            c.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE;
            c.matchBits = 1;
            p.meAppend(ni, pt, c, PRIORITY_LIST, null);
            Me o = new Me();
            o.start = olds;
            o.length = olds.byteSize();
            o.options = ME_OP_PUT | ME_EVENT_LINK_DISABLE;
            o.matchBits = 2;
            p.meAppend(ni, pt, o, PRIORITY_LIST, null);
        }
        p.barrier();
        MemorySegment buf = Arena.ofShared().allocate(32, 8);
        MemorySegment mineOld = Arena.ofShared().allocate(8L * 2 * n, 8);
        CtHandle ct = p.ctAlloc(ni);
        Md md = new Md();
        md.start = buf;
        md.length = 32;
        md.options = MD_EVENT_CT_REPLY | MD_EVENT_CT_ACK;
        md.ctHandle = ct;
        MdHandle d = p.mdBind(ni, md);
        ProcessId zero = ProcessId.ofRank(0);
        long done = 0;
        buf.set(ValueLayout.JAVA_LONG, 0, 1);
        int k = 0;
        int retries = 0;
        MemorySegment expected = Arena.ofShared().allocate(8, 8);
        long guess = 0;
        for (int i = 0; i < n; i++) {
            p.fetchAtomic(d, 8, d, 0, 8, zero, pt, 1, 0, null, 0, SUM, INT64_T);
            waitOk(p, ct, ++done);
            mineOld.set(ValueLayout.JAVA_LONG, 8L * k++, buf.get(ValueLayout.JAVA_LONG, 8));
            // an increment by compare-and-swap: retry with what the target had until it takes
            while (true) {
                expected.set(ValueLayout.JAVA_LONG, 0, guess);
                buf.set(ValueLayout.JAVA_LONG, 16, guess + 1);
                p.swap(d, 24, d, 16, 8, zero, pt, 1, 0, null, 0, expected, CSWAP, INT64_T);
                waitOk(p, ct, ++done);
                long old = buf.get(ValueLayout.JAVA_LONG, 24);
                if (old == guess) {
                    mineOld.set(ValueLayout.JAVA_LONG, 8L * k++, old);
                    guess = old + 1;
                    break;
                }
                guess = old;
                retries++;
            }
        }
        Md om = new Md();
        om.start = mineOld;
        om.length = mineOld.byteSize();
        om.options = MD_EVENT_CT_ACK;
        om.ctHandle = ct;
        p.put(p.mdBind(ni, om), 0, mineOld.byteSize(), CT_ACK_REQ, zero, pt, 2, rank * mineOld.byteSize(), null, 0);
        waitOk(p, ct, ++done);
        p.barrier();
        if (rank == 0) {
            long total = 2L * n * size;
            long fin = counter.get(ValueLayout.JAVA_LONG, 0);
            long[] all = olds.toArray(ValueLayout.JAVA_LONG);
            Arrays.sort(all);
            for (int i = 0; i < all.length; i++) {
                if (all[i] != i) {
                    throw new IllegalStateException("old values are not each of 0.." + (total - 1) + " exactly once: at " + i + " found " + all[i]);
                }
            }
            if (fin != total) {
                throw new IllegalStateException("counter " + fin + ", expected " + total);
            }
            out.accept("ok hammer: counter " + fin + " = " + size + " ranks x " + n + " x (fetch-add + compare-and-swap); all " + total + " old values distinct");
        }
        out.accept("ok hammer rank " + rank + ": " + retries + " compare-and-swap retries, " + p.lib().direct.done + " operations done directly");
    }

    private static final java.lang.invoke.VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private static void direct(PortalsLibrary p, Consumer<String> out) {
        NiHandle ni = p.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = p.getId(ni).rank;
        int pt = p.ptAlloc(ni, 0, EQ_NONE, 0);
        MemorySegment window = p.memAlloc(4096);
        MeHandle entry = null;
        if (rank == 1) {
            window.set(ValueLayout.JAVA_LONG, 2048, 0x5eedL); // for rank 0's get
            Me me = new Me();
            me.start = window;
            me.length = 4096;
            me.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE;
            me.matchBits = 7;
            entry = p.meAppend(ni, pt, me, PRIORITY_LIST, null);
        }
        p.barrier();
        ProcessId one = ProcessId.ofRank(1);
        MemorySegment local = Arena.ofShared().allocate(2048, 8);
        MemorySegment compare = Arena.ofShared().allocate(8, 8);
        CtHandle ct = p.ctAlloc(ni);
        MdHandle d = countedMd(p, ni, local, ct);
        long done = 0;
        if (rank == 0) {
            // the first operation goes by message (and asks for rank 1's directory): rank 1 serves it in the barrier
            local.set(ValueLayout.JAVA_LONG, 0, 1);
            p.put(d, 0, 8, CT_ACK_REQ, one, pt, 7, 0, null, 0);
            waitOk(p, ct, ++done);
        }
        p.barrier();
        if (rank == 1) {
            // no Portals call from here until rank 0's operations have landed
            long end = System.nanoTime() + 60_000_000_000L;
            while ((long) WORD.getAcquire(window, 8L) != 3) {
                if (System.nanoTime() - end > 0) {
                    throw new IllegalStateException("rank 0's operations did not land in 60 s while rank 1 made no Portals call");
                }
                Thread.onSpinWait();
            }
            check(window.asSlice(16, 1000), 0, 1000, "a direct put");
            if (window.get(ValueLayout.JAVA_LONG, 0) != 100) {
                throw new IllegalStateException("after fetch-add 41 and a swap to 100, the word holds " + window.get(ValueLayout.JAVA_LONG, 0));
            }
            out.accept("ok direct rank 1: a put, a fetch-add and a swap landed while rank 1 made no Portals call");
        } else {
            fill(local.asSlice(1024, 1000), 0, 1000);
            p.put(d, 1024, 1000, CT_ACK_REQ, one, pt, 7, 16, null, 0);
            waitBounded(p, ct, ++done);
            local.set(ValueLayout.JAVA_LONG, 8, 41);
            p.fetchAtomic(d, 16, d, 8, 8, one, pt, 7, 0, null, 0, SUM, INT64_T);
            waitBounded(p, ct, ++done);
            p.get(d, 24, 8, one, pt, 7, 2048, null);
            waitBounded(p, ct, ++done);
            compare.set(ValueLayout.JAVA_LONG, 0, 42);
            local.set(ValueLayout.JAVA_LONG, 32, 100);
            p.swap(d, 40, d, 32, 8, one, pt, 7, 0, null, 0, compare, CSWAP, INT64_T);
            waitBounded(p, ct, ++done);
            long fetched = local.get(ValueLayout.JAVA_LONG, 16), got = local.get(ValueLayout.JAVA_LONG, 24), swapped = local.get(ValueLayout.JAVA_LONG, 40);
            if (fetched != 1 || got != 0x5eedL || swapped != 42) {
                throw new IllegalStateException("fetch-add returned " + fetched + " (1), get " + Long.toHexString(got) + " (5eed), swap " + swapped + " (42)");
            }
            local.set(ValueLayout.JAVA_LONG, 48, 3);
            p.put(d, 48, 8, CT_ACK_REQ, one, pt, 7, 8, null, 0); // the flag rank 1 waits for, last
            waitBounded(p, ct, ++done);
            long direct = p.lib().direct.done;
            if (direct != 5) {
                throw new IllegalStateException(direct + " operations were done directly, not the 5 after the first");
            }
            out.accept("ok direct rank 0: put, fetch-add, get, swap and put done directly (" + direct + ") while rank 1 made no call");
        }
        p.barrier();
        if (rank == 1) {
            p.meUnlink(entry);
        }
        p.barrier();
        if (rank == 0) {
            p.put(d, 0, 8, CT_ACK_REQ, one, pt, 7, 0, null, 0);
            CtEvent c = p.ctWait(ct, done + 1);
            if (c.failure() != 1 || p.lib().direct.done != 5) {
                throw new IllegalStateException("a put to the unlinked entry: " + c + ", direct " + p.lib().direct.done);
            }
            out.accept("ok direct rank 0: once unlinked, a put goes by message and fails");
        }
        p.barrier();
    }

    private static void order(PortalsLibrary p, Consumer<String> out, int n) {
        NiHandle ni = p.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = p.getId(ni).rank;
        int pt = p.ptAlloc(ni, 0, EQ_NONE, 0);
        MemorySegment window = p.memAlloc(64);
        CtHandle counted = p.ctAlloc(ni);
        if (rank == 1) {
            Me published = new Me();
            published.start = window;
            published.length = 64;
            published.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE;
            published.matchBits = 7;
            p.meAppend(ni, pt, published, PRIORITY_LIST, null);
            // the same memory, but it counts into a counter a triggered operation waits on: only a message reaches it
            p.triggeredCtInc(p.ctAlloc(ni), new CtEvent(1, 0), counted, Long.MAX_VALUE);
            Me viaMessage = new Me();
            viaMessage.start = window;
            viaMessage.length = 64;
            viaMessage.options = ME_OP_PUT | ME_EVENT_LINK_DISABLE | ME_EVENT_CT_COMM;
            viaMessage.matchBits = 8;
            viaMessage.ctHandle = counted;
            p.meAppend(ni, pt, viaMessage, PRIORITY_LIST, null);
        }
        p.barrier();
        if (rank == 0) {
            ProcessId one = ProcessId.ofRank(1);
            MemorySegment local = Arena.ofShared().allocate(16, 8);
            CtHandle ct = p.ctAlloc(ni);
            Md md = new Md();
            md.start = local;
            md.length = 16;
            md.options = MD_EVENT_CT_ACK;
            md.ctHandle = ct;
            MdHandle d = p.mdBind(ni, md);
            p.put(d, 0, 8, CT_ACK_REQ, one, pt, 7, 0, null, 0); // asks for the directory on the way
            waitOk(p, ct, 1);
            for (int i = 1; i <= n; i++) {
                local.set(ValueLayout.JAVA_LONG, 0, 2L * i);
                p.put(d, 0, 8, NO_ACK_REQ, one, pt, 8, 0, null, 0); // by message
                local.set(ValueLayout.JAVA_LONG, 8, 2L * i + 1);
                p.put(d, 8, 8, CT_ACK_REQ, one, pt, 7, 0, null, 0); // must not overtake it
                waitOk(p, ct, 1 + i);
            }
            out.accept("ok order rank 0: " + n + " pairs, " + p.lib().direct.done + " operations done directly");
        }
        p.barrier();
        if (rank == 1) {
            long v = window.get(ValueLayout.JAVA_LONG, 0);
            if (v != 2L * n + 1) {
                throw new IllegalStateException("the word holds " + v + ": the put sent first landed last (expected " + (2L * n + 1) + ")");
            }
            out.accept("ok order rank 1: the last put landed last (" + v + ")");
        }
    }

    /** Creates the file {@code f}: a rank's word to another that it reached a point. */
    private static void signal(java.nio.file.Path f) {
        try {
            java.nio.file.Files.createFile(f);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Waits, 60 s at most, for rank 1's {@link #signal} {@code f} that it did {@code what}. */
    private static void awaitSignal(java.nio.file.Path f, String what) {
        for (long end = System.nanoTime() + 60_000_000_000L; !java.nio.file.Files.exists(f); ) {
            if (System.nanoTime() - end > 0) {
                throw new IllegalStateException("rank 1 did not say within 60 s " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    private static void offload(PortalsLibrary p, Consumer<String> out, int n, boolean counted) {
        NiHandle ni = p.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = p.getId(ni).rank;
        int pt = p.ptAlloc(ni, 0, EQ_NONE, 0);
        // 0: the flag, 8: a counter, 16: a word to get, 24: a word to swap, 64..: the puts' data
        MemorySegment window = p.memAlloc(64 + 1000L * n);
        CtHandle arrived = p.ctAlloc(ni);
        if (rank == 1) {
            window.set(ValueLayout.JAVA_LONG, 16, 0x5eedL);
            Me me = new Me();
            me.start = window;
            me.length = window.byteSize();
            me.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE | (counted ? ME_EVENT_CT_COMM : 0);
            me.ctHandle = arrived;
            me.matchBits = 7;
            p.meAppend(ni, pt, me, PRIORITY_LIST, null);
        }
        p.barrier();
        java.nio.file.Path stopped = java.nio.file.Path.of(System.getenv("FERRY_TEST_SIGNAL"));
        if (rank == 1) {
            // no Portals call from here until rank 0's flag has landed; rank 0 starts once it knows
            // (so that nothing of the barrier's is left for rank 1 to parse, which the agent would wait for)
            signal(stopped);
            long end = System.nanoTime() + 60_000_000_000L;
            while ((long) WORD.getAcquire(window, 0L) != n) {
                if (System.nanoTime() - end > 0) {
                    throw new IllegalStateException("rank 0's operations did not land in 60 s while rank 1 made no Portals call");
                }
                Thread.onSpinWait();
            }
            for (int i = 0; i < n; i++) {
                check(window.asSlice(64 + 1000L * i, 1000), i, 1000, "put " + i);
            }
            long counter = window.get(ValueLayout.JAVA_LONG, 8), swapped = window.get(ValueLayout.JAVA_LONG, 24);
            if (counter != 42 || swapped != 100) {
                throw new IllegalStateException("after fetch-add 41 and add 1 the counter holds " + counter + ", after a swap to 100 the word " + swapped);
            }
            out.accept("ok offload rank 1: " + n + " puts, a fetch-add, an add, a get, a swap and the flag landed while rank 1 made no Portals call; "
                    + agentServed(p) + " served by the node agent");
            if (counted) {
                // every operation counted, by whoever served it; then a triggered operation waits on the
                // count: the agent still serves the entry, and this rank's progress fires it on the count
                CtEvent c = p.ctWait(arrived, n + 5);
                out.accept("ok offload rank 1: counted " + c.success() + " operations, failures " + c.failure());
                CtHandle fired = p.ctAlloc(ni);
                p.triggeredCtInc(fired, new CtEvent(1, 0), arrived, n + 6);
                p.barrier();
                signal(stopped.resolveSibling(stopped.getFileName() + "-triggered")); // the barrier parsed: the agent may serve the put
                CtEvent f = p.ctWait(fired, 1);
                out.accept("ok offload rank 1: the next put fired the triggered increment (" + f.success() + ", count " + p.ctGet(arrived).success()
                        + "); " + agentServed(p) + " served by the node agent");
            }
        } else if (rank == 0) {
            awaitSignal(stopped, "that it stopped calling");
            MemorySegment local = Arena.ofShared().allocate(64 + 1000L * n, 8);
            CtHandle ct = p.ctAlloc(ni);
            MdHandle d = countedMd(p, ni, local, ct);
            ProcessId one = ProcessId.ofRank(1);
            for (int i = 0; i < n; i++) {
                fill(local.asSlice(64 + 1000L * i, 1000), i, 1000);
                p.put(d, 64 + 1000L * i, 1000, CT_ACK_REQ, one, pt, 7, 64 + 1000L * i, null, 0);
            }
            long done = n;
            waitBounded(p, ct, done);
            local.set(ValueLayout.JAVA_LONG, 8, 41);
            p.fetchAtomic(d, 16, d, 8, 8, one, pt, 7, 8, null, 0, SUM, INT64_T);
            waitBounded(p, ct, ++done);
            local.set(ValueLayout.JAVA_LONG, 24, 1);
            p.atomic(d, 24, 8, CT_ACK_REQ, one, pt, 7, 8, null, 0, SUM, INT64_T);
            waitBounded(p, ct, ++done);
            p.get(d, 32, 8, one, pt, 7, 16, null);
            waitBounded(p, ct, ++done);
            MemorySegment compare = Arena.ofShared().allocate(8, 8); // 0: the word's value
            local.set(ValueLayout.JAVA_LONG, 40, 100);
            p.swap(d, 48, d, 40, 8, one, pt, 7, 24, null, 0, compare, CSWAP, INT64_T);
            waitBounded(p, ct, ++done);
            long fetched = local.get(ValueLayout.JAVA_LONG, 16), got = local.get(ValueLayout.JAVA_LONG, 32), old = local.get(ValueLayout.JAVA_LONG, 48);
            if (fetched != 0 || got != 0x5eedL || old != 0) {
                throw new IllegalStateException("fetch-add returned " + fetched + " (0), get " + Long.toHexString(got) + " (5eed), swap " + old + " (0)");
            }
            local.set(ValueLayout.JAVA_LONG, 0, n);
            p.put(d, 0, 8, CT_ACK_REQ, one, pt, 7, 0, null, 0); // the flag rank 1 waits for, once the rest completed
            waitBounded(p, ct, ++done);
            out.accept("ok offload rank 0: " + done + " operations completed while rank 1 made no Portals call");
            if (counted) {
                p.barrier(); // rank 1's triggered operation waits
                awaitSignal(stopped.resolveSibling(stopped.getFileName() + "-triggered"), "that it left the barrier");
                p.put(d, 0, 8, CT_ACK_REQ, one, pt, 7, 0, null, 0);
                waitBounded(p, ct, ++done);
            }
        }
        p.barrier();
    }

    /** An MD of all of {@code local} whose acks and replies {@code ct} counts. */
    private static MdHandle countedMd(PortalsLibrary p, NiHandle ni, MemorySegment local, CtHandle ct) {
        Md md = new Md();
        md.start = local;
        md.length = local.byteSize();
        md.options = MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY;
        md.ctHandle = ct;
        return p.mdBind(ni, md);
    }

    /** The messages for this rank that its node agent served by itself (its engine's figures say). */
    private static long agentServed(PortalsLibrary p) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("agent offloaded messages (\\d+)").matcher(p.lib().engine.statsLine());
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** Waits for the count with a bound: an operation that needed the silent peer would never end. */
    private static void waitBounded(PortalsLibrary p, CtHandle ct, long n) {
        CtResult r = p.ctPoll(new CtHandle[] {ct}, new long[] {n}, 1, 60_000);
        if (r.rc() != ReturnCode.OK || r.event().failure() != 0) {
            throw new IllegalStateException("an operation did not complete without the target's help in 60 s: " + r);
        }
    }

    private static void waitOk(PortalsLibrary p, CtHandle ct, long n) {
        CtEvent c = p.ctWait(ct, n);
        if (c.failure() != 0) {
            throw new IllegalStateException("an operation failed: " + c);
        }
    }

    private static void failure(PortalsLibrary p, Consumer<String> out) {
        NiHandle ni = p.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = p.getId(ni).rank;
        int pt = p.ptAlloc(ni, 0, EQ_NONE, 0);
        MemorySegment w = Arena.ofShared().allocate(1 << 20, 4096);
        Me me = new Me();
        me.start = w;
        me.length = w.byteSize();
        me.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE;
        p.meAppend(ni, pt, me, PRIORITY_LIST, null);
        EqHandle eq = p.eqAlloc(ni, 16);
        Md md = new Md();
        md.start = Arena.ofShared().allocate(1 << 20, 4096);
        md.length = 1 << 20;
        md.eqHandle = eq;
        md.options = MD_EVENT_SEND_DISABLE;
        MdHandle d = p.mdBind(ni, md);
        p.barrier();
        if (rank == 2) {
            out.accept("ok failure rank 2 dies");
            System.out.flush();
            Runtime.getRuntime().halt(3);
        }
        if (rank == 0) {
            // rank 2 dies at some moment after the barrier: until this rank learns of it, a get
            // may still read its memory (directly, on the same node); once one failed, every
            // later one must fail too
            long t0 = System.nanoTime();
            int size = 8;
            for (int attempt = 0; ; attempt++) {
                p.get(d, 0, size, ProcessId.ofRank(2), pt, 0, 0, null);
                EqResult r = p.eqPoll(new EqHandle[] {eq}, 1, 60_000);
                if (r.event() == null || r.event().type != EVENT_REPLY) {
                    throw new IllegalStateException("the get from the dying rank ended " + r);
                }
                if (r.event().niFailType == NI_UNDELIVERABLE) {
                    break;
                }
                if (System.nanoTime() - t0 > 60_000_000_000L) {
                    throw new IllegalStateException("gets from the dead rank still succeed after 60 s (" + attempt + " tries)");
                }
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            p.get(d, 0, 1 << 20, ProcessId.ofRank(2), pt, 0, 0, null);
            EqResult r = p.eqPoll(new EqHandle[] {eq}, 1, 60_000);
            if (r.event() == null || r.event().type != EVENT_REPLY || r.event().niFailType != NI_UNDELIVERABLE) {
                throw new IllegalStateException("the get from the dead rank ended " + r);
            }
            for (int i = 0; i < 50; i++) {
                p.get(d, 0, i % 2 == 0 ? 100 : 1 << 20, ProcessId.ofRank(1), pt, 0, 0, null);
                Event e = p.eqPoll(new EqHandle[] {eq}, 1, 60_000).event();
                if (e == null || e.niFailType != NI_OK) {
                    throw new IllegalStateException("a get from rank 1 after the failure: " + e);
                }
            }
            out.accept("ok failure rank 0: the get from the dead rank failed NI_UNDELIVERABLE after " + ms + " ms; 50 gets from rank 1 after it");
        }
        if (rank == 1) {
            out.accept("ok failure rank 1 served");
        }
    }

    static void throwing(PortalsLibrary p, Consumer<String> out) {
        NiHandle ni = p.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = p.getId(ni).rank;
        if (rank == 1) {
            throw new IllegalStateException("rank 1 fails on purpose");
        }
        try {
            p.barrier();
            throw new IllegalStateException("rank " + rank + " passed a barrier rank 1 never entered");
        } catch (PtlException e) {
            out.accept("ok throws rank " + rank + ": " + e.getMessage());
        }
    }

    private static void flood(PortalsLibrary p, Consumer<String> out, int n) {
        NiHandle ni = p.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = p.getId(ni).rank;
        int pt = p.ptAlloc(ni, 0, EQ_NONE, 0);
        CtHandle ct = p.ctAlloc(ni);
        MemorySegment buf = Arena.ofShared().allocate(1000, 8); // not memAlloc: by message, never directly
        if (rank == 1) {
            Me me = new Me();
            me.start = buf;
            me.length = buf.byteSize();
            me.options = ME_OP_PUT | ME_EVENT_LINK_DISABLE | ME_EVENT_CT_COMM;
            me.ctHandle = ct;
            p.meAppend(ni, pt, me, PRIORITY_LIST, null);
        }
        p.barrier();
        if (rank == 1) {
            long x = 0;
            for (long end = System.nanoTime() + 3_000_000_000L; System.nanoTime() - end < 0; ) {
                x += x * 31 + 7; // a target that computes and makes no Portals call
            }
            waitOk(p, ct, n);
            out.accept("ok flood rank 1 received " + n + " puts (" + (x & 1) + ")");
        } else if (rank == 0) {
            Md md = new Md();
            md.start = buf;
            md.length = buf.byteSize();
            md.options = MD_EVENT_CT_ACK;
            md.ctHandle = ct;
            MdHandle d = p.mdBind(ni, md);
            ProcessId one = ProcessId.ofRank(1);
            for (int i = 0; i < n; i++) {
                p.put(d, 0, buf.byteSize(), CT_ACK_REQ, one, pt, 0, 0, null, 0);
            }
            waitOk(p, ct, n);
            int[] peak = p.inflightPeakAndBound();
            if (peak[0] > peak[1]) {
                throw new IllegalStateException(peak[0] + " inline messages waited to leave, over the bound of " + peak[1]);
            }
            out.accept("ok flood rank 0: " + n + " puts acknowledged; at most " + peak[0] + " waited to leave (bound " + peak[1] + ")");
        }
        p.barrier();
    }

    /**
     * What idling costs: rank 0 sleeps {@code ms} without a Portals call (its passive progress
     * thread on duty) while the others wait for it in a barrier; each rank reports the CPU time
     * its whole JVM used meanwhile, as a share of one core.
     */
    private static void idle(PortalsLibrary p, Consumer<String> out, long ms) {
        p.barrier();
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        // the second half of the wait shows the steady state, without the JIT's work after start-up
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
        if (p.rank() == 0) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        p.barrier();
        long cpu1 = os.getProcessCpuTime();
        long t1 = System.nanoTime();
        try {
            midway.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        out.accept(String.format("ok idle rank %d (%s): %.1f ms of CPU in %.0f ms, %.2f%% of a core; second half %.2f%%", p.rank(),
                p.rank() == 0 ? "sleeping, no Portals call" : "waiting in barrier", (cpu1 - cpu0) / 1e6, (t1 - t0) / 1e6,
                100.0 * (cpu1 - cpu0) / (t1 - t0), 100.0 * (cpu1 - half[0]) / (t1 - half[1])));
    }
}
