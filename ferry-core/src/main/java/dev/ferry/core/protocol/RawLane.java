package dev.ferry.core.protocol;

import dev.ferry.core.rail.Rail;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.Request;
import dev.ferry.core.wire.SliceLayout;
import dev.ferry.core.wire.WireHeader;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * The rendezvous-put protocol's traffic on one rail: on the sending side the chunks the target
 * asked for (CTS), announced several to a DATA packet and then posted as raw packets right behind
 * it, several in flight; on the receiving side the raw packets a DATA packet announced, received
 * straight into their destination before the rail's next engine packet.
 *
 * <p>Owned by the thread that makes progress.
 */
public final class RawLane {
    /** Raw chunks posted and not yet complete, oldest first: several in flight keep the target pulling back to back. */
    private static final int RAW_IN_FLIGHT = 8;

    private final RendezvousPut put;
    final Rail rail;

    // sending
    public final ArrayDeque<Chunk> chunks = new ArrayDeque<>();
    /** On a rail busy with both, chunks and engine packets take turns: the chunks' turn is next. */
    public boolean chunkTurn;
    /** The chunks whose DATA entries are out (one packet announces several), in order; those from {@link #announcedNext} are still to be posted. */
    private final Chunk[] announced = new Chunk[WireHeader.MAX_DATA_ENTRIES];
    private int announcedCount;
    private int announcedNext;
    private final Packet[] rawPkts = new Packet[RAW_IN_FLIGHT];
    private final Chunk[] rawChunks = new Chunk[RAW_IN_FLIGHT];
    private int rawHead;
    private int rawCount;

    // receiving
    private final Packet recvPkt = new Packet();
    /** The raw chunks a DATA packet announced, in the order they come; from {@link #expectedHead} on still to come. */
    private final RecvRequest[] expectedReq = new RecvRequest[WireHeader.MAX_DATA_ENTRIES];
    private final DataLayout[] expectedLayout = new DataLayout[WireHeader.MAX_DATA_ENTRIES];
    private final long[] expectedLength = new long[WireHeader.MAX_DATA_ENTRIES];
    private int expectedHead;
    private int expectedCount;
    private boolean rawPosted;
    /**
     * Bytes the driver said it moved ({@link Packet#moved}) of the raw chunk being received and of
     * the oldest one being sent, when last looked at: a pass that sees either grow did work, though
     * no chunk completed (a chunk can be a gigabyte, a second on the wire).
     */
    private long recvMoved, sendMoved;
    private boolean moved;

    RawLane(RendezvousPut put, Rail rail) {
        this.put = put;
        this.rail = rail;
        for (int i = 0; i < RAW_IN_FLIGHT; i++) {
            rawPkts[i] = new Packet();
        }
    }

    public String stateReport() {
        return "chunks " + chunks.size() + ", announced " + announcedCount + ", raw " + rawCount + ", expected " + expectedCount
                + (rawPosted ? " (posted)" : "");
    }

    boolean idle() {
        return announcedCount == 0 && chunks.isEmpty() && rawCount == 0;
    }

    /** Nothing of this lane's stands between the rail and a small packet sent alone. */
    public boolean clearForPacket() {
        return chunks.isEmpty() && announcedCount == 0;
    }

    // ---- sending ----------------------------------------------------------------------------

    /**
     * Announces the chunks waiting, as many as one DATA packet takes (a stream of rendezvous has
     * its target receive one header packet for several chunks, not one each), then posts their raw
     * bytes right behind it; false while the rail is busy with them.
     */
    public boolean startChunks() {
        // the raws need not have free slots yet: they are posted as slots free, the header already out
        int k = Math.min(chunks.size(), Math.min(WireHeader.MAX_DATA_ENTRIES, (rail.packetLimit - WireHeader.PACKET_HEADER) / WireHeader.DATA_BYTES));
        MemorySegment p = rail.packetBuffer();
        if (p == null) {
            return false;
        }
        long at = WireHeader.PACKET_HEADER;
        for (int i = 0; i < k; i++) {
            Chunk c = chunks.poll();
            announced[i] = c;
            WireHeader.entry(p, at, WireHeader.DATA, 0, c.targetId, c.offset, c.length);
            at += WireHeader.DATA_BYTES;
        }
        WireHeader.packetHeader(p, k, 0);
        if (rail.post(at) != Status.DONE) { // nothing is out: the chunks wait again, the header is written again next time
            for (int i = k - 1; i >= 0; i--) {
                chunks.addFirst(announced[i]);
                announced[i] = null;
            }
            return false;
        }
        announcedCount = k;
        announcedNext = 0;
        put.stats.announced(k);
        return rail.pollSend() && postAnnounced();
    }

    /**
     * Posts the raw bytes of the chunks announced, once their DATA packet has left; true when none
     * is left to post (the rail is free for another packet), false while one waits for a slot.
     */
    public boolean postAnnounced() {
        while (announcedNext < announcedCount) {
            if (!rail.free()) {
                return false; // the DATA packet is still going
            }
            if (rawCount == RAW_IN_FLIGHT && !pollRaw()) {
                return false;
            }
            Chunk c = announced[announcedNext];
            Packet rp = rawPkts[(rawHead + rawCount) % RAW_IN_FLIGHT];
            rail.form.send(rp, c.bytes);
            rp.moved = 0;
            Status s = rail.out.sendPost(rp);
            if (s == Status.NOT_YET) {
                return false;
            }
            if (s != Status.DONE) {
                rail.gate.fail(s, "posting " + c.length + " rendezvous bytes on " + rail.ec.name() + " answered " + s);
                return false;
            }
            rawChunks[(rawHead + rawCount) % RAW_IN_FLIGHT] = c;
            rawCount++;
            announced[announcedNext++] = null;
        }
        if (announcedCount != 0) {
            announcedCount = 0;
            announcedNext = 0;
            pollRaw(); // the rail is free: the raw bytes complete in the background
        }
        return true;
    }

