package dev.ferry.driver.shm;

import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.Hints;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.SettingException;
import dev.ferry.spi.Settings;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.ferry.driver.shm.ShmTesting.await;
import static dev.ferry.driver.shm.ShmTesting.connect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The shared receive queue: peers past {@code FERRY_SHM_RINGS} send through the receiver's one
 * queue; what a dead producer or an ended connection leaves in it is passed over; a full queue
 * holds senders back without losing anything.
 */
class ShmQueueTest {
    private final List<ShmContext> contexts = new ArrayList<>();
    private final Arena arena = Arena.ofShared();

    @AfterEach
    void closeAll() {
        contexts.forEach(ShmContext::close);
    }

    private ShmContext open(int rank, String rings) {
        Settings s = Settings.fromEnvironment().with("FERRY_SHM_RINGS", rings);
        ShmContext c = (ShmContext) new ShmDriver().newContext(new Hints(32, rank, true,
                Map.of(Hints.JOB_ID, "shmq" + ProcessHandle.current().pid()), s));
        c.properties();
        c.init();
        contexts.add(c);
        return c;
    }



    /** A packet of {@code size} bytes (more than 8) naming its sender and number, its last byte made of both. */
    private Packet packet(int from, int seq, int size) {
        MemorySegment m = arena.allocate(size, 8);
        m.set(ValueLayout.JAVA_INT, 0, from);
        m.set(ValueLayout.JAVA_INT, 4, seq);
        m.set(ValueLayout.JAVA_BYTE, size - 1, (byte) (from * 31 + seq));
        return new Packet().useIov(IoVec.of(m));
    }

    /** Posts {@code p} on {@code i}, waiting for room; small packets are done once posted. */
    private static void send(DriverInstance i, Packet p) {
        assertEquals(Status.DONE, await(() -> i.sendPost(p), "send"));
    }

    /** One receive on {@code i}: null when nothing is there for it now, else {from, seq, size}. */
    private int[] tryReceive(ShmInstance i, MemorySegment into, Packet rp) {
        if (!i.hasPosted()) {
            rp.useIov(IoVec.of(into));
            assertEquals(Status.DONE, i.recvPost(rp));
        }
        Status s = i.recvPoll(rp);
        if (s == Status.NOT_YET) {
            return null;
        }
        assertEquals(Status.DONE, s);
        int size = (int) rp.length();
        int from = into.get(ValueLayout.JAVA_INT, 0);
        int seq = into.get(ValueLayout.JAVA_INT, 4);
        assertEquals((byte) (from * 31 + seq), into.get(ValueLayout.JAVA_BYTE, size - 1), "last byte of " + from + "/" + seq);
        return new int[] {from, seq, size};
    }

