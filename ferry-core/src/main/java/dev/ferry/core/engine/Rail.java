package dev.ferry.core.engine;

import dev.ferry.spi.DataLayout;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.Packet;
import dev.ferry.spi.PrefixLayout;
import dev.ferry.spi.Status;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * One driver instance of a gate (seed 000: an instance per gate, per context). Sends one thing at
 * a time, in order: engine packets (rail 0 only: immediate messages, RTS and CTS, aggregated) and
 * rendezvous chunks (a DATA packet, then the raw bytes). Receives one thing at a time: an engine
 * packet into a driver buffer (in place) or its own buffer, or, after a DATA packet, the raw
 * bytes straight into their destination.
 *
 * <p>Owned by the thread that makes progress; nothing here is shared.
 */
final class Rail {
    private static final int SEND_IDLE = 0, SEND_PACKET = 1, SEND_DATA_HEADER = 2, SEND_RAW_POST = 3, SEND_STAGED = 5;

    final Gate gate;
    final int index;
    final EngineContext ec;
    /** Largest engine packet this rail sends and receives. */
    final int packetLimit;
    /** Bytes of pull data the rail's driver writes for a pull rendezvous; 0 when it has none (or FERRY_RNDV_PULL=off). */
    final int pullDataSize;
    /**
     * Bytes of pull data a peer's RTS carries on this rail, whatever this rank's FERRY_RNDV_PULL;
     * kept here as the parser's one look-up (not through the context's capabilities).
     */
    final int pullTakes;
    private final boolean bufSend;
    private final boolean bufRecv;
    DriverInstance out;
    DriverInstance in;

    // sending
    private final Packet sendPkt = new Packet();
    private final MemorySegment staging;
    private final PrefixLayout stagingLayout;
    private int sendState = SEND_IDLE;
    final SendRequest[] packed;
    int packedCount;
    final ArrayDeque<Chunk> chunks = new ArrayDeque<>();
    /** Raw chunks posted and not yet complete, oldest first: several in flight keep the target pulling back to back. */
    private static final int RAW_IN_FLIGHT = 8;
    /** The chunks whose DATA entries are out (one packet announces several), in order; those from {@link #announcedNext} are still to be posted. */
    private final Chunk[] announced = new Chunk[WireHeader.MAX_DATA_ENTRIES];
    private int announcedCount;
    private int announcedNext;
    private final Packet[] rawPkts = new Packet[RAW_IN_FLIGHT];
    private final Chunk[] rawChunks = new Chunk[RAW_IN_FLIGHT];
    private int rawHead;
    private int rawCount;
    private boolean chunkTurn;
    /** Sends exposed for the peer to pull (pull rendezvous), not yet pulled; they may complete in any order. */
    private SendRequest[] exposed = new SendRequest[16];
    private int exposedCount;
    private int exposedPasses;
    private static final int FULL_SCAN = 16;

    // receiving
    private final Packet recvPkt = new Packet();
    private final MemorySegment recvBuf;
    private final PrefixLayout recvLayout;
    private boolean recvPosted;
    /** The raw chunks a DATA packet announced, in the order they come; from {@link #expectedHead} on still to come. */
    private final RecvRequest[] expectedReq = new RecvRequest[WireHeader.MAX_DATA_ENTRIES];
    private final DataLayout[] expectedLayout = new DataLayout[WireHeader.MAX_DATA_ENTRIES];
    private final long[] expectedLength = new long[WireHeader.MAX_DATA_ENTRIES];
    private int expectedHead;
    private int expectedCount;
    private boolean rawPosted;
    /** Pulls the driver did not finish at once, oldest first. */
    private final ArrayDeque<RecvRequest> pulling = new ArrayDeque<>();
    /**
     * The pulls planned while parsing ({@link PullPlan}), which also keeps each RTS's pull data
     * copied out of the packet (a slice of the packet was a new segment object on every pull;
     * drivers read pull data during {@code pullPost} only). Null on a driver without pull.
     */
    private final PullPlan plan;
    private final PullPlan.Puller puller = this::pullNow; // made once: the plan runs on every burst

