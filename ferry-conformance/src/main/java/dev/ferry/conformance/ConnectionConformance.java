package dev.ferry.conformance;

import dev.ferry.spi.ConnectRequest;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.ferry.conformance.Transfers.allocate;
import static dev.ferry.conformance.Transfers.await;
import static dev.ferry.conformance.Transfers.checkPattern;
import static dev.ferry.conformance.Transfers.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The conformance kit's tests of a driver's properties, URLs and connections: accept probes,
 * connection requests that wake a wait-any, a peer that closes while its connection is set up,
 * malformed URLs. Part of {@link DriverConformanceTest}.
 */
abstract class ConnectionConformance extends ConformanceFixture {
    // ---- properties, URL ---------------------------------------------------------------------

    @Test
    void propertiesAreAskedOnceAndAreCoherent() {
        assertThrows(IllegalStateException.class, ctx::properties, "a second properties() call");
        assertTrue(caps.maxPacketSize() > 0);
        assertTrue(props.profile().latencyNs() > 0 && props.profile().bandwidthMBps() > 0);
        assertTrue(props.profile().nearestCpus().size() > 0, "nearest CPUs");
        assertNotNull(driver().name());
        assertTrue(driver().name().matches("[a-z][a-z0-9-]*"), "driver name " + driver().name());
        assertFalse(url.parts().isEmpty());
        assertEquals(url, DriverUrl.parse(url.toText()), "URL text round trip");
    }

    @Test
    void worksWithoutWideUrls() throws Exception {
        DriverContext narrow = driver().newContext(new Hints(2, 1, false, Map.of(), settings()));
        try {
            narrow.properties();
            DriverUrl u = narrow.init();
            assertFalse(u.isWide(), "a wide URL although wide URLs were not granted");
            DriverInstance a = ctx.newInstance();
            DriverInstance b = narrow.newInstance();
            assertEquals(Status.DONE, a.connectAsync(u));
            assertEquals(Status.DONE, b.connectAsync(url));
            CompletableFuture<Status> bw = CompletableFuture.supplyAsync(b::connectWait, helper);
            Status aw = waitBounded(a::connectWait, "connectWait");
            assertTrue(aw == Status.DONE || aw == Status.NOT_IMPLEMENTED);
            Status bws = bw.get(Transfers.TIMEOUT.toSeconds(), TimeUnit.SECONDS); // b is used only after its wait returned
            assertTrue(bws == Status.DONE || bws == Status.NOT_IMPLEMENTED, "connectWait answered " + bws);
            MemorySegment m = allocate(100);
            fill(m, 5);
            assertEquals(Status.DONE, Transfers.sendContiguous(a, m, new Packet()));
            MemorySegment r = allocate(100);
            assertEquals(100, Transfers.recvAny(b, caps, r, new Packet()));
            assertEquals(-1, checkPattern(r, 5));
        } finally {
            narrow.close();
        }
    }

