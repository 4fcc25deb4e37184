package dev.ferry.core.gate;

import dev.ferry.core.config.EngineSettings;
import dev.ferry.core.protocol.Delivery;
import dev.ferry.core.protocol.EagerProtocol;
import dev.ferry.core.protocol.Link;
import dev.ferry.core.protocol.Protocol;
import dev.ferry.core.protocol.ProtocolTable;
import dev.ferry.core.protocol.RawLane;
import dev.ferry.core.protocol.RendezvousPull;
import dev.ferry.core.protocol.RendezvousPut;
import dev.ferry.core.rail.EngineContext;
import dev.ferry.core.rail.EngineStats;
import dev.ferry.core.rail.Rail;
import dev.ferry.core.rail.RailOwner;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.Origin;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.Request;
import dev.ferry.core.request.SendRequest;
import dev.ferry.core.wire.PacketWriter;
import dev.ferry.core.wire.WireHeader;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Status;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything between this process and one peer (NewMadeleine's gate): its rails, its protocols
 * and the table that picks one per message length, the messages waiting to leave (in order,
 * whatever their protocol), and the flow-control credits. A send is handed to the protocol its
 * length falls to; every packet that arrives is parsed here, entry by entry, by the protocol that
 * owns the entry's kind (seed 003's lib_parse). Owned by the thread that makes progress.
 */
public final class Gate implements Link, RailOwner, Origin {
    public static final int NEW = 0, OPEN = 1, FAILED = 2, CLOSED = 3;

    final GateOwner engine;
    private final EngineStats stats;
    final int rank;
    public final Rail[] rails;
    final DriverUrl[] urls;
    final String kind;
    public final long eagerLimit;
    public int state = NEW;
    /** Something was sent to this peer: at close, the connection must have been taken up by it. */
    boolean sentAny;
    /** Every rail's driver reconnects, and the peer is not this rank: the connection may be closed while idle. */
    final boolean reconnects;
    /** The idle-close handshake and the use the sweeps look at. */
    final CloseHandshake idle = new CloseHandshake(this);
    /** The engine's gates, which keep the connected ones (set once, by them). */
    Gates home;
    Status failStatus;
    String failure;

    // flow control (WireHeader): what we may still send immediately, and what we consumed and owe back
    long credits;
    long creditsOwed;
    private final long returnThreshold;
    /** The credits a peer may have at most: FERRY_EAGER_CREDITS. */
    private final long creditsMax;
    /** FERRY_EAGER_POOL, the engine's; null: every peer has {@link #creditsMax} from the start. */
    private final EagerPool pool;
    /** With a pool: what every peer has without asking (one largest eager message). */
    private final long creditsFloor;
    /** With a pool: what this peer was granted from it, beyond the floor (kept until the job ends). */
    long granted;
    /** Our queue's head finds too few credits: the next packet asks (once, until credits come). */
    private boolean askDue;
    private boolean asked;
    /** The peer asked: the next packet answers, with credits or, having none to give, the envelopes bit. */
    private boolean answerDue;
    /** The peer keeps every credit we had: a message that finds too few goes as a rendezvous envelope. */
    private boolean envelopes;
    /** The protocol of a message sent as an envelope: the rendezvous of the lengths just past eager. */
    private final Protocol envelope;

    final EagerProtocol eager;
    final RendezvousPut put;
    /** Null where rail 0's driver has no pull. */
    final RendezvousPull pull;
    /** The protocol per message length, for sending. */
    final ProtocolTable table;
    /** The rendezvous-put protocol's lane on each rail, by rail index (the progress pass walks them with the rails). */
    final RawLane[] lanes;
    /** The protocol per entry kind, for parsing: every protocol the rails allow, whatever the settings. */
    private final Protocol[] byKind = new Protocol[WireHeader.KINDS];

    final ArrayDeque<SendRequest> outQueue = new ArrayDeque<>();
    private final PacketWriter writer = new PacketWriter();
    /** The reused message of a handler call. */
    final Message view;
    /** A packet is being parsed: answers wait for its end, to leave in one packet. */
    boolean parsing;

    Gate(GateOwner engine, int rank, String kind, List<EngineContext> contexts, List<DriverUrl> urls, GatePolicy policy) {
        this(engine, rank, kind, contexts, urls, policy, null);
    }

