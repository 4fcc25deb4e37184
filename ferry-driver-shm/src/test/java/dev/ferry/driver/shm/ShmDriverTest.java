package dev.ferry.driver.shm;

import dev.ferry.conformance.WaitAnyNews;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.ferry.driver.shm.ShmTesting.await;
import static dev.ferry.driver.shm.ShmTesting.connect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The shm driver's own behaviour beyond the kit, with two contexts of this JVM. */
class ShmDriverTest {
    private final List<DriverContext> contexts = new ArrayList<>();

    @AfterEach
    void closeAll() {
        contexts.forEach(DriverContext::close);
    }

    private ShmContext open(int rank) {
        return open(rank, dev.ferry.spi.Settings.fromEnvironment());
    }

    private ShmContext open(int rank, dev.ferry.spi.Settings settings) {
        ShmContext c = (ShmContext) new ShmDriver().newContext(new Hints(4, rank, true, Map.of(Hints.JOB_ID, "shmtest"), settings));
        c.properties();
        c.init();
        contexts.add(c);
        return c;
    }



    private static void fill(MemorySegment m, int seed) {
        for (long i = 0; i < m.byteSize(); i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 13 + seed));
        }
    }

    /** Sends {@code out} from a to b (the receiver on another thread), checks it arrived whole. */
    private static void transfer(DriverInstance from, DriverInstance to, Packet send, long size, int seed) throws Exception {
        MemorySegment in = Arena.ofAuto().allocate(size);
        CompletableFuture<Status> recv = CompletableFuture.supplyAsync(() -> {
            Packet q = new Packet().useIov(IoVec.of(in));
            Status s = to.recvPost(q);
            return s == Status.DONE ? await(() -> to.recvPoll(q), "receive") : s;
        });
        assertEquals(Status.DONE, await(() -> from.sendPost(send), "post"));
        assertEquals(Status.DONE, await(() -> from.sendPoll(send), "send"));
        assertEquals(Status.DONE, recv.get(30, TimeUnit.SECONDS));
        checkFilled(in, seed, "of " + size);
    }

    /** Fails naming the first byte of {@code m} that is not {@link #fill}'s with {@code seed}. */
    private static void checkFilled(MemorySegment m, int seed, String what) {
        for (long i = 0; i < m.byteSize(); i++) {
            if (m.get(ValueLayout.JAVA_BYTE, i) != (byte) (i * 13 + seed)) {
                fail("byte " + i + " " + what + " differs");
            }
        }
    }

    /** The receiver keeps the sender's arenas it mapped by number: packets from several arenas, in turns, each arrive whole. */
    @Test
    void packetsFromSeveralArenasOfTheSenderArriveFromTheRightOne() throws Exception {
        ShmContext a = open(0);
        ShmContext b = open(1);
        DriverInstance[] ab = connect(a, b);
        long size = 1 << 16;
        MemorySegment[] arenas = new MemorySegment[6]; // more than the receiver's first table holds
        for (int i = 0; i < arenas.length; i++) {
            arenas[i] = a.allocate(size);
            fill(arenas[i], 10 + i);
        }
        int[] order = {0, 5, 1, 0, 3, 5, 2, 4, 1, 0};
        for (int i : order) {
            transfer(ab[0], ab[1], new Packet().useData(DataLayout.contiguous(arenas[i])), size, 10 + i);
        }
        assertEquals(order.length, a.sentByMode.get(ShmLayout.MODE_ARENA), "every packet by memcpy from an arena");
    }

    @Test
    void largePacketsTakeTheDocumentedWays() throws Exception {
        ShmContext a = open(0);
        ShmContext b = open(1);
        DriverInstance[] ab = connect(a, b);
        long size = 3 << 20;

        MemorySegment offHeap = Arena.ofAuto().allocate(size);
        fill(offHeap, 1);
        transfer(ab[0], ab[1], new Packet().useIov(IoVec.of(offHeap)), size, 1);
        assertEquals(1, a.sentByMode.get(ShmLayout.MODE_READV), "off-heap memory: one copy by process_vm_readv");

        MemorySegment shared = a.allocate(size);
        fill(shared, 2);
        transfer(ab[0], ab[1], new Packet().useData(DataLayout.contiguous(shared)), size, 2);
        assertEquals(1, a.sentByMode.get(ShmLayout.MODE_ARENA), "arena memory: one memcpy by the receiver");

        MemorySegment heap = MemorySegment.ofArray(new byte[(int) size]);
        fill(heap, 3);
        transfer(ab[0], ab[1], new Packet().useIov(IoVec.of(heap)), size, 3);
        assertEquals(1, a.sentByMode.get(ShmLayout.MODE_BOUNCE), "heap memory has no address: through the bounce area");

        // many segments: the descriptor goes indirect (seed 001's indirect format)
        IoVec many = new IoVec(600);
        MemorySegment backing = Arena.ofAuto().allocate(600 * 4096L);
        fill(backing, 4);
        for (int i = 0; i < 600; i++) {
            many.add(backing.asSlice(i * 4096L, 4096));
        }
        transfer(ab[0], ab[1], new Packet().useIov(many), 600 * 4096L, 4);
        assertEquals(2, a.sentByMode.get(ShmLayout.MODE_READV));
    }

    /**
     * Exposes {@code out} from a to b, the sender polling on another thread while b pulls; checks
     * the pull whole and the exposure done.
     */
    private static void exposeAndPull(DriverInstance[] ab, MemorySegment out, MemorySegment in, int seed) throws Exception {
        long size = out.byteSize();
        MemorySegment pullData = Arena.ofAuto().allocate(ShmLayout.PULL_DATA_BYTES, 8);
        fill(out, seed);
        in.fill((byte) 0);
        Packet exposed = new Packet().useIov(IoVec.of(out));
        assertEquals(Status.DONE, ab[0].sendExpose(exposed, pullData));
        CompletableFuture<Status> sent = CompletableFuture.supplyAsync(() -> await(() -> ab[0].sendPoll(exposed), "exposure"));
        Packet pull = new Packet().useIov(IoVec.of(in));
        assertEquals(Status.DONE, ab[1].pullPost(pull, pullData));
        assertEquals(Status.DONE, await(() -> ab[1].pullPoll(pull), "pull"));
        assertEquals(size, pull.length());
        assertEquals(Status.DONE, sent.get(30, TimeUnit.SECONDS));
        checkFilled(in, seed, "of pull " + seed);
    }

    /**
     * A large exposed packet whose sender polls while the receiver pulls is copied by both: the
     * pulls repeat, each checked whole, until the sender has written chunks of one (bounded). More
     * pulls than exposure slots: a slot of a split pull is exposed again once the puller marked it.
     */
    @Test
    void aSenderThatPollsCopiesPartOfWhatItsPeerPulls() throws Exception {
        ShmContext a = open(0);
        ShmContext b = open(1);
        DriverInstance[] ab = connect(a, b);
        MemorySegment out = Arena.ofAuto().allocate(1 << 20, 64);
        MemorySegment in = Arena.ofAuto().allocate(1 << 20, 64);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int pulls = 0;
        while (a.splitChunksWritten.get() == 0 || pulls < 2 * ShmLayout.EXPOSURES) {
            if (System.nanoTime() - end > 0) {
                fail("the sender wrote no chunk of " + pulls + " pulls in 30 s");
            }
            exposeAndPull(ab, out, in, ++pulls);
        }
        assertEquals(pulls, a.sentByMode.get(ShmLayout.MODE_READV), "every packet exposed by address");
    }

    /** Either side may have split pulls off: the pulls still complete, the sender copying nothing. */
    @Test
    void splitPullsOffOnEitherSideStillDeliver() throws Exception {
        dev.ferry.spi.Settings off = dev.ferry.spi.Settings.fromEnvironment().with("FERRY_SHM_SPLIT_PULL", "off");
        dev.ferry.spi.Settings auto = dev.ferry.spi.Settings.fromEnvironment().with("FERRY_SHM_SPLIT_PULL", "auto");
        MemorySegment out = Arena.ofAuto().allocate(256 * 1024, 64);
        MemorySegment in = Arena.ofAuto().allocate(256 * 1024, 64);
        ShmContext a = open(0, off);
        DriverInstance[] offAuto = connect(a, open(1, auto));
        ShmContext c = open(2, auto);
        DriverInstance[] autoOff = connect(c, open(3, off));
        for (int k = 0; k < 2 * ShmLayout.EXPOSURES; k++) {
            exposeAndPull(offAuto, out, in, k);
            exposeAndPull(autoOff, out, in, 1000 + k);
        }
        assertEquals(0, a.splitChunksWritten.get() + c.splitChunksWritten.get());
        var bad = dev.ferry.spi.Settings.fromEnvironment().with("FERRY_SHM_SPLIT_PULL", "xyz");
        var x = org.junit.jupiter.api.Assertions.assertThrows(dev.ferry.spi.SettingException.class, () -> open(0, bad));
        assertEquals("FERRY_SHM_SPLIT_PULL must be auto or off, not 'xyz'", x.getMessage());
    }

    @Test
    void aSharedArenaRangeIsMappedByThePeerThroughItsKey() throws Exception {
        ShmContext a = open(0);
        ShmContext b = open(1);
        DriverInstance[] ab = connect(a, b);
        MemorySegment arena = a.allocate(1 << 16);
        MemorySegment window = arena.asSlice(4096, 64);

        byte[] key = a.shareKey(window);
        assertEquals(ShmLayout.SHARE_KEY_BYTES, key.length);
        MemorySegment remote = ab[1].mapShared(key);
        assertEquals(64, remote.byteSize());
        remote.set(ValueLayout.JAVA_LONG, 8, 0x1234_5678_9abcL); // a store by b lands in a's memory
        assertEquals(0x1234_5678_9abcL, window.get(ValueLayout.JAVA_LONG, 8));
        window.set(ValueLayout.JAVA_LONG, 16, 5);
        var add = ValueLayout.JAVA_LONG.varHandle();
        assertEquals(5L, (long) add.getAndAdd(remote, 16L, 3L)); // and atomics act on the same word
        assertEquals(8L, window.get(ValueLayout.JAVA_LONG, 16));

        assertEquals(null, a.shareKey(Arena.ofAuto().allocate(64)), "ordinary memory has no key");
        assertEquals(null, a.shareKey(arena.asSlice(0, 0)), "an empty range has no key");
        assertEquals(null, ab[1].mapShared(new byte[3]), "a key of the wrong size maps nothing");
        MemorySegment k = MemorySegment.ofArray(key.clone());
        k.set(ValueLayout.JAVA_LONG_UNALIGNED, ShmLayout.SHARE_OFFSET, (1 << 16) - 8);
        assertEquals(null, ab[1].mapShared(k.toArray(ValueLayout.JAVA_BYTE)), "a range beyond the arena maps nothing");
        k.set(ValueLayout.JAVA_LONG_UNALIGNED, ShmLayout.SHARE_OFFSET, 0);
        k.set(ValueLayout.JAVA_LONG_UNALIGNED, ShmLayout.SHARE_ARENA, 7);
        assertEquals(null, ab[1].mapShared(k.toArray(ValueLayout.JAVA_BYTE)), "an arena that does not exist maps nothing");
        assertEquals(null, a.newInstance().mapShared(key), "an unconnected instance maps nothing");
    }

    @Test
    void withSingleCopyOffLargePacketsAreStreamed() throws Exception {
        dev.ferry.spi.Settings off = dev.ferry.spi.Settings.fromEnvironment().with("FERRY_SHM_SINGLE_COPY", "off");
        ShmContext a = open(0, off);
        ShmContext b = open(1, off);
        DriverInstance[] ab = connect(a, b);
        long size = 5 << 20; // larger than the bounce area: pipelined in several rounds
        MemorySegment m = Arena.ofAuto().allocate(size);
        fill(m, 9);
        transfer(ab[0], ab[1], new Packet().useIov(IoVec.of(m)), size, 9);
        assertEquals(1, a.sentByMode.get(ShmLayout.MODE_BOUNCE));
        assertEquals(0, a.sentByMode.get(ShmLayout.MODE_READV));
    }

    @Test
    void aSegmentWithAWrongMagicOrVersionIsAClearErrorAtConnect() throws Exception {
        ShmContext a = open(0);
        long pid = ProcessHandle.current().pid();
        for (String what : List.of("magic", "version")) {
            Path fake = ShmFiles.DIR.resolve("ferry-shmtest-r7-p" + pid + "-c" + (900 + what.length()) + ".ctx");
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment m = ShmFiles.create(fake, ShmLayout.CONTEXT_BYTES, arena);
                ShmFiles.writeHeader(m, ShmLayout.KIND_CONTEXT, pid, ShmFiles.startTime(pid));
                if (what.equals("magic")) {
                    m.set(ValueLayout.JAVA_LONG, ShmLayout.MAGIC_OFFSET, 0x1234L);
                } else {
                    m.set(ValueLayout.JAVA_INT, ShmLayout.VERSION_OFFSET, ShmLayout.VERSION + 1);
                }
                ShmFiles.markReady(m);
                String bad = ShmFiles.check(m, ShmLayout.KIND_CONTEXT, fake);
                assertTrue(bad != null && bad.contains(what.equals("magic") ? "magic 0x1234" : "layout version " + (ShmLayout.VERSION + 1)), bad);
                DriverUrl url = DriverUrl.single((ShmContext.URL_PREFIX + fake.getFileName()).getBytes(StandardCharsets.US_ASCII));
                assertEquals(Status.INVALID, a.newInstance().connectAsync(url), "connect to a segment with a wrong " + what);
            } finally {
                Files.deleteIfExists(fake);
            }
        }
        // and a URL that names no segment at all, or no shm segment
        assertEquals(Status.BROKEN, a.newInstance().connectAsync(DriverUrl.single(
                (ShmContext.URL_PREFIX + "ferry-shmtest-r1-p1-c1.ctx").getBytes(StandardCharsets.US_ASCII))));
        assertEquals(Status.INVALID, a.newInstance().connectAsync(DriverUrl.single("shm1:../../etc/passwd".getBytes(StandardCharsets.US_ASCII))));
    }

    @Test
    void filesAreOwnerOnlyAndGoneAfterClose() throws Exception {
        ShmContext a = open(0);
        ShmContext b = open(1);
        DriverInstance[] ab = connect(a, b);
        MemorySegment arena = a.allocate(1 << 20);
        assertTrue(arena.byteSize() == 1 << 20);
        List<Path> ours = files("ferry-shmtest-*");
        assertEquals(4, ours.size(), "two contexts, a channel, an arena: " + ours);
        for (Path p : ours) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)), p.toString());
        }
        assertEquals(Status.DONE, ab[0].disconnect());
        assertEquals(Status.DONE, ab[1].disconnect());
        a.close();
        b.close();
        assertEquals(List.of(), files("ferry-shmtest-*"));
    }

    @Test
    void anIdleWaitAnySleepsAndAPostWakesIt() throws Exception {
        ShmContext a = open(0);
        ShmContext b = open(1);
        DriverInstance[] ab = connect(a, b);
        InstanceRef ready = new InstanceRef();
        Status[] result = new Status[1];
        long[] woke = new long[1];
        Thread waiter = Thread.ofPlatform().start(() -> {
            do {
                result[0] = b.recvWaitAny(ready);
            } while (result[0] == Status.NOT_YET); // news of the set-up (a send moved on) may come first
            woke[0] = System.nanoTime();
        });
        // A one-second measurement window (not a synchronisation): the waiter must stay blocked through it.
        waiter.join(1000);
        assertTrue(waiter.isAlive(), "wait-any returned with nothing to receive: " + result[0]);
        long cpu = ManagementFactory.getThreadMXBean().getThreadCpuTime(waiter.threadId());
        assertTrue(cpu < 50_000_000L, "an idle wait-any used " + cpu / 1_000_000 + " ms of CPU in 1 s (limit 5%)");
        MemorySegment m = Arena.ofAuto().allocate(8);
        Packet p = new Packet().useIov(IoVec.of(m));
        long posted = System.nanoTime();
        assertEquals(Status.DONE, ab[0].sendPost(p));
        waiter.join(30_000);
        assertFalse(waiter.isAlive(), "wait-any still asleep after a post");
        assertEquals(Status.DONE, result[0]);
        assertTrue(ready.instance == ab[1]);
        assertTrue(woke[0] - posted < TimeUnit.SECONDS.toNanos(5), "woken " + (woke[0] - posted) / 1000 + " us after the post");
    }

    /**
     * A sender's wait-any returns when its peer moves a send on without a packet, so that an
     * engine dozing in it sees the send complete at once: an exposed packet pulled (with split
     * pulls and without), and room freed in a full ring. Each step runs while the wait sleeps.
     */
    @Test
    void aSleepingWaitAnyReturnsWhenThePeerMovesASendOn() throws Exception {
        for (String split : new String[] {"auto", "off"}) {
            ShmContext a = open(0);
            ShmContext b = open(1, dev.ferry.spi.Settings.fromEnvironment().with("FERRY_SHM_SPLIT_PULL", split));
            DriverInstance[] ab = connect(a, b);
            MemorySegment out = Arena.ofAuto().allocate(1 << 20, 64);
            MemorySegment in = Arena.ofAuto().allocate(1 << 20, 64);
            fill(out, 5);
            MemorySegment pullData = Arena.ofAuto().allocate(ShmLayout.PULL_DATA_BYTES, 8);
            Packet exposed = new Packet().useIov(IoVec.of(out));
            assertEquals(Status.DONE, ab[0].sendExpose(exposed, pullData));
            WaitAnyNews.expect(a, a::asleep, () -> {
                Packet pull = new Packet().useIov(IoVec.of(in));
                assertEquals(Status.DONE, ab[1].pullPost(pull, pullData));
                assertEquals(Status.DONE, await(() -> ab[1].pullPoll(pull), "pull"));
            }, "the peer pulled an exposed packet (split pulls " + split + ")");
            assertEquals(Status.DONE, await(() -> ab[0].sendPoll(exposed), "exposure"));
            checkFilled(in, 5, "of the pull (split pulls " + split + ")");

            MemorySegment small = Arena.ofAuto().allocate(8);
            int sent = 0;
            while (ab[0].sendPost(new Packet().useIov(IoVec.of(small))) == Status.DONE) {
                sent++;
            }
            assertEquals(ShmLayout.SLOTS, sent, "packets the ring holds");
            WaitAnyNews.expect(a, a::asleep, () -> {
                Packet q = new Packet().useIov(IoVec.of(Arena.ofAuto().allocate(8)));
                assertEquals(Status.DONE, ab[1].recvPost(q));
                assertEquals(Status.DONE, await(() -> ab[1].recvPoll(q), "receive"));
            }, "the peer took a packet from a full ring (split pulls " + split + ")");
            assertEquals(Status.DONE, ab[0].sendPost(new Packet().useIov(IoVec.of(small))), "a post into the room freed");
            closeAll();
            contexts.clear();
        }
    }

    static List<Path> files(String glob) throws Exception {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(ShmFiles.DIR, glob)) {
            s.forEach(out::add);
        }
        return out;
    }

    @Test
    void aConnectionRequestNamesTheRankInTheContextsName() {
        assertEquals(17, ShmContext.rankOf("ferry-job_1-r17-p4242-c3.ctx"));
        assertEquals(-1, ShmContext.rankOf("ferry-job_1-x17-p4242-c3.ctx"));
        assertEquals(-1, ShmContext.rankOf("something else"));
    }

    @Test
    void bytesHeldCountsThePagesOfOpenConnectionsAndTheArena() {
        DriverContext a = new ShmDriver().newContext(new Hints(2, 0, true, java.util.Map.of(Hints.JOB_ID, "bytesheld" + ProcessHandle.current().pid())));
        DriverContext b = new ShmDriver().newContext(new Hints(2, 1, true, java.util.Map.of(Hints.JOB_ID, "bytesheld" + ProcessHandle.current().pid())));
        try {
            a.properties();
            b.properties();
            DriverUrl ua = a.init();
            DriverUrl ub = b.init();
            a.allocate(1 << 20);
            DriverInstance ia = a.newInstance();
            DriverInstance ib = b.newInstance();
            assertEquals(Status.DONE, ia.connectAsync(ub));
            assertEquals(Status.DONE, ib.connectAsync(ua));
            java.util.Map<String, Long> held = new java.util.HashMap<>();
            a.bytesHeld((k, v) -> held.merge(k, v, Long::sum));
            long fresh = held.get("shm channels");
            assertTrue(fresh > 0 && fresh < 64 * 1024, "a channel nothing went through has its header pages only: " + fresh);
            assertEquals(1 << 20, held.get("shm arena"));
            assertEquals(0L, held.get("shm queue"), "no queue made while every peer has a ring");
            assertEquals(Status.DONE, ia.disconnect());
            held.clear();
            a.bytesHeld((k, v) -> held.merge(k, v, Long::sum));
            assertEquals(0L, held.get("shm channels"), "a disconnected connection holds no channel");
        } finally {
            a.close();
            b.close();
        }
    }
}
