package dev.ferry.bench;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.Op;
import dev.ferry.Window;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;

/**
 * One rank of the window benchmarks: rank 1 allocates its window and waits in a receive for the
 * end (a target that takes part in nothing); rank 0 holds a shared lock on it and times
 * operations, each followed by a flush (latency), or a window of them and one flush (bandwidth),
 * and prints {@code RESULT} lines.
 */
public final class WindowBenchRank {
    private WindowBenchRank() {
    }

    public static void main(String[] args) {
        BenchOptions o = BenchOptions.parse(args[0], List.of(args).subList(1, args.length));
        long max = Math.max(8, o.sizes().stream().mapToLong(Long::longValue).max().orElse(8));
        try (Ferry f = Ferry.init()) {
            Comm w = f.world();
            try (Window win = Window.allocate(w, w.rank() == 1 ? max : 0, 1)) {
                if (w.rank() == 1) {
                    w.recv(new byte[0], 0, 0, 0, 0); // passive: the library serves rank 0 meanwhile
                } else {
                    measure(win, o, max);
                    w.send(new byte[0], 0, 0, 1, 0);
                }
            }
        }
    }

    private static void measure(Window win, BenchOptions o, long max) {
        MemorySegment local = Arena.ofShared().allocate(max, 4096);
        long[] one = {1}, got = new long[1], cmp = new long[1], swap = new long[1];
        win.lock(Window.LockType.SHARED, 1);
        for (long size : o.sizes()) {
            int n = (int) size;
            switch (o.benchmark()) {
                case BenchOptions.PUT_LATENCY -> latency(o, size, "put+flush", () -> {
                    win.put(local, 0, n, Datatype.BYTE, 1, 0);
                    win.flush(1);
                });
                case BenchOptions.GET_LATENCY -> latency(o, size, "get+flush", () -> {
                    win.get(local, 0, n, Datatype.BYTE, 1, 0);
                    win.flush(1);
                });
                case BenchOptions.ACC_LATENCY -> latency(o, 8, "accumulate(sum)+flush", () -> {
                    win.accumulate(one, 0, 1, Datatype.LONG, 1, 0, Op.SUM);
                    win.flush(1);
                });
                case BenchOptions.FETCH_OP_LATENCY -> latency(o, 8, "fetch_and_op(sum)+flush", () -> {
                    win.fetchAndOp(one, 0, got, 0, Datatype.LONG, 1, 0, Op.SUM);
                    win.flush(1);
                });
                case BenchOptions.CAS_LATENCY -> latency(o, 8, "compare_and_swap+flush", () -> {
                    cmp[0] = got[0]; // what the last one found: every swap takes
                    swap[0] = got[0] + 1;
                    win.compareAndSwap(swap, 0, cmp, 0, got, 0, Datatype.LONG, 1, 0);
                    win.flush(1);
                });
                case BenchOptions.PUT_BW -> bandwidth(o, size, "put", () -> win.put(local, 0, n, Datatype.BYTE, 1, 0), win);
                case BenchOptions.GET_BW -> bandwidth(o, size, "get", () -> win.get(local, 0, n, Datatype.BYTE, 1, 0), win);
                default -> throw new IllegalArgumentException(o.benchmark());
            }
        }
        win.unlock(1);
    }

    private static void latency(BenchOptions o, long size, String op, Runnable one) {
        o.warmUp(size, one);
        double alloc = WholeOperations.allocatedPerRun(one, 10_000);
        WholeOperations.print(WholeOperations.latency(o, size, one, n -> extra(op, alloc)));
    }

    private static void bandwidth(BenchOptions o, long size, String op, Runnable one, Window win) {
        int w = o.window();
        Runnable window = () -> {
            for (int i = 0; i < w; i++) {
                one.run();
            }
            win.flush(1);
        };
        o.warmUp(size, window);
        double alloc = WholeOperations.allocatedPerRun(window, Math.max(1, 1000 / w)) / w;
        WholeOperations.print(WholeOperations.bandwidth(o, size, window, n -> extra(op + "*" + w + "+flush", alloc)));
    }

    private static Map<String, Object> extra(String op, double alloc) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("op", op);
        m.put("sync", "lock/flush");
        m.put("alloc_b_per_op", Math.round(alloc));
        return m;
    }
}
