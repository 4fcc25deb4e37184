package dev.ferry.conformance;

import dev.ferry.spi.Driver;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
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
 * The driver conformance kit: one JUnit 5 suite every driver module runs against itself. A driver
 * earns its place by passing it.
 *
 * <p>This JVM holds the test end (a context of rank 0); the other ends are {@link PeerAgent}s in
 * child JVMs ({@link PeerMode#PROCESS}, for drivers that cross processes) or in threads of this
 * JVM ({@link PeerMode#THREAD}, for the self driver). Every operation the driver's capabilities
 * promise is exercised; every optional one it does not promise must answer NOT_IMPLEMENTED (or
 * INVALID, where seed 000 says the caller must not use it).
 *
 * <p>The tests come in areas, one file each, superclasses of this one: connections
 * ({@link ConnectionConformance}), data ({@link DataConformance}), receiving ({@link ReceiveConformance});
 * threads, waits and the end of life are here.
 *
 * <pre>{@code
 * class ShmConformanceTest extends DriverConformanceTest {
 *     protected Driver driver() { return new ShmDriver(); }
 *     protected PeerMode peerMode() { return PeerMode.PROCESS; }
 * }
 * }</pre>
 */
public abstract class DriverConformanceTest extends ReceiveConformance {
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