    Rail(Gate gate, int index, EngineContext ec, int packetLimit) {
        this.gate = gate;
        this.index = index;
        this.ec = ec;
        this.packetLimit = packetLimit;
        this.bufSend = ec.caps().supportsBufSend() && packetLimit <= ec.caps().maxBufferSize();
        this.bufRecv = ec.caps().supportsBufRecv();
        Arena a = Arena.ofAuto();
        this.staging = a.allocate(packetLimit, 64);
        this.stagingLayout = new PrefixLayout(staging);
        this.recvBuf = a.allocate(packetLimit, 64);
        this.recvLayout = new PrefixLayout(recvBuf).length(packetLimit);
        this.pullTakes = ec.caps().pullDataSize();
        this.pullDataSize = gate.engine.rendezvousPull ? pullTakes : 0;
        this.plan = pullTakes > 0 ? new PullPlan(pullTakes) : null;
        this.packed = new SendRequest[packetLimit / WireHeader.IMMEDIATE_HEADER + 1];
        for (int i = 0; i < RAW_IN_FLIGHT; i++) {
            rawPkts[i] = new Packet();
        }
    }

    /** What this rail holds now, for {@link Gate#stateReport}. */
    String stateReport() {
        return ec.name() + ": send state " + sendState + ", packed " + packedCount + ", chunks " + chunks.size()
                + ", announced " + announcedCount + ", raw " + rawCount + ", exposed " + exposedCount + ", pulling " + pulling.size()
                + ", expected " + expectedCount + (rawPosted ? " (posted)" : "") + (recvPosted ? ", receive posted" : "") + "; " + out;
    }

    boolean idle() {
        return sendState == SEND_IDLE && announcedCount == 0 && chunks.isEmpty() && rawCount == 0 && exposedCount == 0 && pulling.isEmpty();
    }

    // ---- sending ----------------------------------------------------------------------------

    /** Sends what is waiting, as far as the driver takes it now. */
    void push() {
        if (rawCount > 0) {
            pollRaw();
        }
        if (!pulling.isEmpty() && !pollPulls()) {
            return;
        }
        for (int round = 0; round < 8; round++) {
            if (sendState != SEND_IDLE && !pollSend()) {
                return;
            }
            boolean packet = index == 0 && gate.hasPackable();
            if (!chunks.isEmpty() && (!packet || chunkTurn)) {
                chunkTurn = false;
                if (!startChunks()) {
                    return;
                }
            } else if (packet) {
                chunkTurn = true;
                if (!postPacket() || chunks.isEmpty() && !gate.hasPackable()) {
                    return; // the usual end: one packet out, nothing left
                }
            } else {
                return;
            }
        }
    }

