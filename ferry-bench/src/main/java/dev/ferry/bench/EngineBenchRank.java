package dev.ferry.bench;


import dev.ferry.core.engine.Engine;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.SendRequest;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One rank of {@code ferry bench engine-latency|engine-bandwidth}: two ranks, the engine between
 * them restricted to one driver. Rank 0 measures and prints {@code RESULT} lines; rank 1 echoes
 * (latency) or acknowledges windows (bandwidth). The handler receives every message straight into
 * preallocated memory, so the timed loops allocate nothing.
 */
public final class EngineBenchRank {
    static final long STOP = -1;
    static final long ECHO = 0;
    private static final Duration BOUND = Duration.ofSeconds(60);

    private final Engine engine;
    private final MemorySegment out;
    private final MemorySegment in;
    private final RecvRequest[] recvs;
    /** {@code recvs.length - 1} when that length is a power of two, else -1 ({@link #slot}). */
    private final int slotMask;
    /** Written by the handler, which runs in this thread (caller progress). */
    private int received;
    private MemorySegment inView;
    private final long[] headers;
    private final SendRequest[] sends;
    private MemorySegment echoView;

    private EngineBenchRank(long max, int window, boolean arena) {
        recvs = new RecvRequest[window];
        slotMask = (window & (window - 1)) == 0 ? window - 1 : -1;
        headers = new long[window];
        sends = new SendRequest[window];
        for (int i = 0; i < window; i++) {
            recvs[i] = new RecvRequest();
            sends[i] = new SendRequest();
        }
        this.engine = Engine.init(this::onMessage);
        this.out = arena ? engine.memory().allocate(Math.max(1, max)) : java.lang.foreign.Arena.ofAuto().allocate(Math.max(1, max), 4096);
        this.in = arena ? engine.memory().allocate(Math.max(1, max)) : java.lang.foreign.Arena.ofAuto().allocate(Math.max(1, max), 4096);
    }

    private void onMessage(Message m) {
        long n = Math.min(m.length(), in.byteSize());
        if (inView == null || inView.byteSize() != n) {
            inView = in.asSlice(0, n); // once per size: the timed loops allocate nothing
        }
        int k = received;
        int slot = slot(k);
        headers[slot] = m.header();
        m.receive(inView, recvs[slot]);
        received = k + 1;
    }

    /**
     * Where message {@code k} is received: a mask when the window is a power of two (one request,
     * latency, included: mask 0); no division on a path a message waits for (an integer division
     * is 10-25 cycles).
     */
    private int slot(int k) {
        return slotMask >= 0 ? k & slotMask : k % recvs.length;
    }

    /** Waits (making progress) for {@code n} messages received in full since the last reset. */
    private void awaitReceived(int n) {
        long end = 0; // the clock is read every 1024 passes only: it costs as much as a pass
        int spins = 0;
        RecvRequest last = recvs[slot(n - 1)];
        while (received < n || !last.isDone()) {
            if (!engine.progress()) {
                Thread.onSpinWait(); // as Request.await and the driver benchmark's loops wait
            }
            if ((++spins & 1023) == 0) {
                long now = System.nanoTime();
                if (end == 0) {
                    end = now + BOUND.toNanos();
                } else if (now - end > 0) {
                    throw new IllegalStateException("no message within " + BOUND.toSeconds() + " s");
                }
            }
        }
        last.join(BOUND); // rendezvous complete in order: the last one done means all
    }

    private void send(SendRequest s, long header, MemorySegment data) {
        engine.send(s.to(1 - engine.rank(), header, data));
    }

    public static void main(String[] args) {
        BenchOptions o = BenchOptions.parse(args[0], List.of(args).subList(2, args.length));
        boolean arena = args[1].equals("arena");
        long max = o.sizes().stream().mapToLong(Long::longValue).max().orElse(0);
        EngineBenchRank r = new EngineBenchRank(max, o.latency() ? 1 : o.window(), arena);
        try (Engine e = r.engine) {
            if (e.size() != 2) {
                throw new IllegalStateException("the engine benchmarks run 2 ranks, not " + e.size());
            }
            if (arena && !o.driver().equals("shm") && e.node(0).equals(e.node(1))) {
                throw new IllegalStateException("--buffers arena over " + o.driver() + " needs the two ranks on two nodes (FERRY_RANKS_PER_NODE=1, or two hosts):"
                        + " on one node the arena's shm driver would carry them");
            }
            if (e.rank() == 0) {
                if (o.latency()) {
                    r.latency(o);
                } else {
                    r.bandwidth(o, arena);
                }
                SendRequest s = r.sends[0];
                r.send(s, STOP, r.out.asSlice(0, 0));
                s.join(BOUND);
            } else {
                r.serve(o);
            }
        }
    }

