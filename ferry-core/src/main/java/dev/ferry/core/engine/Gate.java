package dev.ferry.core.engine;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Status;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything between this process and one peer (NewMadeleine's gate): its rails, the messages
 * waiting to leave, the rendezvous in flight both ways, and the flow-control credits. Owned by the
 * thread that makes progress.
 */
final class Gate {
    static final int NEW = 0, OPEN = 1, FAILED = 2, CLOSED = 3;

    final Engine engine;
    final int rank;
    final Rail[] rails;
    final DriverUrl[] urls;
    final String kind;
    final long eagerLimit;
    int state = NEW;
    /** Something was sent to this peer: at close, the connection must have been taken up by it. */
    boolean sentAny;
    Status failStatus;
    String failure;

    // flow control: what we may still send immediate, and what we consumed and owe back
    long credits;
    long creditsOwed;
    private final long returnThreshold;

    final ArrayDeque<SendRequest> outQueue = new ArrayDeque<>();
    final ArrayDeque<Cts> ctsQueue = new ArrayDeque<>();
    /** Plans already sent, for reuse. */
    private final ArrayDeque<Cts> ctsSent = new ArrayDeque<>();
    private final IdTable<SendRequest> rdvOut = new IdTable<>();
    private final IdTable<RecvRequest> rdvIn = new IdTable<>();
    private final DataCursor cursor = new DataCursor();
    private final Message view;
    /** A packet is being parsed: CTS wait for its end, to leave in one packet. */
    private boolean parsing;
    /** The engine's progress pass in which the last pull RTS was pushed at once ({@link #send}). */
    private int rtsPass = -1;

    Gate(Engine engine, int rank, String kind, List<EngineContext> contexts, List<DriverUrl> urls, long eagerSetting, long credits) {
        this.engine = engine;
        this.rank = rank;
        this.kind = kind;
        this.urls = urls.toArray(DriverUrl[]::new);
        int base = contexts.isEmpty() ? 16 * 1024 : contexts.get(0).packetLimit();
        long eager = eagerSetting >= 0 ? eagerSetting : base - WireHeader.PACKET_HEADER - WireHeader.IMMEDIATE_HEADER;
        // The rail's own limit gives way to the credits: a message costing more than a peer may
        // ever be owed would wait for credits forever. (A user's limit was checked: EngineSettings.check.)
        this.eagerLimit = Math.min(eager, Math.max(0, (credits - WireHeader.IMMEDIATE_HEADER) & ~7L));
        int packet = Math.max(base, WireHeader.PACKET_HEADER + WireHeader.immediateBytes(eagerLimit));
        packet = Math.max(packet, WireHeader.PACKET_HEADER + WireHeader.ctsBytes(WireHeader.MAX_CTS_CHUNKS));
        if (!contexts.isEmpty() && packet > contexts.get(0).caps().maxPacketSize()) {
            throw new IllegalArgumentException(EngineSettings.EAGER_LIMIT.name() + "=" + eagerSetting
                    + " makes packets of " + packet + " bytes; " + contexts.get(0).name() + " carries at most "
                    + contexts.get(0).caps().maxPacketSize() + " (rank " + rank + ", " + kind + ")");
        }
        this.rails = new Rail[contexts.size()];
        for (int i = 0; i < rails.length; i++) {
            rails[i] = new Rail(this, i, contexts.get(i), packet);
        }
        this.credits = credits;
        this.returnThreshold = Math.max(1, credits / 4);
        this.view = new Message(engine, true);
    }

    // ---- connection -------------------------------------------------------------------------

    /** Connects every rail (first use); a refusal fails the gate. */
    void connect() {
        if (state != NEW) {
            return;
        }
        state = OPEN;
        if (rails.length == 0) {
            fail(Status.BROKEN, "no selected driver reaches rank " + rank + " (" + kind + "); see FERRY_DRIVERS");
            return;
        }
        for (Rail r : rails) {
            r.out = r.ec.context().newInstance();
            Status s = r.out.connectAsync(urls[r.index]);
            if (s != Status.DONE) {
                fail(s == Status.INVALID ? Status.BROKEN : s, "connecting to rank " + rank + " with " + r.ec.name() + " answered " + s);
                return;
            }
            if (rank == engine.rank) { // a rank reaches itself through two instances of one context
                r.in = r.ec.context().newInstance();
                s = r.in.connectAsync(urls[r.index]); // our own URL: the two instances pair
                if (s != Status.DONE) {
                    fail(s, "connecting rank " + rank + " to itself with " + r.ec.name() + " answered " + s);
                    return;
                }
            } else {
                r.in = r.out;
            }
        }
    }

    // ---- sending ----------------------------------------------------------------------------

    void send(SendRequest s) {
        if (state == FAILED || state == CLOSED) {
            s.complete(failStatus, failure);
            return;
        }
        sentAny = true;
        if (outQueue.isEmpty() && ctsQueue.isEmpty() && s.length <= eagerLimit && credits >= WireHeader.immediateBytes(s.length)
                && rails[0].sendAlone(s)) {
            return; // the common case: a small message, nothing waiting, out in a packet of its own
        }
        if (state != OPEN) { // the rail failed the gate while trying
            s.complete(failStatus, failure);
            return;
        }
        outQueue.add(s);
        if (s.length > eagerLimit) {
            if (pullBytes(s) == 0) {
                // An RTS the target answers with a CTS waits for the next progress pass: the sender
                // must make progress to send the data anyway, and a burst of them leaves in one packet
                // (over tcp, one write instead of one per message, and one CTS packet back).
                return;
            }
            // An RTS the target pulls leaves at once if it is the first since the last progress
            // pass, so the target starts copying; the rest of a burst wait for the next pass and
            // leave in one packet. One at a time, the target took each packet as the sender wrote
            // it and ran no copy until the burst ended (shm 64 KiB arena: 1.43 against the
            // driver's 1.35 us per message; with them held, 1.36).
            int pass = engine.passes();
            if (pass == rtsPass) {
                return;
            }
            rtsPass = pass;
        }
        rails[0].push();
    }

    /**
     * Writes the packet of a small message sent alone ({@link Rail#sendAlone}): the same bytes
     * {@link #pack} would write for it, the credits owed included. Returns the packet's length.
     */
    long packAlone(Rail rail, MemorySegment p, SendRequest s) {
        long n = WireHeader.PACKET_HEADER + packImmediate(rail, p, WireHeader.PACKET_HEADER, s);
        closePacket(p, 1);
        return n;
    }

    /**
     * One immediate entry at {@code at}, header and payload, charged to the credits and recorded as
     * packed on {@code rail}; returns its size (also its cost in credits).
     */
    private int packImmediate(Rail rail, MemorySegment p, long at, SendRequest s) {
        WireHeader.entry(p, at, WireHeader.IMMEDIATE, (int) s.length, s.header, 0, 0);
        if (s.contiguous != null) { // the common case, without a layout
            MemorySegment.copy(s.contiguous, 0, p, at + WireHeader.IMMEDIATE_HEADER, s.length);
        } else {
            DataLayout l = s.layout();
            if (l.segmentCount() == 1) {
                MemorySegment.copy(l.segmentBase(0), l.segmentOffset(0), p, at + WireHeader.IMMEDIATE_HEADER, s.length);
            } else {
                cursor.reset(l).copyTo(p, at + WireHeader.IMMEDIATE_HEADER, s.length);
            }
        }
        int cost = WireHeader.immediateBytes(s.length);
        credits -= cost;
        rail.packed[rail.packedCount++] = s;
        engine.stats.immediate(rail.ec, s.length);
        return cost;
    }

    /** Writes the packet header of {@code count} entries, returning the credits owed with it. */
    private void closePacket(MemorySegment p, int count) {
        long give = Math.min(creditsOwed, Integer.MAX_VALUE);
        creditsOwed -= give;
        WireHeader.packetHeader(p, count, give);
    }

    private int headCost() {
        SendRequest s = outQueue.peek();
        return s.length <= eagerLimit ? WireHeader.immediateBytes(s.length) : WireHeader.RTS_BYTES + pullBytes(s);
    }

    /**
     * Bytes of pull data an RTS for {@code s} makes room for: rail 0's, when the target may pull it
     * (one piece on rail 0, not split over rails, within the driver's largest packet); else 0.
     */
    private int pullBytes(SendRequest s) {
        Rail r = rails[0];
        if (r.pullDataSize == 0 || s.length > r.ec.caps().maxPacketSize()
                || (rails.length > 1 && engine.multirail && s.length >= engine.multirailMin)) {
            return 0;
        }
        return r.pullDataSize;
    }

    /** Whether rail 0 has something to put in a packet now. */
    boolean hasPackable() {
        return !ctsQueue.isEmpty() || (!outQueue.isEmpty() && credits >= headCost()) || creditsOwed >= returnThreshold;
    }

    /**
     * Fills a packet: CTS first (they unblock the peer's sends), then queued messages in order while
     * they fit and credits last, then the credits we owe. Returns its length.
     */
    long pack(Rail rail, MemorySegment p, long limit) {
        long at = WireHeader.PACKET_HEADER;
        int count = 0;
        Cts c;
        while ((c = ctsQueue.peek()) != null) {
            int size = WireHeader.ctsBytes(c.chunks());
            if (at + size > limit) {
                break;
            }
            WireHeader.entry(p, at, WireHeader.CTS, c.chunks(), c.sourceId, c.targetId, c.accepted);
            for (int i = 0; i < c.chunks(); i++) {
                WireHeader.ctsChunk(p, at + WireHeader.CTS_FIXED + (long) i * WireHeader.CTS_CHUNK, c.rail[i], c.offset[i], c.length[i]);
            }
            ctsSent.push(ctsQueue.poll());
            at += size;
            count++;
        }
        SendRequest s;
        while ((s = outQueue.peek()) != null) {
            if (s.length <= eagerLimit) {
                int cost = WireHeader.immediateBytes(s.length);
                if (at + cost > limit || credits < cost) {
                    break;
                }
                at += packImmediate(rail, p, at, s);
            } else {
                int pull = pullBytes(s);
                int size = WireHeader.RTS_BYTES + pull;
                if (at + size > limit || credits < size) {
                    break;
                }
                if (pull > 0 && !rail.expose(s, p.asSlice(at + WireHeader.RTS_BYTES, pull))) {
                    pull = 0; // the driver cannot now, or not this memory: RTS and CTS
                    size = WireHeader.RTS_BYTES;
                }
                s.sourceId = rdvOut.add(s);
                WireHeader.entry(p, at, WireHeader.RTS, pull, s.header, s.length, s.sourceId);
                credits -= size;
                at += size;
                engine.stats.rendezvous();
                if (pull > 0) {
                    engine.stats.exposed();
                }
            }
            outQueue.poll();
            count++;
        }
        closePacket(p, count);
        if (count > 1) {
            engine.stats.aggregated(count);
        }
        return at;
    }

    // ---- receiving (seed 003's lib_parse: every incoming header goes through here) ----------

    void parse(Rail rail, MemorySegment p, long len) {
        parsing = true;
        try {
            parseEntries(rail, p, len);
        } finally {
            parsing = false;
        }
        if (!ctsQueue.isEmpty() && state == OPEN) {
            rails[0].push(); // the CTS planned while parsing go out together, aggregated
        }
    }

    private void parseEntries(Rail rail, MemorySegment p, long len) {
        long word = len < WireHeader.PACKET_HEADER ? 0 : WireHeader.packetWord(p);
        if (WireHeader.magic(word) != WireHeader.MAGIC) {
            malformed(rail, "a packet of " + len + " bytes without the engine's magic");
            return;
        }
        int count = WireHeader.count(word);
        credits += WireHeader.credits(word);
        long at = WireHeader.PACKET_HEADER;
        boolean data = false;
        for (int i = 0; i < count; i++) {
            if (state != OPEN) {
                return;
            }
            if (at + WireHeader.IMMEDIATE_HEADER > len) {
                malformed(rail, "entry " + i + " of " + count + " beyond the packet's " + len + " bytes");
                return;
            }
            long first = WireHeader.entryWord(p, at);
            byte kind = WireHeader.kind(first);
            if (data && kind != WireHeader.DATA) {
                malformed(rail, "an entry of kind " + kind + " after DATA entries (they end a packet)");
                return;
            }
            int a = WireHeader.a(first);
            long b = p.get(WireHeader.U64, at + WireHeader.B);
            if (kind == WireHeader.IMMEDIATE) {
                long n = a & 0xffffffffL;
                // n first: up to 4 GiB announced, its cost in an int would wrap negative
                int cost = n > len ? Integer.MAX_VALUE : WireHeader.immediateBytes(n);
                if (at + cost > len) {
                    malformed(rail, "an immediate message of " + n + " bytes in a packet of " + len);
                    return;
                }
                view.setImmediate(this, b, p, at + WireHeader.IMMEDIATE_HEADER, n, cost);
                engine.deliver(view);
                at += cost;
                continue;
            }
            if (at + 32 > len) {
                malformed(rail, "a truncated entry of kind " + kind);
                return;
            }
            long c = p.get(WireHeader.U64, at + WireHeader.C);
            long d = p.get(WireHeader.U64, at + WireHeader.D);
            switch (kind) {
                case WireHeader.RTS -> {
                    if (c < 0) {
                        malformed(rail, "an RTS of negative length");
                        return;
                    }
                    // checked against the driver's size, not this rank's FERRY_RNDV_PULL: that setting is for sending
                    int takes = rail.pullTakes;
                    if (a != 0 && (a != takes || rail.index != 0 || at + WireHeader.RTS_BYTES + a > len)) {
                        malformed(rail, "an RTS with " + a + " bytes of pull data (this rail takes " + takes + ")");
                        return;
                    }
                    view.setRendezvous(this, b, c, d, WireHeader.RTS_BYTES + a);
                    if (a != 0) {
                        view.pullData(p, at + WireHeader.RTS_BYTES, a);
                    }
                    engine.deliver(view);
                    at += WireHeader.RTS_BYTES + a;
                }
                case WireHeader.CTS -> {
                    if (a < 0 || a > WireHeader.MAX_CTS_CHUNKS || at + WireHeader.ctsBytes(a) > len) {
                        malformed(rail, "a CTS of " + a + " chunks");
                        return;
                    }
                    if (!clearToSend(rail, p, at, a, b, c, d)) {
                        return;
                    }
                    at += WireHeader.ctsBytes(a);
                }
                case WireHeader.DATA -> {
                    RecvRequest r = rdvIn.get(b);
                    if (r == null || c < 0 || d <= 0 || c + d > r.layout.size() || d > r.remaining) {
                        malformed(rail, "a DATA header for an unknown rendezvous or outside its destination");
                        return;
                    }
                    if (!rail.expectRaw(r, c, d)) {
                        malformed(rail, "more than " + WireHeader.MAX_DATA_ENTRIES + " DATA entries in one packet");
                        return;
                    }
                    data = true;
                    at += WireHeader.DATA_BYTES;
                }
                default -> {
                    malformed(rail, "unknown entry kind " + kind);
                    return;
                }
            }
        }
    }

    private boolean clearToSend(Rail rail, MemorySegment p, long at, int n, long sourceId, long targetId, long accepted) {
        SendRequest s = rdvOut.remove(sourceId);
        if (s == null || accepted < 0 || accepted > s.length) {
            malformed(rail, "a CTS for an unknown rendezvous " + sourceId);
            return false;
        }
        long total = 0;
        for (int k = 0; k < n; k++) {
            long e = at + WireHeader.CTS_FIXED + (long) k * WireHeader.CTS_CHUNK;
            int r = p.get(WireHeader.U32, e);
            long off = p.get(WireHeader.U64, e + 8);
            long len = p.get(WireHeader.U64, e + 16);
            if (r < 0 || r >= rails.length || off < 0 || len <= 0 || off + len > accepted) {
                malformed(rail, "a CTS chunk outside its message or on rail " + r);
                return false;
            }
            total += len;
        }
        if (total != accepted) {
            malformed(rail, "a CTS whose chunks cover " + total + " of " + accepted + " bytes");
            return false;
        }
        s.chunksLeft = n;
        if (n == 0) {
            s.complete(); // the target took nothing (a zero-size destination, or dropped)
            return true;
        }
        for (int k = 0; k < n; k++) {
            long e = at + WireHeader.CTS_FIXED + (long) k * WireHeader.CTS_CHUNK;
            Rail r = rails[p.get(WireHeader.U32, e)];
            r.chunks.add(new Chunk(s, targetId, p.get(WireHeader.U64, e + 8), p.get(WireHeader.U64, e + 16)));
        }
        return true;
    }

    /** The target side of a rendezvous: decide where each byte comes (CTS), then wait for the raw chunks. */
    void receiveRendezvous(Message m, RecvRequest r) {
        if (state == FAILED || state == CLOSED) {
            r.complete(failStatus, failure);
            return;
        }
        creditsOwed += m.credit;
        long accepted = Math.min(m.length, r.layout.size());
        r.gate = this;
        r.remaining = accepted;
        if (m.pullBytes > 0) { // the source exposed it: pull it now, no CTS (a size of 0 only releases it)
            rails[0].pull(r, accepted, m.base, m.offset, m.pullBytes);
            if (!parsing && creditsOwed >= returnThreshold) {
                rails[0].push();
            }
            return;
        }
        if (accepted == 0) {
            ctsQueue.add(freeCts().set(m.sourceId, 0, 0));
            r.complete();
        } else {
            r.targetId = rdvIn.add(r);
            ctsQueue.add(plan(m.sourceId, r.targetId, accepted));
        }
        if (!parsing) {
            rails[0].push(); // while parsing, the packet's other RTS may add theirs: parse pushes them together
        }
    }

    /** Splits {@code accepted} bytes over the rails by profile bandwidth (multi-rail), each piece within its rail's maximum packet. */
    private Cts plan(long sourceId, long targetId, long accepted) {
        int used = engine.multirail && accepted >= engine.multirailMin ? rails.length : 1;
        long[] share = used == 1 ? null : new long[used]; // one rail, the common case: nothing to share out
        if (used > 1) {
            long bw = 0;
            for (int i = 0; i < used; i++) {
                bw += Math.max(1, rails[i].ec.profile().bandwidthMBps());
            }
            long given = 0;
            for (int i = 0; i < used - 1; i++) {
                share[i] = (accepted * Math.max(1, rails[i].ec.profile().bandwidthMBps()) / bw) & ~4095L;
                given += share[i];
            }
            share[used - 1] = accepted - given;
        }
        long n = 0;
        for (int i = 0; i < used; i++) {
            long max = Math.max(4096, rails[i].ec.caps().maxPacketSize());
            n += ((used == 1 ? accepted : share[i]) + max - 1) / max;
        }
        if (n > WireHeader.MAX_CTS_CHUNKS) {
            throw new IllegalArgumentException("a message of " + accepted + " bytes needs more than " + WireHeader.MAX_CTS_CHUNKS + " rendezvous chunks");
        }
        Cts c = freeCts();
        c.set(sourceId, targetId, accepted);
        long off = 0;
        for (int i = 0; i < used; i++) {
            long max = Math.max(4096, rails[i].ec.caps().maxPacketSize());
            for (long left = used == 1 ? accepted : share[i]; left > 0; ) {
                long len = Math.min(left, max);
                c.addChunk(i, off, len);
                off += len;
                left -= len;
            }
        }
        return c;
    }

    private Cts freeCts() {
        Cts c = ctsSent.poll();
        return c != null ? c : new Cts();
    }

    /** The target has pulled exposed send {@code s} (all it wanted of it): the send is complete. */
    void pulledFrom(Rail rail, SendRequest s) {
        rdvOut.remove(s.sourceId);
        engine.stats.rendezvousBytes(rail.ec, s.length);
        s.complete();
    }

    /** A pull into {@code r} is done, {@code n} bytes. */
    void pulled(RecvRequest r, long n) {
        r.received += n;
        r.remaining -= n;
        r.complete();
    }

    void rawArrived(RecvRequest r, long n) {
        r.received += n;
        r.remaining -= n;
        if (r.remaining == 0) {
            rdvIn.remove(r.targetId);
            r.complete();
        }
    }

    // ---- progress and failure ---------------------------------------------------------------

    /**
     * One pass: sends, then at most one packet per rail. True when anything happened. One packet,
     * not several: a pass that found one returns at once, so the caller acts on it without first
     * waiting for another poll of the driver, which over tcp is a read system call that is nearly
     * always empty (one more microsecond on every message's path). What a handler sends goes out
     * at once anyway ({@link #send} pushes).
     */
    boolean progress() {
        boolean work = false;
        for (Rail r : rails) {
            if (!r.pollExposed()) { // here, not in push: a send need not wait for the driver's answers about earlier ones
                return work;
            }
            r.push();
            if (state == OPEN && r.pollRecv()) {
                work = true;
            }
            if (state != OPEN) {
                return work;
            }
        }
        return work;
    }

    /** What this gate holds now, for a timeout's message: queues, rendezvous in flight, credits, each rail. */
    String stateReport() {
        StringBuilder b = new StringBuilder("rank ").append(rank).append(": state ").append(state)
                .append(", out ").append(outQueue.size()).append(", cts ").append(ctsQueue.size())
                .append(", rdv out ").append(rdvOut.size()).append(", rdv in ").append(rdvIn.size())
                .append(", credits ").append(credits).append(", owed ").append(creditsOwed);
        for (Rail r : rails) {
            b.append("; ").append(r.stateReport());
        }
        return b.toString();
    }

    boolean quiet() {
        if (!outQueue.isEmpty() || !ctsQueue.isEmpty() || !rdvOut.isEmpty()) {
            return false;
        }
        for (Rail r : rails) {
            if (!r.idle()) {
                return false;
            }
        }
        return true;
    }

    private void malformed(Rail rail, String what) {
        fail(Status.BROKEN, "protocol error from rank " + rank + " on " + rail.ec.name() + ": " + what);
    }

    /** The peer is gone or misbehaved: every request involving it fails with {@code s}; other gates carry on. */
    void fail(Status s, String why) {
        if (state == FAILED || state == CLOSED) {
            return;
        }
        boolean closing = engine.closing;
        state = s == Status.CLOSED ? CLOSED : FAILED;
        failStatus = s == Status.DONE || s == Status.NOT_YET ? Status.BROKEN : s;
        failure = why;
        List<Request> failed = new ArrayList<>(outQueue);
        outQueue.clear();
        rdvOut.drain(failed::add);
        rdvIn.drain(failed::add);
        ctsQueue.clear();
        for (Rail r : rails) {
            r.drainRequests(failed::add);
        }
        for (Request q : failed) {
            q.complete(failStatus, why);
        }
        if (!closing || !failed.isEmpty()) {
            // a peer that left in order while nothing was pending here harmed nothing: no warning
            System.Logger.Level level = failStatus == Status.CLOSED && failed.isEmpty() ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING;
            engine.log.log(level, "rank {0}: gate to rank {1} failed ({2}): {3}; {4} request(s) failed",
                    engine.rank, rank, failStatus, why, failed.size());
        }
        engine.gateFailed(this);
    }

    /**
     * At close: waits (within each driver's connect bound) until the peer has taken up every
     * rail's connection. A driver may complete a send into a channel its peer has not opened yet
     * (shm writes into the ring before the peer attaches); leaving then would lose it.
     */
    void awaitTakenUp() {
        for (Rail r : rails) {
            if (r.out == null || rank == engine.rank) {
                continue;
            }
            Status s = r.out.connectWait();
            if (s != Status.DONE && s != Status.NOT_IMPLEMENTED) {
                engine.log.log(System.Logger.Level.WARNING, "rank {0}: closing while rank {1} has not taken up the connection on {2} ({3}): what was sent to it may be lost",
                        engine.rank, rank, r.ec.name(), s);
            }
        }
    }

    /** At close: disconnects the rails (the peer sees them CLOSED once it has read what came before). */
    void close() {
        if (state == OPEN) {
            state = CLOSED;
            failStatus = Status.CLOSED;
            failure = "the engine closed";
            for (Rail r : rails) {
                r.disconnect();
            }
        }
    }
}