    /**
     * A peer that connects first (connections are made on first use) is reported once by the
     * optional acceptProbe; connecting back to the reported URL completes the connection, and
     * what the peer sent before that arrives.
     */
    @Test
    void acceptProbeReportsAPeerThatConnectsFirst() throws Exception {
        ConnectRequest req = new ConnectRequest();
        Status first = ctx.acceptProbe(req);
        if (first == Status.NOT_IMPLEMENTED) {
            return; // optional: an engine connects such a driver up front
        }
        assertEquals(Status.NOT_YET, first, "acceptProbe with nobody connecting");
        Connecting peer = connectingContext();
        DriverContext other = peer.context();
        try {
            DriverUrl u = peer.url();
            CompletableFuture<Status> sent = sendFromHelper(peer.instance(), 9);
            assertEquals(Status.DONE, await(() -> ctx.acceptProbe(req), "acceptProbe"));
            assertEquals(u, req.url, "the URL of the connecting context");
            assertTrue(req.rank == -1 || req.rank == 1, "the rank of the connecting context, where the driver tells it: " + req.rank);
            DriverInstance a = ctx.newInstance();
            assertEquals(Status.DONE, a.connectAsync(req.url));
            MemorySegment r = allocate(100);
            assertEquals(100, Transfers.recvAny(a, caps, r, new Packet()));
            assertEquals(-1, checkPattern(r, 9));
            assertEquals(Status.DONE, sent.get(Transfers.TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            assertEquals(Status.NOT_YET, ctx.acceptProbe(req), "a request is reported once");
        } finally {
            other.close();
        }
    }

    /**
     * A wait-any sleeping while a peer asks to connect wakes with NOT_YET, and acceptProbe then
     * reports the request: an idle engine takes up a new peer at once, not at its next look.
     */
    @Test
    void aConnectionRequestWakesAWaitAny() throws Exception {
        ConnectRequest req = new ConnectRequest();
        if (!caps.supportsWaitAny() || ctx.acceptProbe(req) == Status.NOT_IMPLEMENTED) {
            return; // nothing to wake, or no requests: an engine connects such a driver up front
        }
        InstanceRef ready = new InstanceRef();
        CompletableFuture<Status> waiting = CompletableFuture.supplyAsync(() -> ctx.recvWaitAny(ready), helper);
        Connecting peer = connectingContext();
        DriverContext other = peer.context();
        try {
            DriverUrl u = peer.url();
            DriverInstance b = peer.instance();
            MemorySegment m = allocate(8);
            Packet sp = new Packet().useIov(IoVec.of(m));
            // the peer sends (some drivers publish the request with the first packet), polling on:
            // polling moves its connection on
            CompletableFuture<Status> sent = CompletableFuture.supplyAsync(() -> {
                long until = System.nanoTime() + Transfers.TIMEOUT.toNanos();
                Status s;
                while ((s = b.sendPost(sp)) == Status.NOT_YET && System.nanoTime() - until < 0) {
                    Thread.onSpinWait();
                }
                if (s != Status.DONE) {
                    return s;
                }
                while ((s = b.sendPoll(sp)) == Status.NOT_YET && System.nanoTime() - until < 0) {
                    Thread.onSpinWait();
                }
                return s;
            }, helper);
            assertEquals(Status.NOT_YET, waiting.get(Transfers.TIMEOUT.toSeconds(), TimeUnit.SECONDS), "wait-any woken by a connection request");
            // a NOT_YET also tells of other news (the worker or a peer moved a send on): the
            // request is reported by the wait that returns next, if not by this one
            for (int news = 0; ctx.acceptProbe(req) != Status.DONE; news++) {
                assertTrue(news < 64, "acceptProbe reported no request after " + news + " more NOT_YETs of wait-any");
                assertEquals(Status.NOT_YET, waitBounded(() -> ctx.recvWaitAny(ready), "recvWaitAny"), "wait-any woken by a connection request");
            }
            assertEquals(u, req.url, "the URL of the connecting context");
            // complete the exchange, so that nothing is in flight when the contexts close
            DriverInstance a = ctx.newInstance();
            assertEquals(Status.DONE, a.connectAsync(req.url));
            assertEquals(8, Transfers.recvAny(a, caps, allocate(8), new Packet()));
            assertEquals(Status.DONE, sent.get(Transfers.TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        } finally {
            ctx.recvCancelAny();
            other.close();
        }
    }

    /**
     * A peer context closed while its connection to us is still being set up (its greeting still
     * on its way, a packet posted, nothing polled) ends cleanly while we go on serving, round after
     * round: nothing it had in flight may bring a process down (UCX aborts when an endpoint is
     * force-closed with a send still queued in its transport).
     */
    @Test
    void aPeerClosedWhileItsConnectionIsSetUpLeavesEveryoneAlive() throws Exception {
        ConnectRequest req = new ConnectRequest();
        java.util.concurrent.atomic.AtomicBoolean closing = new java.util.concurrent.atomic.AtomicBoolean(true);
        CompletableFuture<Status> serving = CompletableFuture.supplyAsync(() -> {
            Status s = Status.NOT_YET;
            while (closing.get() && (s == Status.NOT_YET || s == Status.DONE)) {
                s = ctx.acceptProbe(req); // as a live peer's engine does: its driver makes progress
                Thread.onSpinWait();
            }
            return s;
        }, helper);
        try {
            for (int round = 0; round < 20; round++) {
                Connecting peer = connectingContext();
                try {
                    Status posted = peer.instance().sendPost(new Packet().useIov(IoVec.of(allocate(8))));
                    assertTrue(posted == Status.DONE || posted == Status.NOT_YET, "sendPost: " + posted);
                } finally {
                    peer.context().close(); // at once: nothing was polled, so everything is still on its way
                }
            }
        } finally {
            closing.set(false);
        }
        Status last = serving.get(Transfers.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        assertTrue(last == Status.NOT_YET || last == Status.DONE || last == Status.NOT_IMPLEMENTED, "acceptProbe while peers left: " + last);
    }

    /**
     * A driver that {@linkplain dev.ferry.spi.Capabilities#supportsReconnect() reconnects}: the two
     * contexts connect, disconnect and connect again, three times; and a peer that connects anew
     * while the old connection is still open here (it disconnected its end, we did not yet) is
     * reported by acceptProbe, and what it sent on the new connection arrives there, not on the old.
     */
    @Test
    void reconnectsAfterBothEndsDisconnected() throws Exception {
        if (!caps.supportsReconnect()) {
            return; // optional: an engine keeps such a driver's connections until the job ends
        }
        ConnectRequest req = new ConnectRequest();
        DriverContext other = driver().newContext(new Hints(2, 1, true, Map.of(), settings()));
        try {
            other.properties();
            DriverUrl u = other.init();
            DriverInstance a = null;
            for (int round = 0; round < 3; round++) {
                DriverInstance b = other.newInstance();
                assertEquals(Status.DONE, b.connectAsync(url), "round " + round);
                CompletableFuture<Status> sent = sendFromHelper(b, 40 + round);
                if (a == null) {
                    assertEquals(Status.DONE, await(() -> ctx.acceptProbe(req), "acceptProbe, round " + round));
                } else {
                    // b's end of the last connection is gone, ours not yet: the request is still reported
                    assertEquals(Status.DONE, await(() -> ctx.acceptProbe(req), "acceptProbe while the old connection is open here, round " + round));
                    DriverInstance old = a;
                    Status end = caps.supportsBufRecv()
                            ? await(() -> old.recvPoll(new Packet()), "the old connection's end")
                            : Transfers.recvPosted(old, new Packet(), IoVec.of(allocate(100)));
                    assertEquals(Status.CLOSED, end, "the old connection, after the peer disconnected its end");
                    Status d = old.disconnect();
                    assertTrue(d == Status.DONE || d == Status.CLOSED, "disconnecting the old connection: " + d);
                }
                assertEquals(u, req.url, "the URL of the reconnecting context");
                a = ctx.newInstance();
                assertEquals(Status.DONE, a.connectAsync(req.url));
                MemorySegment r = allocate(100);
                assertEquals(100, Transfers.recvAny(a, caps, r, new Packet()));
                assertEquals(-1, checkPattern(r, 40 + round), "round " + round);
                assertEquals(Status.DONE, sent.get(Transfers.TIMEOUT.toSeconds(), TimeUnit.SECONDS));
                MemorySegment back = allocate(64);
                fill(back, 60 + round);
                assertEquals(Status.DONE, Transfers.sendContiguous(a, back, new Packet()));
                MemorySegment got = allocate(64);
                assertEquals(64, Transfers.recvAny(b, caps, got, new Packet()));
                assertEquals(-1, checkPattern(got, 60 + round), "the answer, round " + round);
                assertEquals(Status.DONE, b.disconnect());
            }
        } finally {
            other.close();
        }
    }

    /** Sends 100 bytes of pattern {@code seed} from the helper thread, polling until it is done (the poll moves set-up on). */
    private CompletableFuture<Status> sendFromHelper(DriverInstance b, long seed) {
        MemorySegment m = allocate(100);
        fill(m, seed);
        Packet sp = new Packet().useIov(IoVec.of(m));
        return CompletableFuture.supplyAsync(() -> {
            Status s;
            long end = System.nanoTime() + Transfers.TIMEOUT.toNanos();
            while ((s = b.sendPost(sp)) == Status.NOT_YET && System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            if (s != Status.DONE) {
                return s;
            }
            while ((s = b.sendPoll(sp)) == Status.NOT_YET && System.nanoTime() < end) {
                Thread.onSpinWait(); // polling moves the connection on (a packet posted before it is up waits)
            }
            return s;
        }, helper);
    }

    /** A second context of this driver, as rank 2 of 1, with an instance connecting to ours. */
    private record Connecting(DriverContext context, DriverUrl url, DriverInstance instance) {
    }

    private Connecting connectingContext() {
        DriverContext other = driver().newContext(new Hints(2, 1, true, Map.of(), settings()));
        other.properties();
        DriverUrl u = other.init();
        DriverInstance b = other.newInstance();
        assertEquals(Status.DONE, b.connectAsync(url));
        return new Connecting(other, u, b);
    }

    @Test
    void malformedUrlIsInvalid() {
        DriverInstance inst = ctx.newInstance();
        assertEquals(Status.INVALID, inst.connectAsync(DriverUrl.single(new byte[] {1, 2, 3})));
    }
}