    /** Moves the send in flight forward; true when the rail is free again. */
    boolean pollSend() {
        Status s;
        switch (sendState) {
            case SEND_IDLE:
                return true;
            case SEND_STAGED: // packed, but the driver had no room: post it again
                s = out.sendPost(sendPkt);
                if (s == Status.NOT_YET) {
                    return false;
                }
                if (s != Status.DONE) {
                    gate.fail(s, "posting a packet on " + ec.name() + " answered " + s);
                    return false;
                }
                gate.engine.stats.packetSent();
                sendState = SEND_PACKET;
                // fall through
            case SEND_PACKET:
                s = out.sendPoll(sendPkt);
                if (s == Status.NOT_YET) {
                    return false;
                }
                if (s != Status.DONE) {
                    gate.fail(s, "sending a packet on " + ec.name() + " answered " + s);
                    return false;
                }
                for (int i = 0; i < packedCount; i++) {
                    packed[i].complete();
                    packed[i] = null;
                }
                packedCount = 0;
                sendState = SEND_IDLE;
                return true;
            case SEND_DATA_HEADER:
                s = out.sendPoll(sendPkt);
                if (s == Status.NOT_YET) {
                    return false;
                }
                if (s != Status.DONE) {
                    gate.fail(s, "sending a DATA header on " + ec.name() + " answered " + s);
                    return false;
                }
                sendState = SEND_RAW_POST;
                // fall through: post the raw bytes right behind their header
            case SEND_RAW_POST: {
                while (announcedNext < announcedCount) {
                    if (rawCount == RAW_IN_FLIGHT && !pollRaw()) {
                        return false;
                    }
                    Chunk c = announced[announcedNext];
                    Packet rp = rawPkts[(rawHead + rawCount) % RAW_IN_FLIGHT];
                    rp.reset().useData(c.bytes);
                    s = out.sendPost(rp);
                    if (s == Status.NOT_YET) {
                        return false;
                    }
                    if (s != Status.DONE) {
                        gate.fail(s, "posting " + c.length + " rendezvous bytes on " + ec.name() + " answered " + s);
                        return false;
                    }
                    rawChunks[(rawHead + rawCount) % RAW_IN_FLIGHT] = c;
                    rawCount++;
                    announced[announcedNext++] = null;
                }
                announcedCount = 0;
                announcedNext = 0;
                sendState = SEND_IDLE; // the rail is free: the raw bytes complete in the background
                pollRaw();
                return true;
            }
            default:
                throw new IllegalStateException("send state " + sendState);
        }
    }

    /** Completes the raw chunks in flight that are done, oldest first; true when one slot or more is free. */
    boolean pollRaw() {
        while (rawCount > 0) {
            Packet rp = rawPkts[rawHead];
            Chunk c = rawChunks[rawHead];
            Status s = out.sendPoll(rp);
            if (s == Status.NOT_YET) {
                break;
            }
            if (s != Status.DONE) {
                gate.fail(s, "sending " + c.length + " rendezvous bytes on " + ec.name() + " answered " + s);
                return false;
            }
            rawChunks[rawHead] = null;
            rawHead = (rawHead + 1) % RAW_IN_FLIGHT;
            rawCount--;
            gate.engine.stats.rendezvousBytes(ec, c.length);
            if (--c.request.chunksLeft == 0) {
                c.request.complete();
            }
        }
        return rawCount < RAW_IN_FLIGHT;
    }

    /**
     * Where the next engine packet is written: a driver buffer (in place, where the driver has
     * them) or the staging buffer; null when the driver has no room now, or failed.
     */
    private MemorySegment packetBuffer() {
        if (!bufSend) {
            return staging;
        }
        sendPkt.reset();
        Status s = out.sendBufGet(sendPkt);
        if (s == Status.NOT_YET) {
            return null;
        }
        if (s != Status.DONE) {
            gate.fail(s, "sendBufGet on " + ec.name() + " answered " + s);
            return null;
        }
        return sendPkt.buffer();
    }

    /** Posts the {@code n} bytes written into {@link #packetBuffer()}; NOT_YET (staging only) when the driver has no room. */
    private Status postBuffer(long n) {
        if (bufSend) {
            sendPkt.length(n);
            return out.sendBufPost(sendPkt);
        }
        stagingLayout.length(n);
        sendPkt.reset().useData(stagingLayout);
        return out.sendPost(sendPkt);
    }

    /**
     * Sends a small message in a packet of its own at once, when the rail is free and the driver
     * has room (the gate checked that nothing else waits and that credits allow it); false, with
     * nothing done, otherwise: the gate then queues it. Skips the queue and the packing loop, the
     * small-message latency path.
     */
    boolean sendAlone(SendRequest s) {
        if (sendState != SEND_IDLE || !bufSend || !chunks.isEmpty() || announcedCount != 0) {
            return false;
        }
        MemorySegment p = packetBuffer();
        if (p == null) {
            return false;
        }
        postPacked(gate.packAlone(this, p, s));
        return true;
    }

    private boolean postPacket() {
        MemorySegment p = packetBuffer();
        if (p == null) {
            return false;
        }
        return postPacked(gate.pack(this, p, Math.min(p.byteSize(), packetLimit)));
    }

