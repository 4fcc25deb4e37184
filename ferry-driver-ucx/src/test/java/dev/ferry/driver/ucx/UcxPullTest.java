package dev.ferry.driver.ucx;

import dev.ferry.spi.DataLayout;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The receiving side's three ways of taking a large packet, over UCX's shared memory between two
 * contexts of this JVM, for each way of pulling (FERRY_UCX_PULL): posted memory that takes it
 * whole (by tag: one tagged receive of the BULK message), memory on the Java heap and memory in
 * two segments (gets, then the BULK message consumed), and memory too short (the prefix that fits,
 * INVALID, the full length), for packets of 1 MiB and of 1000 bytes (over a 256-byte buffer, so
 * UCX sends their BULK messages eagerly: the synchronous send must still wait for the receiver's
 * gets). In every case the sender's send completes DONE and the next packet
 * arrives intact, so nothing is left behind in UCX.
 */
class UcxPullTest {
    private long size;
    private final Arena arena = Arena.ofShared();
    private DriverContext a;
    private DriverContext b;
    private DriverInstance toB;
    private DriverInstance toA;

    @AfterEach
    void close() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        arena.close();
    }

    private void connect(String pull, long size) throws Exception {
        this.size = size;
        // a small buffer: the 1000-byte packets go by rendezvous, their BULK messages eagerly inside UCX
        dev.ferry.spi.Settings s = dev.ferry.spi.Settings.fromEnvironment().with(UcxSettings.BUFFER.name(), "256")
                .with(UcxSettings.TLS.name(), "sm").with(UcxSettings.PULL.name(), pull);
        a = new UcxDriver().newContext(new Hints(2, 0, true, Map.of(), s));
        b = new UcxDriver().newContext(new Hints(2, 1, true, Map.of(), s));
        a.properties();
        b.properties();
        DriverUrl ua = a.init();
        DriverUrl ub = b.init();
        toB = a.newInstance();
        toA = b.newInstance();
        assertEquals(Status.DONE, toB.connectAsync(ub));
        assertEquals(Status.DONE, toA.connectAsync(ua));
        CompletableFuture<Status> other = CompletableFuture.supplyAsync(toA::connectWait);
        assertEquals(Status.DONE, toB.connectWait());
        assertEquals(Status.DONE, other.get(30, TimeUnit.SECONDS));
    }

    private static void fill(MemorySegment m, int seed) {
        for (long i = 0; i < m.byteSize(); i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + seed));
        }
    }

    private static void check(MemorySegment m, long from, long n, int seed, String what) {
        for (long i = 0; i < n; i++) {
            if (m.get(ValueLayout.JAVA_BYTE, i) != (byte) ((from + i) * 31 + seed)) {
                fail(what + ": byte " + (from + i) + " differs");
            }
        }
    }

    /** Polls the send and the receive alternately (one thread: each side progresses its own worker) until both end. */
    private Status[] complete(Packet sp, Packet rp, boolean byGets) {
        Status s = Status.NOT_YET;
        Status r = Status.NOT_YET;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (s == Status.NOT_YET || r == Status.NOT_YET) {
            if (s == Status.NOT_YET) {
                s = toB.sendPoll(sp);
                if (byGets && s != Status.NOT_YET && r == Status.NOT_YET) {
                    fail("the send ended " + s + " while the receiver's gets may still read its memory");
                }
            }
            if (r == Status.NOT_YET) {
                r = toA.recvPoll(rp);
            }
            if (System.nanoTime() - end > 0) {
                fail("no completion within 30 s: send " + s + ", receive " + r);
            }
        }
        return new Status[] {s, r};
    }

    /** {@code byGets}: the receiver's memory cannot take the packet whole, so it pulls with gets. */
    private void sendOne(int seed, MemorySegment out, DataLayout into, long room, boolean byGets, Supplier<MemorySegment> received) {
        fill(out, seed);
        Packet sp = new Packet().useData(DataLayout.contiguous(out));
        Packet rp = new Packet().useData(into);
        assertEquals(Status.DONE, toB.sendPost(sp));
        assertEquals(Status.DONE, toA.recvPost(rp));
        Status[] st = complete(sp, rp, byGets);
        assertEquals(Status.DONE, st[0], "the send completes");
        assertEquals(room >= size ? Status.DONE : Status.INVALID, st[1], "the receive");
        assertEquals(size, rp.length(), "the packet's full length");
        check(received.get(), 0, Math.min(room, size), seed, "received bytes");
    }

    @ParameterizedTest
    @CsvSource({"tag, 1048576", "get, 1048576", "tag, 1000", "get, 1000"})
    void everyKindOfPostedMemoryTakesALargePacket(String pull, long packetSize) throws Exception {
        connect(pull, packetSize);
        MemorySegment out = arena.allocate(size, 64);
        // whole: one native range
        MemorySegment whole = arena.allocate(size, 64);
        sendOne(1, out, DataLayout.contiguous(whole), size, false, () -> whole);
        // the Java heap
        byte[] heap = new byte[(int) size];
        sendOne(2, out, DataLayout.contiguous(MemorySegment.ofArray(heap)), size, true, () -> MemorySegment.ofArray(heap));
        // two segments
        MemorySegment first = arena.allocate(size / 2, 8);
        MemorySegment second = arena.allocate(size / 2, 8);
        MemorySegment joined = arena.allocate(size, 64);
        sendOne(3, out, IoVec.of(first, second), size, true, () -> {
            MemorySegment.copy(first, 0, joined, 0, size / 2);
            MemorySegment.copy(second, 0, joined, size / 2, size / 2);
            return joined;
        });
        // too short: the prefix, INVALID
        MemorySegment shorter = arena.allocate(size / 4, 64);
        sendOne(4, out, DataLayout.contiguous(shorter), size / 4, true, () -> shorter);
        // and the next one is intact
        sendOne(5, out, DataLayout.contiguous(whole), size, false, () -> whole);
    }

    /**
     * An exposer's wait-any that sleeps returns when its peer pulls the exposure (the FIN that ends
     * it arrives), so that an engine dozing in it sees the send complete at once.
     */
    @org.junit.jupiter.api.Test
    void aSleepingWaitAnyReturnsWhenThePeerPullsAnExposure() throws Exception {
        connect("get", 1 << 20);
        MemorySegment out = arena.allocate(size, 64);
        fill(out, 9);
        Packet sp = new Packet().useData(DataLayout.contiguous(out));
        MemorySegment pullData = arena.allocate(Exposures.PULL_DATA_BYTES, 8);
        assertEquals(Status.DONE, toB.sendExpose(sp, pullData), "expose");
        assertEquals(Status.NOT_YET, toB.sendPoll(sp), "exposed, not pulled yet");
        MemorySegment in = arena.allocate(size, 64);
        Packet rp = new Packet().useData(DataLayout.contiguous(in));
        UcxContext exposer = (UcxContext) a;
        dev.ferry.conformance.WaitAnyNews.expect(a, exposer::asleep, () -> {
            assertEquals(Status.DONE, toA.pullPost(rp, pullData), "pull");
            assertEquals(Status.DONE, dev.ferry.conformance.Transfers.await(() -> toA.pullPoll(rp), "pull"));
        }, "the peer pulled an exposed packet");
        assertEquals(Status.DONE, dev.ferry.conformance.Transfers.await(() -> toB.sendPoll(sp), "exposure"));
        check(in, 0, size, 9, "pulled bytes");
    }

    /** One exposure of {@code out}, pulled into {@code into} (nothing: only released); both ends must complete DONE. */
    private void exposeAndPull(int seed, MemorySegment out, DataLayout into, Supplier<MemorySegment> received) {
        fill(out, seed);
        Packet sp = new Packet().useData(DataLayout.contiguous(out));
        MemorySegment pullData = arena.allocate(Exposures.PULL_DATA_BYTES, 8);
        assertEquals(Status.DONE, toB.sendExpose(sp, pullData), "expose");
        assertEquals(Status.NOT_YET, toB.sendPoll(sp), "exposed, not pulled yet");
        Packet rp = new Packet().useData(into);
        assertEquals(Status.DONE, toA.pullPost(rp, pullData), "pull");
        Status s = Status.NOT_YET;
        Status r = Status.NOT_YET;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (s == Status.NOT_YET || r == Status.NOT_YET) { // one thread: each side progresses its own worker
            s = s == Status.NOT_YET ? toB.sendPoll(sp) : s;
            r = r == Status.NOT_YET ? toA.pullPoll(rp) : r;
            if (System.nanoTime() - end > 0) {
                fail("no completion within 30 s: exposure " + s + ", pull " + r);
            }
        }
        assertEquals(Status.DONE, s, "the exposure ends");
        assertEquals(Status.DONE, r, "the pull ends");
        assertEquals(into.size(), rp.length(), "bytes pulled");
        check(received.get(), 0, into.size(), seed, "pulled bytes");
    }

    /**
     * Exposures (sendExpose, pullPost): pulled whole (UCX's tagged rendezvous), from the Java heap
     * (packed into registered memory), into the Java heap and as a prefix (gets, then the BULK
     * message consumed), and released unpulled; a layout of two ranges is refused (its caller
     * sends it instead) and pull data that is no exposure's is INVALID. No packet follows any
     * exposure here, so its BULK message starts at the sender's poll. A packet sent afterwards
     * still arrives intact.
     */
    @ParameterizedTest
    @CsvSource({"1048576", "1000"})
    void exposuresArePulledWholeAsPrefixesOrReleased(long packetSize) throws Exception {
        connect("tag", packetSize);
        MemorySegment out = arena.allocate(size, 64);
        MemorySegment whole = arena.allocate(size, 64);
        exposeAndPull(1, out, DataLayout.contiguous(whole), () -> whole);
        byte[] heapOut = new byte[(int) size];
        exposeAndPull(2, MemorySegment.ofArray(heapOut), DataLayout.contiguous(whole), () -> whole);
        byte[] heapIn = new byte[(int) size];
        exposeAndPull(3, out, DataLayout.contiguous(MemorySegment.ofArray(heapIn)), () -> MemorySegment.ofArray(heapIn));
        MemorySegment prefix = arena.allocate(size / 4, 64);
        exposeAndPull(4, out, DataLayout.contiguous(prefix), () -> prefix);
        exposeAndPull(5, out, DataLayout.contiguous(whole.asSlice(0, 0)), () -> whole);

        Packet two = new Packet().useIov(IoVec.of(out.asSlice(0, size / 2), out.asSlice(size / 2)));
        assertEquals(Status.INVALID, toB.sendExpose(two, arena.allocate(Exposures.PULL_DATA_BYTES, 8)), "two ranges are sent, not exposed");
        assertEquals(Status.INVALID, toA.pullPost(new Packet().useData(DataLayout.contiguous(whole)), arena.allocate(Exposures.PULL_DATA_BYTES, 8)),
                "zeros are no exposure's pull data");
        sendOne(6, out, DataLayout.contiguous(whole), size, false, () -> whole);

        // exposed while both ends are up (once the peer has gone, an exposure may answer CLOSED at once): no packet or poll
        // follows, so its BULK message never goes; after this instance disconnects it ends CLOSED (checked last)
        Packet last = new Packet().useData(DataLayout.contiguous(out));
        assertEquals(Status.DONE, toB.sendExpose(last, arena.allocate(Exposures.PULL_DATA_BYTES, 8)));

        // a pull under way when the pulling instance disconnects: it ends (taken whole meanwhile, or CLOSED), and nothing crashes
        Packet mid = new Packet().useData(DataLayout.contiguous(out));
        MemorySegment midData = arena.allocate(Exposures.PULL_DATA_BYTES, 8);
        assertEquals(Status.DONE, toB.sendExpose(mid, midData));
        Packet midPull = new Packet().useData(DataLayout.contiguous(whole));
        assertEquals(Status.DONE, toA.pullPost(midPull, midData));
        assertEquals(Status.DONE, toA.disconnect());
        Status ended = toA.pullPoll(midPull);
        if (ended != Status.DONE && ended != Status.CLOSED) {
            fail("a pull of a disconnected instance answered " + ended);
        }
        assertEquals(Status.CLOSED, toA.pullPost(new Packet().useData(DataLayout.contiguous(whole)), midData), "a pull after disconnect");

        assertEquals(Status.DONE, toB.disconnect());
        assertEquals(Status.CLOSED, toB.sendPoll(last), "an exposure of a disconnected instance");
    }
}
