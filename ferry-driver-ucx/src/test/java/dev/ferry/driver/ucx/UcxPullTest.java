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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
 * INVALID, the full length). In every case the sender's send completes DONE and the next packet
 * arrives intact, so nothing is left behind in UCX.
 */
class UcxPullTest {
    private static final long SIZE = 1 << 20;
    private final Arena arena = Arena.ofShared();
    private DriverContext a;
    private DriverContext b;
    private DriverInstance toB;
    private DriverInstance toA;

    @BeforeEach
    void clean() {
        System.clearProperty(UcxSettings.PULL.propertyName());
    }

    @AfterEach
    void close() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        arena.close();
        System.clearProperty(UcxSettings.TLS.propertyName());
        System.clearProperty(UcxSettings.PULL.propertyName());
    }

    private void connect(String pull) throws Exception {
        System.setProperty(UcxSettings.TLS.propertyName(), "sm");
        System.setProperty(UcxSettings.PULL.propertyName(), pull);
        a = new UcxDriver().newContext(new Hints(2, 0, true, Map.of()));
        b = new UcxDriver().newContext(new Hints(2, 1, true, Map.of()));
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
    private Status[] complete(Packet sp, Packet rp) {
        Status s = Status.NOT_YET;
        Status r = Status.NOT_YET;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (s == Status.NOT_YET || r == Status.NOT_YET) {
            if (s == Status.NOT_YET) {
                s = toB.sendPoll(sp);
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

    private void sendOne(int seed, MemorySegment out, DataLayout into, long room, Supplier<MemorySegment> received) {
        fill(out, seed);
        Packet sp = new Packet().useData(DataLayout.contiguous(out));
        Packet rp = new Packet().useData(into);
        assertEquals(Status.DONE, toB.sendPost(sp));
        assertEquals(Status.DONE, toA.recvPost(rp));
        Status[] st = complete(sp, rp);
        assertEquals(Status.DONE, st[0], "the send completes");
        assertEquals(room >= SIZE ? Status.DONE : Status.INVALID, st[1], "the receive");
        assertEquals(SIZE, rp.length(), "the packet's full length");
        check(received.get(), 0, Math.min(room, SIZE), seed, "received bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tag", "get"})
    void everyKindOfPostedMemoryTakesALargePacket(String pull) throws Exception {
        connect(pull);
        MemorySegment out = arena.allocate(SIZE, 64);
        // whole: one native range
        MemorySegment whole = arena.allocate(SIZE, 64);
        sendOne(1, out, DataLayout.contiguous(whole), SIZE, () -> whole);
        // the Java heap
        byte[] heap = new byte[(int) SIZE];
        sendOne(2, out, DataLayout.contiguous(MemorySegment.ofArray(heap)), SIZE, () -> MemorySegment.ofArray(heap));
        // two segments
        MemorySegment first = arena.allocate(SIZE / 2, 64);
        MemorySegment second = arena.allocate(SIZE / 2, 64);
        MemorySegment joined = arena.allocate(SIZE, 64);
        sendOne(3, out, IoVec.of(first, second), SIZE, () -> {
            MemorySegment.copy(first, 0, joined, 0, SIZE / 2);
            MemorySegment.copy(second, 0, joined, SIZE / 2, SIZE / 2);
            return joined;
        });
        // too short: the prefix, INVALID
        MemorySegment shorter = arena.allocate(SIZE / 4, 64);
        sendOne(4, out, DataLayout.contiguous(shorter), SIZE / 4, () -> shorter);
        // and the next one is intact
        sendOne(5, out, DataLayout.contiguous(whole), SIZE, () -> whole);
    }
}