    /** Posts the packet just packed, {@code n} bytes; true when it is out and the rail free again. */
    private boolean postPacked(long n) {
        Status s = postBuffer(n);
        if (s == Status.NOT_YET) {
            sendState = SEND_STAGED; // stays packed in the staging buffer until the driver takes it
            return false;
        }
        if (s != Status.DONE) {
            gate.fail(s, "posting a packet on " + ec.name() + " answered " + s);
            return false;
        }
        gate.engine.stats.packetSent();
        sendState = SEND_PACKET;
        return pollSend();
    }

    /**
     * Announces the chunks waiting, as many as one DATA packet takes (a stream of rendezvous has
     * its target receive one header packet for several chunks, not one each), then posts their raw
     * bytes right behind it.
     */
    private boolean startChunks() {
        // the raws need not have free slots yet: they are posted as slots free, the header already out
        int k = Math.min(chunks.size(), Math.min(WireHeader.MAX_DATA_ENTRIES, (packetLimit - WireHeader.PACKET_HEADER) / WireHeader.DATA_BYTES));
        MemorySegment p = packetBuffer();
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
        Status s = postBuffer(at);
        if (s != Status.DONE) { // nothing is out: the chunks wait again, the header is written again next time
            for (int i = k - 1; i >= 0; i--) {
                chunks.addFirst(announced[i]);
                announced[i] = null;
            }
            if (s != Status.NOT_YET) {
                gate.fail(s, "posting a DATA header on " + ec.name() + " answered " + s);
            }
            return false;
        }
        announcedCount = k;
        announcedNext = 0;
        gate.engine.stats.announced(k);
        gate.engine.stats.packetSent();
        sendState = SEND_DATA_HEADER;
        return pollSend();
    }

    // ---- pull rendezvous --------------------------------------------------------------------

    /**
     * Exposes {@code s}'s bytes for the peer to pull, writing the driver's pull data at
     * {@code pullData} (in the RTS being packed); false when the driver cannot now or not this
     * memory: the message then goes by RTS and CTS. A failure of the driver shows on the packet's post.
     */
    boolean expose(SendRequest s, MemorySegment pullData) {
        Packet p = s.exposure;
        if (p == null) {
            p = s.exposure = new Packet();
        }
        p.reset().useData(s.layout());
        if (out.sendExpose(p, pullData) != Status.DONE) {
            return false;
        }
        if (exposedCount == exposed.length) {
            exposed = java.util.Arrays.copyOf(exposed, exposedCount * 2);
        }
        exposed[exposedCount++] = s;
        return true;
    }

    /**
     * Completes the exposed sends the peer has pulled; false when the gate failed. Targets mostly
     * pull in order, so a pass asks the driver about the oldest ones only, up to the first not yet
     * pulled; every {@link #FULL_SCAN}th pass asks about all, so one pulled out of order completes
     * within that many passes (not a full scan on every pass: asking costs a read of memory the
     * peer writes, on each of up to 64 exposures).
     */
    boolean pollExposed() {
        if (exposedCount == 0) {
            return true;
        }
        boolean all = (++exposedPasses & (FULL_SCAN - 1)) == 0;
        int kept = 0;
        for (int i = 0; i < exposedCount; i++) {
            SendRequest s = exposed[i];
            Status st = out.sendPoll(s.exposure);
            if (st == Status.NOT_YET) {
                exposed[kept++] = s;
                if (!all) { // keep the rest as they are
                    for (int j = i + 1; j < exposedCount; j++) {
                        exposed[kept++] = exposed[j];
                    }
                    break;
                }
                continue;
            }
            if (st != Status.DONE) {
                gate.fail(st, "waiting for rank " + gate.rank + " to pull " + s.length + " bytes on " + ec.name() + ": " + st);
                return false; // the gate's failure failed them all
            }
            gate.pulledFrom(this, s);
        }
        for (int i = kept; i < exposedCount; i++) {
            exposed[i] = null;
        }
        exposedCount = kept;
        return true;
    }

