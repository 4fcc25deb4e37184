package dev.ferry.bench;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.Request;
import dev.ferry.Status;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;

/**
 * One rank of {@code ferry bench latency|bw|bibw|mbw-mr}: OSU's point-to-point benchmarks on the
 * application API, written against it alone, between two ranks, with off-heap memory segments
 * ({@code segment}) or {@code byte[]} arrays ({@code array}), or latency by buffered sends from
 * segments ({@code bsend}: both ranks send with {@code bsend} from an attached buffer). Rank 0 measures and prints
 * {@code RESULT} lines; rank 1 echoes (latency), receives windows and acknowledges them (bw,
 * mbw-mr), or sends its own windows back (bibw); a STOP message ends it.
 */
public final class ApiBenchRank {
    private static final int DATA = 1, ACK = 2, STOP = 3;

    private final Comm world;
    private final Object out;
    private final Object in;
    private final Request[] recvs;
    private final Request[] sends;
    /** Whether the ping-pong's sends are buffered ones. */
    private final boolean buffered;

    private ApiBenchRank(Ferry ferry, long max, int window, String buffers, boolean buffered) {
        this.world = ferry.world();
        this.buffered = buffered;
        long n = Math.max(1, max); // segments may pass 2 GiB (the long-count calls); arrays are filtered to fit (ApiBench)
        // global, not auto: an auto arena counts against the direct-memory limit (the heap size, 512 MiB here);
        // arena: Ferry.allocate, the shared arena (which the node agent maps too)
        this.out = buffers.equals("array") ? new byte[Math.toIntExact(n)] : buffers.equals("arena") ? ferry.allocate(n) : Arena.global().allocate(n, 4096);
        // bw's receives of one window land in one buffer, as OSU's do
        this.in = buffers.equals("array") ? new byte[Math.toIntExact(n)] : buffers.equals("arena") ? ferry.allocate(n) : Arena.global().allocate(n, 4096);
        this.recvs = new Request[window];
        this.sends = new Request[window];
    }

    public static void main(String[] args) {
        BenchOptions o = BenchOptions.parse(args[0], List.of(args).subList(2, args.length));
        boolean arrays = args[1].equals("array");
        boolean buffered = args[1].equals("bsend");
        long max = o.sizes().stream().mapToLong(Long::longValue).max().orElse(0);
        try (Ferry ferry = Ferry.init()) {
            Comm w = ferry.world();
            if (w.size() != 2) {
                throw new IllegalStateException("the API benchmarks run 2 ranks, not " + w.size());
            }
            if (args[1].equals("arena") && !o.driver().equals("shm")) {
                Comm node = w.splitShared(0);
                if (node.size() > 1) {
                    throw new IllegalStateException("--buffers arena over " + o.driver() + " needs the two ranks on two nodes (FERRY_RANKS_PER_NODE=1,"
                            + " or two hosts): on one node the arena's shm driver would carry them");
                }
                node.free();
            }
            ApiBenchRank r = new ApiBenchRank(ferry, max, o.latency() ? 1 : o.window(), args[1], buffered);
            if (buffered) { // room for a few in flight: a send completes a little after its peer received it
                ferry.attachBuffer(Arena.ofAuto().allocate(4 * (Math.max(1, max) + Ferry.BSEND_OVERHEAD), 4096));
            }
            Request[] backlog = new Request[o.posted()];
            for (int i = 0; i < backlog.length; i++) { // never matched: every match happens beside them
                backlog[i] = w.irecv(new byte[1], 0, 1, Datatype.BYTE, 1 - w.rank(), 1000 + i);
            }
            if (w.rank() == 0) {
                r.measure(o, arrays ? "array" : args[1].equals("arena") ? "arena" : "segment");
                if (buffered) {
                    ferry.detachBuffer(); // the last pong's buffered send is done: STOP goes as a standard send
                }
                w.send(r.out, 0, 0, Datatype.BYTE, 1, STOP);
            } else {
                r.serve(o);
            }
            for (Request b : backlog) {
                b.cancel();
            }
        }
    }

