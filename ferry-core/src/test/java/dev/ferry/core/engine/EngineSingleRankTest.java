package dev.ferry.core.engine;

import dev.ferry.core.config.EngineSettings;
import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.MessageHandler;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.SendRequest;
import dev.ferry.launch.pmi.SingletonBootstrap;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.Settings;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine's message semantics on one rank talking to itself through the self driver. */
class EngineSingleRankTest {
    private static final Duration BOUND = Duration.ofSeconds(30);
    private Inbox inbox;
    private Engine e;

    @BeforeEach
    void start() {
        inbox = new Inbox();
        e = Engine.init(new SingletonBootstrap(), List.of(DriverCatalog.discover().find("self").orElseThrow()), inbox);
        inbox.attach(e);
    }

    @AfterEach
    void stop() {
        e.close();
    }

    private static MemorySegment pattern(long n) {
        MemorySegment m = Arena.ofAuto().allocate(Math.max(1, n)).asSlice(0, n);
        for (long i = 0; i < n; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 3));
        }
        return m;
    }

    /** A wait that times out says what the engine holds: here a rendezvous to itself nobody receives. */
    @Test
    void aTimedOutWaitReportsEveryGatesState() {
        long n = e.eagerLimit(0) + 1;
        SendRequest s = new SendRequest();
        e.send(s.to(0, 7, pattern(n)));
        IllegalStateException x = assertThrows(IllegalStateException.class, () -> s.join(Duration.ofMillis(50)));
        assertTrue(x.getMessage().startsWith("send of " + n + " bytes to rank 0 not complete after 50 ms\nrank 0 after "), x.getMessage());
        assertTrue(x.getMessage().contains("gate to rank 0: state 1, out 0, cts 0, rdv out 1, rdv in 0"), x.getMessage());
        x = assertThrows(IllegalStateException.class, () -> inbox.take(m -> false, Duration.ofMillis(50)));
        assertTrue(x.getMessage().contains("no message within 50 ms\nrank 0 after "), x.getMessage());
        inbox.take(BOUND).drop();
        s.join(BOUND);
    }

    @Test
    void immediateAndRendezvousArriveWithTheirHeaderAndBytes() {
        for (long n : new long[] {0, 1, e.eagerLimit(0), e.eagerLimit(0) + 1, 1 << 20}) {
            MemorySegment out = pattern(n);
            SendRequest s = new SendRequest();
            e.send(s.to(0, 1000 + n, out));
            Message m = inbox.take(BOUND);
            assertEquals(1000 + n, m.header());
            assertEquals(n, m.length());
            assertEquals(n > e.eagerLimit(0), m.isRendezvous());
            MemorySegment in = Arena.ofAuto().allocate(Math.max(1, n)).asSlice(0, n);
            RecvRequest r = new RecvRequest();
            m.receive(in, r);
            r.join(BOUND);
            s.join(BOUND);
            assertEquals(n, r.received());
            assertEquals(0, r.source());
            assertEquals(-1, in.mismatch(out), "content of " + n + " bytes");
        }
    }

    @Test
    void aLongerMessageFillsTheDestinationAndSaysTruncated() {
        for (long n : new long[] {100, 200_000}) {
            MemorySegment out = pattern(n);
            SendRequest s = new SendRequest();
            e.send(s.to(0, 1, out));
            RecvRequest r = new RecvRequest();
            MemorySegment in = Arena.ofAuto().allocate(50);
            inbox.take(BOUND).receive(in, r);
            r.join(BOUND);
            s.join(BOUND);
            assertTrue(r.truncated());
            assertEquals(50, r.received());
            assertEquals(-1, in.mismatch(out.asSlice(0, 50)));
        }
    }

    @Test
    void aStridedDestinationIsFilledInPlace() {
        long n = 300_000; // rendezvous, into every other 100-byte block
        MemorySegment out = pattern(n);
        MemorySegment big = Arena.ofAuto().allocate(2 * n);
        SendRequest s = new SendRequest();
        e.send(s.to(0, 1, out));
        RecvRequest r = new RecvRequest();
        inbox.take(BOUND).receive(DataLayout.strided(big, 0, n / 100, 100, 200), r);
        r.join(BOUND);
        s.join(BOUND);
        for (long b = 0; b < n / 100; b++) {
            assertEquals(-1, big.asSlice(b * 200, 100).mismatch(out.asSlice(b * 100, 100)), "block " + b);
        }
    }

    @Test
    void droppedMessagesCompleteTheirSendersAndOrderIsKept() {
        SendRequest[] s = new SendRequest[10];
        for (int i = 0; i < 10; i++) {
            e.send((s[i] = new SendRequest()).to(0, i, pattern(i % 2 == 0 ? 10 : 100_000)));
        }
        for (int i = 0; i < 10; i++) {
            Message m = inbox.take(BOUND);
            assertEquals(i, m.header(), "order");
            m.drop();
            assertThrows(IllegalStateException.class, m::drop, "a message is taken once");
        }
        for (SendRequest x : s) {
            x.join(BOUND);
        }
        assertEquals(0, e.stats().heldBytes(), "dropping gives the credits back");
    }

    /**
     * A handler that refills the kept messages it received: each carries its own bytes, in any
     * order of lengths (a spare grows, and a shorter message after a longer one reads only its
     * own), and none is refilled before it was received; a rendezvous one is never a spare.
     */
    @Test
    void keptMessagesReceivedAreRefilledWithTheNextOnesBytes() {
        e.close();
        java.util.ArrayDeque<Message> kept = new java.util.ArrayDeque<>();
        java.util.ArrayDeque<Message> spares = new java.util.ArrayDeque<>();
        e = Engine.init(new SingletonBootstrap(), List.of(DriverCatalog.discover().find("self").orElseThrow()),
                new MessageHandler() {
                    @Override
                    public void onMessage(Message m) {
                        kept.add(m.keep(m.isRendezvous() ? null : spares.poll()));
                    }

                    @Override
                    public void onPeerFailed(int rank, Status status, String why) {
                    }
                });
        long[] lengths = {16, 1000, 8, 0, 2000, 3, e.eagerLimit(0), e.eagerLimit(0) + 1};
        java.util.Set<Message> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < lengths.length; i++) {
                long n = lengths[i];
                MemorySegment out = Arena.ofAuto().allocate(Math.max(1, n)).asSlice(0, n);
                for (long b = 0; b < n; b++) {
                    out.set(ValueLayout.JAVA_BYTE, b, (byte) (b * 31 + i * 7 + round));
                }
                SendRequest s = new SendRequest();
                e.send(s.to(0, round * 100 + i, out));
                long deadline = System.nanoTime() + BOUND.toNanos();
                while (kept.isEmpty()) {
                    e.progress();
                    assertTrue(System.nanoTime() < deadline, "message " + i + " of round " + round + " within the bound");
                }
                Message m = kept.poll();
                assertEquals(round * 100 + i, m.header());
                assertEquals(n, m.length());
                assertEquals(n > e.eagerLimit(0), m.isRendezvous());
                assertFalse(m.reusable(), "not before it is received");
                if (!m.isRendezvous() && round + i > 0) {
                    assertTrue(seen.contains(m), "message " + i + " of round " + round + " fills the spare the one before left");
                }
                MemorySegment in = Arena.ofAuto().allocate(n + 8);
                in.fill((byte) 0x55);
                RecvRequest r = new RecvRequest();
                m.receive(in.asSlice(0, n), r);
                r.join(BOUND);
                s.join(BOUND);
                for (long b = 0; b < n; b++) {
                    assertEquals((byte) (b * 31 + i * 7 + round), in.get(ValueLayout.JAVA_BYTE, b), "byte " + b + " of message " + i);
                }
                assertEquals((byte) 0x55, in.get(ValueLayout.JAVA_BYTE, n), "nothing beyond the message's own bytes");
                assertEquals(!m.isRendezvous(), m.reusable(), "a received immediate message is a spare; a rendezvous one never");
                if (m.reusable()) {
                    seen.add(m);
                    spares.add(m);
                }
            }
        }
        assertEquals(0, e.stats().heldBytes(), "every refilled message gave its credits back");
    }

    @Test
    void smallMessagesBeyondTheCreditsWaitTheirTurnAndKeepTheirOrder() {
        // 600 KB of 1000-byte messages (over twice the default credits; every 50th a rendezvous)
        // sent before any is received: the first go out at once, each in a packet of its own, the
        // rest queue. Receiving 100 returns credits for some of the queued; 8-byte messages sent
        // then, which the credits left would allow, must still wait behind the queue.
        int big = 600;
        int count = big + 50;
        SendRequest[] s = new SendRequest[count];
        MemorySegment[] out = new MemorySegment[count];
        int received = 0;
        for (int i = 0; i < count; i++) {
            if (i == big) {
                for (; received < 100; received++) {
                    receiveAndCheck(received, out[received]);
                }
            }
            long n = i >= big ? 8 : i % 50 == 49 ? 70_000 : 1000;
            out[i] = Arena.ofAuto().allocate(n);
            out[i].fill((byte) i);
            e.send((s[i] = new SendRequest()).to(0, i, out[i]));
        }
        for (; received < count; received++) {
            receiveAndCheck(received, out[received]);
        }
        for (SendRequest x : s) {
            x.join(BOUND);
        }
        assertTrue(e.stats().heldMax() <= EngineSettings.credits(Settings.fromEnvironment()), "held " + e.stats().heldMax());
        assertEquals(0, e.stats().heldBytes());
    }

    private void receiveAndCheck(int i, MemorySegment sent) {
        Message m = inbox.take(BOUND);
        assertEquals(i, m.header(), "order");
        MemorySegment in = Arena.ofAuto().allocate(m.length());
        RecvRequest r = new RecvRequest();
        m.receive(in, r);
        r.join(BOUND);
        assertEquals(-1, in.mismatch(sent), "content of message " + i);
    }

    @Test
    void badArgumentsAreClearErrors() {
        SendRequest s = new SendRequest();
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> e.send(s.to(1, 0, pattern(1))));
        assertTrue(ex.getMessage().contains("rank 1"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> e.rails(-1));
        assertFalse(s.isDone());
        e.send(s.to(0, 0, pattern(100_000))); // rendezvous: pending until the target answers
        assertThrows(IllegalStateException.class, () -> s.to(0, 0, pattern(1)), "a pending request cannot be reused");
        assertEquals(Status.NOT_YET, s.status());
        inbox.take(BOUND).drop();
        s.join(BOUND);
        assertEquals(Status.DONE, s.status());
    }

    @Test
    void creditsBelowTheRailsEagerLimitStillSendEverything() {
        // FERRY_EAGER_CREDITS=4k and an 8000-byte message: once never sent (it cost more credits than a peer is ever owed).
        e.close();
        e = Engine.init(selfOnly().settings(Settings.fromEnvironment().with(EngineSettings.EAGER_CREDITS.name(), "4k")), inbox = new Inbox());
        inbox.attach(e);
        assertTrue(e.eagerLimit(0) <= 4096 - 16, "eager limit " + e.eagerLimit(0));
        for (long n : new long[] {4000, 8000, 70_000}) {
            MemorySegment out = pattern(n);
            SendRequest s = new SendRequest();
            e.send(s.to(0, n, out));
            Message m = inbox.take(BOUND);
            MemorySegment in = Arena.ofAuto().allocate(n);
            RecvRequest r = new RecvRequest();
            m.receive(in, r);
            r.join(BOUND);
            s.join(BOUND);
            assertEquals(-1, in.mismatch(out), n + " bytes");
        }
    }

    @Test
    void anEagerLimitAboveTheCreditsIsRefusedAtStart() {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> Engine.init(selfOnly().settings(Settings.fromEnvironment().with(EngineSettings.EAGER_LIMIT.name(), "300k")), new Inbox()));
        assertTrue(x.getMessage().contains("FERRY_EAGER_LIMIT=300k needs FERRY_EAGER_CREDITS"), x.getMessage());
    }

    @Test
    void aDriverSettingNotUnderstoodIsAnErrorNotAMissingDriver() {
        var found = DriverCatalog.discover(Settings.fromEnvironment().with("FERRY_SHM_SINGLE_COPY", "xyz")).all();
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> dev.ferry.core.driver.DriverSelection.parse(null).select(found));
        assertEquals("driver shm: FERRY_SHM_SINGLE_COPY must be auto or off, not 'xyz'", x.getMessage());
        dev.ferry.core.driver.DriverSelection.parse("^shm").select(found); // excluded: no matter
    }

    /** A job of one on the self driver (the engine's settings to be added). */
    private static EngineConfig selfOnly() {
        return new EngineConfig().bootstrap(new SingletonBootstrap()).drivers(List.of(DriverCatalog.discover().find("self").orElseThrow()));
    }

    /** What an engine reports goes to the logger its configuration names, not to a global one. */
    @Test
    void anEngineReportsThroughItsConfiguredLogger() {
        CapturingLogger log = new CapturingLogger();
        try (Engine x = Engine.init(selfOnly().settings(Settings.defaults().with(EngineSettings.INFO.name(), "1")).logger(log), new Inbox())) {
            assertTrue(log.lines.stream().anyMatch(l -> l.contains("self")), "the FERRY_INFO report: " + log.lines);
            assertEquals(log, x.logger());
        }
    }

    /** A System.Logger that keeps what it is given. */
    static final class CapturingLogger implements System.Logger {
        final java.util.List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public String getName() {
            return "capturing";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, java.util.ResourceBundle bundle, String msg, Throwable thrown) {
            lines.add(level + " " + msg);
        }

        @Override
        public void log(Level level, java.util.ResourceBundle bundle, String format, Object... params) {
            lines.add(level + " " + (params == null ? format : java.text.MessageFormat.format(format, params)));
        }
    }
}
