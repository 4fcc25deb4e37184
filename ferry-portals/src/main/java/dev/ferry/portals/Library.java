package dev.ferry.portals;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.MessageHandler;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.SendRequest;
import dev.ferry.spi.Status;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.ferry.portals.Portals.*;

/**
 * The library side of Portals (seed 003's LIB): the state of every interface, and the two entry
 * points into it: the API's calls, through {@link Dispatch}, and incoming messages, through
 * {@link #onMessage} (seed 003's lib_parse; the engine is the NAL). Runs in one thread of control
 * at a time (the dispatch sees to it), so nothing here locks.
 *
 * <p>Operations: a put, atomic, fetch-atomic or swap carries header, operand and data in one
 * message when they fit the engine's eager limit; larger puts send the header first and the
 * data as a message of its own, which the target, having matched the header, receives straight
 * into the matched entry (the engine pulls it: target-initiated, seed 001). A get's reply works
 * the same way the other direction: the initiator pulls the data from the target's entry.
 */
final class Library implements MessageHandler {
    /** Where this library reports: its configuration's logger (through its engine). */
    final System.Logger log;
    /** Engine eager limits below this leave no room for the library's header and a useful payload. */
    static final long MIN_EAGER = 512;

    final Engine engine;
    /** The engine is a host's ({@link PortalsLibrary#host}): not ours to close. */
    final boolean hosted;
    final Dispatch dispatch;
    final int rank;
    final int size;
    final int uid;
    /** Node index of every engine rank (the physical nid), by order of first appearance. */
    final int[] nid;
    final Ni[] nis = new Ni[4];
    /** The lists of the portal table entries: appending, matching, unexpected headers, searches. */
    final MatchLists lists;
    /** The interfaces and the objects bound to them. */
    final Interfaces interfaces;
    /** The operations this process started. */
    final Initiator initiator;
    /** The entries this process publishes for same-node peers to reach directly. */
    final Directory directory;
    /** Operations this process does directly on same-node peers' published entries. */
    final DirectAccess direct;
    /** An 8-byte scratch word for atomics done with compare-and-swap, here and by {@link DirectAccess} (one thread at a time). */
    final MemorySegment atomicScratch = Arena.ofAuto().allocate(8, 8);
    /** Inline messages: their buffers and send requests, reused. */
    final InlineSender sender;
    /** The header of the message being handled, copied out of the packet (the library runs in one thread at a time). */
    private final MemorySegment header = Arena.ofAuto().allocate(PtlWire.HEADER, 8);
    /** The largest payload (operand + data) one message carries to any peer. */
    final long inlineMax;
    final long atomicMax;

    // initiator side
    // target side
    private final Map<Long, TargetOp> awaitingData = new HashMap<>();
    private final List<TargetOp> moving = new ArrayList<>();
    final boolean[] failedRank;
    /** Barriers and the fini meeting. */
    final Barriers barriers;
    private volatile String failure;

    /** A matched operation at the target whose data is still moving. */
    private static final class TargetOp {
        byte type;
        /** The operation failed before matching: its data is dropped when it comes. */
        boolean drop;
        int source;
        long id;
        ListEntry entry;
        Event event;
        boolean wantEvent;
        /** The entry was used up by this operation: it unlinks once the data moved. */
        boolean unlink;
        long offset;
        long mlength;
        int ack;
        RecvRequest recv;
        SendRequest send;
        int ni;
    }

    Library(PortalsConfig config, MessageHandlerSlot slot) {
        this(Engine.init(config.engine(), slot), slot);
    }

