package dev.ferry.portals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

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
 *   <li>{@code order}: rank 0 puts a value by message (to an entry that counts, so not
 *       published) and then another to the same memory through a published entry; the second
 *       must land last (write-after-write order), every time;</li>
 *   <li>{@code flood}: rank 0 puts {@code n} 1000-byte messages to rank 1, which computes for
 *       3 s without a Portals call first: rank 0 waits for room rather than queueing them all
 *       (the job runs with a small heap), and every put lands and is acknowledged;</li>
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
        init();
        try {
            switch (args[0]) {
                case "ops" -> ops(args.length > 1 && args[1].equals("direct"));
                case "hammer" -> hammer(Integer.parseInt(args[1]));
                case "failure" -> failure();
                case "direct" -> direct();
                case "order" -> order(Integer.parseInt(args[1]));
                case "throws" -> throwing();
                case "flood" -> flood(Integer.parseInt(args[1]));
                default -> throw new IllegalArgumentException(args[0]);
            }
        } finally {
            fini();
        }
        System.out.flush();
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
    private static void ops(boolean direct) {
        NiHandle ni = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = getId(ni).rank;
        int size = getMap(ni, 0).actualMapSize();
        int pt = ptAlloc(ni, 0, EQ_NONE, 5);
        MemorySegment window = direct ? memAlloc(MAX * size) : Arena.ofShared().allocate(MAX * size, 4096);
        CtHandle tct = ctAlloc(ni);
        Me me = new Me();
        me.start = window;
        me.length = window.byteSize();
        me.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE | (direct ? 0 : ME_EVENT_CT_COMM);
        me.ctHandle = tct;
        me.matchBits = 0xF00DL;
        meAppend(ni, pt, me, PRIORITY_LIST, null);
        MemorySegment mine = Arena.ofShared().allocate(MAX, 4096);
        MemorySegment back = Arena.ofShared().allocate(MAX, 4096);
        CtHandle ict = ctAlloc(ni);
        Md md = new Md();
        md.start = mine;
        md.length = MAX;
        md.options = MD_EVENT_CT_ACK;
        md.ctHandle = ict;
        MdHandle putMd = mdBind(ni, md);
        Md bmd = new Md();
        bmd.start = back;
        bmd.length = MAX;
        bmd.options = MD_EVENT_CT_REPLY;
        bmd.ctHandle = ict;
        MdHandle getMd = mdBind(ni, bmd);
        barrier();
        long acks = 0;
        long ops = 0;
        for (long s : SIZES) {
            fill(mine, rank, s);
            for (int t = 0; t < size; t++) {
                put(putMd, 0, s, ACK_REQ, ProcessId.ofRank(t), pt, 0xF00DL, rank * MAX, null, s);
            }
            acks += size;
            CtEvent c = ctWait(ict, acks);
            if (c.failure() != 0) {
                throw new IllegalStateException("a put of " + s + " bytes failed: " + c);
            }
            ops += size;
            barrier(); // everyone's puts of this size are in
            for (int src = 0; src < size; src++) {
                check(window.asSlice(src * MAX, s), src, s, "put");
            }
            for (int t = 0; t < size; t++) {
                get(getMd, 0, s, ProcessId.ofRank(t), pt, 0xF00DL, t * MAX, null);
                acks++;
                c = ctWait(ict, acks);
                if (c.failure() != 0) {
                    throw new IllegalStateException("a get of " + s + " bytes failed: " + c);
                }
                check(back, t, s, "get from rank " + t);
            }
            ops += size;
            barrier(); // nobody overwrites a window someone still reads
        }
        if (direct) {
            System.out.println("ok ops direct rank " + rank + " of " + size + ": " + SIZES.length + " sizes put to and got from every rank, every byte checked; "
                    + directOps() + " of " + ops + " done directly");
            return;
        }
        CtEvent served = ctGet(tct);
        if (served.success() != ops || served.failure() != 0) {
            throw new IllegalStateException("this rank's window saw " + served + ", expected " + ops + " operations");
        }
        System.out.println("ok ops rank " + rank + " of " + size + ": " + SIZES.length + " sizes put to and got from every rank, every byte checked; "
                + served.success() + " operations served");
    }

    /** {@code n} fetch-adds and {@code n} compare-and-swap increments per rank on rank 0's counter. */
    private static void hammer(int n) {
        NiHandle ni = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = getId(ni).rank;
        int size = getMap(ni, 0).actualMapSize();
        int pt = ptAlloc(ni, 0, EQ_NONE, 0);
        MemorySegment counter = memAlloc(8); // shared memory: rank 1, on rank 0's node, adds to it directly
        MemorySegment olds = Arena.ofShared().allocate(8L * 2 * n * size, 8);
        if (rank == 0) {
            Me c = new Me();
            c.start = counter;
            c.length = 8;
            c.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE;
            c.matchBits = 1;
            meAppend(ni, pt, c, PRIORITY_LIST, null);
            Me o = new Me();
            o.start = olds;
            o.length = olds.byteSize();
            o.options = ME_OP_PUT | ME_EVENT_LINK_DISABLE;
            o.matchBits = 2;
            meAppend(ni, pt, o, PRIORITY_LIST, null);
        }
        barrier();
        MemorySegment buf = Arena.ofShared().allocate(32, 8);
        MemorySegment mineOld = Arena.ofShared().allocate(8L * 2 * n, 8);
        CtHandle ct = ctAlloc(ni);
        Md md = new Md();
        md.start = buf;
        md.length = 32;
        md.options = MD_EVENT_CT_REPLY | MD_EVENT_CT_ACK;
        md.ctHandle = ct;
        MdHandle d = mdBind(ni, md);
        ProcessId zero = ProcessId.ofRank(0);
        long done = 0;
        buf.set(ValueLayout.JAVA_LONG, 0, 1);
        int k = 0;
        int retries = 0;
        MemorySegment expected = Arena.ofShared().allocate(8, 8);
        long guess = 0;
        for (int i = 0; i < n; i++) {
            fetchAtomic(d, 8, d, 0, 8, zero, pt, 1, 0, null, 0, SUM, INT64_T);
            waitOk(ct, ++done);
            mineOld.set(ValueLayout.JAVA_LONG, 8L * k++, buf.get(ValueLayout.JAVA_LONG, 8));
            // an increment by compare-and-swap: retry with what the target had until it takes
            while (true) {
                expected.set(ValueLayout.JAVA_LONG, 0, guess);
                buf.set(ValueLayout.JAVA_LONG, 16, guess + 1);
                swap(d, 24, d, 16, 8, zero, pt, 1, 0, null, 0, expected, CSWAP, INT64_T);
                waitOk(ct, ++done);
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
        put(mdBind(ni, om), 0, mineOld.byteSize(), ACK_REQ, zero, pt, 2, rank * mineOld.byteSize(), null, 0);
        waitOk(ct, ++done);
        barrier();
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
            System.out.println("ok hammer: counter " + fin + " = " + size + " ranks x " + n + " x (fetch-add + compare-and-swap); all " + total + " old values distinct");
        }
        System.out.println("ok hammer rank " + rank + ": " + retries + " compare-and-swap retries, " + lib().direct.done + " operations done directly");
    }

    private static final java.lang.invoke.VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private static void direct() {
        NiHandle ni = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = getId(ni).rank;
        int pt = ptAlloc(ni, 0, EQ_NONE, 0);
        MemorySegment window = memAlloc(4096);
        MeHandle entry = null;
        if (rank == 1) {
            window.set(ValueLayout.JAVA_LONG, 2048, 0x5eedL); // for rank 0's get
            Me me = new Me();
            me.start = window;
            me.length = 4096;
            me.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE;
            me.matchBits = 7;
            entry = meAppend(ni, pt, me, PRIORITY_LIST, null);
        }
        barrier();
        ProcessId one = ProcessId.ofRank(1);
        MemorySegment local = Arena.ofShared().allocate(2048, 8);
        MemorySegment compare = Arena.ofShared().allocate(8, 8);
        CtHandle ct = ctAlloc(ni);
        Md md = new Md();
        md.start = local;
        md.length = local.byteSize();
        md.options = MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY;
        md.ctHandle = ct;
        MdHandle d = mdBind(ni, md);
        long done = 0;
        if (rank == 0) {
            // the first operation goes by message (and asks for rank 1's directory): rank 1 serves it in the barrier
            local.set(ValueLayout.JAVA_LONG, 0, 1);
            put(d, 0, 8, ACK_REQ, one, pt, 7, 0, null, 0);
            waitOk(ct, ++done);
        }
        barrier();
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
            System.out.println("ok direct rank 1: a put, a fetch-add and a swap landed while rank 1 made no Portals call");
        } else {
            fill(local.asSlice(1024, 1000), 0, 1000);
            put(d, 1024, 1000, ACK_REQ, one, pt, 7, 16, null, 0);
            waitBounded(ct, ++done);
            local.set(ValueLayout.JAVA_LONG, 8, 41);
            fetchAtomic(d, 16, d, 8, 8, one, pt, 7, 0, null, 0, SUM, INT64_T);
            waitBounded(ct, ++done);
            get(d, 24, 8, one, pt, 7, 2048, null);
            waitBounded(ct, ++done);
            compare.set(ValueLayout.JAVA_LONG, 0, 42);
            local.set(ValueLayout.JAVA_LONG, 32, 100);
            swap(d, 40, d, 32, 8, one, pt, 7, 0, null, 0, compare, CSWAP, INT64_T);
            waitBounded(ct, ++done);
            long fetched = local.get(ValueLayout.JAVA_LONG, 16), got = local.get(ValueLayout.JAVA_LONG, 24), swapped = local.get(ValueLayout.JAVA_LONG, 40);
            if (fetched != 1 || got != 0x5eedL || swapped != 42) {
                throw new IllegalStateException("fetch-add returned " + fetched + " (1), get " + Long.toHexString(got) + " (5eed), swap " + swapped + " (42)");
            }
            local.set(ValueLayout.JAVA_LONG, 48, 3);
            put(d, 48, 8, ACK_REQ, one, pt, 7, 8, null, 0); // the flag rank 1 waits for, last
            waitBounded(ct, ++done);
            long direct = lib().direct.done;
            if (direct != 5) {
                throw new IllegalStateException(direct + " operations were done directly, not the 5 after the first");
            }
            System.out.println("ok direct rank 0: put, fetch-add, get, swap and put done directly (" + direct + ") while rank 1 made no call");
        }
        barrier();
        if (rank == 1) {
            meUnlink(entry);
        }
        barrier();
        if (rank == 0) {
            put(d, 0, 8, ACK_REQ, one, pt, 7, 0, null, 0);
            CtEvent c = ctWait(ct, done + 1);
            if (c.failure() != 1 || lib().direct.done != 5) {
                throw new IllegalStateException("a put to the unlinked entry: " + c + ", direct " + lib().direct.done);
            }
            System.out.println("ok direct rank 0: once unlinked, a put goes by message and fails");
        }
        barrier();
    }

    private static void order(int n) {
        NiHandle ni = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = getId(ni).rank;
        int pt = ptAlloc(ni, 0, EQ_NONE, 0);
        MemorySegment window = memAlloc(64);
        CtHandle counted = ctAlloc(ni);
        if (rank == 1) {
            Me published = new Me();
            published.start = window;
            published.length = 64;
            published.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE;
            published.matchBits = 7;
            meAppend(ni, pt, published, PRIORITY_LIST, null);
            Me viaMessage = new Me(); // the same memory, but it counts: only a message reaches it
            viaMessage.start = window;
            viaMessage.length = 64;
            viaMessage.options = ME_OP_PUT | ME_EVENT_LINK_DISABLE | ME_EVENT_CT_COMM;
            viaMessage.matchBits = 8;
            viaMessage.ctHandle = counted;
            meAppend(ni, pt, viaMessage, PRIORITY_LIST, null);
        }
        barrier();
        if (rank == 0) {
            ProcessId one = ProcessId.ofRank(1);
            MemorySegment local = Arena.ofShared().allocate(16, 8);
            CtHandle ct = ctAlloc(ni);
            Md md = new Md();
            md.start = local;
            md.length = 16;
            md.options = MD_EVENT_CT_ACK;
            md.ctHandle = ct;
            MdHandle d = mdBind(ni, md);
            put(d, 0, 8, ACK_REQ, one, pt, 7, 0, null, 0); // asks for the directory on the way
            waitOk(ct, 1);
            for (int i = 1; i <= n; i++) {
                local.set(ValueLayout.JAVA_LONG, 0, 2L * i);
                put(d, 0, 8, NO_ACK_REQ, one, pt, 8, 0, null, 0); // by message
                local.set(ValueLayout.JAVA_LONG, 8, 2L * i + 1);
                put(d, 8, 8, ACK_REQ, one, pt, 7, 0, null, 0); // must not overtake it
                waitOk(ct, 1 + i);
            }
            System.out.println("ok order rank 0: " + n + " pairs, " + lib().direct.done + " operations done directly");
        }
        barrier();
        if (rank == 1) {
            long v = window.get(ValueLayout.JAVA_LONG, 0);
            if (v != 2L * n + 1) {
                throw new IllegalStateException("the word holds " + v + ": the put sent first landed last (expected " + (2L * n + 1) + ")");
            }
            System.out.println("ok order rank 1: the last put landed last (" + v + ")");
        }
    }

    /** Waits for the count with a bound: an operation that needed the silent peer would never end. */
    private static void waitBounded(CtHandle ct, long n) {
        CtResult r = ctPoll(new CtHandle[] {ct}, new long[] {n}, 1, 60_000);
        if (r.rc() != ReturnCode.OK || r.event().failure() != 0) {
            throw new IllegalStateException("an operation did not complete without the target's help in 60 s: " + r);
        }
    }

    private static void waitOk(CtHandle ct, long n) {
        CtEvent c = ctWait(ct, n);
        if (c.failure() != 0) {
            throw new IllegalStateException("an operation failed: " + c);
        }
    }

    private static void failure() {
        NiHandle ni = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = getId(ni).rank;
        int pt = ptAlloc(ni, 0, EQ_NONE, 0);
        MemorySegment w = Arena.ofShared().allocate(1 << 20, 4096);
        Me me = new Me();
        me.start = w;
        me.length = w.byteSize();
        me.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE;
        meAppend(ni, pt, me, PRIORITY_LIST, null);
        EqHandle eq = eqAlloc(ni, 16);
        Md md = new Md();
        md.start = Arena.ofShared().allocate(1 << 20, 4096);
        md.length = 1 << 20;
        md.eqHandle = eq;
        md.options = MD_EVENT_SEND_DISABLE;
        MdHandle d = mdBind(ni, md);
        barrier();
        if (rank == 2) {
            System.out.println("ok failure rank 2 dies");
            System.out.flush();
            Runtime.getRuntime().halt(3);
        }
        if (rank == 0) {
            long t0 = System.nanoTime();
            get(d, 0, 1 << 20, ProcessId.ofRank(2), pt, 0, 0, null);
            EqResult r = eqPoll(new EqHandle[] {eq}, 1, 60_000);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            if (r.event() == null || r.event().type != EVENT_REPLY || r.event().niFailType != NI_UNDELIVERABLE) {
                throw new IllegalStateException("the get from the dead rank ended " + r);
            }
            for (int i = 0; i < 50; i++) {
                get(d, 0, i % 2 == 0 ? 100 : 1 << 20, ProcessId.ofRank(1), pt, 0, 0, null);
                Event e = eqPoll(new EqHandle[] {eq}, 1, 60_000).event();
                if (e == null || e.niFailType != NI_OK) {
                    throw new IllegalStateException("a get from rank 1 after the failure: " + e);
                }
            }
            System.out.println("ok failure rank 0: the get from the dead rank failed NI_UNDELIVERABLE after " + ms + " ms; 50 gets from rank 1 after it");
        }
        if (rank == 1) {
            System.out.println("ok failure rank 1 served");
        }
    }

    static void throwing() {
        NiHandle ni = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = getId(ni).rank;
        if (rank == 1) {
            throw new IllegalStateException("rank 1 fails on purpose");
        }
        try {
            barrier();
            throw new IllegalStateException("rank " + rank + " passed a barrier rank 1 never entered");
        } catch (PtlException e) {
            System.out.println("ok throws rank " + rank + ": " + e.getMessage());
        }
    }

    private static void flood(int n) {
        NiHandle ni = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = getId(ni).rank;
        int pt = ptAlloc(ni, 0, EQ_NONE, 0);
        CtHandle ct = ctAlloc(ni);
        MemorySegment buf = Arena.ofShared().allocate(1000, 8); // not memAlloc: by message, never directly
        if (rank == 1) {
            Me me = new Me();
            me.start = buf;
            me.length = buf.byteSize();
            me.options = ME_OP_PUT | ME_EVENT_LINK_DISABLE | ME_EVENT_CT_COMM;
            me.ctHandle = ct;
            meAppend(ni, pt, me, PRIORITY_LIST, null);
        }
        barrier();
        if (rank == 1) {
            long x = 0;
            for (long end = System.nanoTime() + 3_000_000_000L; System.nanoTime() - end < 0; ) {
                x += x * 31 + 7; // a target that computes and makes no Portals call
            }
            waitOk(ct, n);
            System.out.println("ok flood rank 1 received " + n + " puts (" + (x & 1) + ")");
        } else if (rank == 0) {
            Md md = new Md();
            md.start = buf;
            md.length = buf.byteSize();
            md.options = MD_EVENT_CT_ACK;
            md.ctHandle = ct;
            MdHandle d = mdBind(ni, md);
            ProcessId one = ProcessId.ofRank(1);
            for (int i = 0; i < n; i++) {
                put(d, 0, buf.byteSize(), ACK_REQ, one, pt, 0, 0, null, 0);
            }
            waitOk(ct, n);
            int[] peak = inflightPeakAndBound();
            if (peak[0] > peak[1]) {
                throw new IllegalStateException(peak[0] + " inline messages waited to leave, over the bound of " + peak[1]);
            }
            System.out.println("ok flood rank 0: " + n + " puts acknowledged; at most " + peak[0] + " waited to leave (bound " + peak[1] + ")");
        }
        barrier();
    }
}