    private int[] receive(ShmInstance i, MemorySegment into, Packet rp) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int[] r;
        while ((r = tryReceive(i, into, rp)) == null) {
            if (System.nanoTime() - end > 0) {
                fail("nothing received in 30 s");
            }
            Thread.onSpinWait();
        }
        return r;
    }

    @Test
    void theRingCountIsACountAllOrAuto() {
        Map<String, String> eight = Map.of(Hints.RANKS_ON_NODE, "8");
        Map<String, String> sixtyFour = Map.of(Hints.RANKS_ON_NODE, "64");
        assertEquals(-1, ShmContext.ringCap(hints("all", sixtyFour)));
        assertEquals(-1, ShmContext.ringCap(hints("auto", eight)), "a small node: a ring for every peer");
        assertEquals(-1, ShmContext.ringCap(hints("auto", Map.of())), "node size unknown: as before, rings");
        assertEquals(ShmContext.AUTO_RINGS, ShmContext.ringCap(hints("auto", sixtyFour)));
        assertEquals(3, ShmContext.ringCap(hints("3", eight)));
        assertEquals(0, ShmContext.ringCap(hints("0", eight)));
        SettingException e = assertThrows(SettingException.class, () -> ShmContext.ringCap(hints("-2", eight)));
        assertTrue(e.getMessage().contains("FERRY_SHM_RINGS") && e.getMessage().contains("-2"), e.getMessage());
        assertThrows(SettingException.class, () -> ShmContext.ringCap(hints("some", eight)));
    }

    private static Hints hints(String rings, Map<String, String> attrs) {
        return new Hints(64, 0, true, attrs, Settings.fromEnvironment().with("FERRY_SHM_RINGS", rings));
    }

    /**
     * A receiver with one ring: its first peer gets it, the next two share its queue. Small and
     * large packets from all three, sent in turns, arrive whole and each peer's in order; the
     * ring given back goes to the next connection.
     */
    @Test
    void peersPastTheRingCountShareTheQueue() throws Exception {
        ShmContext a = open(0, "1");
        ShmInstance[][] links = new ShmInstance[3][];
        for (int p = 0; p < 3; p++) {
            links[p] = connect(a, open(p + 1, "all"));
        }
        assertEquals(1, a.receiving.ringsInUse());
        assertEquals(0, links[0][0].queueId, "the first peer has the ring");
        assertNotEquals(0, links[1][0].queueId);
        assertNotEquals(0, links[2][0].queueId);
        assertTrue(links[1][1].ch.sendsThroughQueue() && !links[0][1].ch.sendsThroughQueue());

        int perPeer = 300; // more than the queue's slots: senders wait for room
        int[] sent = new int[3];
        int[] next = new int[3];
        List<Packet> large = new ArrayList<>();
        MemorySegment into = arena.allocate(2 << 20, 8);
        Packet[] rps = {new Packet(), new Packet(), new Packet()};
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (next[0] + next[1] + next[2] < 3 * perPeer) {
            for (int p = 0; p < 3; p++) {
                if (sent[p] < perPeer) {
                    int size = sent[p] % 50 == 7 ? (1 << 20) + 13 : 9 + (sent[p] * 37) % 4000;
                    Packet pk = packet(p, sent[p], size);
                    Status s = links[p][1].sendPost(pk);
                    if (s == Status.DONE) {
                        sent[p]++;
                        if (size > ShmLayout.SLOT_DATA) {
                            large.add(pk);
                        }
                    } else {
                        assertEquals(Status.NOT_YET, s);
                    }
                }
                int[] r = tryReceive(links[p][0], into, rps[p]);
                if (r != null) {
                    assertEquals(p, r[0], "origin");
                    assertEquals(next[p]++, r[1], "order of peer " + p);
                }
            }
            if (System.nanoTime() - end > 0) {
                fail("received " + java.util.Arrays.toString(next) + " of " + perPeer + " each in 60 s");
            }
        }
        for (Packet pk : large) {
            int owner = pk.iov().get(0).get(ValueLayout.JAVA_INT, 0);
            assertEquals(Status.DONE, await(() -> links[owner][1].sendPoll(pk), "large send"));
        }
        java.util.Map<String, Long> held = new java.util.HashMap<>();
        a.bytesHeld((k, v) -> held.merge(k, v, Long::sum));
        assertTrue(held.get("shm queue") > 0, "the queue's pages: " + held);

        assertEquals(Status.DONE, links[0][0].disconnect());
        assertEquals(0, a.receiving.ringsInUse(), "the ring given back");
        ShmInstance[] fourth = connect(a, open(4, "all"));
        assertEquals(0, fourth[0].queueId, "the next connection gets the ring");
        send(fourth[1], packet(9, 0, 100));
        assertEquals(9, receive(fourth[0], into, new Packet())[0]);
    }

    /** More queue peers than the sender table first holds (it grows): each one's packet reaches its own instance, in queue order. */
    @Test
    void twentyPeersShareOneQueue() throws Exception {
        ShmContext a = open(0, "0");
        ShmInstance[][] links = new ShmInstance[20][];
        for (int p = 0; p < links.length; p++) {
            links[p] = connect(a, open(p + 1, "all"));
            send(links[p][1], packet(p, 0, 100));
        }
        MemorySegment into = arena.allocate(128, 8);
        Packet[] rps = new Packet[links.length];
        boolean[] got = new boolean[links.length];
        int left = links.length;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (left > 0) { // polled in reverse: only the instance whose packet is at the head takes one
            for (int p = links.length - 1; p >= 0; p--) {
                int[] r = got[p] ? null : tryReceive(links[p][0], into, rps[p] == null ? (rps[p] = new Packet()) : rps[p]);
                if (r != null) {
                    assertEquals(p, r[0], "instance " + p + " got another peer's packet");
                    got[p] = true;
                    left--;
                }
            }
            assertTrue(System.nanoTime() - end < 0, left + " packets not received in 30 s");
        }
        assertEquals(0, a.receiving.ringsInUse());
    }

    /** A pid that no process has: one that ran and was reaped. */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        assertEquals(0, p.waitFor());
        return p.pid();
    }

    @Test
    void aSlotClaimedByAProcessThatDiedIsPassedOver() throws Exception {
        ShmContext a = open(0, "0");
        ShmInstance[] ab = connect(a, open(1, "all"));
        SharedQueue q = a.receiving.ownQueue(a.file());
        long dead = deadPid();
        try (Arena scratch = Arena.ofConfined()) {
            assertTrue(q.claim(ab[0].queueId, dead, Native.errnoCapture(scratch)) >= 0); // claimed, never published
        }
        send(ab[1], packet(1, 0, 64));
        int[] r = receive(ab[0], arena.allocate(64, 8), new Packet());
        assertEquals(1, r[0]);
    }

    @Test
    void aLockHeldByAProcessThatDiedIsTakenOver() throws Exception {
        ShmContext a = open(0, "0");
        ShmInstance[] ab = connect(a, open(1, "all"));
        SharedQueue q = a.receiving.ownQueue(a.file());
        Channel.LONG.setVolatile(q.map, ShmLayout.QUEUE_LOCK, deadPid());
        send(ab[1], packet(1, 0, 64));
        assertEquals(1, receive(ab[0], arena.allocate(64, 8), new Packet())[0]);
        assertEquals(0L, (long) Channel.LONG.getVolatile(q.map, ShmLayout.QUEUE_LOCK), "the lock let go");
    }

    /** A full queue answers NOT_YET; one slot read lets one more in; nothing is lost. */
    @Test
    void aFullQueueHoldsTheSenderBack() throws Exception {
        ShmContext a = open(0, "0");
        ShmInstance[] ab = connect(a, open(1, "all"));
        int n = 0;
        while (ab[1].sendPost(packet(1, n, 32)) == Status.DONE) {
            n++;
            assertTrue(n <= ShmLayout.QUEUE_SLOTS, "more than the queue holds went in");
        }
        assertEquals(ShmLayout.QUEUE_SLOTS, n);
        MemorySegment into = arena.allocate(64, 8);
        Packet rp = new Packet();
        assertEquals(0, receive(ab[0], into, rp)[1]);
        send(ab[1], packet(1, n++, 32));
        for (int i = 1; i < n; i++) {
            assertEquals(i, receive(ab[0], into, rp)[1]);
        }
    }

    /**
     * A peer that sends and leaves while another peer's packets are ahead of its own in the queue:
     * its end is reported only after its packets are read.
     */
    @Test
    void aPeersEndWaitsForItsPacketsBehindOthers() throws Exception {
        ShmContext a = open(0, "0");
        ShmInstance[] ab = connect(a, open(1, "all"));
        ShmInstance[] ac = connect(a, open(2, "all"));
        for (int i = 0; i < 3; i++) {
            send(ac[1], packet(2, i, 40));
        }
        for (int i = 0; i < 3; i++) {
            send(ab[1], packet(1, i, 40));
        }
        assertEquals(Status.DONE, ab[1].disconnect());
        MemorySegment into = arena.allocate(64, 8);
        Packet rb = new Packet();
        assertEquals(null, tryReceive(ab[0], into, rb), "the head is c's");
        Packet rc = new Packet();
        for (int i = 0; i < 3; i++) {
            assertEquals(i, receive(ac[0], into, rc)[1]);
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(i, receive(ab[0], into, rb)[1]);
        }
        Packet end = new Packet();
        assertEquals(Status.CLOSED, await(() -> ab[0].recvPoll(end), "b's end"));
    }

    /** What a connection that ended here left in the queue does not stop the others. */
    @Test
    void packetsOfAConnectionThatEndedHereArePassedOver() throws Exception {
        ShmContext a = open(0, "0");
        ShmInstance[] ab = connect(a, open(1, "all"));
        ShmInstance[] ac = connect(a, open(2, "all"));
        send(ab[1], packet(1, 0, 40));
        send(ab[1], packet(1, 1, 40));
        send(ac[1], packet(2, 0, 40));
        assertEquals(Status.DONE, ab[0].disconnect());
        assertEquals(2, receive(ac[0], arena.allocate(64, 8), new Packet())[0]);
    }
}
