package dev.ferry.bench;

import dev.ferry.portals.CtEvent;
import dev.ferry.portals.CtHandle;
import dev.ferry.portals.Md;
import dev.ferry.portals.MdHandle;
import dev.ferry.portals.Me;
import dev.ferry.portals.NiHandle;
import dev.ferry.portals.ProcessId;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static dev.ferry.portals.Portals.*;

/**
 * One rank of {@code ferry bench passive}: Portals operations served by a process that makes no
 * Portals call, with the library's defaults (its passive progress). The target's entry lies in
 * ordinary memory, so every operation goes by message and the target's library must take it in;
 * with {@code --buffers arena} in {@code memAlloc} memory, published: a same-node initiator then
 * operates on it directly, and in agent mode the target's node agent serves a put from another
 * node by itself. With {@code --mode counted} the entry counts the operations into a counting
 * event, which is served the same way.
 *
 * <ul>
 * <li>Two ranks (shm, tcp): rank 1 exposes the entry and computes, reading only a stop word of
 * its own memory; rank 0 times each put (with its ack), fetch-add and get (with their replies)
 * on a counting event.</li>
 * <li>One rank (self): the rank puts, adds and gets on its own entry, then makes no call and
 * watches its memory until the operation shows there.</li>
 * </ul>
 * Each sample is one operation after {@link #GAP_NANOS} without one, so that the serving side has
 * gone idle as a computing program's would; median and p99 are of single operations.
 */
public final class PassiveBenchRank {
    /** The quiet time before each operation: the "computes for 10 ms without a call". */
    static final long GAP_NANOS = 10_000_000L;
    /** The quiet time before the first operation, which connects: past the passive thread's naps. */
    static final long FIRST_QUIET_NANOS = 100_000_000L;
    /** An operation not seen within this long fails the benchmark rather than hang it. */
    private static final long BOUND_NANOS = 30_000_000_000L;
    private static final long WINDOW_BITS = 1;
    private static final long STOP_OFFSET = 56;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private PassiveBenchRank() {
    }

    public static void main(String[] args) {
        BenchOptions o = BenchOptions.parse(args[0], List.of(args).subList(1, args.length));
        init();
        try {
            NiHandle ni = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
            int rank = getId(ni).rank;
            int pt = ptAlloc(ni, 0, EQ_NONE, 0);
            // ordinary memory: every operation by message; memAlloc (--buffers arena): published, served where it can be without the target
            MemorySegment window = o.buffers().equals("arena") ? memAlloc(64) : Arena.ofShared().allocate(64, 8);
            Me me = new Me();
            me.start = window;
            me.length = window.byteSize();
            me.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE | (o.mode().equals("counted") ? ME_EVENT_CT_COMM : 0);
            me.ctHandle = ctAlloc(ni); // --mode counted: what the target would wait on
            me.matchBits = WINDOW_BITS;
            meAppend(ni, pt, me, PRIORITY_LIST, null);
            MemorySegment local = Arena.ofShared().allocate(64, 8);
            CtHandle ct = ctAlloc(ni);
            Md m = new Md();
            m.start = local;
            m.length = local.byteSize();
            m.options = MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY;
            m.ctHandle = ct;
            MdHandle md = mdBind(ni, m);
            if (o.driver().equals("self")) {
                self(o, pt, md, window, local);
            } else if (rank == 1) {
                barrier();
                long spins = 0;
                while ((long) LONG.getAcquire(window, STOP_OFFSET) == 0) {
                    spins = compute(spins); // no Portals call until rank 0 says stop
                }
            } else {
                barrier();
                new Initiator(o, pt, md, ct, local).run();
            }
        } finally {
            fini();
        }
    }

