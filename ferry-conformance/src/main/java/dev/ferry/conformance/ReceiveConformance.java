package dev.ferry.conformance;

import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.List;
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
 * The conformance kit's tests of receiving: probe-any and wait-any across instances, cancels,
 * prefetch, rendezvous data and pull rendezvous. Part of {@link DriverConformanceTest}.
 */
abstract class ReceiveConformance extends DataConformance {
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
                assertTrue(sharedReceiveQueue() || firstSeen[c] < 2 * k, "instance " + c + " first served at reception " + firstSeen[c]
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

    final String awaitPeer(PeerLink peer, int c) {
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
}
