package dev.ferry.bench;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.launch.ChildJvm;
import dev.ferry.spi.Capabilities;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.Status;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * The far end of a benchmark, in the child JVM the benchmark starts:
 * <pre>
 *   BenchPeer driver NAME MAXSIZE   answers its URL; then "connect URL", "mode echo|sink W", "exit"
 *   BenchPeer ref-shm FILE          the cache-line ping-pong partner
 *   BenchPeer ref-nio               the NIO echo/sink server; answers its port
 *   BenchPeer ref-ucp               the UCP tag echo; answers its worker address, then "connect ADDRESS MAXSIZE"
 * </pre>
 */
public final class BenchPeer {
    private BenchPeer() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "ref-shm" -> RefShm.serve(Path.of(args[1]));
            case "ref-nio" -> RefNio.serve();
            case "ref-ucp" -> RefUcp.serve();
            case "driver" -> driver(args[1], Long.parseLong(args[2]));
            default -> {
                System.err.println("BenchPeer: unknown role " + args[0]);
                System.exit(2);
            }
        }
        System.exit(0);
    }

    private static void driver(String name, long maxSize) throws Exception {
        DiscoveredDriver d = DriverCatalog.discover().find(name)
                .orElseThrow(() -> new IllegalStateException("driver " + name + " not found in the benchmark peer"));
        try (DriverContext ctx = d.driver().newContext(new Hints(2, 1, true, Map.of()))) {
            Capabilities caps = ctx.properties().capabilities();
            ChildJvm.answer(ctx.init().toText());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            DriverInstance inst = ctx.newInstance();
            Responder responder = null;
            Thread thread = null;
            String line;
            while ((line = in.readLine()) != null) {
                String[] w = line.split(" ", 2);
                switch (w[0]) {
                    case "connect" -> {
                        Status s = inst.connectAsync(DriverUrl.parse(w[1]));
                        ChildJvm.answer(s.name());
                        Status cw = inst.connectWait();
                        if (cw != Status.DONE && cw != Status.NOT_IMPLEMENTED) {
                            throw new IllegalStateException("connectWait answered " + cw);
                        }
                        responder = new Responder(new Endpoint(inst, caps, maxSize, 1));
                        thread = Thread.ofPlatform().daemon().name("bench-responder").start(responder);
                    }
                    case "mode" -> {
                        responder.mode(w[1], DriverPeer.TIMEOUT);
                        ChildJvm.answer("ok");
                    }
                    case "exit" -> {
                        if (responder != null) {
                            responder.mode("stop", DriverPeer.TIMEOUT);
                            thread.join(DriverPeer.TIMEOUT.toMillis());
                        }
                        inst.disconnect();
                        ChildJvm.answer("ok");
                        return;
                    }
                    default -> ChildJvm.answer("err unknown command " + w[0]);
                }
            }
        }
    }
}