    /** Work that calls nothing: the computing program. */
    private static long compute(long x) {
        for (int i = 0; i < 64; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    /** The rank that times operations on a computing peer, each waited for on the counting event. */
    private static final class Initiator {
        private final BenchOptions o;
        private final int pt;
        private final MdHandle md;
        private final CtHandle ct;
        private final MemorySegment local;
        private final ProcessId peer = ProcessId.ofRank(1);
        private long done;

        Initiator(BenchOptions o, int pt, MdHandle md, CtHandle ct, MemorySegment local) {
            this.o = o;
            this.pt = pt;
            this.md = md;
            this.ct = ct;
            this.local = local;
        }

        void run() {
            // the first operation also connects to the computing rank, quiet for a while
            quiet(FIRST_QUIET_NANOS);
            long t0 = System.nanoTime();
            put(md, 0, 8, CT_ACK_REQ, peer, pt, WINDOW_BITS, 0, null, 0);
            await();
            double first = (System.nanoTime() - t0) / 1000.0;
            WholeOperations.print(new Result(o.benchmark(), o.driver(), 8, 1, first, first, null,
                    Map.of("op", "first-put+ack", "gap_ms", FIRST_QUIET_NANOS / 1_000_000)));
            sample("put+ack", () -> {
                put(md, 0, 8, CT_ACK_REQ, peer, pt, WINDOW_BITS, 0, null, 0);
                await();
            });
            local.set(ValueLayout.JAVA_LONG, 8, 1);
            sample("fetch-add", () -> {
                fetchAtomic(md, 16, md, 8, 8, peer, pt, WINDOW_BITS, 8, null, 0, SUM, INT64_T);
                await();
            });
            sample("get", () -> {
                get(md, 24, 8, peer, pt, WINDOW_BITS, 16, null);
                await();
            });
            local.set(ValueLayout.JAVA_LONG, 32, 1);
            put(md, 32, 8, CT_ACK_REQ, peer, pt, WINDOW_BITS, STOP_OFFSET, null, 0);
            await();
        }

        private void await() {
            CtEvent c = ctWait(ct, ++done);
            if (c.failure() != 0) {
                throw new IllegalStateException("an operation on the computing rank failed: " + c);
            }
        }

        private void sample(String op, Runnable one) {
            PassiveBenchRank.sample(o, op, one);
        }
    }

    /** One rank: operations on its own entry, each followed by no call, watched for in memory. */
    private static void self(BenchOptions o, int pt, MdHandle md, MemorySegment window, MemorySegment local) {
        ProcessId me = ProcessId.ofRank(0);
        long[] v = {0};
        sample(o, "put", () -> {
            local.set(ValueLayout.JAVA_LONG, 0, ++v[0]);
            put(md, 0, 8, NO_ACK_REQ, me, pt, WINDOW_BITS, 0, null, 0);
            watch(() -> (long) LONG.getAcquire(window, 0L) == v[0], "put");
        });
        local.set(ValueLayout.JAVA_LONG, 8, 1);
        long[] sum = {0};
        sample(o, "atomic", () -> {
            atomic(md, 8, 8, NO_ACK_REQ, me, pt, WINDOW_BITS, 8, null, 0, SUM, INT64_T);
            long want = ++sum[0];
            watch(() -> (long) LONG.getAcquire(window, 8L) == want, "atomic");
        });
        sample(o, "get", () -> {
            LONG.setRelease(window, 16L, ++v[0]);
            LONG.setRelease(local, 24L, 0L);
            get(md, 24, 8, me, pt, WINDOW_BITS, 16, null);
            watch(() -> (long) LONG.getAcquire(local, 24L) == v[0], "get");
        });
    }

    /** Spins, calling nothing, until {@code landed}; fails past {@link #BOUND_NANOS}. */
    private static void watch(BooleanSupplier landed, String op) {
        long start = System.nanoTime();
        while (!landed.getAsBoolean()) {
            Thread.onSpinWait();
            if (System.nanoTime() - start > BOUND_NANOS) {
                throw new IllegalStateException("a self-targeted " + op + " did not complete within " + BOUND_NANOS / 1_000_000_000L
                        + " s while the rank made no call");
            }
        }
    }

    /**
     * Times {@code one} {@code o.iterations()} times, each after {@link #GAP_NANOS} of quiet (a
     * tenth as many first, untimed), and prints one RESULT line: median and p99 of single
     * operations, in microseconds.
     */
    static void sample(BenchOptions o, String op, Runnable one) {
        int n = (int) Math.min(o.iterations(), 100_000);
        for (long i = 0; i < o.warmup() && i < n / 10 + 1; i++) {
            one.run();
        }
        double[] us = new double[n];
        for (int i = 0; i < n; i++) {
            quiet(GAP_NANOS);
            long t0 = System.nanoTime();
            one.run();
            us[i] = (System.nanoTime() - t0) / 1000.0;
        }
        WholeOperations.print(new Result(o.benchmark(), o.driver(), 8, n, Stats.median(us), Stats.quantile(us, 0.99), null,
                Map.of("op", op, "gap_ms", GAP_NANOS / 1_000_000)));
    }

    /** Lets {@code nanos} pass without a Portals call. */
    private static void quiet(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