    private void roundTrip(MemorySegment data) {
        received = 0;
        send(sends[0], ECHO, data);
        awaitReceived(1);
        sends[0].join(BOUND);
    }

    private void latency(BenchOptions o) {
        for (long size : o.sizes()) {
            MemorySegment data = out.asSlice(0, size);
            echoView = null;
            long iterations = o.iterationsFor(size);
            o.warmUp(size, () -> roundTrip(data));
            RoundTrips.Timing t = RoundTrips.time(iterations, () -> roundTrip(data));
            WholeOperations.print(new Result(o.benchmark(), o.driver(), size, t.roundTrips(), Stats.median(t.oneWayUs()), Stats.quantile(t.oneWayUs(), 0.99), null,
                    t.distribution().percentiles()));
        }
    }

    private void bandwidth(BenchOptions o, boolean arena) {
        int w = o.window();
        String buffers = arena ? "arena" : "offheap";
        for (long size : o.sizes()) {
            MemorySegment data = out.asSlice(0, size);
            int samples = (int) Math.max(1, o.iterationsFor(size) / w);
            double[] mbps = new double[samples];
            double[] perMsgUs = new double[samples];
            o.warmUp(size, () -> window(data, w));
            for (int s = 0; s < samples; s++) {
                long t = window(data, w);
                mbps[s] = (double) w * size / t * 1000;
                perMsgUs[s] = t / (double) w / 1000;
            }
            WholeOperations.print(new Result(o.benchmark(), o.driver(), size, (long) samples * w, Stats.median(perMsgUs),
                    Stats.quantile(perMsgUs, 0.99), Stats.median(mbps), Map.of("buffers", buffers)));
        }
    }

    /** A window of sends and the peer's 0-byte acknowledgement; nanoseconds. */
    private long window(MemorySegment data, int w) {
        received = 0;
        long start = System.nanoTime();
        for (int i = 0; i < w; i++) {
            send(sends[i], w, data);
        }
        awaitReceived(1);
        long t = System.nanoTime() - start;
        for (SendRequest s : sends) {
            s.join(BOUND);
        }
        return t;
    }

    /** Rank 1: echoes each latency message; acknowledges each bandwidth window; ends on STOP. */
    private void serve(BenchOptions o) {
        MemorySegment empty = out.asSlice(0, 0);
        int base = 0; // messages handled so far: counts are absolute, as the next may arrive while we send
        while (true) {
            awaitReceived(base + 1);
            int slot = slot(base);
            long h = headers[slot];
            if (h == STOP) {
                return;
            }
            if (h == ECHO) {
                long n = recvs[slot].received();
                base++;
                if (echoView == null || echoView.byteSize() != n) {
                    echoView = out.asSlice(0, n);
                }
                send(sends[0], ECHO, echoView);
                sends[0].join(BOUND);
            } else {
                awaitReceived(base + (int) h);
                base += (int) h;
                send(sends[0], 0, empty);
                sends[0].join(BOUND);
            }
        }
    }

    /** Parses a RESULT line back, or null for any other line. */
    static Result parse(String line) {
        if (!line.startsWith("RESULT ")) {
            return null;
        }
        String[] f = line.split(" ");
        Double mb = f[7].equals("-") ? null : Double.parseDouble(f[7]);
        Map<String, Object> extra = new java.util.LinkedHashMap<>();
        if (f[8].contains("=")) {
            for (String kv : f[8].split(",")) { // op=put+ack,path=direct,p50_us=0.31
                int eq = kv.indexOf('=');
                String v = kv.substring(eq + 1);
                extra.put(kv.substring(0, eq), v.matches("-?[0-9]+") ? (Object) Long.parseLong(v)
                        : v.matches("-?[0-9]+\\.[0-9]+([eE]-?[0-9]+)?") ? (Object) Double.parseDouble(v) : v);
            }
        } else if (!f[8].equals("-")) {
            extra.put("buffers", f[8]);
        }
        return new Result(f[1], f[2], Long.parseLong(f[3]), Long.parseLong(f[4]), Double.parseDouble(f[5]), Double.parseDouble(f[6]), mb, extra);
    }
}