    Gate(GateOwner engine, int rank, String kind, List<EngineContext> contexts, List<DriverUrl> urls, GatePolicy policy, EagerPool pool) {
        long eagerSetting = policy.eagerSetting();
        long credits = policy.credits();
        this.engine = engine;
        this.stats = engine.stats();
        this.rank = rank;
        this.kind = kind;
        this.urls = urls.toArray(DriverUrl[]::new);
        int base = contexts.isEmpty() ? 16 * 1024 : contexts.get(0).packetLimit();
        long railLimit = eagerSetting >= 0 ? eagerSetting : base - WireHeader.PACKET_HEADER - WireHeader.IMMEDIATE_HEADER;
        // The rail's own limit gives way to the credits: a message costing more than a peer may
        // ever be owed would wait for credits forever. (A user's limit was checked: EngineSettings.check.)
        this.eagerLimit = Math.min(railLimit, Math.max(0, (credits - WireHeader.IMMEDIATE_HEADER) & ~7L));
        int packet = Math.max(base, WireHeader.PACKET_HEADER + WireHeader.immediateBytes(eagerLimit));
        packet = Math.max(packet, WireHeader.PACKET_HEADER + WireHeader.ctsBytes(WireHeader.MAX_CTS_CHUNKS));
        if (!contexts.isEmpty() && packet > contexts.get(0).caps().maxPacketSize()) {
            throw new IllegalArgumentException(EngineSettings.EAGER_LIMIT.name() + "=" + eagerSetting
                    + " makes packets of " + packet + " bytes; " + contexts.get(0).name() + " carries at most "
                    + contexts.get(0).caps().maxPacketSize() + " (rank " + rank + ", " + kind + ")");
        }
        this.rails = new Rail[contexts.size()];
        for (int i = 0; i < rails.length; i++) {
            rails[i] = new Rail(this, i, contexts.get(i), packet, stats);
        }
        boolean r = rails.length > 0 && rank != engine.rank();
        for (Rail rail : rails) {
            r &= rail.ec.caps().supportsReconnect();
        }
        this.reconnects = r;
        this.creditsMax = credits;
        this.pool = pool;
        // with a pool, a peer starts with one largest eager message's worth, and asks for more
        this.creditsFloor = Math.min(credits, WireHeader.immediateBytes(eagerLimit));
        this.credits = pool == null ? credits : creditsFloor;
        this.returnThreshold = Math.max(1, credits / 4);
        this.view = new Message(engine, true);

        this.eager = new EagerProtocol(this, credits, pool == null ? 0 : pool.size());
        this.put = new RendezvousPut(this, policy.multirail(), policy.multirailMin());
        // pull moves layouts as they are: a driver that takes none (iovecs or buffers only) goes by put
        this.pull = rails.length > 0 && rails[0].pullTakes > 0 && rails[0].ec.caps().supportsData() ? new RendezvousPull(this, put) : null;
        ProtocolTable.Builder t = new ProtocolTable.Builder().upTo(eagerLimit, eager);
        if (pull != null && policy.rendezvousPull()) {
            // one piece on rail 0, within the driver's largest packet, and not what multi-rail splits
            long max = rails[0].ec.caps().maxPacketSize();
            if (rails.length > 1 && policy.multirail()) {
                max = Math.min(max, policy.multirailMin() - 1);
            }
            t.upTo(max, pull);
        }
        this.table = t.rest(put);
        this.envelope = table.lookup(eagerLimit + 1);
        this.lanes = put.lanes;
        for (Protocol p : pull == null ? new Protocol[] {eager, put} : new Protocol[] {eager, put, pull}) {
            for (byte k : p.kinds()) {
                byKind[k] = p;
            }
        }
    }

    @Override
    public dev.ferry.core.request.RequestHost host() {
        return engine;
    }

    @Override
    public long eagerLimit() {
        return eagerLimit;
    }

    /** {@link RendezvousPull#offload}: false where rail 0 has no pull, or the gate is not open. */
    public boolean offload(RecvRequest r, dev.ferry.spi.DataLayout into, long bits, long ignore, dev.ferry.core.request.Matched onMatch) {
        return state == OPEN && pull != null && pull.offload(r, into, bits, ignore, onMatch);
    }

    /** {@link RendezvousPull#offloads}: false where rail 0 has no pull, or the gate is not open. */
    public boolean offloads(long bytes) {
        return state == OPEN && pull != null && pull.offloads(bytes);
    }