    private void measure(BenchOptions o, String buffers) {
        Map<String, Object> label = new java.util.LinkedHashMap<>(Map.of("buffers", buffers));
        if (buffered) {
            label.put("mode", "bsend");
        }
        if (o.posted() > 0) {
            label.put("posted", o.posted());
        }
        for (long size : o.sizes()) {
            long n = size;
            if (o.latency()) {
                Runnable rt = buffered ? () -> {
                    world.bsend(out, 0, (int) n, Datatype.BYTE, 1, DATA);
                    world.recv(in, 0L, n, Datatype.BYTE, 1, DATA);
                } : () -> {
                    world.send(out, 0L, n, Datatype.BYTE, 1, DATA);
                    world.recv(in, 0L, n, Datatype.BYTE, 1, DATA);
                };
                o.warmUp(size, rt);
                RoundTrips.Timing t = RoundTrips.time(o.iterationsFor(size), rt);
                WholeOperations.print(new Result(o.benchmark(), o.driver(), size, t.roundTrips(), Stats.median(t.oneWayUs()),
                        Stats.quantile(t.oneWayUs(), 0.99), null, t.distribution().with(label)));
                continue;
            }
            int w = recvs.length;
            boolean bi = o.benchmark().equals(BenchOptions.BIBW);
            o.warmUp(size, () -> window(n, w, bi));
            int samples = (int) Math.max(1, o.iterationsFor(size) / w);
            double[] mbps = new double[samples];
            double[] perMsgUs = new double[samples];
            for (int s = 0; s < samples; s++) {
                long t = window(n, w, bi);
                mbps[s] = (bi ? 2.0 : 1.0) * w * size / t * 1000;
                perMsgUs[s] = t / (double) w / 1000 / (bi ? 2 : 1);
            }
            double med = Stats.median(perMsgUs);
            Map<String, Object> extra = label;
            WholeOperations.print(new Result(o.benchmark(), o.driver(), size, (long) samples * w, med, Stats.quantile(perMsgUs, 0.99), Stats.median(mbps), extra));
        }
    }

    /** One window: {@code w} sends (and, bibw, as many receives), then the peer's word or its window; nanoseconds. */
    private long window(long n, int w, boolean bi) {
        long start = System.nanoTime();
        if (bi) {
            for (int i = 0; i < w; i++) {
                recvs[i] = world.irecv(in, 0L, n, Datatype.BYTE, 1, DATA);
            }
        }
        for (int i = 0; i < w; i++) {
            sends[i] = world.isend(out, 0L, n, Datatype.BYTE, 1, DATA);
        }
        Request.waitAll(sends);
        if (bi) {
            Request.waitAll(recvs);
        } else {
            world.recv(in, 0, 0, Datatype.BYTE, 1, ACK);
        }
        return System.nanoTime() - start;
    }

    /** Rank 1: answers until STOP; the size of each message is what came. */
    private void serve(BenchOptions o) {
        long max = Math.max(1, o.sizes().stream().mapToLong(Long::longValue).max().orElse(0));
        if (o.latency()) {
            while (true) {
                Status s = world.recv(in, 0L, max, Datatype.BYTE, 0, Ferry.ANY_TAG);
                if (s.tag() == STOP) {
                    return;
                }
                if (buffered) {
                    world.bsend(out, 0, s.count(), Datatype.BYTE, 0, DATA);
                } else {
                    world.send(out, 0L, s.countLong(), Datatype.BYTE, 0, DATA);
                }
            }
        }
        boolean bi = o.benchmark().equals(BenchOptions.BIBW);
        int w = recvs.length;
        while (true) {
            for (int i = 0; i < w; i++) { // the next window's receives, posted ahead as OSU's are
                recvs[i] = world.irecv(in, 0L, max, Datatype.BYTE, 0, Ferry.ANY_TAG);
            }
            Status first = recvs[0].await();
            if (first.tag() == STOP) {
                for (int i = 1; i < w; i++) {
                    recvs[i].cancel();
                }
                return;
            }
            if (bi) {
                for (int i = 0; i < w; i++) {
                    sends[i] = world.isend(out, 0L, first.countLong(), Datatype.BYTE, 0, DATA);
                }
                Request.waitAll(sends);
            }
            Request.waitAll(recvs);
            if (!bi) {
                world.send(out, 0, 0, Datatype.BYTE, 0, ACK);
            }
        }
    }
}
