package dev.ferry.driver.tcp;

import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.DriverException;
import dev.ferry.spi.Settings;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The tcp driver's own behaviour beyond the kit: hostile peers, set-up, failure, idleness. */
class TcpDriverTest {
    private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(30);
    private final List<DriverContext> contexts = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown() {
        contexts.forEach(DriverContext::close);
        pool.shutdownNow();
    }

    private DriverContext open(int rank, String key, boolean wide, Map<String, String> extra) {
        return open(rank, key, wide, extra, Settings.fromEnvironment());
    }

    private DriverContext open(int rank, String key, boolean wide, Map<String, String> extra, Settings settings) {
        Map<String, String> attrs = new java.util.HashMap<>(extra);
        if (key != null) {
            attrs.put(Hints.JOB_KEY, key);
        }
        DriverContext c = new TcpDriver().newContext(new Hints(8, rank, wide, attrs, settings));
        c.properties();
        contexts.add(c);
        return c;
    }

    private static Status await(Supplier<Status> step, String what) {
        long end = System.nanoTime() + BOUND_NANOS;
        while (true) {
            Status s = step.get();
            if (s != Status.NOT_YET) {
                return s;
            }
            if (System.nanoTime() - end > 0) {
                fail(what + " still NOT_YET after 30 s");
            }
            Thread.onSpinWait();
        }
    }

    /** Connects a to b (both sides, each waiting on its own thread). */
    private DriverInstance[] pair(DriverContext a, DriverUrl ua, DriverContext b, DriverUrl ub) throws Exception {
        DriverInstance ia = a.newInstance();
        DriverInstance ib = b.newInstance();
        assertEquals(Status.DONE, ia.connectAsync(ub));
        assertEquals(Status.DONE, ib.connectAsync(ua));
        CompletableFuture<Status> wb = CompletableFuture.supplyAsync(ib::connectWait, pool);
        assertEquals(Status.DONE, ia.connectWait());
        assertEquals(Status.DONE, wb.get(30, TimeUnit.SECONDS));
        return new DriverInstance[] {ia, ib};
    }

    /** Two contexts of one job on loopback, and an instance of each connected to the other. */
    private DriverInstance[] connectedPair() throws Exception {
        DriverContext a = open(0, "k", false, Map.of());
        DriverContext b = open(1, "k", false, Map.of());
        return pair(a, a.init(), b, b.init());
    }

    private static void exchange(DriverInstance from, DriverInstance to, long value) {
        MemorySegment m = Arena.ofAuto().allocate(8);
        m.set(ValueLayout.JAVA_LONG, 0, value);
        Packet p = new Packet().useIov(IoVec.of(m));
        assertEquals(Status.DONE, from.sendPost(p));
        assertEquals(Status.DONE, await(() -> from.sendPoll(p), "send"));
        MemorySegment r = Arena.ofAuto().allocate(8);
        Packet q = new Packet().useIov(IoVec.of(r));
        assertEquals(Status.DONE, to.recvPost(q));
        assertEquals(Status.DONE, await(() -> to.recvPoll(q), "receive"));
        assertEquals(value, r.get(ValueLayout.JAVA_LONG, 0));
    }

    private static InetSocketAddress firstAddress(DriverUrl url) {
        return TcpAddress.parse(url.first()).socket();
    }

    /**
     * Writes; false when the write fails because the server has already closed the connection
     * (it may close a hostile client before the client has finished writing: that is the point).
     */
    private static boolean writeAll(Socket s, byte[] bytes) {
        try {
            OutputStream o = s.getOutputStream();
            o.write(bytes);
            o.flush();
            return true;
        } catch (IOException closedAlready) {
            return false;
        }
    }

    /** Runs one side of a handshake over a blocking socket: where it ended (REFUSED also when the peer closed). */
    static Handshake.Step handshake(Socket s, Handshake h) throws IOException {
        return handshake(s, h, new java.io.ByteArrayOutputStream());
    }

    /** {@link #handshake(Socket, Handshake)}, every byte it writes also appended to {@code sent}. */
    static Handshake.Step handshake(Socket s, Handshake h, java.io.ByteArrayOutputStream sent) throws IOException {
        s.setSoTimeout(30_000);
        while (true) {
            ByteBuffer out = h.out();
            if (out != null && out.hasRemaining()) {
                byte[] b = DecoderFuzzTest.bytes(out);
                sent.writeBytes(b);
                s.getOutputStream().write(b);
                out.position(out.limit());
            }
            ByteBuffer in = h.in();
            if (in != null && in.hasRemaining()) {
                byte[] got = s.getInputStream().readNBytes(in.remaining());
                in.put(got);
                if (in.hasRemaining()) {
                    return Handshake.Step.REFUSED;
                }
            }
            Handshake.Step step = h.advance();
            if (step != Handshake.Step.MORE) {
                return step;
            }
        }
    }

