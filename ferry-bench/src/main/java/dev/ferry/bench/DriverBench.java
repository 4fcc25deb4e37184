package dev.ferry.bench;

import dev.ferry.core.driver.DiscoveredDriver;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * driver-latency and driver-bandwidth straight through the SPI, with no engine in the path (like
 * NewMadeleine's nm_driver_latency and nm_driver_bandwidth).
 *
 * <p>Latency: ping-pong; one-way latency is half the round trip. Round trips are timed in batches
 * long enough (about 2 us) that reading the clock costs under 2% of a sample; median and p99 are
 * over batches. Bandwidth: a window of posted sends, then the receiver's 0-byte acknowledgement;
 * one sample per window; the median sample's rate is reported.
 */
final class DriverBench {

    private DriverBench() {
    }

    static void latency(DiscoveredDriver d, BenchOptions o, List<Long> sizes, Progress progress, Consumer<Result> out) {
        long max = sizes.stream().mapToLong(Long::longValue).max().orElse(0);
        try (DriverPeer peer = new DriverPeer(d, max, 1, false, o.peerPrefix())) {
            peer.mode("echo");
            Endpoint e = peer.end();
            for (long size : sizes) {
                e.prepare(size);
                long iterations = o.iterationsFor(size);
                o.warmUp(size, () -> {
                    e.send();
                    e.recv();
                });
                progress.update(o.benchmark() + " " + d.name() + " " + size + " B", 0, 1);
                RoundTrips.Timing t = RoundTrips.time(iterations, () -> {
                    e.send();
                    long n = e.recv();
                    if (n != size) {
                        throw new IllegalStateException("echo of " + size + " bytes came back with " + n);
                    }
                });
                out.accept(new Result(o.benchmark(), d.name(), size, t.roundTrips(), Stats.median(t.oneWayUs()),
                        Stats.quantile(t.oneWayUs(), 0.99), null, t.distribution().percentiles()));
            }
        }
    }

    static void bandwidth(DiscoveredDriver d, BenchOptions o, List<Long> sizes, Progress progress, Consumer<Result> out) {
        bandwidth(d, o, sizes, progress, out, false);
        DriverPeer probe;
        try {
            probe = new DriverPeer(d, 1, 1, true, o.peerPrefix());
        } catch (UnsupportedOperationException noArena) {
            return; // the driver has no memory of its own: off-heap buffers only
        }
        probe.close();
        bandwidth(d, o, sizes, progress, out, true);
    }

    /** One pass: sends from ordinary off-heap memory, or from the driver's own ({@code arena}). */
    private static void bandwidth(DiscoveredDriver d, BenchOptions o, List<Long> sizes, Progress progress,
                                  Consumer<Result> out, boolean arena) {
        long max = sizes.stream().mapToLong(Long::longValue).max().orElse(0);
        int w = o.window();
        String buffers = arena ? "arena" : "offheap";
        try (DriverPeer peer = new DriverPeer(d, max, w, arena, o.peerPrefix())) {
            peer.mode("sink " + w);
            Endpoint e = peer.end();
            for (long size : sizes) {
                e.prepare(size);
                int samples = (int) Math.max(1, o.iterationsFor(size) / w);
                double[] mbps = new double[samples];
                double[] perMsgUs = new double[samples];
                o.warmUp(size, () -> window(e, w));
                for (int s = 0; s < samples; s++) {
                    long t = window(e, w);
                    mbps[s] = (double) w * size / t * 1000;
                    perMsgUs[s] = t / (double) w / 1000;
                    progress.update(o.benchmark() + " " + d.name() + " " + buffers + " " + size + " B", s, samples);
                }
                out.accept(new Result(o.benchmark(), d.name(), size, (long) samples * w, Stats.median(perMsgUs),
                        Stats.quantile(perMsgUs, 0.99), Stats.median(mbps), Map.of("buffers", buffers)));
            }
        }
    }

    /** One bandwidth sample: a window of posted sends and the acknowledgement; returns nanoseconds. */
    private static long window(Endpoint e, int w) {
        long start = System.nanoTime();
        for (int i = 0; i < w; i++) {
            e.post(i);
        }
        for (int i = 0; i < w; i++) {
            e.complete(i);
        }
        long ack = e.recv();
        long t = System.nanoTime() - start;
        if (ack != 0) {
            throw new IllegalStateException("acknowledgement of " + ack + " bytes, expected 0");
        }
        return t;
    }

    /** The sizes the driver can carry; notes the others on {@code skipped}. */
    static List<Long> feasible(DiscoveredDriver d, List<Long> sizes, Consumer<String> skipped) {
        long max = d.properties().capabilities().maxPacketSize();
        List<Long> ok = new ArrayList<>();
        for (long s : sizes) {
            if (s <= max) {
                ok.add(s);
            } else {
                skipped.accept("size " + s + " skipped for driver " + d.name() + ": over its maximum packet size " + max);
            }
        }
        return ok;
    }
}