    /**
     * A library on {@code engine}: its own (from {@link PortalsLibrary#open}, {@code slot} its
     * handler) or a host's ({@code slot} null: the host routes the library's messages here and
     * keeps the engine).
     */
    Library(Engine engine, MessageHandlerSlot slot) {
        this.engine = engine;
        this.hosted = slot == null;
        this.log = engine.logger();
        try {
            boolean passive = PortalsSettings.passiveProgress(engine.settings());
            this.dispatch = hosted ? Dispatch.hosted(engine, passive) : Dispatch.of(engine, passive);
            this.rank = engine.rank();
            this.size = engine.size();
            this.uid = currentUid();
            this.nid = new int[size];
            Map<String, Integer> nodes = new HashMap<>();
            for (int r = 0; r < size; r++) {
                nid[r] = nodes.computeIfAbsent(engine.node(r), k -> nodes.size());
            }
            long eager = Long.MAX_VALUE;
            for (int r = 0; r < size; r++) {
                eager = Math.min(eager, engine.eagerLimit(r));
            }
            if (eager < MIN_EAGER) {
                throw new PtlException(ReturnCode.FAIL, "the engine's eager limit is " + eager + " bytes; the Portals library needs at least "
                        + MIN_EAGER + " (raise FERRY_EAGER_LIMIT)");
            }
            this.inlineMax = Math.min(eager, 64 * 1024) - PtlWire.HEADER;
            this.atomicMax = Math.min(4096, (inlineMax - PtlWire.MAX_OPERAND) & ~31L);
            this.failedRank = new boolean[size];
            this.directory = new Directory(this);
            this.direct = new DirectAccess(this, PortalsSettings.direct(engine.settings()));
            this.lists = new MatchLists(engine, directory);
            this.interfaces = new Interfaces(this);
            this.sender = new InlineSender(engine, PtlWire.HEADER + inlineMax);
            this.initiator = new Initiator(this);
            this.barriers = new Barriers(rank, size, failedRank, this::barrierMessage);
        } catch (RuntimeException e) {
            if (!hosted) {
                slot.abandon();
                engine.close();
            }
            throw e;
        }
        if (!hosted) {
            slot.publish(this);
        }
        dispatch.start();
    }

    /**
     * The engine needs its handler before the library exists, and with FERRY_PROGRESS=thread its
     * progress thread runs from then on: this forwards to the library once it is fully built. A
     * message that arrives earlier (a fast peer) waits for it here, on the progress thread.
     */
    static final class MessageHandlerSlot implements MessageHandler {
        private volatile Library target;
        private volatile boolean abandoned;

        void publish(Library lib) {
            target = lib;
        }

        /** The library failed to start: nothing will be published, messages are dropped. */
        void abandon() {
            abandoned = true;
        }

        private Library await() {
            Library t = target;
            if (t == null) { // a message that arrives while the library is still being built
                dev.ferry.spi.IdleStrategy.DEFAULT.await(() -> target != null || abandoned, Long.MAX_VALUE);
                t = target;
            }
            return t;
        }

        @Override
        public void onMessage(Message m) {
            Library t = await();
            if (t != null) {
                t.onMessage(m);
            }
        }

        @Override
        public void onPeerFailed(int rank, Status status, String why) {
            Library t = await();
            if (t != null) {
                t.onPeerFailed(rank, status, why);
            }
        }

        @Override
        public boolean onProgress() {
            Library t = target;
            return t != null && t.onProgress(); // nothing of the library's is in motion before it exists
        }
    }

