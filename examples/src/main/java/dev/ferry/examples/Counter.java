package dev.ferry.examples;

import dev.ferry.portals.CtHandle;
import dev.ferry.portals.Md;
import dev.ferry.portals.MdHandle;
import dev.ferry.portals.Me;
import dev.ferry.portals.NiHandle;
import dev.ferry.portals.ProcessId;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static dev.ferry.portals.Portals.*;

/**
 * A distributed counter with fetch-and-add: rank 0 exposes one 64-bit counter; every rank takes
 * {@code N} tickets (default 1000) from it with {@code fetchAtomic(SUM)}, each ticket the value
 * before its own increment, so no two ranks ever hold the same ticket. Rank 0 prints the final
 * count, which must be ranks x N. The counter is {@code memAlloc} memory: ranks on rank 0's node
 * add to it directly in its shared memory (an atomic add instruction, no message), the others
 * by message; each rank prints how many of its tickets it took directly.
 *
 * <pre>
 *   bin/ferry run -n 4 --example counter [N]
 * </pre>
 */
public final class Counter {
    private Counter() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        init();
        try {
            run(n);
        } finally {
            fini();
        }
    }

    private static void run(int n) {
        NiHandle ni = niInit(IFACE_DEFAULT,
                NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        Tickets t = new Tickets(ni);
        long first = -1, last = -1;
        long[] ns = new long[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            long ticket = t.take();
            ns[i] = System.nanoTime() - t0;
            first = first < 0 ? ticket : first;
            last = ticket;
        }
        java.util.Arrays.sort(ns);
        // the median: the first second or so of a JVM runs before the JIT compiled the path
        System.out.printf("rank %d: %d tickets (%d directly), first %d, last %d, median %.2f us per fetch-add%n", t.rank, n, directOps(), first, last,
                ns[n / 2] / 1e3);
        barrier();
        if (t.rank == 0) {
            long total = t.counter.get(ValueLayout.JAVA_LONG, 0);
            System.out.printf("counter = %d (%d ranks x %d)%s%n", total, t.size, n, total == (long) t.size * n ? "" : "  WRONG");
            if (total != (long) t.size * n) {
                throw new IllegalStateException("the counter is " + total + ", not " + (long) t.size * n);
            }
        }
    }

    /** The counter at rank 0 and the memory to take tickets with. */
    private static final class Tickets {
        final int rank;
        final int size;
        final int pt;
        final MemorySegment counter = memAlloc(8); // shared memory where the node has it: same-node ranks add directly
        final MemorySegment local = Arena.ofShared().allocate(16, 8);
        final CtHandle ct;
        final MdHandle md;
        long done;

        Tickets(NiHandle ni) {
            rank = getId(ni).rank;
            size = getMap(ni, 0).actualMapSize();
            pt = ptAlloc(ni, 0, EQ_NONE, 0);
            if (rank == 0) {
                Me me = new Me();
                me.start = counter;
                me.length = 8;
                me.options = ME_OP_PUT | ME_OP_GET;
                meAppend(ni, pt, me, PRIORITY_LIST, null);
            }
            ct = ctAlloc(ni);
            Md m = new Md();
            m.start = local;
            m.length = 16;
            m.options = MD_EVENT_CT_REPLY;
            m.ctHandle = ct;
            md = mdBind(ni, m);
            local.set(ValueLayout.JAVA_LONG, 0, 1);
            barrier(); // the counter is exposed before anyone takes a ticket
        }

        long take() {
            fetchAtomic(md, 8, md, 0, 8, ProcessId.ofRank(0), pt, 0, 0, null, 0,
                    SUM, INT64_T);
            if (ctWait(ct, ++done).failure() != 0) {
                throw new IllegalStateException("fetch-add failed");
            }
            return local.get(ValueLayout.JAVA_LONG, 8);
        }
    }
}
