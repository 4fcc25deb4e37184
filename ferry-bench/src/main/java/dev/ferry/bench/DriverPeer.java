package dev.ferry.bench;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.launch.ChildJvm;
import dev.ferry.spi.Capabilities;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.Status;
import dev.ferry.spi.Transport;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The active end of a driver benchmark plus control of its responder: in a thread of this JVM for
 * a driver that stays in one process ({@link Transport#SELF}), else in a child JVM started here
 * ({@link BenchPeer}), until the launcher starts jobs.
 */
final class DriverPeer implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final DriverContext ctx;
    private final Endpoint end;
    private final Capabilities caps;
    private final ChildJvm child;
    private final DriverContext peerCtx;
    private final Responder responder;
    private final Thread responderThread;

    DriverPeer(DiscoveredDriver d, long maxSize, int window) {
        this(d, maxSize, window, false, List.of());
    }

    /**
     * @param arena send from the driver's own memory ({@code DriverContext.allocate}); throws
     *              UnsupportedOperationException when the driver has none
     * @param peerPrefix the command the peer process starts under (another host), or none
     */
    DriverPeer(DiscoveredDriver d, long maxSize, int window, boolean arena, List<String> peerPrefix) {
        ctx = d.driver().newContext(new Hints(2, 0, true, Map.of()));
        caps = ctx.properties().capabilities();
        DriverUrl url = ctx.init();
        DriverInstance inst = ctx.newInstance();
        if (caps.transport() == Transport.SELF) {
            child = null;
            peerCtx = d.driver().newContext(new Hints(2, 1, true, Map.of()));
            peerCtx.properties();
            DriverUrl peerUrl = peerCtx.init();
            DriverInstance peerInst = peerCtx.newInstance();
            expect(inst.connectAsync(peerUrl), "connectAsync");
            expect(peerInst.connectAsync(url), "peer connectAsync");
            responder = new Responder(new Endpoint(peerInst, caps, maxSize, 1));
            responderThread = Thread.ofPlatform().daemon().name("bench-responder").start(() -> {
                Status s = peerInst.connectWait();
                if (s == Status.DONE || s == Status.NOT_IMPLEMENTED) {
                    responder.run();
                }
            });
        } else {
            peerCtx = null;
            responder = null;
            responderThread = null;
            child = ChildJvm.builder(BenchPeer.class.getName()).args("driver", d.name(), String.valueOf(maxSize)).prefix(peerPrefix).start();
            String peerUrl = child.readAnswer(TIMEOUT);
            expect(inst.connectAsync(DriverUrl.parse(peerUrl)), "connectAsync");
            String answer = child.call("connect " + url.toText(), TIMEOUT);
            if (!answer.equals("DONE")) {
                throw new IllegalStateException("benchmark peer's connectAsync answered " + answer);
            }
        }
        Status w = inst.connectWait();
        if (w != Status.DONE && w != Status.NOT_IMPLEMENTED) {
            throw new IllegalStateException("connectWait answered " + w);
        }
        MemorySegment from = null;
        if (arena) {
            from = ctx.allocate(Math.max(1, maxSize));
            if (from == null) {
                close();
                throw new UnsupportedOperationException("driver " + d.name() + " has no memory of its own to allocate");
            }
        }
        end = new Endpoint(inst, caps, maxSize, window, from);
    }

    Endpoint end() {
        return end;
    }

    Capabilities capabilities() {
        return caps;
    }

    /** Sets the responder's mode; returns once it runs in it. */
    void mode(String mode) {
        if (child != null) {
            String a = child.call("mode " + mode, TIMEOUT);
            if (!a.equals("ok")) {
                throw new IllegalStateException("benchmark peer answered '" + a + "' to mode " + mode);
            }
        } else {
            responder.mode(mode, TIMEOUT);
        }
    }

    private static void expect(Status s, String what) {
        if (s != Status.DONE) {
            throw new IllegalStateException(what + " answered " + s);
        }
    }

    @Override
    public void close() {
        try {
            if (child != null) {
                child.call("exit", TIMEOUT);
                child.close();
            } else {
                responder.mode("stop", TIMEOUT);
                responderThread.join(TIMEOUT.toMillis());
                peerCtx.close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            ctx.close();
        }
    }
}