    /**
     * Pulls the first {@code accepted} bytes of an exposed message into {@code r}'s destination,
     * with the sender's pull data: {@code bytes} at {@code offset} of {@code base}.
     */
    void pull(RecvRequest r, long accepted, MemorySegment base, long offset, int bytes) {
        if (plan.planning) {
            if (plan.full()) {
                runPlanned(); // a packet with more RTS than a plan holds: in order all the same
            }
            plan.add(r, accepted, base, offset, bytes); // the parser checked bytes against the rail's pull data size
            return;
        }
        pullNow(r, accepted, plan.now(base, offset, bytes));
    }

    /** Runs the pulls planned while parsing, in order; the first failure fails the gate, which fails the rest. */
    private void runPlanned() {
        gate.engine.stats.pullBatch(plan.count());
        plan.run(puller);
    }

    private void pullNow(RecvRequest r, long accepted, MemorySegment pullData) {
        Packet p = r.pull;
        if (p == null) {
            p = r.pull = new Packet();
        }
        p.reset().useData(accepted == r.layout.size() ? r.layout : new SliceLayout(r.layout, 0, accepted));
        Status s = in.pullPost(p, pullData);
        if (s != Status.DONE) {
            gate.fail(s == Status.NOT_YET || s == Status.NOT_IMPLEMENTED || s == Status.INVALID ? Status.BROKEN : s,
                    "pulling " + accepted + " bytes from rank " + gate.rank + " on " + ec.name() + " answered " + s);
            r.complete(gate.failStatus, gate.failure); // not yet in any table the failure drains
            return;
        }
        if (pulling.isEmpty() && in.pullPoll(p) == Status.DONE) {
            gate.pulled(r, p.length()); // the common case, a pull done at once: no queue
            return;
        }
        pulling.add(r);
        pollPulls();
    }

    /** Completes the pulls that are done, oldest first; false when the gate failed. */
    private boolean pollPulls() {
        RecvRequest r;
        while ((r = pulling.peek()) != null) {
            Status s = in.pullPoll(r.pull);
            if (s == Status.NOT_YET) {
                return true;
            }
            if (s != Status.DONE) {
                gate.fail(s, "pulling from rank " + gate.rank + " on " + ec.name() + " answered " + s);
                return false;
            }
            pulling.poll();
            gate.pulled(r, r.pull.length());
        }
        return true;
    }

    /** Everything this rail holds that involves a request, for failing them. */
    void drainRequests(java.util.function.Consumer<Request> failed) {
        for (int i = 0; i < packedCount; i++) {
            failed.accept(packed[i]);
            packed[i] = null;
        }
        packedCount = 0;
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
        for (int i = 0; i < exposedCount; i++) {
            exposed[i] = null; // in the gate's rdvOut: failed from there
        }
        exposedCount = 0;
        RecvRequest r;
        while ((r = pulling.poll()) != null) {
            failed.accept(r);
        }
        if (plan != null) {
            plan.drain(failed);
        }
        sendState = SEND_IDLE;
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
        expectedLayout[i] = offset == 0 && length == r.layout.size() ? r.layout : new SliceLayout(r.layout, offset, length);
        expectedCount++;
        return true;
    }

    /**
     * Receives and handles one packet, and, when it asked for pulls, the packets right behind it
     * while they do too, then runs the pulls ({@link PullPlan}); true when a packet came.
     */
    boolean pollRecv() {
        boolean got = pollOne();
        if (plan != null && plan.count() > 0) {
            while (!plan.full() && gate.state == Gate.OPEN && pollOne()) {
                // parse on while the packets are RTS to pull: their bookkeeping together, before the copies
            }
            runPlanned();
        }
        return got;
    }