    private static int currentUid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (Exception e) {
            return 0;
        }
    }

    static PtlException invalid(String what) {
        return new PtlException(ReturnCode.ARG_INVALID, what);
    }

    /** Engine rank of a target on {@code ni}; ARG_INVALID when there is no such process. */
    int engineRank(Ni ni, ProcessId id) {
        if (id == null) {
            throw invalid("target_id is null");
        }
        if (ni.logical) {
            if (id.rank < 0 || id.rank >= ni.rankToEngine.length) {
                throw invalid("rank " + Integer.toUnsignedString(id.rank) + " is outside the map (size " + ni.rankToEngine.length + ")");
            }
            return ni.rankToEngine[id.rank];
        }
        int pid = id.phys.pid;
        if (pid < 0 || pid >= size || nid[pid] != id.phys.nid) {
            throw invalid("no process " + id.phys + " in this job");
        }
        return pid;
    }

    ProcessId idOf(Ni ni, int engineRank) {
        ProcessId p = ProcessId.ofPhys(nid[engineRank], engineRank);
        p.rank = ni.logical ? ni.engineToRank[engineRank] : engineRank;
        return p;
    }

    // =========================================================================================
    // Initiator: starting operations
    // =========================================================================================

    // =========================================================================================
    // Incoming (seed 003's lib_parse)
    // =========================================================================================

    @Override
    public void onMessage(Message m) {
        if ((m.header() & PtlWire.DATA) != 0) {
            data(m);
            return;
        }
        if (m.isRendezvous()) {
            log.log(System.Logger.Level.WARNING, "rank {0}: a library header from rank {1} came by rendezvous ({2} bytes): dropped", rank, m.source(), m.length());
            return;
        }
        long n = m.length();
        if (n < PtlWire.HEADER) {
            log.log(System.Logger.Level.WARNING, "rank {0}: a {1}-byte message from rank {2} is too short for a library header: dropped", rank, n, m.source());
            return;
        }
        // the header is copied (64 bytes, into memory of our own); operands and data are read where
        // they lie: no view is allocated per message
        MemorySegment buf = m.buffer();
        long at = m.offset();
        MemorySegment p = header;
        MemorySegment.copy(buf, at, p, 0, PtlWire.HEADER);
        int src = m.source();
        switch (PtlWire.type(p)) {
            case PtlWire.PUT, PtlWire.ATOMIC, PtlWire.GET, PtlWire.FETCH, PtlWire.SWAP -> request(src, p, buf, at, n);
            case PtlWire.ACK -> initiator.ack(p);
            case PtlWire.REPLY -> initiator.reply(p, buf, at, n);
            case PtlWire.DIR_REQ -> directory.answer(src);
            case PtlWire.DIR_KEY -> direct.directoryKey(src, buf, at + PtlWire.HEADER, Math.min(PtlWire.length(p), n - PtlWire.HEADER));
            case PtlWire.BARRIER -> barriers.arrived(src, PtlWire.hdrData(p));
            case PtlWire.RELEASE -> barriers.released(PtlWire.hdrData(p), PtlWire.offset(p));
            default -> log.log(System.Logger.Level.WARNING, "rank {0}: unknown library message type {1} from rank {2}: dropped", rank, PtlWire.type(p), src);
        }
    }

    private static EventKind kindOf(byte type) {
        return switch (type) {
            case PtlWire.PUT -> EventKind.EVENT_PUT;
            case PtlWire.GET -> EventKind.EVENT_GET;
            case PtlWire.ATOMIC -> EventKind.EVENT_ATOMIC;
            default -> EventKind.EVENT_FETCH_ATOMIC;
        };
    }

    /** A header whose fields name nothing the library knows, or lengths its message does not hold: a protocol error, dropped. */
    void malformed(MemorySegment p, String what) {
        log.log(System.Logger.Level.WARNING, "{0} is malformed (an unknown code, or a length the message does not hold; op {1}, datatype {2}, fail {3}, list {4}): dropped",
                what, PtlWire.op(p), PtlWire.datatype(p), PtlWire.fail(p), PtlWire.list(p));
    }

    /**
     * A request at the target: match, move the data, post events, answer. {@code p} is its header;
     * the whole message ({@code n} bytes, header included) lies in {@code buf} from {@code at}.
     */
    private void request(int src, MemorySegment p, MemorySegment buf, long at, long n) {
        byte type = PtlWire.type(p);
        int niIndex = PtlWire.ni(p);
        long id = PtlWire.id(p);
        long rlength = PtlWire.length(p);
        boolean separate = (PtlWire.flags(p) & PtlWire.SEPARATE) != 0;
        int ack = PtlWire.ack(p);
        Op op = null;
        Datatype dt = null;
        if (type == PtlWire.ATOMIC || type == PtlWire.FETCH || type == PtlWire.SWAP) {
            op = Op.fromWire(PtlWire.op(p));
            dt = Datatype.fromWire(PtlWire.datatype(p));
            if (op == null || dt == null) {
                malformed(p, "an atomic request from rank " + src);
                return;
            }
        }
        int operandLen = PtlWire.operandLen(p);
        long dataAt = PtlWire.HEADER + operandLen;
        // what travels inline must be there: the operand, and the data of all but a separate put or a get
        long inline = type == PtlWire.GET || separate && type == PtlWire.PUT ? 0 : rlength;
        if (operandLen < 0 || operandLen > PtlWire.MAX_OPERAND || op != null && operandLen < Atomics.operandSize(op, dt) || rlength < 0
                || n < dataAt + inline) {
            malformed(p, "a request from rank " + src + " of " + n + " bytes (operand " + operandLen + ", length " + rlength + ")");
            return;
        }
        Ni ni = niIndex < nis.length ? nis[niIndex] : null;
        if (ni == null) {
            respondFailure(src, type, niIndex, ack, id, NiFail.NI_UNDELIVERABLE, separate);
            return;
        }
        int ptIndex = PtlWire.pt(p);
        if (ptIndex < 0 || ptIndex >= ni.pt.length || !ni.pt[ptIndex].allocated || !ni.pt[ptIndex].enabled) {
            ni.status[SR_DROP_COUNT]++;
            respondFailure(src, type, niIndex, ack, id, NiFail.NI_PT_DISABLED, separate);
            return;
        }
        PtEntry pt = ni.pt[ptIndex];
        ProcessId who = idOf(ni, src);
        long bits = PtlWire.matchBits(p);
        long roff = PtlWire.offset(p);
        ListEntry e = lists.match(pt.priority, ni, who, bits, rlength, roff);
        ListKind list = ListKind.PRIORITY_LIST;
        if (e == null) {
            e = lists.match(pt.overflow, ni, who, bits, rlength, roff);
            list = ListKind.OVERFLOW_LIST;
        }
        if (e == null) {
            ni.status[SR_DROP_COUNT]++;
            if ((pt.options & PT_FLOWCTRL) != 0) {
                disable(pt, ni, true);
                respondFailure(src, type, niIndex, ack, id, NiFail.NI_PT_DISABLED, separate);
            } else {
                respondFailure(src, type, niIndex, ack, id, NiFail.NI_DROPPED, separate);
            }
            return;
        }
        if ((pt.options & PT_FLOWCTRL) != 0 && pt.eq != null && !pt.eq.hasRoom()) {
            // no room for the event: the entry that matched decides whether the disabling is reported
            disable(pt, ni, !e.has(ME_EVENT_FLOWCTRL_DISABLE));
            respondFailure(src, type, niIndex, ack, id, NiFail.NI_PT_DISABLED, separate);
            return;
        }
        if (e.uid != UID_ANY && e.uid != PtlWire.uid(p)) {
            ni.status[SR_PERMISSIONS_VIOLATIONS]++;
            respondFailure(src, type, niIndex, ack, id, NiFail.NI_PERM_VIOLATION, separate);
            return;
        }
        boolean allowed = switch (type) {
            case PtlWire.PUT, PtlWire.ATOMIC -> e.has(ME_OP_PUT);
            case PtlWire.GET -> e.has(ME_OP_GET);
            default -> e.has(ME_OP_PUT) && e.has(ME_OP_GET);
        };
        if (!allowed) {
            ni.status[SR_OPERATION_VIOLATIONS]++;
            respondFailure(src, type, niIndex, ack, id, NiFail.NI_OP_VIOLATION, separate);
            return;
        }
        // placement: a locally managed offset, or the initiator's; what lies beyond the entry is truncated
        long offset = e.has(ME_MANAGE_LOCAL) ? e.localOffset : roff;
        // ptl_size_t is unsigned: an offset of 2^63 or more (negative here) lies beyond any entry
        long room = offset < 0 ? 0 : Math.max(0, e.region.length() - offset);
        long mlength = Math.min(rlength, room);
        if (dt != null) {
            mlength = dt.wholeElements(mlength);
        }
        if (e.has(ME_MANAGE_LOCAL)) {
            e.localOffset += mlength;
        }
        Event ev = null;
        boolean wantEvent = pt.eq != null && !e.has(ME_EVENT_COMM_DISABLE);
        if (wantEvent || list == ListKind.OVERFLOW_LIST) {
            ev = MatchLists.targetEvent(kindOf(type), pt, e, NiFail.NI_OK);
            ev.initiator = who;
            ev.uid = PtlWire.uid(p);
            ev.matchBits = bits;
            ev.rlength = rlength;
            ev.mlength = mlength;
            ev.remoteOffset = offset;
            ev.hdrData = PtlWire.hdrData(p);
            ev.ptlList = list;
            ev.atomicOperation = op;
            ev.atomicType = dt;
            ev.start = offset < 0 ? MemorySegment.NULL : e.region.contiguous(offset, mlength);
        }
        if (list == ListKind.OVERFLOW_LIST && !e.has(ME_UNEXPECTED_HDR_DISABLE)) {
            if (ni.unexpectedHeaders < ni.limits.maxUnexpectedHeaders) {
                MatchLists.keep(pt, ni, new Unexpected(kindOf(type), who, ev.uid, bits, rlength, mlength, offset, ev.hdrData, op, dt, e));
                ni.unexpectedHeaders++;
                e.unexpectedRefs++;
            } else {
                ni.status[SR_DROP_COUNT]++;
                log.log(System.Logger.Level.WARNING, "rank {0}: max_unexpected_headers {1} reached: the header of a message in the overflow list is not kept", rank, ni.limits.maxUnexpectedHeaders);
            }
        }
        boolean unlinkNow = e.has(ME_USE_ONCE) || e.has(ME_MANAGE_LOCAL) && e.minFree > 0 && e.region.length() - e.localOffset < e.minFree;
        if (unlinkNow) {
            e.pt.list(e.list).remove(e);
            e.linked = false;
            e.autoUnlinked = true;
            ni.entries--;
            if (e.list == ListKind.PRIORITY_LIST) {
                directory.republish(ni, pt); // entries behind it may now lead the list
            }
        }
        switch (type) {
            case PtlWire.PUT -> {
                if (!separate) {
                    copyIn(e, offset, buf, at + dataAt, mlength);
                    delivered(ni, pt, e, ev, wantEvent, src, PtlWire.ACK, ack, id, offset, mlength, list, unlinkNow);
                } else {
                    TargetOp t = moving(type, e, ev, wantEvent, unlinkNow);
                    t.source = src;
                    t.id = id;
                    t.offset = offset;
                    t.mlength = mlength;
                    t.ack = ack;
                    t.ni = niIndex;
                    awaitingData.put(key(src, id), t);
                }
            }
            case PtlWire.GET -> {
                if (mlength <= inlineMax) {
                    InlineSender.Outgoing out = sender.take();
                    PtlWire.response(out.buf, PtlWire.REPLY, niIndex, 0, 0, list.ordinal(), ptIndex, offset, mlength, id);
                    e.region.copyOut(offset, out.buf, PtlWire.HEADER, mlength);
                    sender.send(src, out, PtlWire.HEADER + mlength);
                    targetDone(pt, e, ev, wantEvent, unlinkNow, mlength);
                } else {
                    InlineSender.Outgoing out = sender.take();
                    PtlWire.response(out.buf, PtlWire.REPLY, niIndex, PtlWire.SEPARATE, 0, list.ordinal(), ptIndex, offset, mlength, id);
                    sender.send(src, out, PtlWire.HEADER);
                    TargetOp t = moving(type, e, ev, wantEvent, unlinkNow);
                    t.mlength = mlength;
                    t.send = new SendRequest();
                    engine.send(t.send.to(src, PtlWire.LIBRARY | PtlWire.DATA | id, e.region.layout(offset, mlength)));
                    moving.add(t);
                }
            }
            default -> atomic(ni, pt, e, ev, wantEvent, src, type, op, dt, operandLen > 0 ? buf : null, at + PtlWire.HEADER, buf, at + dataAt, ack, id,
                    offset, mlength, list, unlinkNow);
        }
    }

    /** A matched operation whose data still moves into or out of {@code e}. */
    private static TargetOp moving(byte type, ListEntry e, Event ev, boolean wantEvent, boolean unlink) {
        TargetOp t = new TargetOp();
        t.type = type;
        t.entry = e;
        t.event = ev;
        t.wantEvent = wantEvent;
        t.unlink = unlink;
        e.inFlight++;
        return t;
    }

    private static long key(int src, long id) {
        return ((long) src << 42) ^ id;
    }

    private void copyIn(ListEntry e, long offset, MemorySegment p, long at, long n) {
        if (n > 0) {
            e.region.copyIn(offset, p, at, n);
        }
    }

    /** The operand (null: none) lies in {@code operand} at {@code operandAt}, the data in {@code data} at {@code dataAt}. */
    private void atomic(Ni ni, PtEntry pt, ListEntry e, Event ev, boolean wantEvent, int src, byte type, Op op, Datatype dt, MemorySegment operand,
                        long operandAt, MemorySegment data, long dataAt, int ack, long id, long offset, long mlength, ListKind list, boolean unlinkNow) {
        boolean fetch = type != PtlWire.ATOMIC;
        InlineSender.Outgoing out = fetch ? sender.take() : null;
        MemorySegment target = e.region.containing(offset, mlength);
        long targetAt = e.region.foundAt;
        MemorySegment scratch = null;
        if (target == null) {
            // the range spans iovec elements: work on a copy, then write it back
            scratch = MemorySegment.ofArray(new byte[(int) mlength]);
            e.region.copyOut(offset, scratch, 0, mlength);
            target = scratch;
            targetAt = 0;
        }
        if (scratch == null && Directory.published(e) && Atomics.coherent(dt) && dt.divides(target.address() + targetAt)) {
            // same-node peers may be doing atomics on this memory directly: use the instructions they use
            Atomics.applyAtomically(op, dt, target, targetAt, data, dataAt, mlength, operand, operandAt, fetch ? out.buf : null, PtlWire.HEADER,
                    atomicScratch);
        } else {
            Atomics.apply(op, dt, target, targetAt, data, dataAt, mlength, operand, operandAt, fetch ? out.buf : null, PtlWire.HEADER);
        }
        if (scratch != null) {
            e.region.copyIn(offset, scratch, 0, mlength);
        }
        if (fetch) {
            PtlWire.response(out.buf, PtlWire.REPLY, ni.index, 0, 0, list.ordinal(), pt.index, offset, mlength, id);
            sender.send(src, out, PtlWire.HEADER + mlength);
            targetDone(pt, e, ev, wantEvent, unlinkNow, mlength);
        } else {
            delivered(ni, pt, e, ev, wantEvent, src, PtlWire.ACK, ack, id, offset, mlength, list, unlinkNow);
        }
    }

    /** A put or atomic has its data in place: events, counts, the ack. */
    private void delivered(Ni ni, PtEntry pt, ListEntry e, Event ev, boolean wantEvent, int src, byte respType, int ack, long id,
                           long offset, long mlength, ListKind list, boolean unlinkNow) {
        targetDone(pt, e, ev, wantEvent, unlinkNow, mlength);
        boolean due = (ack & ~PtlWire.ORDERED) != AckReq.NO_ACK_REQ.ordinal() && !e.has(ME_ACK_DISABLE);
        if (due || (ack & PtlWire.ORDERED) != 0) {
            InlineSender.Outgoing out = sender.take();
            PtlWire.response(out.buf, respType, ni.index, due ? 0 : PtlWire.SILENT, 0, list.ordinal(), pt.index, offset, mlength, id);
            sender.send(src, out, PtlWire.HEADER);
        }
    }

    /**
     * The target's events for a completed operation on entry {@code e} that moved {@code mlength}
     * bytes (counted as bytes with ME_EVENT_CT_BYTES, whether or not the entry's portal table
     * entry has an event queue).
     */
    private void targetDone(PtEntry pt, ListEntry e, Event ev, boolean wantEvent, boolean unlinkNow, long mlength) {
        if (ev != null && wantEvent && !(ev.niFailType == NiFail.NI_OK && e.has(ME_EVENT_SUCCESS_DISABLE))) {
            pt.eq.post(ev);
        }
        if (e.ct != null && e.has(ME_EVENT_CT_COMM)) {
            if (ev != null && ev.niFailType != NiFail.NI_OK) {
                e.ct.add(0, 1);
            } else {
                e.ct.add(e.has(ME_EVENT_CT_BYTES) ? mlength : 1, 0);
            }
        }
        if (unlinkNow) {
            if (pt.eq != null && !e.has(ME_EVENT_UNLINK_DISABLE)) {
                pt.eq.post(MatchLists.targetEvent(EventKind.EVENT_AUTO_UNLINK, pt, e, NiFail.NI_OK));
            }
            engine.memory().deregister(e.registration);
            e.registration = null;
            if (e.list == ListKind.OVERFLOW_LIST && e.unexpectedRefs == 0) {
                lists.autoFree(e);
            }
        }
    }

    /** Flow control: disables {@code pt}, with a PT_DISABLED event unless the entry that caused it asked for none. */
    private void disable(PtEntry pt, Ni ni, boolean event) {
        if (!pt.enabled) {
            return;
        }
        pt.enabled = false;
        directory.republish(ni, pt);
        if (event && pt.eq != null) {
            Event ev = new Event();
            ev.type = EventKind.EVENT_PT_DISABLED;
            ev.ptIndex = pt.index;
            ev.niFailType = NiFail.NI_PT_DISABLED;
            pt.eq.post(ev);
        }
    }

    /** Tells the initiator its request failed (when it waits for an answer), and drops separate data. */
    private void respondFailure(int src, byte type, int niIndex, int ack, long id, NiFail why, boolean separate) {
        if (separate) {
            TargetOp t = new TargetOp();
            t.drop = true;
            awaitingData.put(key(src, id), t);
        }
        boolean due = type != PtlWire.PUT && type != PtlWire.ATOMIC || (ack & ~PtlWire.ORDERED) != AckReq.NO_ACK_REQ.ordinal();
        if (!due && (ack & PtlWire.ORDERED) == 0) {
            return;
        }
        InlineSender.Outgoing out = sender.take();
        byte resp = type == PtlWire.PUT || type == PtlWire.ATOMIC ? PtlWire.ACK : PtlWire.REPLY;
        PtlWire.response(out.buf, resp, niIndex, due ? 0 : PtlWire.SILENT, why.ordinal(), 0, 0, 0, 0, id);
        sender.send(src, out, PtlWire.HEADER);
    }

    /** The separate data of a large put (at the target) or of a large reply (at the initiator). */
    private void data(Message m) {
        long id = m.header() & PtlWire.ID_MASK;
        TargetOp t = awaitingData.remove(key(m.source(), id));
        if (t != null) {
            if (t.drop) {
                m.drop();
                return;
            }
            t.recv = new RecvRequest();
            m.receive(t.entry.region.layout(t.offset, t.mlength), t.recv);
            moving.add(t);
            return;
        }
        if (initiator.replyData(m, id)) {
            return;
        }
        log.log(System.Logger.Level.WARNING, "rank {0}: data for operation {1} from rank {2}, which nobody waits for: dropped", rank, id, m.source());
        m.drop();
    }

    // =========================================================================================
    // Progress: completions the library waits for
    // =========================================================================================

    @Override
    public boolean onProgress() {
        boolean work = false;
        work |= sender.progress();
        work |= initiator.progress();
        for (int i = moving.size() - 1; i >= 0; i--) {
            TargetOp t = moving.get(i);
            dev.ferry.core.request.Request r = t.recv != null ? t.recv : t.send;
            if (!r.isDone()) {
                continue;
            }
            moving.remove(i);
            t.entry.inFlight--;
            boolean ok = r.status() == Status.DONE;
            if (t.event != null && !ok) {
                t.event.niFailType = NiFail.NI_UNDELIVERABLE;
            }
            PtEntry pt = t.entry.pt;
            if (t.type == PtlWire.PUT) {
                Ni ni = nis[t.ni];
                if (ni != null) {
                    delivered(ni, pt, t.entry, t.event, t.wantEvent, t.source, PtlWire.ACK,
                            ok ? t.ack : t.ack & PtlWire.ORDERED | AckReq.NO_ACK_REQ.ordinal(), t.id, t.offset, t.mlength, t.entry.list, t.unlink);
                }
            } else {
                targetDone(pt, t.entry, t.event, t.wantEvent, t.unlink, t.mlength);
            }
            work = true;
        }
        return work;
    }

    @Override
    public void onPeerFailed(int peer, Status status, String why) {
        failedRank[peer] = true;
        barriers.peerFailed(); // a dead rank no longer holds a barrier or fini up
        failure = "rank " + peer + " failed: " + why;
        log.log(System.Logger.Level.WARNING, "rank {0}: {1}; its operations fail with NI_UNDELIVERABLE", rank, failure);
        direct.peerFailed(peer);
        initiator.peerFailed(peer);
        awaitingData.entrySet().removeIf(en -> {
            if ((en.getKey() >>> 42) != peer) {
                return false;
            }
            if (en.getValue().entry != null) {
                en.getValue().entry.inFlight--;
            }
            return true;
        });
    }

    /** Sends a BARRIER or RELEASE ({@link Barriers}). */
    private void barrierMessage(int to, byte type, long epoch, long detail) {
        InlineSender.Outgoing out = sender.take();
        PtlWire.request(out.buf, type, 0, 0, 0, 0, 0, 0, uid, 0, detail, epoch, 0, 0, 0);
        sender.send(to, out, PtlWire.HEADER);
    }

    String failure() {
        return failure;
    }

    boolean quiet() {
        return sender.quiet() && initiator.quiet() && moving.isEmpty();
    }
}
