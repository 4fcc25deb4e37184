package dev.ferry.core.agent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The links between agents of this process, each on a loopback address of its own as on a node
 * of its own: closed in order when idle or over the cap, opened again by the next record, and
 * nothing lost or taken for a death on the way.
 */
class AgentLinksTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();

    private Agent agent(String name, int host, Duration idle, int max) throws Exception {
        Agent a = unstarted(name, host, idle, max);
        Thread t = new Thread(a::run, "agent " + name);
        t.setDaemon(true);
        t.start();
        return a;
    }

    /** An agent listening, whose loop nobody runs yet. */
    private Agent unstarted(String name, int host, Duration idle, int max) throws Exception {
        Agent a = Agent.start(new Agent.Config(dir.resolve(name + ".sock"), "job-1").withChannels(dir)
                .withLinkAddress(InetAddress.getByName("127.0.0." + host)).withLinks(idle, max));
        a.maxSleep(Duration.ofHours(1)); // every wake-up from the bell, a link or a timer: none from the sleep's end
        open.add(a);
        return a;
    }

    private AgentClient rank(String agent, int rank) {
        AgentClient c = client(agent);
        c.attach(rank);
        return c;
    }

    private AgentClient client(String agent) {
        AgentClient c = AgentClient.connect(dir.resolve(agent + ".sock"), "job-1", BOUND);
        open.add(c);
        return c;
    }

    private static void await(BooleanSupplier done, String what) {
        if (!dev.ferry.spi.IdleStrategy.DEFAULT.await(done, BOUND.toNanos())) {
            throw new AssertionError("not within " + BOUND + ": " + what);
        }
    }

    /** Sends {@code value} from {@code from}'s rank to rank {@code to}. */
    private static void send(AgentClient from, int to, long value) {
        ByteRing out = from.outRing();
        long[] at = {-1};
        await(() -> (at[0] = out.claim(8)) >= 0, "room in the OUT ring");
        out.memory().set(ValueLayout.JAVA_LONG_UNALIGNED, at[0], value); // claim gives the payload's place
        out.commit(to, ChannelLayout.PACKET, 0, 8);
        from.wakeAgent();
    }

    /** The next record at {@code c}'s rank: it must be a packet from {@code from} carrying {@code value}. */
    private static void expect(AgentClient c, int from, long value) {
        ByteRing in = c.inRing();
        long[] r = {-1};
        await(() -> (r[0] = in.next()) >= 0, "a record from rank " + from);
        assertEquals(ChannelLayout.PACKET, in.kind(r[0]), "a packet, not a death (kind " + in.kind(r[0]) + ")");
        assertEquals(from, in.origin(r[0]));
        assertEquals(value, in.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, ByteRing.payload(r[0])));
        in.release(r[0]);
    }

    /** Rank 0 on agent {@code a} (named {@code an}) and rank 1 on {@code b}, routed to each other, the link between them up. */
    private AgentClient[] linked(Agent a, String an, Agent b, String bn) {
        AgentClient r0 = rank(an, 0), r1 = rank(bn, 1);
        r0.route(1, b.linkAddress());
        r1.route(0, a.linkAddress());
        send(r0, 1, 1);
        expect(r1, 0, 1);
        return new AgentClient[] {r0, r1};
    }

    /** Runs {@code a}'s passes on a thread of its own while {@code own} holds, until the test drives it itself ({@link #stop}). */
    private static Thread alone(Agent a, AtomicBoolean own) {
        Thread t = new Thread(() -> {
            while (own.get()) {
                if (!a.duty()) {
                    Thread.onSpinWait();
                }
            }
        }, "agent alone");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void stop(Thread alone, AtomicBoolean own) throws InterruptedException {
        own.set(false);
        alone.join(BOUND.toMillis());
        assertFalse(alone.isAlive(), "the agent's own thread ended");
    }

    private void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    @Test
    void anIdleLinkClosesInOrderAndTheNextRecordEitherWayOpensItAgain() throws Exception {
        try {
            Agent a = agent("a", 1, Duration.ofMillis(100), 0), b = agent("b", 2, Duration.ofMillis(100), 0);
            AgentClient r0 = rank("a", 0), r1 = rank("b", 1);
            r0.route(1, b.linkAddress());
            r1.route(0, a.linkAddress());
            for (long v = 0; v < 3; v++) {
                send(r0, 1, v);
            }
            for (long v = 0; v < 3; v++) {
                expect(r1, 0, v);
            }
            await(() -> a.openLinks() == 0 && b.openLinks() == 0, "the idle link closed on both sides");
            long asked = r0.linkCounts()[1] + r1.linkCounts()[1];
            assertTrue(asked == 1 || asked == 2, "one side asked, or both at once: " + asked);
            // the other way: b's address sorts second, so b asks a to call it back
            send(r1, 0, 42);
            expect(r0, 1, 42);
            send(r0, 1, 43);
            expect(r1, 0, 43);
            assertTrue(r0.inRing().isEmpty() && r1.inRing().isEmpty(), "no rank was told the other died");
            await(() -> a.openLinks() == 0 && b.openLinks() == 0, "closed again once idle");
        } finally {
            closeAll();
        }
    }

    @Test
    void aCapOfOneLinkClosesTheLeastRecentlyUsedAndLosesNothing() throws Exception {
        try {
            Agent a = agent("a", 1, Duration.ZERO, 1), b = agent("b", 2, Duration.ZERO, 0), c = agent("c", 3, Duration.ZERO, 0);
            AgentClient r0 = rank("a", 0), r1 = rank("b", 1), r2 = rank("c", 2);
            r0.route(1, b.linkAddress());
            r0.route(2, c.linkAddress());
            r1.route(0, a.linkAddress());
            r2.route(0, a.linkAddress());
            for (long round = 0; round < 4; round++) {
                send(r0, 1, 100 + round);
                send(r0, 2, 200 + round); // over the cap: the link to b is asked to close once quiet
                expect(r1, 0, 100 + round);
                expect(r2, 0, 200 + round);
            }
            await(() -> a.openLinks() <= 1, "back within the cap");
            long[] counts = r0.linkCounts();
            assertTrue(counts[2] >= 1, "the cap closed a link: " + java.util.Arrays.toString(counts));
            assertTrue(r0.inRing().isEmpty() && r1.inRing().isEmpty() && r2.inRing().isEmpty(), "no rank was told another died");
        } finally {
            closeAll();
        }
    }

    /**
     * A rank on two rails has a channel on each; each rail of an agent listens on an address of
     * its own and holds its own link to the other node, and a record sent on one rail arrives on
     * that rail alone. A rank attaches once per rail.
     */
    @Test
    void eachRailHasItsOwnLinkAndARecordStaysOnItsRail() throws Exception {
        try {
            Agent a = agent("a", 1, Duration.ZERO, 0), b = agent("b", 2, Duration.ZERO, 0);
            AgentClient a0 = client("a"), a1 = client("a"), b0 = client("b"), b1 = client("b");
            String a0Address = a0.attach(0, 0), a1Address = a1.attach(0, 1), b0Address = b0.attach(1, 0), b1Address = b1.attach(1, 1);
            assertEquals(a.linkAddress(), a0Address);
            assertNotEquals(a0Address, a1Address, "rail 1 listens apart");
            a0.route(1, b0Address);
            a1.route(1, b1Address);
            b0.route(0, a0Address);
            b1.route(0, a1Address);
            send(a1, 1, 5);
            expect(b1, 0, 5);
            send(b0, 0, 6);
            expect(a0, 1, 6);
            assertTrue(b0.inRing().isEmpty() && a1.inRing().isEmpty(), "nothing crossed to the other rail");
            assertEquals(2, a.openLinks(), "a link per rail");
            assertArrayEquals(new long[] {2, 0, 0, 2, 0, 0}, a0.linkCounts(), "links open, closed idle, evicted; rails; bytes pulled through mapped memory; offloaded");
            assertThrows(AgentException.class, () -> client("a").attach(0, 1), "rank 0 is on rail 1 already");
            assertThrows(AgentException.class, () -> a1.attach(0, 0), "a channel serves one rail");
            assertThrows(AgentException.class, () -> client("a").attach(2, Agent.MAX_RAILS), "no such rail");
        } finally {
            closeAll();
        }
    }

    /**
     * A record whose bytes come in pieces holds its rank's IN ring until it ends: a record that
     * another node's link brings meanwhile waits for it, and both arrive whole. (Two links that
     * claimed the ring at once shared its view: the first one's read stopped for good, the rank
     * waited for the rest of its record, and the agent idled.)
     * The two other nodes are sockets of this test speaking the link's protocol; one thread
     * drives the agent, so each piece is read before the next is written.
     */
    @Test
    void aRecordComingInPiecesKeepsTheRingFromAnotherLinkUntilItEnds() throws Exception {
        Agent a = unstarted("a", 1, Duration.ZERO, 0);
        AtomicBoolean ownThread = new AtomicBoolean(true);
        Thread alone = alone(a, ownThread);
        try (java.nio.channels.SocketChannel x = dial(a, "127.0.0.2:7"); java.nio.channels.SocketChannel y = dial(a, "127.0.0.3:7")) {
            AgentClient r0 = rank("a", 0);
            stop(alone, ownThread);

            int big = 96 * 1024, small = 64;
            java.nio.ByteBuffer fromX = record(1, big), fromY = record(2, small);
            long expected = a.linkBytesIn();
            fromX.limit((int) ChannelLayout.REC_HEADER + big / 2); // the header and half the payload
            expected += writeAll(x, fromX);
            readBy(a, expected, "the first half of x's record");
            int yBytes = writeAll(y, fromY);
            readBy(a, expected + ChannelLayout.REC_HEADER, "y's record header"); // its payload waits for the ring
            fromX.limit(fromX.capacity());
            expected += yBytes + writeAll(x, fromX);
            readBy(a, expected, "the rest of x's record, then y's");

            ByteRing in = r0.inRing();
            java.util.Set<Integer> seen = new java.util.HashSet<>();
            for (int i = 0; i < 2; i++) {
                long r = in.next();
                assertTrue(r >= 0, "record " + i + " arrived");
                int from = in.origin(r), n = from == 1 ? big : small;
                assertEquals(n, in.length(r), "rank " + from + "'s record is whole");
                for (int j = 0; j < n / 8; j++) {
                    assertEquals(pattern(from, j), in.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, ByteRing.payload(r) + 8L * j),
                            "word " + j + " of rank " + from + "'s record");
                }
                seen.add(from);
                in.release(r);
            }
            assertEquals(java.util.Set.of(1, 2), seen);
            assertTrue(in.isEmpty(), "nothing else came");
        } finally {
            ownThread.set(false);
            alone.join(BOUND.toMillis());
            closeAll();
        }
    }

    /** A socket greeting agent {@code a} as the agent at {@code address} of this job, answered. */
    private static java.nio.channels.SocketChannel dial(Agent a, String address) throws Exception {
        String[] hp = a.linkAddress().split(":");
        java.nio.channels.SocketChannel c = java.nio.channels.SocketChannel.open(new java.net.InetSocketAddress(hp[0], Integer.parseInt(hp[1])));
        byte[] name = address.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        java.nio.ByteBuffer h = java.nio.ByteBuffer.allocate(AgentLinkHello.ADDRESS + name.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        h.putInt(AgentLinkHello.MAGIC_AT, AgentLinkHello.MAGIC).putInt(AgentLinkHello.FLAGS, 0)
                .put(AgentLinkHello.KEY_HASH, java.security.MessageDigest.getInstance("SHA-256").digest("job-1".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .putInt(AgentLinkHello.ADDRESS_LENGTH, name.length).put(AgentLinkHello.ADDRESS, name);
        writeAll(c, h);
        java.nio.ByteBuffer answer = java.nio.ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        while (answer.hasRemaining()) {
            assertTrue(c.read(answer) >= 0, "the agent answered the greeting");
        }
        assertEquals(AgentLinkHello.OK, answer.getInt(0));
        return c;
    }

    private static long pattern(int from, int j) {
        return (long) from << 40 | j;
    }

    /** A link record of {@code n} bytes (a multiple of 8) from rank {@code from} to rank 0, its words {@link #pattern}. */
    private static java.nio.ByteBuffer record(int from, int n) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate((int) ChannelLayout.REC_HEADER + n).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt((int) ChannelLayout.REC_LENGTH, n).putInt((int) ChannelLayout.REC_PEER, 0).putInt((int) ChannelLayout.REC_KIND, ChannelLayout.PACKET)
                .putInt((int) ChannelLayout.REC_ORIGIN, from).putLong((int) ChannelLayout.REC_MORE, 0);
        for (int j = 0; j < n / 8; j++) {
            b.putLong((int) ChannelLayout.REC_HEADER + 8 * j, pattern(from, j));
        }
        return b;
    }

    private static int writeAll(java.nio.channels.SocketChannel c, java.nio.ByteBuffer b) throws java.io.IOException {
        int n = 0;
        while (b.hasRemaining()) {
            n += c.write(b);
        }
        return n;
    }

    /** Drives {@code a} until its links have read {@code bytes} in all. */
    private static void readBy(Agent a, long bytes, String what) {
        long end = System.nanoTime() + BOUND.toNanos();
        while (a.linkBytesIn() < bytes) {
            a.duty();
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + BOUND + ": " + what + " (read " + a.linkBytesIn() + " of " + bytes + " bytes)");
            }
        }
    }

    /**
     * The link to the sender's agent breaks while a pull that the receiver's agent claimed for a
     * receive of any source waits on it: the agent answers the pull FAILED (so the rank frees its
     * slot) and tells the rank its sender is gone. Once the link is up (each agent on a thread of
     * its own: its set-up waits for the other), one thread drives both agents and stops driving
     * the sender's in the very pass in which the receiver's claims the announcement, so the
     * request is never served: then the sender's agent closes, its sockets with it.
     */
    @Test
    void aLinkThatBreaksFailsAPullClaimedForAReceiveOfAnySource() throws Exception {
        Agent a = unstarted("a", 1, Duration.ZERO, 0), b = unstarted("b", 2, Duration.ZERO, 0);
        AtomicBoolean bOwnThread = new AtomicBoolean(true), driveB = new AtomicBoolean(true), stop = new AtomicBoolean();
        AtomicReference<BooleanSupplier> stopBWhen = new AtomicReference<>(() -> false);
        Thread bAlone = new Thread(() -> {
            while (bOwnThread.get()) {
                if (!b.duty()) {
                    Thread.onSpinWait();
                }
            }
        }, "agent b");
        Thread driver = new Thread(() -> {
            while (!stop.get()) {
                boolean work = a.duty();
                if (!bOwnThread.get() && driveB.get()) {
                    if (stopBWhen.get().getAsBoolean()) {
                        driveB.set(false); // before b reads the pull's request
                    } else {
                        work |= b.duty();
                    }
                }
                if (!work) {
                    Thread.onSpinWait();
                }
            }
        }, "agent a, then b too");
        bAlone.setDaemon(true);
        driver.setDaemon(true);
        bAlone.start();
        driver.start();
        try (Arena arena = Arena.ofShared()) {
            AgentClient receiver = rank("a", 0), sender = rank("b", 1);
            receiver.route(1, b.linkAddress());
            sender.route(0, a.linkAddress());
            send(sender, 0, 1);
            expect(receiver, 1, 1); // the link is up
            bOwnThread.set(false);
            bAlone.join(BOUND.toMillis());
            assertFalse(bAlone.isAlive(), "b's own thread ended");

            long n = 1 << 20;
            MemorySegment src = arena.allocate(n, 64), dst = arena.allocate(n, 64);
            src.fill((byte) 7);
            PullSlots exposures = new PullSlots(sender.exposureSlots()), pulls = new PullSlots(receiver.pullSlots(), receiver.matchFields());
            int e = exposures.take(), eg = exposures.post(e, src.address(), n, 0);
            int slot = pulls.take(), g = pulls.arm(slot, dst.address(), n, ChannelLayout.ANY_PEER, AgentMatchTest.HEADER, AgentMatchTest.IGNORE);
            stopBWhen.set(() -> pulls.word(slot) != PullSlots.word(g, ChannelLayout.ARMED));

            MemorySegment packet = AgentMatchTest.announcement(arena, AgentMatchTest.HEADER, n, e, eg, 0);
            ByteRing out = sender.outRing();
            long[] at = {-1};
            await(() -> (at[0] = out.claim((int) packet.byteSize())) >= 0, "room in the OUT ring");
            MemorySegment.copy(packet, 0, out.memory(), at[0], packet.byteSize());
            out.commit(0, ChannelLayout.PACKET, 0, (int) packet.byteSize());
            sender.wakeAgent();

            await(() -> !driveB.get(), "the receiver's agent claimed the announcement");
            assertEquals(PullSlots.word(g, ChannelLayout.POSTED), pulls.word(slot), "claimed and posted as a pull from the sender");
            assertEquals(1, pulls.peer(slot));
            b.close();
            await(() -> pulls.word(slot) == PullSlots.word(g, ChannelLayout.FAILED), "the pull answered FAILED once the link broke");
            ByteRing in = receiver.inRing();
            long[] r = {-1};
            await(() -> (r[0] = in.next()) >= 0, "a record for the receiver");
            assertEquals(ChannelLayout.GONE, in.kind(r[0]), "the sender is gone, and nothing else came (kind " + in.kind(r[0]) + ")");
            assertEquals(1, in.origin(r[0]));
            in.release(r[0]);
            pulls.free(slot);
            assertEquals(0, pulls.inUse(), "the slot is the rank's again");
            assertEquals(-1, dst.mismatch(arena.allocate(n, 64)), "no byte landed");
        } finally {
            bOwnThread.set(false);
            stop.set(true);
            bAlone.join(BOUND.toMillis());
            driver.join(BOUND.toMillis());
            closeAll();
        }
    }

    /**
     * A rank leaves while the link holds a record of its half written (the other node's rank
     * reads nothing, so its ring, the sockets and at last the sender's ring fill): the agent
     * writes the rest from a copy, so the other side gets every record whole, then the death,
     * and the link carries the node's other ranks again. Before, it waited for good on the rank
     * that had left. Agent a is driven by this thread, so the record is half written when the
     * rank hangs up.
     */
    @Test
    void aRankLeavingWithARecordHalfWrittenHoldsUpNobody() throws Exception {
        Agent a = unstarted("a", 1, Duration.ZERO, 0), b = agent("b", 2, Duration.ZERO, 0);
        AtomicBoolean ownThread = new AtomicBoolean(true);
        Thread alone = alone(a, ownThread);
        try {
            AgentClient leaver = rank("a", 0), stayer = rank("a", 1), receiver = rank("b", 2);
            leaver.route(2, b.linkAddress());
            stayer.route(2, b.linkAddress());
            receiver.route(0, a.linkAddress());
            receiver.route(1, a.linkAddress());
            send(leaver, 2, 7);
            expect(receiver, 0, 7); // the link is up
            stop(alone, ownThread);

            int size = 100_000; // records whose ends fall anywhere in the sockets' buffers
            ByteRing out = leaver.outRing();
            long sent = 0, end = System.nanoTime() + BOUND.toNanos();
            while (true) {
                long at = out.claim(size);
                if (at < 0 && a.halfWritten(0)) {
                    break;
                }
                if (at >= 0) {
                    for (int j = 0; j < size / 8; j++) {
                        out.memory().set(ValueLayout.JAVA_LONG_UNALIGNED, at + 8L * j, pattern((int) sent, j));
                    }
                    out.commit(2, ChannelLayout.PACKET, 0, size);
                    sent++;
                }
                a.duty();
                assertTrue(System.nanoTime() < end, "the link did not fill within " + BOUND + " (" + sent + " records)");
            }
            leaver.close();
            send(stayer, 2, 11);

            ByteRing in = receiver.inRing();
            long whole = 0;
            end = System.nanoTime() + BOUND.toNanos();
            boolean gone = false, other = false;
            while (!(gone && other)) {
                a.duty();
                long r = in.next();
                assertTrue(System.nanoTime() < end, "not within " + BOUND + ": the rest after " + whole + " whole records (gone " + gone
                        + ", the other rank's record " + other + ")");
                if (r < 0) {
                    continue;
                }
                if (in.kind(r) == ChannelLayout.PACKET && in.origin(r) == 0) {
                    assertFalse(gone, "a record of the leaver's after its death");
                    assertEquals(size, in.length(r), "record " + whole + " is whole");
                    for (int j = 0; j < size / 8; j++) {
                        assertEquals(pattern((int) whole, j), in.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, ByteRing.payload(r) + 8L * j),
                                "word " + j + " of record " + whole);
                    }
                    whole++;
                } else if (in.kind(r) == ChannelLayout.GONE) { // told apart from the records: it may come after the other rank's
                    assertEquals(0, in.origin(r), "only the leaver is gone");
                    gone = true;
                } else {
                    assertEquals(ChannelLayout.PACKET, in.kind(r), "the other rank's record (kind " + in.kind(r) + ")");
                    assertEquals(1, in.origin(r));
                    assertEquals(11, in.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, ByteRing.payload(r)));
                    other = true;
                }
                in.release(r);
            }
            assertTrue(whole > 0 && whole <= sent, whole + " of " + sent + " records came");
        } finally {
            ownThread.set(false);
            alone.join(BOUND.toMillis());
            closeAll();
        }
    }

    /**
     * A link that breaks once this node's ranks have all left harms nobody, so it is no warning:
     * at a job's end the last rank's GONE may meet the other agent's end, which it did in one job
     * of three between two nodes and left a warning in the agent's log. With a rank still there
     * to be told, the same break is one.
     */
    @Test
    void aLinkBreakingAfterTheNodesRanksLeftIsNoWarningButIsWithOneThere() throws Exception {
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger(AgentNetwork.class.getName());
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler h = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    warnings.add(java.text.MessageFormat.format(r.getMessage(), r.getParameters()));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jul.addHandler(h);
        try {
            for (boolean stays : new boolean[] {false, true}) {
                warnings.clear();
                Agent a = agent("a" + stays, 1, Duration.ZERO, 0), b = agent("b" + stays, 2, Duration.ZERO, 0);
                AgentClient r1 = linked(a, "a" + stays, b, "b" + stays)[1]; // b has rank 0 behind the link
                if (!stays) {
                    r1.close();
                    await(() -> b.connected() == 0, "b freed its rank");
                }
                a.close(); // without its rank's GONE: b learns of it only by the link's end
                await(() -> b.openLinks() == 0, "b saw the link end");
                if (stays) {
                    assertEquals(1, warnings.size(), "the break warned, rank 1 being told: " + warnings);
                    assertTrue(warnings.get(0).contains("its 1 ranks are gone"), warnings.get(0));
                } else {
                    assertEquals(List.of(), warnings, "no warning with nobody left to tell");
                }
            }
        } finally {
            jul.removeHandler(h);
            closeAll();
        }
    }

    /**
     * An agent that dies behind a link closed idle is found by the other's probes, and its ranks
     * are told gone to the ranks here, which may be waiting for them with nothing to send (a
     * daemon agent closing links idle for ranks that close nothing themselves). Before, such a
     * wait lasted until the rank's next send. A live agent's probes tell nobody anything.
     */
    @Test
    void anAgentDyingBehindALinkClosedIdleIsFoundByItsProbesAndItsRanksToldGone() throws Exception {
        try {
            Agent a = agent("a", 1, Duration.ofMillis(100), 0), b = agent("b", 2, Duration.ofMillis(100), 0);
            AgentClient[] pair = linked(a, "a", b, "b");
            AgentClient r0 = pair[0], r1 = pair[1];
            await(() -> a.openLinks() == 0 && b.openLinks() == 0, "the idle link closed on both sides");
            await(() -> a.linkProbes() >= 2 && b.linkProbes() >= 2, "each probed the other, once a second");
            assertEquals(0, a.openLinks() + b.openLinks(), "a probe opens no link");
            assertTrue(r0.inRing().isEmpty() && r1.inRing().isEmpty(), "nobody was told a live agent's rank died");

            b.close(); // its links closed: nothing tells a but a probe
            ByteRing in = r0.inRing();
            long[] r = {-1};
            await(() -> (r[0] = in.next()) >= 0, "rank 0 told of rank 1");
            assertEquals(ChannelLayout.GONE, in.kind(r[0]), "a death (kind " + in.kind(r[0]) + ")");
            assertEquals(1, in.origin(r[0]), "rank 1 is gone");
            in.release(r[0]);
        } finally {
            closeAll();
        }
    }

    /**
     * Agents given no key serve one job at a time, each keyed by the first rank that greets it:
     * another job's rank is refused while a job's ranks are there; once they have left (and the
     * links have told the other node), the next job's ranks are let in, link the agents anew
     * under their own key and exchange records. Two agents, as on two nodes.
     */
    @Test
    void agentsGivenNoKeyServeOneJobAtATimeEachKeyedByItsFirstRank() throws Exception {
        try {
            Agent a = keyless("a", 1), b = keyless("b", 2);
            for (String job : new String[] {"job-1", "job-2"}) {
                AgentClient r0 = AgentClient.connect(dir.resolve("a.sock"), job, BOUND), r1 = AgentClient.connect(dir.resolve("b.sock"), job, BOUND);
                r0.attach(0);
                r1.attach(1);
                r0.route(1, b.linkAddress());
                r1.route(0, a.linkAddress());
                send(r0, 1, 10);
                expect(r1, 0, 10);
                send(r1, 0, 11);
                expect(r0, 1, 11);
                AgentException other = assertThrows(AgentException.class, () -> AgentClient.connect(dir.resolve("a.sock"), "job-3", BOUND));
                assertTrue(other.getMessage().contains("the job key differs"), job + ": " + other.getMessage());
                r0.close();
                r1.close();
                await(() -> a.connected() == 0 && b.connected() == 0, job + "'s ranks gone");
            }
        } finally {
            closeAll();
        }
    }

    /** An agent given no key that does not end with its job, running on a thread of its own. */
    private Agent keyless(String name, int host) throws Exception {
        Agent a = Agent.start(new Agent.Config(dir.resolve(name + ".sock"), null).withChannels(dir)
                .withLinkAddress(InetAddress.getByName("127.0.0." + host)));
        open.add(a);
        Thread t = new Thread(a::run, "agent " + name);
        t.setDaemon(true);
        t.start();
        return a;
    }
}