    /** Reads until end of stream; true when the server closed the connection within the bound. */
    private static boolean closedByServer(Socket s) throws IOException {
        s.setSoTimeout(30_000);
        InputStream in = s.getInputStream();
        try {
            while (in.read() >= 0) {
                // a rejected client gets no reply: anything here would be a failure below
                return false;
            }
            return true;
        } catch (java.net.SocketException e) {
            return true; // reset: closed as well
        }
    }

    @Test
    void garbageAndAWrongKeyAreClosedAtOnceAndTheJobCarriesOn() throws Exception {
        DriverContext a = open(0, "right key", true, Map.of());
        DriverContext b = open(1, "right key", true, Map.of());
        DriverUrl ua = a.init();
        DriverUrl ub = b.init();
        DriverInstance[] ab = pair(a, ua, b, ub);
        exchange(ab[0], ab[1], 1);

        InetSocketAddress target = firstAddress(ua);
        try (Socket garbage = new Socket(target.getAddress(), target.getPort())) {
            byte[] noise = new byte[4096];
            new java.util.Random(3).nextBytes(noise);
            boolean refused = !writeAll(garbage, "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)) || !writeAll(garbage, noise);
            assertTrue(refused || closedByServer(garbage), "a connection sending garbage is closed without a reply");
        }
        try (Socket wrongKey = new Socket(target.getAddress(), target.getPort())) {
            // it cannot check the answer, and sends a proof made with its key: closed without a reply
            ByteBuffer hello = Handshake.hello(false, 1, 0, ub.encoded(), new byte[JobSecret.NONCE_BYTES]);
            byte[] challenge = writeAll(wrongKey, DecoderFuzzTest.bytes(hello))
                    ? wrongKey.getInputStream().readNBytes(WireFormat.CHALLENGE_BYTES) : new byte[0];
            assertEquals(WireFormat.CHALLENGE_BYTES, challenge.length, "a well-formed hello is challenged");
            byte[] proof = HandshakeTest.forgedProof(HandshakeTest.secret("wrong key"), hello, challenge);
            assertTrue(!writeAll(wrongKey, proof) || closedByServer(wrongKey), "a connection with a wrong job key is closed without a reply");
        }
        // the job is unaffected: the old connection works, and a new one can be made
        exchange(ab[1], ab[0], 2);
        DriverContext c = open(2, "right key", true, Map.of());
        DriverUrl uc = c.init();
        DriverInstance[] ac = pair(a, ua, c, uc);
        exchange(ac[1], ac[0], 3);
    }

    @Test
    void aMalformedOversizedOrTruncatedFrameBreaksOnlyItsInstance() throws Exception {
        for (String kind : List.of("bad-magic", "oversized", "truncated")) {
            DriverContext a = open(0, "k", true, Map.of());
            DriverContext b = open(1, "k", true, Map.of());
            DriverUrl ua = a.init();
            DriverInstance[] ab = pair(a, ua, b, b.init());

            // a hand-made peer: a valid handshake, then a bad frame
            DriverUrl fake = DriverUrl.single("0.0.0.0:1/5".getBytes(StandardCharsets.US_ASCII)); // sorts first: a waits for it
            InetSocketAddress target = firstAddress(ua);
            try (Socket raw = new Socket(target.getAddress(), target.getPort())) {
                assertEquals(Handshake.Step.DONE, handshake(raw, new Handshake.Connector(HandshakeTest.secret("k"), false, 5, 0, fake.encoded())),
                        "the valid handshake is accepted");
                DriverInstance victim = a.newInstance();
                assertEquals(Status.DONE, victim.connectAsync(fake));
                assertEquals(Status.DONE, victim.connectWait());

                ByteBuffer frame = ByteBuffer.allocate(WireFormat.FRAME_HEADER + 4);
                switch (kind) {
                    case "bad-magic" -> frame.putInt(0xdeadbeef).putInt(WireFormat.KIND_DATA).putLong(4).putInt(7);
                    case "oversized" -> frame.putInt(WireFormat.FRAME_MAGIC).putInt(WireFormat.KIND_DATA).putLong(Long.MAX_VALUE / 2).putInt(7);
                    default -> frame.putInt(WireFormat.FRAME_MAGIC).putInt(WireFormat.KIND_DATA);
                }
                raw.getOutputStream().write(frame.array(), 0, frame.position());
                raw.getOutputStream().flush();
                if (kind.equals("truncated")) {
                    raw.shutdownOutput();
                }
                MemorySegment r = Arena.ofAuto().allocate(8);
                Packet q = new Packet().useIov(IoVec.of(r));
                assertEquals(Status.DONE, victim.recvPost(q));
                assertEquals(Status.BROKEN, await(() -> victim.recvPoll(q), kind + " frame"), kind);
                assertEquals(Status.BROKEN, victim.sendPost(new Packet().useIov(IoVec.of(r))), "the broken instance stays broken");
            }
            exchange(ab[0], ab[1], 11);
            exchange(ab[1], ab[0], 12);
        }
    }

    @Test
    void aWideUrlFallsBackToItsNextAddress() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            closedPort = s.getLocalPort();
        }
        DriverContext a = open(0, null, false, Map.of()); // single URL, sorts before any wide one: a connects
        DriverContext b = open(1, null, true, Map.of());
        DriverUrl ua = a.init();
        DriverUrl ub = b.init();
        List<byte[]> parts = new ArrayList<>();
        parts.add(("127.0.0.1:" + closedPort + "/1").getBytes(StandardCharsets.US_ASCII));
        parts.addAll(ub.parts());
        DriverUrl doctored = DriverUrl.wide(parts);
        DriverInstance ia = a.newInstance();
        DriverInstance ib = b.newInstance();
        assertEquals(Status.DONE, ia.connectAsync(doctored));
        assertEquals(Status.DONE, ib.connectAsync(ua));
        CompletableFuture<Status> wb = CompletableFuture.supplyAsync(ib::connectWait, pool);
        assertEquals(Status.DONE, ia.connectWait(), "connected through the second address");
        assertEquals(Status.DONE, wb.get(30, TimeUnit.SECONDS));
        exchange(ia, ib, 21);
    }

    @Test
    void aPeerThatNeverAnswersIsBrokenAfterTheConnectTimeout() throws Exception {
        DriverContext a = open(0, null, false, Map.of(), Settings.fromEnvironment().with("FERRY_TCP_CONNECT_TIMEOUT_MS", "1500"));
        a.init();
        // a listener that never accepts, its backlog filled: the connection never completes its handshake
        try (ServerSocket silent = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            List<Socket> fillers = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    Socket f = new Socket();
                    f.connect(silent.getLocalSocketAddress(), 2000);
                    fillers.add(f);
                }
            } catch (IOException queueFull) {
                // once the queue is full, further connects may time out: that is the point
            }
            DriverUrl target = DriverUrl.single(("127.0.0.1:" + silent.getLocalPort() + "/1").getBytes(StandardCharsets.US_ASCII));
            DriverInstance ia = a.newInstance();
            long start = System.nanoTime();
            assertEquals(Status.DONE, ia.connectAsync(target));
            assertEquals(Status.BROKEN, ia.connectWait());
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(ms >= 1400 && ms < 15_000, "broken after " + ms + " ms; the timeout is 1500 ms");
            for (Socket f : fillers) {
                f.close();
            }
        }
    }

    @Test
    void aRefusedAddressIsBrokenAtOnceAndABadUrlIsInvalid() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            closedPort = s.getLocalPort();
        }
        DriverContext a = open(0, null, false, Map.of());
        a.init();
        DriverInstance ia = a.newInstance();
        // The refusal may be seen by the set-up thread before connectAsync returns: BROKEN then.
        Status s = ia.connectAsync(DriverUrl.single(("127.0.0.1:" + closedPort + "/1").getBytes(StandardCharsets.US_ASCII)));
        assertTrue(s == Status.DONE || s == Status.BROKEN, "connectAsync answered " + s);
        assertEquals(Status.BROKEN, ia.connectWait());
        assertEquals(Status.INVALID, a.newInstance().connectAsync(DriverUrl.single("localhost:80/1".getBytes(StandardCharsets.US_ASCII))));
        assertEquals(Status.INVALID, a.newInstance().connectAsync(DriverUrl.single(new byte[] {0, 1, 2})));
    }

    @Test
    void simultaneousConnectsMakeOneWorkingConnectionEach() throws Exception {
        for (int round = 0; round < 10; round++) {
            DriverContext a = open(0, "k", true, Map.of());
            DriverContext b = open(1, "k", true, Map.of());
            DriverUrl ua = a.init();
            DriverUrl ub = b.init();
            DriverInstance ia = a.newInstance();
            DriverInstance ib = b.newInstance();
            CyclicBarrier together = new CyclicBarrier(2);
            CompletableFuture<Status> fb = CompletableFuture.supplyAsync(() -> {
                try {
                    together.await(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                Status s = ib.connectAsync(ua);
                return s == Status.DONE ? ib.connectWait() : s;
            }, pool);
            together.await(30, TimeUnit.SECONDS);
            assertEquals(Status.DONE, ia.connectAsync(ub));
            assertEquals(Status.DONE, ia.connectWait());
            assertEquals(Status.DONE, fb.get(30, TimeUnit.SECONDS));
            exchange(ia, ib, round);
            exchange(ib, ia, -round);
        }
    }

    @Test
    void smallReadsAndWritesGoStraightToTheDescriptorUnlessNioIsAskedFor() throws Exception {
        for (String calls : new String[] {"direct", "nio"}) {
            Settings s = Settings.fromEnvironment().with(TcpSettings.SOCKET_CALLS.name(), calls);
            DriverContext a = open(0, "k", false, Map.of(), s);
            DriverContext b = open(1, "k", false, Map.of(), s);
            DriverInstance[] p = pair(a, a.init(), b, b.init());
            for (DriverInstance i : p) {
                assertEquals(calls.equals("direct"), ((TcpInstance) i).usesDirectCalls(), calls);
            }
            for (int k = 0; k < 100; k++) {
                exchange(p[0], p[1], k);
                exchange(p[1], p[0], -k);
            }
        }
        DriverException e = org.junit.jupiter.api.Assertions.assertThrows(DriverException.class,
                () -> open(0, "k", false, Map.of(), Settings.fromEnvironment().with(TcpSettings.SOCKET_CALLS.name(), "fast")));
        assertTrue(e.getMessage().contains("FERRY_TCP_SOCKET_CALLS is 'fast'"), e.getMessage());
    }

    /**
     * A buffer-based send is written where it is staged, at the staging buffer's start: while a
     * packet posted earlier still waits for room in a full socket, no buffer is handed out, and
     * the buffer's packet arrives after it.
     */
    @Test
    void aBufferSendWaitsBehindAPacketThatWaitsForRoom() throws Exception {
        DriverInstance[] ab = connectedPair();
        int size = 64 << 20; // more than loopback's socket buffers hold
        MemorySegment big = Arena.ofAuto().allocate(size, 64);
        big.fill((byte) 7);
        Packet p = new Packet().useIov(IoVec.of(big));
        assertEquals(Status.DONE, ab[0].sendPost(p));
        assertEquals(Status.NOT_YET, ab[0].sendPoll(p), "64 MiB fitted in the socket");
        Packet buf = new Packet();
        assertEquals(Status.NOT_YET, ab[0].sendBufGet(buf), "a buffer while an earlier packet waits for room");
        // the peer reads the big packet; the sender's polls write the rest, then a buffer comes
        MemorySegment in = Arena.ofAuto().allocate(size, 64);
        Packet q = new Packet().useIov(IoVec.of(in));
        assertEquals(Status.DONE, ab[1].recvPost(q));
        long end = System.nanoTime() + BOUND_NANOS;
        Status got;
        while ((got = ab[0].sendBufGet(buf)) == Status.NOT_YET) {
            ab[1].recvPoll(q);
            if (System.nanoTime() - end > 0) {
                fail("no send buffer within 30 s of the peer reading");
            }
        }
        assertEquals(Status.DONE, got);
        assertEquals(Status.DONE, await(() -> ab[1].recvPoll(q), "the big packet"));
        assertEquals(size, q.length());
        assertEquals(-1, in.mismatch(big), "the big packet arrived whole");
        buf.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 0x1234_5678_9abcL);
        buf.length(8);
        assertEquals(Status.DONE, ab[0].sendBufPost(buf));
        assertEquals(Status.DONE, await(() -> ab[0].sendPoll(buf), "buffer send"));
        MemorySegment r = Arena.ofAuto().allocate(8);
        Packet q2 = new Packet().useIov(IoVec.of(r));
        assertEquals(Status.DONE, ab[1].recvPost(q2));
        assertEquals(Status.DONE, await(() -> ab[1].recvPoll(q2), "the buffer's packet"));
        assertEquals(0x1234_5678_9abcL, r.get(ValueLayout.JAVA_LONG, 0));
        // one buffer out at a time, and a posted send waits while it is out
        assertEquals(Status.DONE, ab[0].sendBufGet(buf));
        assertEquals(Status.INVALID, ab[0].sendBufGet(new Packet()));
        assertEquals(Status.NOT_YET, ab[0].sendPost(new Packet().useIov(IoVec.of(r))));
        buf.length(0);
        assertEquals(Status.DONE, ab[0].sendBufPost(buf));
    }

    /**
     * A packet larger than the socket holds says how far it got while it goes ({@link Packet#moved}),
     * on both sides, from native memory and from a Java array alike: the engine reads a change as
     * progress, so that its waiters stay awake in the middle of a transfer.
     */
    @Test
    void aLargePacketSaysHowFarItGotWhileItGoes() throws Exception {
        DriverInstance[] ab = connectedPair();
        int size = 48 << 20; // more than loopback's socket buffers hold
        for (MemorySegment out : new MemorySegment[] {Arena.ofAuto().allocate(size, 64), MemorySegment.ofArray(new long[size / 8])}) {
            for (long i = 0; i < size / 8; i++) {
                out.setAtIndex(ValueLayout.JAVA_LONG, i, i * 0x9E3779B97F4A7C15L);
            }
            MemorySegment in = Arena.ofAuto().allocate(size, 64);
            Packet p = new Packet().useIov(IoVec.of(out));
            Packet q = new Packet().useIov(IoVec.of(in));
            assertEquals(Status.DONE, ab[0].sendPost(p));
            assertEquals(Status.DONE, ab[1].recvPost(q));
            long sentPartly = 0, receivedPartly = 0;
            long end = System.nanoTime() + BOUND_NANOS;
            Status sent = Status.NOT_YET, received = Status.NOT_YET;
            while (sent == Status.NOT_YET || received == Status.NOT_YET) {
                if (sent == Status.NOT_YET && (sent = ab[0].sendPoll(p)) == Status.NOT_YET && p.moved > 0) {
                    sentPartly = Math.max(sentPartly, p.moved);
                }
                if (received == Status.NOT_YET && (received = ab[1].recvPoll(q)) == Status.NOT_YET && q.moved > 0) {
                    receivedPartly = Math.max(receivedPartly, q.moved);
                }
                if (System.nanoTime() - end > 0) {
                    fail("the packet did not arrive within 30 s");
                }
            }
            assertEquals(Status.DONE, sent);
            assertEquals(Status.DONE, received);
            assertEquals(-1, in.mismatch(out), "arrived whole");
            assertTrue(sentPartly > 0 && sentPartly < size, "the sender said how far it got before the end: " + sentPartly);
            assertTrue(receivedPartly > 0 && receivedPartly < size, "the receiver said how far it got before the end: " + receivedPartly);
        }
    }

    @Test
    void aContextClosedWhileAnotherThreadPollsEndsThePollCleanly() throws Exception {
        for (int round = 0; round < 20; round++) {
            DriverContext a = open(0, "k", false, Map.of());
            DriverContext b = open(1, "k", false, Map.of());
            DriverInstance[] p = pair(a, a.init(), b, b.init());
            Packet q = new Packet().useIov(IoVec.of(Arena.ofAuto().allocate(8)));
            assertEquals(Status.DONE, p[0].recvPost(q));
            CompletableFuture<Status> polled = CompletableFuture.supplyAsync(() -> await(() -> p[0].recvPoll(q), "receive"), pool);
            a.close(); // its instance's direct recv may be in progress: the close waits for it
            Status s = polled.get(30, TimeUnit.SECONDS);
            assertTrue(s == Status.CLOSED || s == Status.BROKEN, "the poll ended with " + s);
        }
    }

    @Test
    void anIdleWaitAnySleepsAndWakesForData() throws Exception {
        DriverContext a = open(0, "k", true, Map.of());
        DriverContext b = open(1, "k", true, Map.of());
        DriverUrl ua = a.init();
        DriverInstance[] ab = pair(a, ua, b, b.init());
        InstanceRef ready = new InstanceRef();
        long[] cpu = new long[1];
        Status[] result = new Status[1];
        Thread waiter = Thread.ofPlatform().start(() -> {
            do {
                result[0] = a.recvWaitAny(ready);
            } while (result[0] == Status.NOT_YET); // news of the set-up (a send moved on) may come first
            cpu[0] = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        });
        long before = ManagementFactory.getThreadMXBean().getThreadCpuTime(waiter.threadId());
        // A one-second measurement window (not a synchronisation): the waiter must stay blocked through it.
        waiter.join(1000);
        assertTrue(waiter.isAlive(), "wait-any returned with nothing to receive: " + result[0]);
        long used = ManagementFactory.getThreadMXBean().getThreadCpuTime(waiter.threadId()) - Math.max(0, before);
        assertTrue(used < 50_000_000L, "an idle wait-any used " + used / 1_000_000 + " ms of CPU in 1 s (limit 5%)");
        // data wakes it
        MemorySegment m = Arena.ofAuto().allocate(8);
        Packet p = new Packet().useIov(IoVec.of(m));
        assertEquals(Status.DONE, ab[1].sendPost(p));
        waiter.join(30_000);
        assertFalse(waiter.isAlive(), "wait-any still blocked after a packet arrived");
        assertEquals(Status.DONE, result[0]);
        assertTrue(ready.instance == ab[0]);
    }

    /**
     * A sender whose socket is full dozes in wait-any: when the peer reads and room comes, the
     * wait returns (NOT_YET), so the engine writes the rest at once rather than at the doze's
     * bound. The packet then arrives whole.
     */
    @Test
    void aWaitAnyReturnsWhenRoomComesForASenderWhoseSocketWasFull() throws Exception {
        TcpContext a = (TcpContext) open(0, "k", true, Map.of());
        DriverContext b = open(1, "k", true, Map.of());
        DriverUrl ua = a.init();
        DriverInstance[] ab = pair(a, ua, b, b.init());
        int size = 64 << 20; // more than loopback's socket buffers hold
        MemorySegment out = Arena.ofAuto().allocate(size, 64);
        for (long i = 0; i < size; i += 8) {
            out.set(ValueLayout.JAVA_LONG, i, i * 31);
        }
        Packet p = new Packet().useIov(IoVec.of(out));
        assertEquals(Status.DONE, ab[0].sendPost(p));
        assertEquals(Status.NOT_YET, ab[0].sendPoll(p), "64 MiB fitted in the socket");
        InstanceRef ready = new InstanceRef();
        java.util.concurrent.atomic.AtomicBoolean reading = new java.util.concurrent.atomic.AtomicBoolean();
        CompletableFuture<Status> wait = CompletableFuture.supplyAsync(() -> {
            Status s;
            while ((s = a.recvWaitAny(ready)) == Status.NOT_YET && !reading.get()) {
                continue; // news from before the peer reads (set-up): the wait that selects then counts
            }
            return s;
        }, pool);
        long end = System.nanoTime() + BOUND_NANOS;
        while (!a.selecting()) {
            if (System.nanoTime() - end > 0) {
                fail("the wait-any never selected");
            }
            Thread.onSpinWait();
        }
        reading.set(true);
        MemorySegment in = Arena.ofAuto().allocate(size, 64);
        Packet q = new Packet().useIov(IoVec.of(in));
        assertEquals(Status.DONE, ab[1].recvPost(q));
        while (!wait.isDone()) {
            if (System.nanoTime() - end > 0) {
                a.recvCancelAny();
                fail("a wait-any watching a full socket did not return in 30 s after the peer read");
            }
            ab[1].recvPoll(q);
        }
        assertEquals(Status.NOT_YET, wait.get(), "the wait's answer once room came");
        Status sent = Status.NOT_YET, received = Status.NOT_YET;
        while (sent == Status.NOT_YET || received == Status.NOT_YET) {
            if (System.nanoTime() - end > 0) {
                fail("the packet did not arrive in 30 s: send " + sent + ", receive " + received);
            }
            sent = ab[0].sendPoll(p);
            received = ab[1].recvPoll(q);
        }
        assertEquals(Status.DONE, sent);
        assertEquals(Status.DONE, received);
        assertEquals(-1L, out.mismatch(in), "the packet arrived whole");
    }

    @Test
    void aContextBoundToOneInterfaceAdvertisesOnlyIt() {
        DriverContext rail = open(0, null, true, Map.of(TcpDriver.INTERFACE_ATTRIBUTE, "127.0.0.0/8"));
        DriverUrl u = rail.init();
        assertFalse(u.isWide());
        assertEquals("127.0.0.1", firstAddress(u).getAddress().getHostAddress());
    }

    @Test
    void noUsableInterfaceIsAClearInitError() {
        DriverContext none = open(0, null, true, Map.of(TcpDriver.INTERFACE_ATTRIBUTE, "no-such-nic9"));
        dev.ferry.spi.DriverException e = org.junit.jupiter.api.Assertions.assertThrows(dev.ferry.spi.DriverException.class, none::init);
        assertTrue(e.getMessage().contains("no-such-nic9"), e.getMessage());
    }

    @Test
    void interfacesByNameListenOnExactlyTheirAddresses() throws Exception {
        // lo has two addresses: once the wildcard was bound
        DriverUrl u = open(0, null, true, Map.of(), Settings.fromEnvironment().with("FERRY_TCP_INTERFACES", "lo")).init();
        List<String> listening = listeningOn(u);
        assertEquals(u.parts().size(), listening.size(), "a listener per advertised address: " + listening);
        // 127.0.0.1 (as itself, or IPv4-mapped in tcp6) and ::1, as /proc/net/tcp* write them
        List<String> loopback = List.of("0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000");
        for (String local : listening) {
            assertTrue(loopback.contains(local), "a listener bound to " + local + ", not to a loopback address: " + listening);
        }
    }

    /** The local addresses (hex, as /proc/net/tcp* shows them) of the listening sockets on the ports of {@code url}. */
    private static List<String> listeningOn(DriverUrl url) throws IOException {
        List<Integer> ports = new ArrayList<>();
        for (byte[] part : url.parts()) {
            ports.add(TcpAddress.parse(part).socket().getPort());
        }
        List<String> out = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of(table))) {
                String[] f = line.strip().split("\\s+");
                if (f.length < 4 || !f[3].equals("0A")) {
                    continue; // not LISTEN
                }
                String[] local = f[1].split(":");
                if (ports.contains(Integer.parseInt(local[1], 16))) {
                    out.add(local[0]);
                }
            }
        }
        return out;
    }

    @Test
    void aFloodOfBadConnectionsLogsAFewWarnings() throws Exception {
        DriverContext a = open(0, "right key", true, Map.of());
        DriverUrl ua = a.init();
        InetSocketAddress target = firstAddress(ua);
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger(SetupThread.class.getName());
        java.util.concurrent.atomic.AtomicInteger warnings = new java.util.concurrent.atomic.AtomicInteger();
        int n = 300;
        java.util.concurrent.CountDownLatch all = new java.util.concurrent.CountDownLatch(n);
        java.util.logging.Handler h = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                all.countDown();
                if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    warnings.incrementAndGet();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Level before = jul.getLevel();
        jul.setLevel(java.util.logging.Level.ALL);
        jul.addHandler(h);
        try {
            for (int i = 0; i < n; i++) {
                try (Socket garbage = new Socket(target.getAddress(), target.getPort())) {
                    writeAll(garbage, "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    closedByServer(garbage);
                }
            }
            if (!all.await(BOUND_NANOS, TimeUnit.NANOSECONDS)) {
                fail("only " + (n - all.getCount()) + " of " + n + " refused connections were logged at any level");
            }
            // Before: one warning each (300).
            assertTrue(warnings.get() <= 2, warnings.get() + " warnings for " + n + " refused connections");
        } finally {
            jul.removeHandler(h);
            jul.setLevel(before);
        }
    }

    @Test
    void aPeerWithTheKeyButAGarbledUrlIsRefusedAndTheContextCarriesOn() throws Exception {
        DriverContext a = open(0, "right key", true, Map.of());
        DriverUrl ua = a.init();
        InetSocketAddress target = firstAddress(ua);
        for (boolean request : new boolean[] {false, true}) {
            try (Socket bad = new Socket(target.getAddress(), target.getPort())) {
                byte[] junk = "junk-url".getBytes(StandardCharsets.US_ASCII); // 'j': once "unknown URL kind byte 106" in the rank
                ByteBuffer hs = Handshake.hello(request, 3, 0, junk, new byte[JobSecret.NONCE_BYTES]);
                assertTrue(!writeAll(bad, DecoderFuzzTest.bytes(hs)) || closedByServer(bad),
                        "a handshake with a garbled URL is closed without a reply");
            }
        }
        dev.ferry.spi.ConnectRequest req = new dev.ferry.spi.ConnectRequest();
        assertEquals(Status.NOT_YET, a.acceptProbe(req)); // nothing to report, and no exception
        DriverContext b = open(1, "right key", true, Map.of());
        DriverUrl ub = b.init();
        DriverInstance[] ab = pair(a, ua, b, ub);
        exchange(ab[0], ab[1], 4);
    }

    private DriverContext openTls(int rank, String key, String tls) {
        return open(rank, key, true, Map.of(), Settings.fromEnvironment().with(TcpSettings.TLS.name(), tls));
    }

    @Test
    void tlsConnectionsCarryDataBothWays() throws Exception {
        DriverContext a = openTls(0, "k", "on"), b = openTls(1, "k", "on");
        DriverUrl ua = a.init(), ub = b.init();
        DriverInstance[] ab = pair(a, ua, b, ub);
        for (int i = 0; i < 100; i++) {
            exchange(ab[0], ab[1], i);
            exchange(ab[1], ab[0], -i);
        }
    }

    /**
     * Connects two contexts' instances ({@code both}: a's, b's) that must refuse each other; the
     * one that connects (its URL sorts lower) fails as soon as the other closes, and is returned.
     */
    private static TcpInstance refusedConnecting(DriverContext a, DriverUrl ua, DriverContext b, DriverUrl ub, DriverInstance[] both) {
        both[0] = a.newInstance();
        both[1] = b.newInstance();
        boolean aConnects = java.util.Arrays.compareUnsigned(ua.encoded(), ub.encoded()) < 0;
        // A side may hear the refusal (of its connection, or of its request to be connected to)
        // before its connectAsync returns: BROKEN at once.
        assertStartedOrRefused(both[0].connectAsync(ub));
        assertStartedOrRefused(both[1].connectAsync(ua));
        DriverInstance connecting = aConnects ? both[0] : both[1];
        assertEquals(Status.BROKEN, connecting.connectWait());
        return (TcpInstance) connecting;
    }

    private static void assertStartedOrRefused(Status s) {
        assertTrue(s == Status.DONE || s == Status.BROKEN, "connectAsync: " + s);
    }

    @Test
    void tlsOnOneSideOnlyIsRefusedWithAReasonAndNothingHangs() throws Exception {
        for (boolean tlsFirst : new boolean[] {true, false}) {
            DriverContext a = openTls(0, "k", tlsFirst ? "on" : "off"), b = openTls(1, "k", tlsFirst ? "off" : "on");
            DriverInstance[] both = new DriverInstance[2];
            TcpInstance connecting = refusedConnecting(a, a.init(), b, b.init(), both);
            String why = connecting.failure();
            boolean connectingHasTls = (connecting == both[0]) == tlsFirst;
            assertTrue(why.contains(connectingHasTls ? "is FERRY_TCP_TLS on at both ends?" : "TLS on one side only?"), why);
        }
    }

    @Test
    void aTlsPeerWithAnotherJobsKeyIsRefused() throws Exception {
        DriverContext a = openTls(0, "this job", "on"), b = openTls(1, "another job", "on");
        DriverUrl ua = a.init();
        refusedConnecting(a, ua, b, b.init(), new DriverInstance[2]);
        // and the right peer still gets in
        DriverContext c = openTls(2, "this job", "on");
        DriverInstance[] ac = pair(a, ua, c, c.init());
        exchange(ac[0], ac[1], 7);
    }

    @Test
    void aRecordedHandshakeReplayedIsClosedWithoutAReplyAndTheJobCarriesOn() throws Exception {
        DriverContext a = open(0, "right key", true, Map.of());
        DriverUrl ua = a.init();
        InetSocketAddress target = firstAddress(ua);
        DriverUrl fake = DriverUrl.single("0.0.0.0:1/5".getBytes(StandardCharsets.US_ASCII));
        java.io.ByteArrayOutputStream recorded = new java.io.ByteArrayOutputStream();
        try (Socket legit = new Socket(target.getAddress(), target.getPort())) { // a rank with the key, its bytes recorded
            Handshake.Connector c = new Handshake.Connector(HandshakeTest.secret("right key"), false, 5, 0, fake.encoded());
            assertEquals(Handshake.Step.DONE, handshake(legit, c, recorded));
        }
        byte[] bytes = recorded.toByteArray();
        byte[] hello = java.util.Arrays.copyOf(bytes, bytes.length - WireFormat.PROOF_BYTES);
        byte[] proof = java.util.Arrays.copyOfRange(bytes, hello.length, bytes.length);
        try (Socket replay = new Socket(target.getAddress(), target.getPort())) {
            assertTrue(writeAll(replay, hello));
            assertEquals(WireFormat.CHALLENGE_BYTES, replay.getInputStream().readNBytes(WireFormat.CHALLENGE_BYTES).length,
                    "the hello is answered with a fresh challenge");
            assertTrue(!writeAll(replay, proof) || closedByServer(replay), "the recorded proof does not answer it: closed, no reply");
        }
        DriverContext b = open(1, "right key", true, Map.of());
        DriverInstance[] ab = pair(a, ua, b, b.init());
        exchange(ab[0], ab[1], 8);
    }

    @Test
    void aManInTheMiddleWithoutTheKeyIsRefusedByTheRankThatConnects() throws Exception {
        DriverContext a = open(0, "right key", false, Map.of(), Settings.fromEnvironment().with("FERRY_TCP_INTERFACES", "lo"));
        DriverUrl ua = a.init();
        try (ServerSocket mitm = new ServerSocket(0, 4, java.net.InetAddress.getByName("127.0.0.2"))) {
            // it poses as rank 1 at an address the rank connects to (its URL sorts after the rank's)
            DriverUrl posing = DriverUrl.single(("127.0.0.2:" + mitm.getLocalPort() + "/1").getBytes(StandardCharsets.US_ASCII));
            assertTrue(java.util.Arrays.compareUnsigned(ua.encoded(), posing.encoded()) < 0);
            DriverInstance ia = a.newInstance();
            assertEquals(Status.DONE, ia.connectAsync(posing));
            mitm.setSoTimeout(30_000);
            try (Socket s = mitm.accept()) {
                Handshake.Acceptor guess = new Handshake.Acceptor(HandshakeTest.secret("a guess"), 1);
                assertEquals(Handshake.Step.REFUSED, handshake(s, guess), "the rank closes after the challenge it cannot verify");
            }
            assertEquals(Status.BROKEN, ia.connectWait());
            String why = ((TcpInstance) ia).failure();
            assertTrue(why.contains("could not prove it knows the job key"), why);
        }
    }
}
