package dev.ferry.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * UCX as a peer of {@code ferry bench report}: its own {@code ucx_perftest} between two processes
 * of this machine over UCX's shared-memory transports ({@code UCX_TLS=sm,self}), a tagged
 * ping-pong ({@code tag_lat}) and a tagged stream ({@code tag_bw}) per size, the server started
 * for each test. Its "Final:" line gives the 50th percentile and average one-way latency in
 * microseconds, and the bandwidth in MiB/s, which become the report's JSON lines (MB/s as 10^6
 * bytes a second, as Ferry's).
 *
 * <pre>{@code
 * UcxPerftest.run("8,4096", 2000, line -> System.out.println(line));
 * }</pre>
 */
final class UcxPerftest {
    private static final long BOUND_SECONDS = 120;
    private static final int PORT = 13_397;

    private UcxPerftest() {
    }

    /** Latency and bandwidth over {@code sizes} (bytes, comma-separated): one JSON line each. */
    static void run(String sizes, int iterations, Consumer<String> out) throws IOException, InterruptedException {
        for (String s : sizes.split(",")) {
            long size = Long.parseLong(s);
            long iters = Math.max(10, Math.min(iterations, (1L << 31) / Math.max(1, size)));
            double[] lat = test("tag_lat", size, iters);
            out.accept(line("latency", size, iters, lat[0], lat[1], null));
            // a stream of small messages lasts microseconds at the suite's count: up to 64 MiB of them, so it is measured at all
            long stream = Math.max(iters, Math.min(1_000_000, (64L << 20) / Math.max(1, size)));
            double[] bw = test("tag_bw", size, stream);
            out.accept(line("bw", size, stream, bw[0], bw[1], bw[2] * 1.048576)); // MiB/s to 10^6 bytes a second
        }
    }

    /** One test: {50th percentile us, average us, bandwidth MiB/s} from the client's Final line. */
    private static double[] test(String test, long size, long iterations) throws IOException, InterruptedException {
        // line-buffered, so that its "Waiting for connection..." (printed once it listens) arrives at once
        ProcessBuilder server = new ProcessBuilder("stdbuf", "-oL", "ucx_perftest", "-p", String.valueOf(PORT)).redirectErrorStream(true);
        server.environment().put("UCX_TLS", "sm,self");
        Process srv = server.start();
        try {
            awaitListening(srv);
            List<String> client = List.of("env", "UCX_TLS=sm,self", "ucx_perftest", "127.0.0.1", "-p", String.valueOf(PORT),
                    "-t", test, "-s", String.valueOf(size), "-n", String.valueOf(iterations), "-w", String.valueOf(Math.max(10, iterations / 10)));
            ReportPeers.Result r = ReportPeers.exec(client, BOUND_SECONDS);
            if (r.exit() != 0) {
                throw new IOException("ucx_perftest " + test + " " + size + " B exited " + r.exit() + ": " + r.output().strip());
            }
            String fin = r.output().lines().filter(l -> l.strip().startsWith("Final:")).findFirst()
                    .orElseThrow(() -> new IOException("ucx_perftest printed no Final line"));
            String[] f = fin.strip().split("\\s+"); // Final: iterations p50 average overall bw-average bw-overall rate-average rate-overall
            return new double[] {Double.parseDouble(f[2]), Double.parseDouble(f[3]), Double.parseDouble(f[5])};
        } finally {
            srv.destroy();
            srv.waitFor();
        }
    }

    /** Reads the server's output until it says it listens (within 30 s); the rest is drained, unread. */
    private static void awaitListening(Process srv) throws IOException, InterruptedException {
        BufferedReader out = new BufferedReader(new InputStreamReader(srv.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Boolean> listening = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                for (String l; (l = out.readLine()) != null; ) {
                    if (l.contains("Waiting for connection")) {
                        listening.complete(true);
                    }
                }
                listening.complete(false);
            } catch (IOException e) {
                listening.complete(false);
            }
        });
        try {
            if (!listening.get(30, TimeUnit.SECONDS)) {
                throw new IOException("ucx_perftest's server ended before it listened on port " + PORT);
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("ucx_perftest's server did not listen on port " + PORT + " within 30 s", e);
        }
    }

    private static String line(String benchmark, long size, long iterations, double p50, double average, Double mbPerS) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("benchmark", benchmark);
        m.put("driver", "ucx");
        m.put("size", size);
        m.put("iterations", iterations);
        m.put("median_us", p50);
        m.put("p99_us", null); // ucx_perftest reports no tail; its mean instead
        m.put("mean_us", average);
        if (mbPerS != null) {
            m.put("mb_per_s", Stats.round(mbPerS, 5));
        }
        m.put("source", "ucx_perftest");
        return ResultPrinter.json(m);
    }
}