    /** {@link RendezvousPull#reclaim}. */
    public boolean reclaim(RecvRequest r) {
        return pull == null || pull.reclaim(r);
    }

    // ---- connection -------------------------------------------------------------------------

    /** Connects every rail (first use); a refusal fails the gate. */
    public void connect() {
        if (state != NEW) {
            return;
        }
        state = OPEN;
        idle.touched = true;
        idle.lastUse = engine.passes();
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
            if (rank == engine.rank()) { // a rank reaches itself through two instances of one context
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

    /**
     * What went to and came from the peer since the gate was made (messages handed to it, and
     * delivered from it, control messages included): plain fields written by the engine's thread
     * of control, read racily by observers (JMX).
     */
    public long messagesSent, bytesSent, messagesReceived, bytesReceived;

    /** Hands {@code s} to the protocol its length falls to. */
    public void send(SendRequest s) {
        messagesSent++;
        bytesSent += s.length();
        if (state == FAILED || state == CLOSED) {
            s.complete(failStatus, failure);
            return;
        }
        if (idle.step != CloseHandshake.NONE) {
            idle.hold(s); // the connection is being closed: sent in order once it is open again
            return;
        }
        sentAny = true;
        idle.touched = true;
        idle.lastUse = engine.passes();
        table.lookup(s.length()).send(s);
    }

    /** Nothing waits to leave before a message sent now. */
    @Override
    public boolean nothingWaits() {
        return outQueue.isEmpty() && !put.hasAnswers();
    }

    /** Whether {@code rail} may take a packet of its own now: free, and no rendezvous chunk waiting its turn there. */
    @Override
    public boolean railClear(Rail rail) {
        return rail.free() && lanes[rail.index].clearForPacket();
    }

    /**
     * Queues {@code s} to leave in order, packed by {@code p}; false (and {@code s} failed) when the
     * gate failed meanwhile. (A message sent at once never needs its protocol recorded.)
     */
    @Override
    public boolean enqueue(SendRequest s, Protocol p) {
        if (state != OPEN) { // a rail failed the gate while trying
            s.complete(failStatus, failure);
            return false;
        }
        s.protocol = p;
        outQueue.add(s);
        return true;
    }

    /** Writes the packet header of {@code count} entries, with the credits owed. */
    @Override
    public void closePacket(MemorySegment p, int count) {
        long give = Math.min(creditsOwed, WireHeader.MAX_CREDITS);
        creditsOwed -= give;
        boolean ask = askDue;
        if (ask) {
            askDue = false;
            asked = true;
        }
        boolean envelopesNow = answerDue && give == 0; // asked, and nothing to give: the peer must not wait
        answerDue = false;
        WireHeader.packetHeader(p, count, give, ask, envelopesNow);
    }

    /** The credits owed are worth a packet of their own, or the peer waits for an answer or an ask of ours. */
    @Override
    public boolean owesReturn() {
        return creditsOwed >= returnThreshold || answerDue || askDue;
    }

    /** Whether rail 0 has something to put in a packet now. */
    private boolean hasPackable() {
        SendRequest s;
        return put.hasAnswers() || idle.control != 0 || owesReturn()
                || ((s = outQueue.peek()) != null && (s.protocol != eager || s.handledOnArrival || credits >= eager.entryBytes(s) || envelopes || !asked));
    }

    /**
     * The message at the queue's head finds too few credits. It waits for them (they come back as
     * the peer receives), asking once; but once the peer says it keeps every credit we had
     * unreceived (it may be waiting for this very message), it goes as a rendezvous envelope,
     * which costs none: answers that protocol, or null to wait.
     */
    private Protocol shortOfCredits() {
        if (envelopes) {
            stats.envelope();
            return envelope;
        }
        if (!asked) {
            askDue = true;
        }
        return null;
    }

    /** A packet's credits field: credits given, and the peer's ask or its envelopes answer. */
    private void creditsCame(long word) {
        long give = WireHeader.credits(word);
        if (give > 0) {
            credits += give;
            asked = false;
            envelopes = false;
        }
        if (WireHeader.envelopes(word)) {
            envelopes = true;
        }
        if (WireHeader.asks(word)) {
            if (pool != null && creditsFloor + granted < creditsMax) {
                long g = pool.grant(creditsMax - creditsFloor - granted);
                granted += g;
                creditsOwed += g;
            }
            answerDue = true;
        }
    }

    /**
     * Sends what is waiting on {@code r}, as far as the driver takes it now: the rendezvous chunks
     * the peer asked for there and, on rail 0, packets, taking turns while both wait.
     */
    @Override
    public void push(Rail r) {
        push(r, lanes[r.index]);
    }

    void push(Rail r, RawLane lane) {
        if (lane.rawInFlight()) {
            lane.pollRaw();
        }
        if (r.index == 0 && pull != null && pull.pullsInFlight() && !pull.pollPulls()) {
            return;
        }
        for (int round = 0; round < 8; round++) {
            // inline looks first: the calls that move a packet or raw chunks on are too large to inline
            if (!r.free() && !r.pollSend() || lane.announcing() && !lane.postAnnounced()) {
                return;
            }
            boolean packet = r.index == 0 && hasPackable();
            boolean chunks = !lane.chunks.isEmpty();
            if (chunks && (!packet || lane.chunkTurn)) {
                lane.chunkTurn = false;
                if (!lane.startChunks()) {
                    return;
                }
            } else if (packet) {
                lane.chunkTurn = true;
                if (!postPacket(r) || lane.chunks.isEmpty() && !hasPackable()) {
                    return; // the usual end: one packet out, nothing left
                }
            } else {
                return;
            }
        }
    }

    private boolean postPacket(Rail r) {
        MemorySegment p = r.packetBuffer();
        if (p == null) {
            return false;
        }
        return r.postPacked(pack(r, p, Math.min(p.byteSize(), r.packetLimit)));
    }

    /**
     * Fills a packet: the protocols' answers first (they unblock the peer's sends), then queued
     * messages in order while they fit and credits last, then the credits we owe. Returns its length.
     */
    public long pack(Rail rail, MemorySegment p, long limit) {
        PacketWriter w = writer.start(p, limit);
        if (idle.control != 0) {
            idle.pack(w);
        }
        if (put.hasAnswers()) {
            put.packAnswers(w);
        }
        SendRequest s;
        while ((s = outQueue.peek()) != null) {
            Protocol pr = (Protocol) s.protocol; // only protocols queue sends
            int size = pr.entryBytes(s);
            if (pr == eager && credits < size && !s.handledOnArrival) {
                if ((pr = shortOfCredits()) == null) {
                    break;
                }
                size = pr.entryBytes(s);
            }
            if (!w.fits(size)) {
                break;
            }
            if (pr == eager) {
                int n = pr.pack(rail, w, s);
                if (!s.handledOnArrival) {
                    credits -= n; // only immediate data a receiver may keep costs credits
                }
            } else {
                s.protocol = pr;
                pr.pack(rail, w, s);
            }
            outQueue.poll();
        }
        closePacket(p, w.count);
        if (w.count > 1) {
            stats.aggregated(w.count);
        }
        return w.at;
    }

    // ---- receiving (seed 003's lib_parse: every incoming header goes through here) ----------

    @Override
    public boolean parsing() {
        return parsing;
    }

    @Override
    public void parse(Rail rail, MemorySegment p, long len) {
        parsing = true;
        idle.touched = true;
        if (pull != null) {
            pull.planning(true);
        }
        try {
            parseEntries(rail, p, len);
        } finally {
            parsing = false;
            if (pull != null) {
                pull.planning(false);
            }
        }
        if (put.hasAnswers() && state == OPEN) {
            push(rails[0]); // the CTS planned while parsing go out together, aggregated
        }
    }

    private void parseEntries(Rail rail, MemorySegment p, long len) {
        long word = len < WireHeader.PACKET_HEADER ? 0 : WireHeader.packetWord(p);
        if (WireHeader.magic(word) != WireHeader.MAGIC) {
            malformed(rail, "a packet of " + len + " bytes without the engine's magic");
            return;
        }
        int count = WireHeader.count(word);
        creditsCame(word);
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
            long n;
            if (kind == WireHeader.IMMEDIATE) { // the common entry: a direct call, no look-up
                n = eager.parse(rail, p, at, len, first);
            } else if (kind == WireHeader.CLOSE) {
                if (at + WireHeader.CLOSE_BYTES > len) {
                    malformed(rail, "a truncated CLOSE entry");
                    return;
                }
                n = idle.onEntry(rail, CloseHandshake.stepOf(p, at));
            } else {
                Protocol pr = kind > 0 && kind < byKind.length ? byKind[kind] : null;
                if (pr == null) {
                    malformed(rail, "unknown entry kind " + kind);
                    return;
                }
                if (at + WireHeader.FIXED_ENTRY > len) {
                    malformed(rail, "a truncated entry of kind " + kind);
                    return;
                }
                n = pr.parse(rail, p, at, len, first);
            }
            if (n < 0) {
                return;
            }
            data = kind == WireHeader.DATA;
            at += n;
        }
    }

    /** The layer above received {@code m} into {@code r}: its protocol takes it from here. */
    @Override
    public void receive(Message m, RecvRequest r) {
        if (state == FAILED || state == CLOSED) {
            r.complete(failStatus, failure);
            return;
        }
        creditsOwed += m.credit();
        m.carry(r);
    }

    // ---- what the protocols, rails and messages see of the gate ----------------------------

    @Override
    public int rank() {
        return rank;
    }

    /** The protocol per message length, for sending. */
    public ProtocolTable table() {
        return table;
    }

    @Override
    public Rail[] rails() {
        return rails;
    }

    @Override
    public Message view() {
        return view;
    }

    @Override
    public EngineStats stats() {
        return stats;
    }

    @Override
    public long credits() {
        return credits;
    }

    @Override
    public void spend(long cost) {
        credits -= cost;
    }

    @Override
    public void returnCredits(int credit) {
        creditsOwed += credit;
    }

    @Override
    public Delivery delivery() {
        return engine;
    }

    @Override
    public int passes() {
        return engine.passes();
    }

    @Override
    public Status failStatus() {
        return failStatus;
    }

    @Override
    public String failure() {
        return failure;
    }

    // ---- progress and failure ---------------------------------------------------------------

    /**
     * One pass: sends, then at most one packet per rail. True when anything happened. One packet,
     * not several: a pass that found one returns at once, so the caller acts on it without first
     * waiting for another poll of the driver, which over tcp is a read system call that is nearly
     * always empty (one more microsecond on every message's path). What a handler sends goes out
     * at once anyway ({@link #send} pushes).
     */
    public boolean progress() {
        if (idle.step != CloseHandshake.NONE) {
            return idle.progress();
        }
        boolean work = false;
        Rail[] rs = rails;
        for (int i = 0; i < rs.length; i++) {
            Rail r = rs[i];
            RawLane lane = lanes[i];
            // here, not in push: a send need not wait for the driver's answers about earlier ones
            if (i == 0 && pull != null && pull.exposing() && !pull.pollExposed()) {
                return work;
            }
            if (i == 0 && pull != null && pull.armedAny() && !pull.pollArmed()) {
                return work;
            }
            push(r, lane);
            if (state == OPEN && receive(r, lane)) {
                work = true;
            }
            work |= lane.movedOn(); // a large chunk that moved on, though it did not complete
            if (state != OPEN) {
                return work;
            }
        }
        return work;
    }

    /**
     * Receives and handles one packet on {@code r} and, when it asked for pulls, the packets right
     * behind it while they do too, then runs the pulls ({@link dev.ferry.core.protocol.PullPlan}); true when a packet came.
     */
    boolean receive(Rail r, RawLane lane) {
        boolean got = receiveOne(r, lane);
        if (pull != null && pull.planned()) {
            while (!pull.planFull() && state == OPEN && receiveOne(r, lane)) {
                // parse on while the packets are RTS to pull: their bookkeeping together, before the copies
            }
            pull.runPlanned();
        }
        return got;
    }

    /** The rail's next packet: raw bytes a DATA packet announced, or an engine packet. */
    private boolean receiveOne(Rail r, RawLane lane) {
        return lane.expecting() ? lane.receiveRaw() : r.receivePacket();
    }

    /** What this gate holds now, for a timeout's message: queues, rendezvous in flight, credits, each rail. */
    public String stateReport() {
        StringBuilder b = new StringBuilder("rank ").append(rank).append(": state ").append(state)
                .append(", out ").append(outQueue.size()).append(", ").append(put.stateReport());
        if (pull != null) {
            b.append(", ").append(pull.stateReport());
        }
        b.append(", credits ").append(credits).append(", owed ").append(creditsOwed);
        if (pool != null) {
            b.append(", granted ").append(granted);
        }
        if (asked || envelopes) {
            b.append(asked ? ", asked for credits" : "").append(envelopes ? ", sending envelopes" : "");
        }
        for (Rail r : rails) {
            b.append("; ").append(r.stateReport()).append(", ").append(put.lanes[r.index].stateReport()).append("; ").append(r.out);
        }
        return b.toString();
    }

    public boolean quiet() {
        if (idle.holds() || idle.control != 0 || !outQueue.isEmpty() || !put.quiet() || pull != null && !pull.quiet()) {
            return false;
        }
        for (Rail r : rails) {
            if (!r.free()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void malformed(Rail rail, String what) {
        fail(Status.BROKEN, "protocol error from rank " + rank + " on " + rail.ec.name() + ": " + what);
    }

    /** The peer is gone or misbehaved: every request involving it fails with {@code s}; other gates carry on. */
    @Override
    public void fail(Status s, String why) {
        if (state == FAILED || state == CLOSED) {
            return;
        }
        boolean closing = engine.closing();
        state = s == Status.CLOSED ? CLOSED : FAILED;
        failStatus = s == Status.DONE || s == Status.NOT_YET ? Status.BROKEN : s;
        failure = why;
        List<Request> failed = new ArrayList<>(outQueue);
        outQueue.clear();
        if (idle.holds()) {
            failed.addAll(idle.takeHeld());
        }
        idle.reset();
        put.drain(failed::add);
        if (pull != null) {
            pull.drain(failed::add);
        }
        for (Rail r : rails) {
            r.drain(failed::add);
        }
        for (Request q : failed) {
            q.complete(failStatus, why);
        }
        if (!closing || !failed.isEmpty()) {
            // a peer that left in order while nothing was pending here harmed nothing: no warning
            System.Logger.Level level = failStatus == Status.CLOSED && failed.isEmpty() ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING;
            engine.logger().log(level, "rank {0}: gate to rank {1} failed ({2}): {3}; {4} request(s) failed",
                    engine.rank(), rank, failStatus, why, failed.size());
        }
        engine.gateFailed(this);
    }

    // ---- idle close (CloseHandshake) -------------------------------------------------------

    /** Whether the connection may be closed now: open, able to reconnect, and quiet at both rails and protocols. */
    boolean canClose() {
        return state == OPEN && reconnects && idle.step == CloseHandshake.NONE && !parsing && quiet();
    }

    /** Asks the peer to close the connection ({@code why}: {@link CloseHandshake#IDLE} or {@link CloseHandshake#EVICTED}). */
    void askClose(int why) {
        engine.logger().log(System.Logger.Level.DEBUG, "rank {0}: gate to rank {1}: asks to close ({2})", engine.rank(), rank, why);
        idle.ask(why);
        push(rails[0]);
    }

    /** The rendezvous protocols and every rail are quiet (the packet being parsed aside). */
    boolean quietBesidesParsing() {
        if (!put.quiet() || pull != null && !pull.quiet()) {
            return false;
        }
        for (Rail r : rails) {
            if (!r.free()) {
                return false;
            }
        }
        return true;
    }

    /**
     * At close: waits (within each driver's connect bound) until the peer has taken up every
     * rail's connection. A driver may complete a send into a channel its peer has not opened yet
     * (shm writes into the ring before the peer attaches); leaving then would lose it.
     */
    public void awaitTakenUp() {
        for (Rail r : rails) {
            if (r.out == null || rank == engine.rank()) {
                continue;
            }
            Status s = r.out.connectWait();
            if (s != Status.DONE && s != Status.NOT_IMPLEMENTED) {
                engine.logger().log(System.Logger.Level.WARNING, "rank {0}: closing while rank {1} has not taken up the connection on {2} ({3}): what was sent to it may be lost",
                        engine.rank(), rank, r.ec.name(), s);
            }
        }
    }

    /** At close: disconnects the rails (the peer sees them CLOSED once it has read what came before). */
    public void close() {
        if (state == OPEN) {
            state = CLOSED;
            failStatus = Status.CLOSED;
            failure = "the engine closed";
            for (Rail r : rails) {
                put.lanes[r.index].cancel();
                r.disconnect();
            }
        }
    }
}
