package dev.ferry.conformance;

import dev.ferry.spi.Capabilities;
import dev.ferry.spi.ConnectRequest;
import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.Driver;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverProperties;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * The driver conformance kit: one JUnit 5 suite every driver module runs against itself. A driver
 * earns its place by passing it.
 *
 * <p>This JVM holds the test end (a context of rank 0); the other ends are {@link PeerAgent}s in
 * child JVMs ({@link PeerMode#PROCESS}, for drivers that cross processes) or in threads of this
 * JVM ({@link PeerMode#THREAD}, for the self driver). Every operation the driver's capabilities
 * promise is exercised; every optional one it does not promise must answer NOT_IMPLEMENTED (or
 * INVALID, where seed 000 says the caller must not use it).
 *
 * <pre>{@code
 * class ShmConformanceTest extends DriverConformanceTest {
 *     protected Driver driver() { return new ShmDriver(); }
 *     protected PeerMode peerMode() { return PeerMode.PROCESS; }
 * }
 * }</pre>
 */
public abstract class DriverConformanceTest extends ConformanceFixture {
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
            DriverInstance b = peer.instance();
            MemorySegment m = allocate(100);
            fill(m, 9);
            Packet sp = new Packet().useIov(IoVec.of(m));
            CompletableFuture<Status> sent = CompletableFuture.supplyAsync(() -> {
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
            assertEquals(Status.DONE, await(() -> ctx.acceptProbe(req), "acceptProbe"));
            assertEquals(u, req.url, "the URL of the connecting context");
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

    // ---- data --------------------------------------------------------------------------------

    @Test
    void deliversInOrder() {
        DriverInstance inst = connectEcho();
        int window = 16;
        Packet[] sends = new Packet[window];
        MemorySegment[] bufs = new MemorySegment[window];
        for (int i = 0; i < window; i++) {
            sends[i] = new Packet();
            bufs[i] = allocate(16);
        }
        MemorySegment in = allocate(16);
        Packet rp = new Packet();
        int next = 0;
        for (int round = 0; round < 64; round++) {
            for (int i = 0; i < window; i++) {
                bufs[i].set(ValueLayout.JAVA_LONG_UNALIGNED, 0, round * window + i);
                Packet p = sends[i].reset().useIov(IoVec.of(bufs[i]));
                assertEquals(Status.DONE, await(() -> inst.sendPost(p), "post"));
            }
            for (int i = 0; i < window; i++) {
                Packet p = sends[i];
                assertEquals(Status.DONE, await(() -> inst.sendPoll(p), "poll"));
            }
            for (int i = 0; i < window; i++) {
                assertEquals(16, Transfers.recvAny(inst, caps, in, rp));
                assertEquals(next++, in.get(ValueLayout.JAVA_LONG_UNALIGNED, 0), "packet order");
            }
        }
    }

    @Test
    void deliversEverySizeUpToTheMaximum() {
        DriverInstance inst = connectEcho();
        long max = Math.min(caps.maxPacketSize(), MAX_TESTED_PACKET);
        List<Long> sizes = new ArrayList<>(List.of(0L, 1L, 2L, 3L, 7L, 8L, 9L));
        for (long s = 16; s < max; s <<= 1) {
            sizes.add(s);
            if (s <= (1 << 20)) {
                sizes.add(s - 1);
                sizes.add(s + 1);
            }
        }
        sizes.add(max);
        MemorySegment out = allocate(max);
        MemorySegment in = allocate(max);
        Packet sp = new Packet();
        Packet rp = new Packet();
        for (long size : sizes) {
            if (size > max) {
                continue;
            }
            MemorySegment o = out.asSlice(0, size);
            fill(o, size);
            long n = sendAndEcho(inst, sp, rp, o, in);
            assertEquals(size, n, "echoed length");
            assertEquals(-1, checkPattern(in.asSlice(0, size), size), "content of a " + size + "-byte packet");
        }
    }

    /**
     * Heap memory of other kinds than bytes carries packets both ways (the application API sends
     * from and receives into int[], long[]... in place): no ByteBuffer can view an int[].
     */
    @Test
    void packetsFromAnIntArrayIntoALongArray() {
        DriverInstance inst = connectEcho();
        long max = Math.min(caps.maxPacketSize(), 1 << 20) & ~7L;
        for (long size : new long[] {8, 4096, max}) {
            MemorySegment o = MemorySegment.ofArray(new int[(int) (size / 4)]);
            MemorySegment in = MemorySegment.ofArray(new long[(int) (size / 8)]);
            fill(o, size);
            assertEquals(size, sendAndEcho(inst, new Packet(), new Packet(), o, in), "echoed length");
            assertEquals(-1, checkPattern(in, size), "content of a " + size + "-byte packet from an int[] into a long[]");
        }
    }

    @Test
    void oversizedPacketIsInvalid() {
        DriverInstance inst = connectEcho();
        long over = caps.maxPacketSize() + 1;
        Packet p = new Packet();
        if (caps.supportsData()) {
            p.useData(new RepeatingLayout(allocate(4096), over));
        } else {
            assertTrue(over <= MAX_TESTED_PACKET + 1, "driver declares a maximum the kit cannot allocate for");
            p.useIov(IoVec.of(allocate(over)));
        }
        assertEquals(Status.INVALID, inst.sendPost(p), "a packet one byte over the maximum");
        // non-fatal: the connection still works
        MemorySegment m = allocate(8);
        fill(m, 1);
        assertEquals(8, sendAndEcho(inst, new Packet(), new Packet(), m, allocate(8)));
    }

    @Test
    void iovecsOf1To64Segments() {
        DriverInstance inst = connectEcho();
        Packet sp = new Packet();
        Packet rp = new Packet();
        if (!caps.supportsIovec()) {
            MemorySegment a = allocate(8);
            assertEquals(Status.INVALID, inst.sendPost(sp.useIov(IoVec.of(a, a))), "a 2-segment iovec without iovec support");
        }
        int maxSegs = caps.supportsIovec() ? Math.min(64, caps.maxIovecSegments()) : 1;
        for (int n = 1; n <= maxSegs; n++) {
            IoVec out = new IoVec(n);
            long total = 0;
            for (int i = 0; i < n; i++) {
                MemorySegment seg = allocate(1 + (i * 37L + n) % 300);
                out.add(seg);
                total += seg.byteSize();
            }
            MemorySegment expected = allocate(total);
            fill(expected, n);
            new DataCursor().reset(out).copyFrom(expected, 0, total);
            assertEquals(Status.DONE, Transfers.send(inst, sp.reset().useIov(out)), n + "-segment iovec send");
            // receive into a differently cut iovec
            int m = caps.supportsIovec() ? Math.max(1, Math.min(maxSegs, 65 - n)) : 1;
            IoVec in = new IoVec(m);
            long left = total;
            for (int i = 0; i < m; i++) {
                long len = i == m - 1 ? left : Math.min(left, total / m);
                in.add(allocate(len));
                left -= len;
            }
            assertEquals(Status.DONE, Transfers.recvPosted(inst, rp, in), m + "-segment iovec receive");
            assertEquals(total, rp.length());
            MemorySegment got = allocate(total);
            new DataCursor().reset(in).copyTo(got, 0, total);
            assertEquals(-1, checkPattern(got, n), "content through a " + n + "-segment iovec");
        }
    }

    @Test
    void stridedAndGenericLayouts() {
        DriverInstance inst = connectEcho();
        Packet p = new Packet();
        if (!caps.supportsData()) {
            MemorySegment m = allocate(64);
            assertEquals(Status.NOT_IMPLEMENTED, inst.sendPost(p.useData(DataLayout.strided(m, 0, 4, 8, 16))));
            assertEquals(Status.NOT_IMPLEMENTED, inst.recvPost(new Packet().useData(DataLayout.strided(m, 0, 4, 8, 16))));
            return;
        }
        long[][] shapes = {{100, 12, 20}, {3, 1, 7}, {1000, 1000, 1500}, {1, 0, 0}};
        for (long[] s : shapes) {
            long blocks = s[0], block = s[1], stride = s[2];
            long total = blocks * block;
            if (total > Math.min(caps.maxPacketSize(), MAX_TESTED_PACKET)) {
                continue;
            }
            MemorySegment src = allocate(Math.max(1, (blocks - 1) * stride + block));
            DataLayout out = DataLayout.strided(src, 0, blocks, block, stride);
            MemorySegment expected = allocate(total);
            fill(expected, blocks);
            new DataCursor().reset(out).copyFrom(expected, 0, total);
            assertEquals(Status.DONE, Transfers.send(inst, p.reset().useData(out)), "strided send " + blocks + "x" + block);
            // receive into another shape of the same size: a generic layout walking backwards through blocks
            MemorySegment dst = allocate(Math.max(1, (total + 6) / 7 * 7 * 2));
            DataLayout in = total == 0 ? DataLayout.strided(dst, 0, 0, 0, 0) : new ReversedBlocks(dst, total, 7);
            Packet rp = new Packet();
            assertEquals(Status.DONE, Transfers.recvPosted(inst, rp, in), "generic-layout receive");
            assertEquals(total, rp.length());
            MemorySegment got = allocate(total);
            new DataCursor().reset(in).copyTo(got, 0, total);
            assertEquals(-1, checkPattern(got, blocks), "content through strided " + blocks + "x" + block + "/" + stride);
        }
    }

    @Test
    void bufferBasedPaths() {
        DriverInstance inst = connectEcho();
        Packet p = new Packet();
        if (!caps.supportsBufSend()) {
            assertEquals(Status.NOT_IMPLEMENTED, inst.sendBufGet(p));
        }
        if (!caps.supportsBufRecv()) {
            assertEquals(Status.NOT_IMPLEMENTED, inst.recvBufRelease(p));
        }
        if (!caps.supportsBufSend()) {
            return;
        }
        MemorySegment in = allocate(caps.maxBufferSize());
        for (long size : new long[] {0, 1, 8, 100, caps.maxBufferSize()}) {
            p.reset();
            assertEquals(Status.DONE, await(() -> inst.sendBufGet(p), "sendBufGet"));
            assertSame(Packet.Form.BUFFER, p.form());
            assertTrue(p.buffer().byteSize() >= caps.maxBufferSize(), "driver buffer of " + p.buffer().byteSize() + " bytes");
            fill(p.buffer().asSlice(0, size), size + 3);
            p.length(size);
            assertEquals(Status.DONE, inst.sendBufPost(p));
            assertEquals(Status.DONE, await(() -> inst.sendPoll(p), "buffer send poll"));
            assertEquals(size, Transfers.recvAny(inst, caps, in, new Packet()), "echo of a buffer send");
            assertEquals(-1, checkPattern(in.asSlice(0, size), size + 3));
        }
    }

    // ---- context-wide receive ----------------------------------------------------------------

    @Test
    void probeAnyAndWaitAnyAreFairAcross8Instances() {
        InstanceRef ready = new InstanceRef();
        if (!caps.hasRecvAny()) {
            assertEquals(Status.NOT_IMPLEMENTED, ctx.recvProbeAny(ready));
        }
        if (!caps.supportsWaitAny()) {
            assertEquals(Status.NOT_IMPLEMENTED, ctx.recvWaitAny(ready));
            assertEquals(Status.NOT_IMPLEMENTED, ctx.recvCancelAny());
        }
        if (!caps.hasRecvAny()) {
            return;
        }
        int k = 8, count = 16, size = 64;
        PeerLink peer = newPeer();
        List<DriverInstance> insts = connect(peer, k, "idle");
        assertEquals(Status.NOT_YET, ctx.recvProbeAny(ready), "probe-any with nothing sent");
        for (boolean blocking : caps.supportsWaitAny() ? new boolean[] {false, true} : new boolean[] {false}) {
            for (int c = 0; c < k; c++) {
                peer.call("serve " + c + " flood " + count + " " + size);
            }
            for (int c = 0; c < k; c++) {
                int cc = c;
                assertEquals("DONE", awaitPeer(peer, cc), "flood of peer context " + c);
            }
            Map<DriverInstance, Integer> index = new HashMap<>();
            for (int c = 0; c < k; c++) {
                index.put(insts.get(c), c);
            }
            int[] nextSeq = new int[k];
            int[] firstSeen = new int[k];
            java.util.Arrays.fill(firstSeen, -1);
            MemorySegment in = allocate(size);
            Packet rp = new Packet();
            for (int n = 0; n < k * count; n++) {
                Status s = blocking ? waitBounded(() -> waitAnyData(ready), "recvWaitAny")
                        : await(() -> ctx.recvProbeAny(ready), "recvProbeAny");
                assertEquals(Status.DONE, s, blocking ? "wait-any" : "probe-any");
                Integer c = index.get(ready.instance);
                assertNotNull(c, "probe-any returned an instance of another context");
                assertEquals(size, Transfers.recvAny(ready.instance, caps, in, rp));
                assertEquals((int) c, in.get(ValueLayout.JAVA_INT_UNALIGNED, 0), "packet's origin");
                assertEquals(nextSeq[c]++, in.get(ValueLayout.JAVA_INT_UNALIGNED, 4), "order on instance " + c);
                if (firstSeen[c] < 0) {
                    firstSeen[c] = n;
                }
            }
            for (int c = 0; c < k; c++) {
                assertEquals(count, nextSeq[c]);
                // fair: with every instance holding data, each is served within the first two rounds
                assertTrue(firstSeen[c] < 2 * k, "instance " + c + " first served at reception " + firstSeen[c]
                        + (blocking ? " (wait-any)" : " (probe-any)"));
            }
            assertEquals(Status.NOT_YET, ctx.recvProbeAny(ready), "probe-any after draining");
        }
    }

    /** recvWaitAny, again after a NOT_YET (a peer's connection request, reported once each, or a send of ours moved on). */
    private Status waitAnyData(InstanceRef ready) {
        for (int requests = 0; ; requests++) {
            Status s = ctx.recvWaitAny(ready);
            if (s != Status.NOT_YET) {
                return s;
            }
            assertTrue(requests < 64, "recvWaitAny answered NOT_YET 64 times with nothing to report: this context only receives");
        }
    }

    private String awaitPeer(PeerLink peer, int c) {
        long deadline = System.nanoTime() + Transfers.TIMEOUT.toNanos();
        while (true) {
            String s = peer.call("finished " + c);
            if (!s.equals("running")) {
                return s;
            }
            if (System.nanoTime() - deadline > 0) {
                fail("peer context " + c + " still running after " + Transfers.TIMEOUT.toSeconds() + " s");
            }
            Thread.yield();
        }
    }

    @Test
    void cancelAnyEndsAWaitAny() throws Exception {
        if (!caps.supportsWaitAny()) {
            assertEquals(Status.NOT_IMPLEMENTED, ctx.recvCancelAny());
            return;
        }
        connectEcho();
        InstanceRef ready = new InstanceRef();
        CompletableFuture<Status> waiting = CompletableFuture.supplyAsync(() -> {
            Status s;
            while ((s = ctx.recvWaitAny(ready)) == Status.NOT_YET) {
                continue; // news of the set-up (a send moved on) may come first
            }
            return s;
        }, helper);
        assertEquals(Status.DONE, ctx.recvCancelAny());
        assertEquals(Status.CANCELED, waiting.get(Transfers.TIMEOUT.toSeconds(), TimeUnit.SECONDS));
    }

    @Test
    void recvCancelWithdrawsAPostedReceiveAndLosesNothing() {
        PeerLink peer = newPeer();
        DriverInstance inst = connect(peer, 1, "idle").get(0);
        Packet p = new Packet();
        MemorySegment m = allocate(64);
        p.useIov(IoVec.of(m));
        Status posted = inst.recvPost(p);
        if (posted == Status.NOT_IMPLEMENTED) {
            assertTrue(caps.supportsBufRecv(), "a driver needs a posted or a buffer-based receive");
            assertEquals(Status.NOT_IMPLEMENTED, inst.recvCancel(p));
            return;
        }
        assertEquals(Status.DONE, posted);
        assertEquals(Status.NOT_YET, inst.recvPoll(p));
        assertEquals(Status.DONE, inst.recvCancel(p), "cancel of a posted receive");
        assertEquals(Status.INVALID, inst.recvCancel(p), "second cancel: nothing posted");
        peer.call("serve 0 flood 1 64");
        assertEquals("DONE", awaitPeer(peer, 0));
        MemorySegment in = allocate(64);
        assertEquals(64, Transfers.recvAny(inst, caps, in, new Packet()), "the packet sent after the cancel");
        assertEquals(0, in.get(ValueLayout.JAVA_INT_UNALIGNED, 4));
    }

    // ---- prefetch, rendezvous data -----------------------------------------------------------

    @Test
    void prefetchAndUnfetch() {
        DriverInstance inst = connectEcho();
        MemorySegment out = allocate(4096);
        fill(out, 11);
        Packet p = new Packet().useIov(IoVec.of(out));
        Packet r = new Packet().useIov(IoVec.of(allocate(4096)));
        if (!caps.supportsPrefetch()) {
            assertEquals(Status.NOT_IMPLEMENTED, inst.sendPrefetch(p));
            assertEquals(Status.NOT_IMPLEMENTED, inst.sendUnfetch(p));
            assertEquals(Status.NOT_IMPLEMENTED, inst.recvPrefetch(r));
            assertEquals(Status.NOT_IMPLEMENTED, inst.recvUnfetch(r));
            return;
        }
        // prefetched, then unfetched: the data goes another way, the packet is usable again
        assertEquals(Status.DONE, inst.sendPrefetch(p));
        assertEquals(Status.DONE, inst.sendUnfetch(p));
        assertEquals(Status.DONE, inst.recvPrefetch(r));
        assertEquals(Status.DONE, inst.recvUnfetch(r));
        // prefetched, then sent
        assertEquals(Status.DONE, inst.sendPrefetch(p));
        assertEquals(Status.DONE, Transfers.send(inst, p));
        MemorySegment in = allocate(4096);
        assertEquals(4096, Transfers.recvAny(inst, caps, in, new Packet()));
        assertEquals(-1, checkPattern(in, 11));
    }

    @Test
    void rendezvousDataRoundTrip() {
        long size = Math.min(caps.maxPacketSize(), 1L << 20);
        PeerLink peer = newPeer();
        DriverInstance inst = connect(peer, 1, "rdv " + size).get(0);
        // 1. the receiver's rendezvous data arrives (carried by "the upper layer": a packet)
        MemorySegment rdv = allocate(Math.min(caps.maxPacketSize(), 65536));
        long rdvLen = Transfers.recvAny(inst, caps, rdv, new Packet());
        // 2. the sender hands it to the driver with the data
        MemorySegment out = allocate(size);
        fill(out, 99);
        Packet p = new Packet().useIov(IoVec.of(out));
        p.rdvData(rdv.asSlice(0, rdvLen));
        assertEquals(Status.DONE, Transfers.send(inst, p), "send with rendezvous data");
        assertEquals(rdvLen, p.rdvData().byteSize(), "the sender's rendezvous data stays the caller's");
        // 3. the receiver checked what it got
        MemorySegment result = allocate(8);
        assertEquals(8, Transfers.recvAny(inst, caps, result, new Packet()));
        assertEquals(size, result.get(ValueLayout.JAVA_LONG_UNALIGNED, 0), "receiver's verdict (-1: wrong data)");
    }

    @Test
    void pullRendezvous() {
        if (caps.pullDataSize() == 0) {
            DriverInstance inst = connectEcho();
            Packet p = new Packet().useIov(IoVec.of(allocate(64)));
            assertEquals(Status.NOT_IMPLEMENTED, inst.sendExpose(p, allocate(64)), "sendExpose without pull data");
            assertEquals(Status.NOT_IMPLEMENTED, inst.pullPost(p, allocate(64)), "pullPost without pull data");
            return;
        }
        int n = 4; // the last is 5 segments: more than a driver's pull data may hold inline (the indirect format)
        long size = Math.min(caps.maxPacketSize(), 256 << 10);
        PeerLink peer = newPeer();
        DriverInstance inst = connect(peer, 1, "pull " + n + " " + size).get(0);
        Packet[] exposed = new Packet[n];
        MemorySegment[] pullData = new MemorySegment[n];
        boolean own = false; // ordinary memory first; a driver that cannot expose it must expose its own (ctx.allocate)
        boolean segmentsRefused = false;
        for (int k = 0; k < n; k++) {
            MemorySegment out = own ? ctx.allocate(size) : allocate(size);
            fill(out, 40 + k);
            IoVec iov = new IoVec(5);
            if (k == n - 1) {
                for (int i = 0; i < 5; i++) { // the pattern in five pieces, in order
                    iov.add(out.asSlice(i * (size / 5), i == 4 ? size - 4 * (size / 5) : size / 5));
                }
            } else {
                iov.add(out);
            }
            Packet p = exposed[k] = new Packet().useIov(iov);
            MemorySegment d = pullData[k] = allocate(caps.pullDataSize());
            Status s = Transfers.await(() -> inst.sendExpose(p, d), "expose");
            if (s == Status.INVALID && k == n - 1) { // a driver may refuse a layout: the upper layer sends it instead
                segmentsRefused = true;
                exposed[k] = null;
                pullData[k] = allocate(caps.pullDataSize() + 8); // a packet longer than pull data tells the peer: nothing exposed
                continue;
            }
            if (s == Status.INVALID && k == 0 && !own) {
                own = true;
                assertNotNull(ctx.allocate(size), "the driver exposes neither ordinary memory nor memory of its own");
                k--;
                continue;
            }
            assertEquals(Status.DONE, s, "expose " + k + (own ? " (driver memory)" : ""));
        }
        assertEquals(Status.NOT_YET, inst.sendPoll(exposed[0]), "an exposed packet completes only once the peer has pulled it");
        for (int k = 0; k < n; k++) { // the upper layer's job, done here by hand: carry the pull data
            assertEquals(Status.DONE, Transfers.sendContiguous(inst, pullData[k], new Packet()), "pull data " + k);
        }
        for (int k = 0; k < n; k++) {
            Packet p = exposed[k];
            if (p != null) {
                assertEquals(Status.DONE, Transfers.await(() -> inst.sendPoll(p), "exposure pulled"), "exposure " + k);
            }
        }
        MemorySegment verdicts = allocate(8L * n);
        assertEquals(8L * n, Transfers.recvAny(inst, caps, verdicts, new Packet()));
        for (int k = 0; k < n; k++) {
            long expected = k == n - 1 && segmentsRefused ? -2 : PeerAgent.pullWanted(k, size);
            assertEquals(expected, verdicts.get(ValueLayout.JAVA_LONG_UNALIGNED, 8L * k),
                    "bytes of exposure " + k + " the peer pulled and checked (-1: wrong, -2: not exposed)");
        }
    }

    // ---- threads, waits ----------------------------------------------------------------------

    @Test
    void callsMayComeFromDifferentThreads() throws Exception {
        DriverInstance inst = connectEcho();
        MemorySegment out = allocate(256);
        fill(out, 21);
        Packet p = new Packet().useIov(IoVec.of(out));
        // post on one thread, poll on another; receive likewise (never concurrently)
        assertEquals(Status.DONE, CompletableFuture.supplyAsync(() -> await(() -> inst.sendPost(p), "post"), helper).get(30, TimeUnit.SECONDS));
        assertEquals(Status.DONE, await(() -> inst.sendPoll(p), "poll"));
        MemorySegment in = allocate(256);
        Packet r = new Packet().useIov(IoVec.of(in));
        Status posted = inst.recvPost(r);
        if (posted == Status.DONE) {
            assertEquals(Status.DONE, CompletableFuture.supplyAsync(() -> await(() -> inst.recvPoll(r), "recv"), helper).get(30, TimeUnit.SECONDS));
        } else {
            assertEquals(Status.NOT_IMPLEMENTED, posted);
            assertEquals(256, CompletableFuture.supplyAsync(() -> Transfers.recvAny(inst, caps, in, new Packet()), helper).get(30, TimeUnit.SECONDS));
        }
        assertEquals(-1, checkPattern(in, 21));
    }

    @Test
    void blockingWaitsFollowAPoll() {
        DriverInstance inst = connectEcho();
        long size = Math.min(caps.maxPacketSize(), 1L << 20);
        MemorySegment out = allocate(size);
        fill(out, 31);
        MemorySegment in = allocate(size);
        Packet r = new Packet().useIov(IoVec.of(in));
        Status posted = inst.recvPost(r);
        Packet p = new Packet().useIov(IoVec.of(out));
        assertEquals(Status.DONE, await(() -> inst.sendPost(p), "post"));
        Status first = inst.sendPoll(p);
        if (first == Status.NOT_YET) {
            Status w = waitBounded(() -> inst.sendWait(p), "sendWait");
            if (w == Status.NOT_IMPLEMENTED) {
                w = await(() -> inst.sendPoll(p), "send poll");
            }
            first = w;
        }
        assertEquals(Status.DONE, first, "send completion");
        if (posted != Status.DONE) {
            return; // buffer-only receiver: no posted receive to wait for
        }
        Status rs = inst.recvPoll(r);
        if (rs == Status.NOT_YET) {
            rs = waitBounded(() -> inst.recvWait(r), "recvWait");
            if (rs == Status.NOT_IMPLEMENTED) {
                rs = await(() -> inst.recvPoll(r), "recv poll");
            }
        }
        assertEquals(Status.DONE, rs);
        assertEquals(size, r.length());
        assertEquals(-1, checkPattern(in, 31));
    }

    // ---- end of life -------------------------------------------------------------------------

    @Test
    void disconnectEndsTrafficOnBothSides() {
        PeerLink peer = newPeer();
        DriverInstance inst = connect(peer, 1, "echo").get(0);
        MemorySegment m = allocate(32);
        fill(m, 2);
        assertEquals(32, sendAndEcho(inst, new Packet(), new Packet(), m, allocate(32)));
        Status d = inst.disconnect();
        if (d == Status.NOT_IMPLEMENTED) {
            return; // optional in seed 000; close() covers the end of such a driver's connections
        }
        assertEquals(Status.DONE, d);
        assertEquals(Status.CLOSED, inst.sendPost(new Packet().useIov(IoVec.of(m))), "send after disconnect");
        assertEquals(Status.CLOSED, inst.recvPoll(new Packet()), "receive after disconnect");
        assertEquals(Status.CLOSED, inst.disconnect(), "second disconnect");
        String peerEnd = awaitPeer(peer, 0);
        assertTrue(peerEnd.equals("CLOSED") || peerEnd.equals("BROKEN"), "peer's echo ended with " + peerEnd);
    }

    @Test
    void everyCallAfterCloseIsAnError() {
        DriverInstance inst = connectEcho();
        ctx.close();
        Packet p = new Packet().useIov(IoVec.of(allocate(8)));
        assertEquals(Status.CLOSED, inst.sendPost(p));
        assertEquals(Status.CLOSED, inst.recvPost(new Packet().useIov(IoVec.of(allocate(8)))));
        assertEquals(Status.CLOSED, inst.recvPoll(new Packet()));
        assertEquals(Status.CLOSED, inst.connectAsync(url));
        InstanceRef ready = new InstanceRef();
        if (caps.hasRecvAny()) {
            assertEquals(Status.CLOSED, ctx.recvProbeAny(ready));
        }
        if (caps.supportsWaitAny()) {
            assertEquals(Status.CLOSED, waitBounded(() -> ctx.recvWaitAny(ready), "recvWaitAny after close"));
            assertEquals(Status.CLOSED, ctx.recvCancelAny());
        }
        if (caps.supportsBufSend()) {
            assertEquals(Status.CLOSED, inst.sendBufGet(new Packet()));
        }
        assertThrows(IllegalStateException.class, ctx::newInstance);
        assertThrows(IllegalStateException.class, ctx::init);
        assertThrows(IllegalStateException.class, ctx::properties);
        ctx.close(); // idempotent
    }

    @Test
    void aKilledPeerBreaksOnlyItsOwnInstance() {
        PeerLink victim = newPeer();
        PeerLink survivor = newPeer();
        DriverInstance dying = connect(victim, 1, "echo").get(0);
        DriverInstance living = connect(survivor, 1, "echo").get(0);
        MemorySegment m = allocate(64);
        fill(m, 4);
        MemorySegment in = allocate(64);
        assertEquals(64, sendAndEcho(dying, new Packet(), new Packet(), m, in));
        assertEquals(64, sendAndEcho(living, new Packet(), new Packet(), m, in));

        victim.kill(); // SIGKILL for a process; a close without disconnect for a thread
        peers.remove(victim);

        // a receive on the dead peer's instance ends BROKEN within the bound, never hangs
        Packet r = new Packet();
        Status s;
        if (caps.supportsBufRecv()) {
            s = await(() -> dying.recvPoll(r.reset()), "receive from a killed peer");
        } else {
            r.useIov(IoVec.of(allocate(64)));
            s = dying.recvPost(r);
            if (s == Status.DONE) {
                s = await(() -> dying.recvPoll(r), "receive from a killed peer");
            }
        }
        assertEquals(Status.BROKEN, s, "receive on the dead peer's instance");
        Packet sp = new Packet().useIov(IoVec.of(m));
        Status send = await(() -> {
            Status post = dying.sendPost(sp);
            return post == Status.DONE ? await(() -> dying.sendPoll(sp), "send poll") : post;
        }, "send to a killed peer");
        assertTrue(send == Status.BROKEN || send == Status.DONE,
                "send to a dead peer answered " + send + " (DONE is allowed only while the driver cannot know yet)");
        if (send == Status.DONE) {
            assertEquals(Status.BROKEN, await(() -> {
                Status post = dying.sendPost(sp);
                return post == Status.DONE ? await(() -> dying.sendPoll(sp), "send poll") : post;
            }, "sends to a killed peer"), "sends keep failing");
        }
        // the other connection is unaffected
        fill(m, 8);
        assertEquals(64, sendAndEcho(living, new Packet(), new Packet(), m, in));
        assertEquals(-1, checkPattern(in, 8));
    }
}