    /** Completes the raw chunks in flight that are done, oldest first; true when one slot or more is free. */
    public boolean pollRaw() {
        while (rawCount > 0) {
            Packet rp = rawPkts[rawHead];
            Chunk c = rawChunks[rawHead];
            Status s = rail.out.sendPoll(rp);
            if (s == Status.NOT_YET) {
                if (rp.moved != sendMoved) {
                    sendMoved = rp.moved;
                    moved = true;
                }
                break;
            }
            rp.moved = sendMoved = 0;
            if (s != Status.DONE) {
                rail.gate.fail(s, "sending " + c.length + " rendezvous bytes on " + rail.ec.name() + " answered " + s);
                return false;
            }
            rawChunks[rawHead] = null;
            rawHead = (rawHead + 1) % RAW_IN_FLIGHT;
            rawCount--;
            put.stats.rendezvousBytes(rail.ec, c.length);
            if (--c.request.chunksLeft == 0) {
                c.request.complete();
            }
        }
        return rawCount < RAW_IN_FLIGHT;
    }

    /** Whether chunks were announced whose raw bytes are still to be posted (a look the progress pass makes inline). */
    public boolean announcing() {
        return announcedCount != 0;
    }

    public boolean rawInFlight() {
        return rawCount > 0;
    }

    // ---- receiving --------------------------------------------------------------------------

    /**
     * The packet after those already expected on this rail is {@code length} raw bytes for
     * {@code r}, at {@code offset} of its destination; false when a DATA packet announced more
     * than {@link WireHeader#MAX_DATA_ENTRIES}.
     */
    boolean expectRaw(RecvRequest r, long offset, long length) {
        int i = expectedHead + expectedCount;
        if (i >= WireHeader.MAX_DATA_ENTRIES) {
            return false;
        }
        expectedReq[i] = r;
        expectedLength[i] = length;
        expectedLayout[i] = offset == 0 && length == r.layout().size() ? r.layout() : new SliceLayout(r.layout(), offset, length);
        expectedCount++;
        return true;
    }

    /** Whether the rail's next packet is raw bytes a DATA packet announced. */
    public boolean expecting() {
        return expectedCount > 0;
    }

    /** Receives the next raw chunk expected, straight into its destination; true when it came. */
    public boolean receiveRaw() {
        Status s;
        int h = expectedHead;
        long rawLength = expectedLength[h];
        if (!rawPosted) {
            rail.form.receive(recvPkt, expectedLayout[h]);
            recvPkt.moved = recvMoved = 0;
            s = rail.in.recvPost(recvPkt);
            if (s == Status.NOT_YET) {
                return false;
            }
            if (s != Status.DONE) {
                rail.gate.fail(s, "posting a receive of " + rawLength + " rendezvous bytes on " + rail.ec.name() + " answered " + s);
                return false;
            }
            rawPosted = true;
        }
        s = rail.in.recvPoll(recvPkt);
        if (s == Status.NOT_YET) {
            if (recvPkt.moved != recvMoved) {
                recvMoved = recvPkt.moved;
                moved = true;
            }
            return false;
        }
        recvPkt.moved = recvMoved = 0;
        if (s != Status.DONE || recvPkt.length() != rawLength) {
            rail.gate.fail(s == Status.DONE ? Status.BROKEN : s, "receiving " + rawLength + " rendezvous bytes on " + rail.ec.name()
                    + " answered " + s + " after " + recvPkt.length() + " bytes");
            return false;
        }
        rail.form.received(recvPkt, expectedLayout[h], rawLength);
        RecvRequest r = expectedReq[h];
        expectedReq[h] = null;
        expectedLayout[h] = null;
        rawPosted = false;
        expectedHead = --expectedCount == 0 ? 0 : h + 1; // a DATA packet is parsed only once all before it came
        put.rawArrived(r, rawLength);
        return true;
    }

    /** Whether a raw chunk moved on since the last call, without completing: the pass did work. */
    public boolean movedOn() {
        boolean m = moved;
        moved = false;
        return m;
    }

    /** Cancels a raw receive posted (the rail disconnects). */
    public void cancel() {
        if (rawPosted && rail.in != null) {
            rail.in.recvCancel(recvPkt);
            rawPosted = false;
        }
    }

    /** Everything this lane holds that involves a request, for failing them. */
    void drain(Consumer<Request> failed) {
        for (int i = announcedNext; i < announcedCount; i++) {
            failed.accept(announced[i].request);
            announced[i] = null;
        }
        announcedCount = 0;
        announcedNext = 0;
        for (; rawCount > 0; rawCount--) {
            failed.accept(rawChunks[rawHead].request);
            rawChunks[rawHead] = null;
            rawHead = (rawHead + 1) % RAW_IN_FLIGHT;
        }
        Chunk c;
        while ((c = chunks.poll()) != null) {
            failed.accept(c.request);
        }
        for (; expectedCount > 0; expectedCount--, expectedHead++) {
            failed.accept(expectedReq[expectedHead]);
            expectedReq[expectedHead] = null;
            expectedLayout[expectedHead] = null;
        }
        expectedHead = 0;
    }
}
