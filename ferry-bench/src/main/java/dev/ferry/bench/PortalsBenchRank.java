package dev.ferry.bench;

import dev.ferry.portals.CtEvent;
import dev.ferry.portals.CtHandle;
import dev.ferry.portals.Md;
import dev.ferry.portals.MdHandle;
import dev.ferry.portals.Me;
import dev.ferry.portals.NiHandle;
import dev.ferry.portals.Op;
import dev.ferry.portals.ProcessId;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;

import static dev.ferry.portals.Portals.*;

/**
 * One rank of the library benchmarks: rank 1 exposes a window (and a stop entry) and serves
 * while it waits; rank 0 times operations on it and prints {@code RESULT} lines. Latency: one
 * operation, then waiting for its ack or reply on a counting event, per sample (so median_us is
 * the whole operation, not half of it). Bandwidth: a window of acknowledged puts.
 */
public final class PortalsBenchRank {
    private static final long WINDOW_BITS = 1, STOP_BITS = 2;

    private PortalsBenchRank() {
    }

    public static void main(String[] args) {
        BenchOptions o = BenchOptions.parse(args[0], List.of(args).subList(1, args.length));
        long max = Math.max(8, o.sizes().stream().mapToLong(Long::longValue).max().orElse(8));
        init();
        try {
            NiHandle ni = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
            int rank = getId(ni).rank;
            int pt = ptAlloc(ni, 0, EQ_NONE, 0);
            if (rank == 1) {
                // memAlloc: in the shm arena where there is one, so a same-node initiator reaches this
                // entry directly (it asks nothing of rank 1: persistent, no target events or counts)
                MemorySegment window = memAlloc(max);
                Me me = new Me();
                me.start = window;
                me.length = max;
                me.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE;
                me.matchBits = WINDOW_BITS;
                meAppend(ni, pt, me, PRIORITY_LIST, null);
                CtHandle stop = ctAlloc(ni);
                Me s = new Me();
                s.options = ME_OP_PUT | ME_EVENT_CT_COMM | ME_EVENT_LINK_DISABLE;
                s.matchBits = STOP_BITS;
                s.ctHandle = stop;
                meAppend(ni, pt, s, PRIORITY_LIST, null);
                barrier();
                ctWait(stop, 1); // serves rank 0's operations while it waits
            } else {
                barrier();
                new PortalsBenchRank().measure(ni, pt, o, max);
            }
        } finally {
            fini();
        }
    }

    private CtHandle ct;
    private MdHandle md;
    private long done;
    private final ProcessId peer = ProcessId.ofRank(1);
    private MemorySegment local;
    private final MemorySegment compare = Arena.ofShared().allocate(8, 8);

    private void measure(NiHandle ni, int pt, BenchOptions o, long max) {
        local = Arena.ofShared().allocate(max + 16, 4096);
        ct = ctAlloc(ni);
        Md m = new Md();
        m.start = local;
        m.length = local.byteSize();
        m.options = MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY;
        m.ctHandle = ct;
        md = mdBind(ni, m);
        for (long size : o.sizes()) {
            switch (o.benchmark()) {
                case BenchOptions.PTL_PUT_LATENCY -> latency(o, size, "put+ack", () -> {
                    put(md, 0, size, CT_ACK_REQ, peer, pt, WINDOW_BITS, 0, null, 0);
                    await();
                });
                case BenchOptions.PTL_GET_LATENCY -> latency(o, size, "get+reply", () -> {
                    get(md, 0, size, peer, pt, WINDOW_BITS, 0, null);
                    await();
                });
                case BenchOptions.PTL_ATOMIC_LATENCY -> {
                    local.set(ValueLayout.JAVA_LONG, 0, 1);
                    latency(o, 8, "fetch-add", () -> {
                        fetchAtomic(md, 8, md, 0, 8, peer, pt, WINDOW_BITS, 0, null, 0, SUM, INT64_T);
                        await();
                    });
                    latency(o, 8, "cswap", () -> {
                        // compare with what the last operation returned: every swap takes
                        compare.set(ValueLayout.JAVA_LONG, 0, local.get(ValueLayout.JAVA_LONG, 8));
                        local.set(ValueLayout.JAVA_LONG, 0, local.get(ValueLayout.JAVA_LONG, 8) + 1);
                        swap(md, 8, md, 0, 8, peer, pt, WINDOW_BITS, 0, null, 0, compare, Op.CSWAP, INT64_T);
                        await();
                    });
                }
                case BenchOptions.PTL_PUT_BANDWIDTH -> bandwidth(o, size, pt);
                default -> throw new IllegalArgumentException(o.benchmark());
            }
        }
        put(md, 0, 0, NO_ACK_REQ, peer, pt, STOP_BITS, 0, null, 0);
    }

    private void await() {
        CtEvent c = ctWait(ct, ++done);
        if (c.failure() != 0) {
            throw new IllegalStateException("an operation failed: " + c);
        }
    }

    private void latency(BenchOptions o, long size, String op, Runnable one) {
        o.warmUp(size, one);
        long direct0 = directOps();
        WholeOperations.print(WholeOperations.latency(o, size, one, n -> Map.of("op", op, "path", path(directOps() - direct0, n))));
    }

    /** How the timed operations went: all directly on the target's shared memory, all by message, or some of each. */
    private static String path(long direct, long all) {
        return direct == 0 ? "message" : direct >= all ? "direct" : "mixed";
    }

    private void bandwidth(BenchOptions o, long size, int pt) {
        int w = o.window();
        Runnable window = () -> {
            for (int i = 0; i < w; i++) {
                put(md, 0, size, CT_ACK_REQ, peer, pt, WINDOW_BITS, 0, null, 0);
            }
            done += w;
            CtEvent c = ctWait(ct, done);
            if (c.failure() != 0) {
                throw new IllegalStateException("a put failed: " + c);
            }
        };
        o.warmUp(size, window);
        long direct0 = directOps();
        WholeOperations.print(WholeOperations.bandwidth(o, size, window, n -> Map.of("op", "put+ack", "path", path(directOps() - direct0, n))));
    }
}