    /** Hands a packet to the gate's parser; the pulls its handlers ask for are planned (where the driver pulls). */
    private void parse(MemorySegment p, long length) {
        if (plan == null) {
            gate.parse(this, p, length);
            return;
        }
        plan.planning = true; // set only when a packet came: an empty poll stays as cheap as before
        try {
            gate.parse(this, p, length);
        } finally {
            plan.planning = false;
        }
    }

    /** Receives and handles at most one packet; true when one was. */
    private boolean pollOne() {
        DriverInstance i = in;
        Status s;
        if (expectedCount > 0) {
            int h = expectedHead;
            long rawLength = expectedLength[h];
            if (!rawPosted) {
                recvPkt.reset().useData(expectedLayout[h]);
                s = i.recvPost(recvPkt);
                if (s == Status.NOT_YET) {
                    return false;
                }
                if (s != Status.DONE) {
                    gate.fail(s, "posting a receive of " + rawLength + " rendezvous bytes on " + ec.name() + " answered " + s);
                    return false;
                }
                rawPosted = true;
            }
            s = i.recvPoll(recvPkt);
            if (s == Status.NOT_YET) {
                return false;
            }
            if (s != Status.DONE || recvPkt.length() != rawLength) {
                gate.fail(s == Status.DONE ? Status.BROKEN : s, "receiving " + rawLength + " rendezvous bytes on " + ec.name()
                        + " answered " + s + " after " + recvPkt.length() + " bytes");
                return false;
            }
            RecvRequest r = expectedReq[h];
            expectedReq[h] = null;
            expectedLayout[h] = null;
            rawPosted = false;
            expectedHead = --expectedCount == 0 ? 0 : h + 1; // a DATA packet is parsed only once all before it came
            gate.rawArrived(r, rawLength);
            return true;
        }
        if (bufRecv && !recvPosted) {
            if (recvPkt.form() != Packet.Form.NONE) {
                recvPkt.reset(); // a fruitless poll leaves it as it was: no stores on a waiting pass
            }
            s = i.recvPoll(recvPkt);
            if (s == Status.DONE) {
                try {
                    parse(recvPkt.buffer(), recvPkt.length());
                } finally {
                    Status r = i.recvBufRelease(recvPkt);
                    if (r != Status.DONE && r != Status.CLOSED) {
                        gate.fail(r, "recvBufRelease on " + ec.name() + " answered " + r);
                    }
                }
                return true;
            }
            if (s == Status.NOT_YET) {
                return false;
            }
            if (s != Status.INVALID) {
                gate.fail(s, "receiving on " + ec.name() + " answered " + s);
                return false;
            }
            // INVALID: larger than a driver buffer; post our own for it
        }
        if (!recvPosted) {
            recvPkt.reset().useData(recvLayout);
            s = i.recvPost(recvPkt);
            if (s == Status.NOT_YET) {
                return false;
            }
            if (s != Status.DONE) {
                gate.fail(s, "posting a receive on " + ec.name() + " answered " + s);
                return false;
            }
            recvPosted = true;
        }
        s = i.recvPoll(recvPkt);
        if (s == Status.NOT_YET) {
            return false;
        }
        recvPosted = false;
        if (s == Status.INVALID) {
            gate.fail(Status.BROKEN, "a packet over " + packetLimit + " bytes on " + ec.name()
                    + " (do all ranks use the same FERRY_EAGER_LIMIT?)");
            return false;
        }
        if (s != Status.DONE) {
            gate.fail(s, "receiving on " + ec.name() + " answered " + s);
            return false;
        }
        parse(recvBuf, recvPkt.length());
        return true;
    }

    /** Ends the rail: cancels a posted receive and disconnects (flushing what the driver holds). */
    void disconnect() {
        for (DriverInstance i : new DriverInstance[] {out, in}) {
            if (i == null) {
                continue;
            }
            if (i == in && (recvPosted || rawPosted)) {
                i.recvCancel(recvPkt);
            }
            i.disconnect();
            if (in == out) {
                break;
            }
        }
    }

    @Override
    public String toString() {
        return "rail " + index + " (" + ec.name() + ") to rank " + gate.rank;
    }
}
