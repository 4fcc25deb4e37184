package dev.ferry.portals;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.engine.Message;
import dev.ferry.core.engine.MessageHandler;
import dev.ferry.core.engine.RecvRequest;
import dev.ferry.core.engine.SendRequest;
import dev.ferry.spi.Status;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
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
    private static final System.Logger LOG = System.getLogger(Library.class.getName());
    /** Engine eager limits below this leave no room for the library's header and a useful payload. */
    static final long MIN_EAGER = 512;

    final Engine engine;
    final Dispatch dispatch;
    final int rank;
    final int size;
    final int uid;
    /** Node index of every engine rank (the physical nid), by order of first appearance. */
    final int[] nid;
    final Ni[] nis = new Ni[4];
    /** The largest payload (operand + data) one message carries to any peer. */
    final long inlineMax;
    final long atomicMax;

    // initiator side
    private Outstanding[] ops = new Outstanding[64];
    private final ArrayDeque<Outstanding> freeOps = new ArrayDeque<>();
    private final List<Outstanding> sending = new ArrayList<>();
    private final List<Outstanding> replying = new ArrayList<>();
    private final ArrayDeque<Outgoing> outgoing = new ArrayDeque<>();
    private final List<Outgoing> inflight = new ArrayList<>();
    // target side
    private final Map<Long, TargetOp> awaitingData = new HashMap<>();
    private final List<TargetOp> moving = new ArrayList<>();
    // barrier (the fini rendezvous of every rank)
    private int barrierArrived;
    private volatile long barrierReleased;
    private final boolean[] failedRank;
    private volatile String failure;

    /** An inline message being sent: a send request and its buffer, reused. */
    private static final class Outgoing {
        final SendRequest req = new SendRequest();
        final MemorySegment buf;

        Outgoing(long capacity) {
            buf = Arena.ofAuto().allocate(capacity, 8);
        }
    }

    /** A matched operation at the target whose data is still moving. */
    private static final class TargetOp {
        byte type;
        int source;
        long id;
        ListEntry entry;
        Event event;
        long offset;
        long mlength;
        int ack;
        RecvRequest recv;
        SendRequest send;
        int ni;
    }

    Library(MessageHandlerSlot slot) {
        slot.target = this;
        this.engine = Engine.init(slot);
        try {
            this.dispatch = Dispatch.of(engine);
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
        } catch (RuntimeException e) {
            engine.close(false);
            throw e;
        }
    }

    /** The engine needs its handler before the library exists: this forwards to it. */
    static final class MessageHandlerSlot implements MessageHandler {
        Library target;

        @Override
        public void onMessage(Message m) {
            target.onMessage(m);
        }

        @Override
        public void onPeerFailed(int rank, Status status, String why) {
            target.onPeerFailed(rank, status, why);
        }

        @Override
        public boolean onProgress() {
            return target != null && target.onProgress();
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

    // =========================================================================================
    // Interfaces
    // =========================================================================================

    static NiLimits provided() {
        NiLimits l = new NiLimits();
        l.maxEntries = 1 << 20;
        l.maxUnexpectedHeaders = 1 << 20;
        l.maxMds = 1 << 20;
        l.maxCts = 1 << 16;
        l.maxEqs = 1 << 12;
        l.maxPtIndex = 255;
        l.maxIovecs = 1024;
        l.maxListSize = 1 << 20;
        l.maxTriggeredOps = 1 << 20;
        l.maxMsgSize = Long.MAX_VALUE;
        l.features = 0;
        return l;
    }

    NiInitResult niInit(int options, int pid, NiLimits desired) {
        int index = ((options & NI_MATCHING) != 0 ? 0 : 1) | ((options & NI_LOGICAL) != 0 ? 0 : 2);
        Ni existing = nis[index];
        if (existing != null) {
            existing.refs++;
            return new NiInitResult(existing.handle, existing.limits.copy());
        }
        if (pid != PID_ANY && pid != rank) {
            throw new PtlException(ReturnCode.PID_IN_USE, "this process's pid is " + rank + " (its rank in the job); asked for " + Integer.toUnsignedString(pid));
        }
        NiLimits l = provided();
        l.maxAtomicSize = atomicMax;
        l.maxFetchAtomicSize = atomicMax;
        l.maxWawOrderedSize = inlineMax;
        l.maxWarOrderedSize = inlineMax;
        l.maxVolatileSize = inlineMax;
        if (desired != null) {
            // a desired limit below what we provide is granted as asked (the program's own bound)
            l.maxEntries = clamp(desired.maxEntries, l.maxEntries);
            l.maxUnexpectedHeaders = clamp(desired.maxUnexpectedHeaders, l.maxUnexpectedHeaders);
            l.maxMds = clamp(desired.maxMds, l.maxMds);
            l.maxCts = clamp(desired.maxCts, l.maxCts);
            l.maxEqs = clamp(desired.maxEqs, l.maxEqs);
            l.maxPtIndex = clamp(desired.maxPtIndex, l.maxPtIndex);
            l.maxIovecs = clamp(desired.maxIovecs, l.maxIovecs);
            l.maxListSize = clamp(desired.maxListSize, l.maxListSize);
            l.maxTriggeredOps = clamp(desired.maxTriggeredOps, l.maxTriggeredOps);
        }
        Ni ni = new Ni(this, index, options, l);
        ni.map = new ProcessId[size];
        ni.rankToEngine = new int[size];
        ni.engineToRank = new int[size];
        for (int r = 0; r < size; r++) {
            ni.map[r] = ProcessId.ofPhys(nid[r], r);
            ni.map[r].rank = r;
            ni.rankToEngine[r] = r;
            ni.engineToRank[r] = r;
        }
        nis[index] = ni;
        return new NiInitResult(ni.handle, l.copy());
    }

    private static int clamp(int desired, int provided) {
        return desired > 0 && desired < provided ? desired : provided;
    }

    Void niFini(Ni ni) {
        if (--ni.refs > 0) {
            return null;
        }
        ni.closed = true;
        for (PtEntry p : ni.pt) {
            for (ListKind k : ListKind.values()) {
                for (ListEntry e : p.list(k)) {
                    e.linked = false;
                    engine.deregister(e.registration);
                }
                p.list(k).clear();
            }
            p.unexpected.clear();
            p.allocated = false;
        }
        for (EventQueue q : ni.eqList) {
            q.freed = true;
        }
        for (Counter c : ni.ctList) {
            c.freed = true;
        }
        nis[ni.index] = null;
        return null;
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

    Void setMap(Ni ni, ProcessId[] mapping, int mapSize) {
        if (!ni.logical) {
            throw invalid("setMap needs a logically addressed interface, not the " + ni);
        }
        int[] r2e = new int[mapSize];
        int[] e2r = new int[size];
        java.util.Arrays.fill(e2r, -1);
        ProcessId[] map = new ProcessId[mapSize];
        for (int r = 0; r < mapSize; r++) {
            ProcessId p = mapping[r];
            if (p == null) {
                throw invalid("mapping[" + r + "] is null");
            }
            int pid = p.phys.pid;
            if (pid < 0 || pid >= size || nid[pid] != p.phys.nid) {
                throw invalid("mapping[" + r + "]: no process " + p.phys + " in this job");
            }
            r2e[r] = pid;
            if (e2r[pid] < 0) {
                e2r[pid] = r;
            }
            map[r] = ProcessId.ofPhys(p.phys.nid, pid);
            map[r].rank = r;
        }
        ni.rankToEngine = r2e;
        ni.engineToRank = e2r;
        ni.map = map;
        return null;
    }

    GetMapResult getMap(Ni ni, int mapSize) {
        if (!ni.logical) {
            throw invalid("getMap needs a logically addressed interface, not the " + ni);
        }
        int n = Math.min(mapSize, ni.map.length);
        ProcessId[] out = new ProcessId[n];
        for (int i = 0; i < n; i++) {
            out[i] = ni.map[i].copy();
        }
        return new GetMapResult(out, ni.map.length);
    }

    // =========================================================================================
    // Portal table
    // =========================================================================================

    int ptAlloc(Ni ni, int options, EventQueue eq, int req) {
        if ((options & PT_FLOWCTRL) != 0 && eq == null) {
            throw new PtlException(ReturnCode.PT_EQ_NEEDED, "PT_FLOWCTRL needs an event queue, got EQ_NONE");
        }
        int index;
        if (req == PT_ANY) {
            index = -1;
            for (PtEntry p : ni.pt) {
                if (!p.allocated) {
                    index = p.index;
                    break;
                }
            }
            if (index < 0) {
                throw new PtlException(ReturnCode.PT_FULL, "all " + ni.pt.length + " portal table entries are allocated");
            }
        } else {
            if (req < 0 || req > ni.limits.maxPtIndex) {
                throw invalid("pt_index " + Integer.toUnsignedString(req) + " is beyond max_pt_index " + ni.limits.maxPtIndex);
            }
            if (ni.pt[req].allocated) {
                throw new PtlException(ReturnCode.PT_IN_USE, "portal table entry " + req + " is allocated");
            }
            index = req;
        }
        PtEntry p = ni.pt[index];
        p.allocated = true;
        p.enabled = true;
        p.options = options;
        p.eq = eq;
        return index;
    }

    PtEntry pt(Ni ni, int index) {
        if (index < 0 || index >= ni.pt.length || !ni.pt[index].allocated) {
            throw invalid("portal table entry " + Integer.toUnsignedString(index) + " is not allocated");
        }
        return ni.pt[index];
    }

    Void ptFree(Ni ni, int index) {
        PtEntry p = pt(ni, index);
        if (!p.priority.isEmpty() || !p.overflow.isEmpty()) {
            throw new PtlException(ReturnCode.PT_IN_USE, "portal table entry " + index + " still has " + (p.priority.size() + p.overflow.size()) + " list entries");
        }
        ni.unexpectedHeaders -= p.unexpected.size();
        p.unexpected.clear();
        p.allocated = false;
        p.enabled = false;
        p.eq = null;
        return null;
    }

    Void ptEnable(Ni ni, int index, boolean on) {
        pt(ni, index).enabled = on;
        return null;
    }

    // =========================================================================================
    // MDs, EQs, CTs
    // =========================================================================================

    MdHandle mdBind(Ni ni, Region region, int options, EventQueue eq, Counter ct) {
        if (ni.mds >= ni.limits.maxMds) {
            throw new PtlException(ReturnCode.NO_SPACE, "max_mds " + ni.limits.maxMds + " memory descriptors are bound");
        }
        MemDesc d = new MemDesc(ni, region, options, eq, ct);
        d.registration = validate(region);
        ni.mds++;
        return d.handle;
    }

    /** Seed 003's validate: registers the memory with the drivers that need it for zero-copy. */
    private Object validate(Region r) {
        MemorySegment[] parts = r.parts();
        if (parts.length == 1 && parts[0].isNative() && parts[0].byteSize() >= 4096) {
            return engine.register(parts[0]);
        }
        return null;
    }

    Void mdRelease(MemDesc d) {
        if (d.inFlight > 0) {
            throw new PtlException(ReturnCode.IN_USE, "memory descriptor " + d + " has " + d.inFlight + " operations in flight");
        }
        d.freed = true;
        d.ni.mds--;
        engine.deregister(d.registration);
        d.registration = null;
        return null;
    }

    EqHandle eqAlloc(Ni ni, long count) {
        if (ni.eqs >= ni.limits.maxEqs) {
            throw new PtlException(ReturnCode.NO_SPACE, "max_eqs " + ni.limits.maxEqs + " event queues are allocated");
        }
        if (count > 1 << 24) {
            throw new PtlException(ReturnCode.NO_SPACE, "an event queue of " + count + " events is too large (at most " + (1 << 24) + ")");
        }
        EventQueue q = new EventQueue(ni, (int) count);
        ni.eqs++;
        ni.eqList.add(q);
        return q.handle;
    }

    Void eqFree(EventQueue q) {
        for (PtEntry p : q.ni.pt) {
            if (p.allocated && p.eq == q) {
                throw new PtlException(ReturnCode.IN_USE, "event queue " + q + " is the queue of portal table entry " + p.index);
            }
        }
        q.freed = true;
        q.ni.eqs--;
        q.ni.eqList.remove(q);
        return null;
    }

    CtHandle ctAlloc(Ni ni) {
        if (ni.cts >= ni.limits.maxCts) {
            throw new PtlException(ReturnCode.NO_SPACE, "max_cts " + ni.limits.maxCts + " counting events are allocated");
        }
        Counter c = new Counter(ni);
        ni.cts++;
        ni.ctList.add(c);
        return c.handle;
    }

    Void ctFree(Counter c) {
        c.cancelTriggered();
        c.freed = true;
        c.ni.cts--;
        c.ni.ctList.remove(c);
        return null;
    }

    private int triggeredOps(Ni ni) {
        int n = 0;
        for (Counter c : ni.ctList) {
            n += c.triggeredCount();
        }
        return n;
    }

    /** Adds a triggered operation (the caller checked its arguments). */
    Void trigger(Counter trig, long threshold, Runnable action) {
        if (triggeredOps(trig.ni) >= trig.ni.limits.maxTriggeredOps) {
            throw new PtlException(ReturnCode.NO_SPACE, "max_triggered_ops " + trig.ni.limits.maxTriggeredOps + " triggered operations are pending");
        }
        trig.addTriggered(threshold, action);
        return null;
    }

    // =========================================================================================
    // List entries
    // =========================================================================================

    Handle append(Ni ni, int ptIndex, ListEntry e) {
        PtEntry p = e.pt;
        if (ni.entries >= ni.limits.maxEntries) {
            throw new PtlException(ReturnCode.NO_SPACE, "max_entries " + ni.limits.maxEntries + " list entries are appended");
        }
        List<ListEntry> list = p.list(e.list);
        if (list.size() >= ni.limits.maxListSize) {
            throw new PtlException(ReturnCode.LIST_TOO_LONG, "the " + e.list + " of portal table entry " + ptIndex + " holds max_list_size " + ni.limits.maxListSize + " entries");
        }
        if (e.list == ListKind.PRIORITY_LIST && !p.unexpected.isEmpty()) {
            // seed: a new priority entry first takes the unexpected headers it matches
            if (takeUnexpected(p, e)) {
                return e.handle; // used up at once (use-once): never linked
            }
        }
        e.registration = validate(e.region);
        e.linked = true;
        list.add(e);
        ni.entries++;
        if (p.eq != null && !e.has(ME_EVENT_LINK_DISABLE)) {
            Event ev = targetEvent(EventKind.EVENT_LINK, p, e, NiFail.NI_OK);
            p.eq.post(ev);
        }
        return e.handle;
    }

    /** Takes the matching unexpected headers for a new priority entry; true when it was used up. */
    private boolean takeUnexpected(PtEntry p, ListEntry e) {
        Iterator<Unexpected> it = p.unexpected.iterator();
        while (it.hasNext()) {
            Unexpected u = it.next();
            if (!searchMatches(e, u)) {
                continue;
            }
            it.remove();
            e.ni.unexpectedHeaders--;
            EventKind k = switch (u.kind()) {
                case EVENT_GET -> EventKind.EVENT_GET_OVERFLOW;
                case EVENT_ATOMIC -> EventKind.EVENT_ATOMIC_OVERFLOW;
                case EVENT_FETCH_ATOMIC -> EventKind.EVENT_FETCH_ATOMIC_OVERFLOW;
                default -> EventKind.EVENT_PUT_OVERFLOW;
            };
            if (p.eq != null && !e.has(ME_EVENT_OVER_DISABLE) && !e.has(ME_EVENT_COMM_DISABLE) && !e.has(ME_EVENT_SUCCESS_DISABLE)) {
                Event ev = eventFromHeader(k, p, u, e.userPtr);
                p.eq.post(ev);
            }
            if (e.ct != null && e.has(ME_EVENT_CT_OVERFLOW)) {
                e.ct.add(e.has(ME_EVENT_CT_BYTES) ? u.mlength() : 1, 0);
            }
            released(u.entry());
            if (e.has(ME_USE_ONCE)) {
                return true;
            }
        }
        return false;
    }

    private Event eventFromHeader(EventKind k, PtEntry p, Unexpected u, Object userPtr) {
        Event ev = new Event();
        ev.type = k;
        ev.ptIndex = p.index;
        ev.userPtr = userPtr;
        ev.hdrData = u.hdrData();
        ev.matchBits = u.matchBits();
        ev.rlength = u.rlength();
        ev.mlength = u.mlength();
        ev.remoteOffset = u.offset();
        ev.uid = u.uid();
        ev.initiator = u.initiator();
        ev.ptlList = ListKind.OVERFLOW_LIST;
        ev.atomicOperation = u.op();
        ev.atomicType = u.datatype();
        ev.start = u.entry().region.contiguous(u.offset(), u.mlength());
        return ev;
    }

    /** An unexpected header's data no longer needs its overflow entry. */
    private void released(ListEntry overflowEntry) {
        if (--overflowEntry.unexpectedRefs == 0 && overflowEntry.autoUnlinked) {
            autoFree(overflowEntry);
        }
    }

    private void autoFree(ListEntry e) {
        if (e.pt.eq != null && !e.has(ME_EVENT_UNLINK_DISABLE)) {
            e.pt.eq.post(targetEvent(EventKind.EVENT_AUTO_FREE, e.pt, e, NiFail.NI_OK));
        }
    }

    private boolean searchMatches(ListEntry e, Unexpected u) {
        if (e.matching) {
            if (((u.matchBits() ^ e.matchBits) & ~e.ignoreBits) != 0 || !idMatches(e, u.initiator())) {
                return false;
            }
        }
        return switch (u.kind()) {
            case EVENT_GET -> e.has(ME_OP_GET);
            case EVENT_FETCH_ATOMIC -> e.has(ME_OP_GET) && e.has(ME_OP_PUT);
            default -> e.has(ME_OP_PUT);
        };
    }

    Void unlink(ListEntry e) {
        if (e.inFlight > 0) {
            throw new PtlException(ReturnCode.IN_USE, "entry " + e + " has " + e.inFlight + " operations moving data");
        }
        if (e.linked) {
            e.pt.list(e.list).remove(e);
            e.linked = false;
            e.ni.entries--;
            engine.deregister(e.registration);
            e.registration = null;
        }
        return null;
    }

    Void search(ListEntry probe, SearchOp op, Object userPtr) {
        PtEntry p = probe.pt;
        boolean found = false;
        Iterator<Unexpected> it = p.unexpected.iterator();
        while (it.hasNext()) {
            Unexpected u = it.next();
            if (!searchMatches(probe, u)) {
                continue;
            }
            found = true;
            if (p.eq != null) {
                p.eq.post(eventFromHeader(EventKind.EVENT_SEARCH, p, u, userPtr));
            }
            if (probe.ct != null && probe.has(ME_EVENT_CT_COMM)) {
                probe.ct.add(probe.has(ME_EVENT_CT_BYTES) ? u.mlength() : 1, 0);
            }
            if (op == SearchOp.SEARCH_ONLY) {
                break;
            }
            it.remove();
            probe.ni.unexpectedHeaders--;
            released(u.entry());
        }
        if (!found && p.eq != null) {
            Event ev = new Event();
            ev.type = EventKind.EVENT_SEARCH;
            ev.ptIndex = p.index;
            ev.userPtr = userPtr;
            ev.niFailType = NiFail.NI_NO_MATCH;
            p.eq.post(ev);
        }
        return null;
    }

    private boolean idMatches(ListEntry e, ProcessId who) {
        ProcessId m = e.matchId;
        if (e.ni.logical) {
            return m.rank == RANK_ANY || m.rank == who.rank;
        }
        return (m.phys.nid == NID_ANY || m.phys.nid == who.phys.nid) && (m.phys.pid == PID_ANY || m.phys.pid == who.phys.pid);
    }

    // =========================================================================================
    // Initiator: starting operations
    // =========================================================================================

    private Outstanding takeOp() {
        Outstanding o = freeOps.poll();
        if (o == null) {
            int slot = 0;
            while (slot < ops.length && ops[slot] != null) {
                slot++;
            }
            if (slot == ops.length) {
                ops = java.util.Arrays.copyOf(ops, ops.length * 2);
            }
            o = new Outstanding(slot);
            ops[slot] = o;
        }
        o.generation = (o.generation + 1) & 0xfffff;
        return o;
    }

    private void freeOp(Outstanding o) {
        if (o.putMd != null) {
            o.putMd.inFlight--;
        }
        if (o.getMd != null) {
            o.getMd.inFlight--;
        }
        o.putMd = null;
        o.getMd = null;
        o.userPtr = null;
        o.dataSend = null;
        o.replyRecv = null;
        o.generation = (o.generation + 1) & 0xfffff; // a late response to the old id finds nothing
        freeOps.push(o);
    }

    private Outstanding lookup(long id) {
        int slot = (int) (id & 0xfffff);
        if (slot >= ops.length || ops[slot] == null) {
            return null;
        }
        Outstanding o = ops[slot];
        return o.id() == id && (o.waitResponse || o.waitSend) ? o : null;
    }

    private Outgoing takeOutgoing() {
        Outgoing o = outgoing.poll();
        return o != null ? o : new Outgoing(PtlWire.HEADER + inlineMax);
    }

    /** Sends {@code n} bytes of {@code out.buf} to engine rank {@code peer}. */
    private void sendInline(int peer, Outgoing out, long n) {
        engine.send(out.req.to(peer, 0L, out.buf.asSlice(0, n)));
        if (out.req.isDone()) {
            outgoing.push(out);
        } else {
            inflight.add(out);
        }
    }

    /** One operation: put, get, atomic, fetch, swap (the API checked the arguments against the MDs). */
    Void start(byte type, Ni ni, MemDesc putMd, long putOff, MemDesc getMd, long getOff, long length, AckReq ack, int target,
               int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, MemorySegment operand, Op op, Datatype dt) {
        if (failedRank[target]) {
            failed(type, putMd, getMd, length, userPtr, ack, NiFail.NI_UNDELIVERABLE, ptIndex, matchBits, hdrData);
            return null;
        }
        Outstanding o = takeOp();
        o.type = type;
        o.ni = ni;
        o.putMd = putMd;
        o.getMd = getMd;
        o.localPutOffset = putOff;
        o.localGetOffset = getOff;
        o.length = length;
        o.userPtr = userPtr;
        o.ack = ack;
        o.target = target;
        o.ptIndex = ptIndex;
        o.matchBits = matchBits;
        o.hdrData = hdrData;
        o.op = op;
        o.datatype = dt;
        o.replyMlength = -1;
        if (putMd != null) {
            putMd.inFlight++;
        }
        if (getMd != null) {
            getMd.inFlight++;
        }
        boolean carriesData = type != PtlWire.GET;
        int operandLen = operand == null ? 0 : (int) operand.byteSize();
        boolean inline = !carriesData || operandLen + length <= inlineMax;
        o.waitResponse = type != PtlWire.PUT && type != PtlWire.ATOMIC || ack != AckReq.NO_ACK_REQ;
        Outgoing out = takeOutgoing();
        PtlWire.request(out.buf, type, ni.index, ack == null ? 0 : ack.ordinal(), op == null ? 0 : op.ordinal(), dt == null ? 0 : dt.ordinal(),
                inline ? 0 : PtlWire.SEPARATE, ptIndex, uid, matchBits, remoteOffset, hdrData, length, o.id(), operandLen);
        long n = PtlWire.HEADER;
        if (operandLen > 0) {
            MemorySegment.copy(operand, 0, out.buf, n, operandLen);
            n += operandLen;
        }
        if (carriesData && inline && length > 0) {
            putMd.region.copyOut(putOff, out.buf, n, length);
            n += length;
        }
        sendInline(target, out, n);
        if (carriesData && !inline) {
            // the data as a message of its own, moved from the MD itself (zero-copy for large ones)
            SendRequest s = new SendRequest();
            engine.send(s.to(target, PtlWire.DATA | o.id(), putMd.region.layout(putOff, length)));
            o.dataSend = s;
            o.waitSend = true;
            sending.add(o);
        } else if (carriesData) {
            sendEvent(o, NiFail.NI_OK); // the data was copied out of the MD: it has left it
        }
        if (!o.waitSend && !o.waitResponse) {
            freeOp(o);
        }
        return null;
    }

    /** Events of an operation that cannot start (its target is known dead). */
    private void failed(byte type, MemDesc putMd, MemDesc getMd, long length, Object userPtr, AckReq ack, NiFail why, int pt, long bits, long hdr) {
        if (type != PtlWire.GET) {
            postInitiator(putMd, EventKind.EVENT_SEND, why, userPtr, length, 0, 0, pt, bits, hdr, MD_EVENT_CT_SEND);
        }
        if (type == PtlWire.GET || type == PtlWire.FETCH || type == PtlWire.SWAP) {
            postInitiator(getMd, EventKind.EVENT_REPLY, why, userPtr, length, 0, 0, pt, bits, hdr, MD_EVENT_CT_REPLY);
        } else if (ack != AckReq.NO_ACK_REQ) {
            postInitiator(putMd, EventKind.EVENT_ACK, why, userPtr, length, 0, 0, pt, bits, hdr, MD_EVENT_CT_ACK);
        }
    }

    private void sendEvent(Outstanding o, NiFail fail) {
        MemDesc md = o.putMd;
        if (md.eq != null && !has(md, MD_EVENT_SEND_DISABLE) && !(fail == NiFail.NI_OK && has(md, MD_EVENT_SUCCESS_DISABLE))) {
            md.eq.post(initiatorEvent(EventKind.EVENT_SEND, fail, o.userPtr, o.length, 0, 0, o.ptIndex, o.matchBits, o.hdrData));
        }
        if (md.ct != null && has(md, MD_EVENT_CT_SEND)) {
            countInitiator(md, fail, o.length);
        }
    }

    private static boolean has(MemDesc md, int option) {
        return (md.options & option) != 0;
    }

    private void countInitiator(MemDesc md, NiFail fail, long bytes) {
        if (fail != NiFail.NI_OK) {
            md.ct.add(0, 1);
        } else {
            md.ct.add(has(md, MD_EVENT_CT_BYTES) ? bytes : 1, 0);
        }
    }

    private void postInitiator(MemDesc md, EventKind k, NiFail fail, Object userPtr, long rlength, long mlength, long offset,
                               int pt, long bits, long hdr, int ctOption) {
        if (md.eq != null && !(k == EventKind.EVENT_SEND && has(md, MD_EVENT_SEND_DISABLE))
                && !(fail == NiFail.NI_OK && has(md, MD_EVENT_SUCCESS_DISABLE))) {
            Event e = initiatorEvent(k, fail, userPtr, rlength, mlength, offset, pt, bits, hdr);
            md.eq.post(e);
        }
        if (md.ct != null && has(md, ctOption)) {
            countInitiator(md, fail, mlength);
        }
    }

    private static Event initiatorEvent(EventKind k, NiFail fail, Object userPtr, long rlength, long mlength, long offset, int pt, long bits, long hdr) {
        Event e = new Event();
        e.type = k;
        e.niFailType = fail;
        e.userPtr = userPtr;
        e.rlength = rlength;
        e.mlength = mlength;
        e.remoteOffset = offset;
        e.ptIndex = pt;
        e.matchBits = bits;
        e.hdrData = hdr;
        return e;
    }

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
            LOG.log(System.Logger.Level.WARNING, "rank {0}: a library header from rank {1} came by rendezvous ({2} bytes): dropped", rank, m.source(), m.length());
            return;
        }
        MemorySegment p = m.payload();
        if (p.byteSize() < PtlWire.HEADER) {
            LOG.log(System.Logger.Level.WARNING, "rank {0}: a {1}-byte message from rank {2} is too short for a library header: dropped", rank, p.byteSize(), m.source());
            return;
        }
        int src = m.source();
        switch (PtlWire.type(p)) {
            case PtlWire.PUT, PtlWire.ATOMIC, PtlWire.GET, PtlWire.FETCH, PtlWire.SWAP -> request(src, p);
            case PtlWire.ACK -> ack(p);
            case PtlWire.REPLY -> reply(src, p);
            case PtlWire.BARRIER -> barrierArrival(PtlWire.hdrData(p));
            case PtlWire.RELEASE -> barrierReleased = PtlWire.hdrData(p);
            default -> LOG.log(System.Logger.Level.WARNING, "rank {0}: unknown library message type {1} from rank {2}: dropped", rank, PtlWire.type(p), src);
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

    /** A request at the target: match, move the data, post events, answer. */
    private void request(int src, MemorySegment p) {
        byte type = PtlWire.type(p);
        int niIndex = PtlWire.ni(p);
        long id = PtlWire.id(p);
        long rlength = PtlWire.length(p);
        boolean separate = (PtlWire.flags(p) & PtlWire.SEPARATE) != 0;
        int ack = PtlWire.ack(p);
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
        if ((pt.options & PT_FLOWCTRL) != 0 && pt.eq != null && !pt.eq.hasRoom()) {
            disable(pt, ni);
            respondFailure(src, type, niIndex, ack, id, NiFail.NI_PT_DISABLED, separate);
            return;
        }
        ProcessId who = idOf(ni, src);
        long bits = PtlWire.matchBits(p);
        long roff = PtlWire.offset(p);
        ListEntry e = match(pt.priority, ni, who, bits, rlength, roff);
        ListKind list = ListKind.PRIORITY_LIST;
        if (e == null) {
            e = match(pt.overflow, ni, who, bits, rlength, roff);
            list = ListKind.OVERFLOW_LIST;
        }
        if (e == null) {
            ni.status[SR_DROP_COUNT]++;
            if ((pt.options & PT_FLOWCTRL) != 0) {
                disable(pt, ni);
                respondFailure(src, type, niIndex, ack, id, NiFail.NI_PT_DISABLED, separate);
            } else {
                respondFailure(src, type, niIndex, ack, id, NiFail.NI_DROPPED, separate);
            }
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
        long room = Math.max(0, e.region.length() - offset);
        long mlength = Math.min(rlength, room);
        Op op = null;
        Datatype dt = null;
        if (type == PtlWire.ATOMIC || type == PtlWire.FETCH || type == PtlWire.SWAP) {
            op = Op.values()[PtlWire.op(p)];
            dt = Datatype.values()[PtlWire.datatype(p)];
            mlength -= mlength % dt.size();
        }
        if (e.has(ME_MANAGE_LOCAL)) {
            e.localOffset += mlength;
        }
        Event ev = null;
        boolean wantEvent = pt.eq != null && !e.has(ME_EVENT_COMM_DISABLE);
        if (wantEvent || list == ListKind.OVERFLOW_LIST) {
            ev = targetEvent(kindOf(type), pt, e, NiFail.NI_OK);
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
            ev.start = e.region.contiguous(offset, mlength);
        }
        if (list == ListKind.OVERFLOW_LIST && !e.has(ME_UNEXPECTED_HDR_DISABLE)) {
            if (ni.unexpectedHeaders < ni.limits.maxUnexpectedHeaders) {
                pt.unexpected.add(new Unexpected(kindOf(type), who, ev.uid, bits, rlength, mlength, offset, ev.hdrData, op, dt, e));
                ni.unexpectedHeaders++;
                e.unexpectedRefs++;
            } else {
                ni.status[SR_DROP_COUNT]++;
                LOG.log(System.Logger.Level.WARNING, "rank {0}: max_unexpected_headers {1} reached: the header of a message in the overflow list is not kept", rank, ni.limits.maxUnexpectedHeaders);
            }
        }
        boolean unlinkNow = e.has(ME_USE_ONCE) || e.has(ME_MANAGE_LOCAL) && e.minFree > 0 && e.region.length() - e.localOffset < e.minFree;
        if (unlinkNow) {
            e.pt.list(e.list).remove(e);
            e.linked = false;
            e.autoUnlinked = true;
            ni.entries--;
        }
        int operandLen = PtlWire.operandLen(p);
        long dataAt = PtlWire.HEADER + operandLen;
        switch (type) {
            case PtlWire.PUT -> {
                if (!separate) {
                    copyIn(e, offset, p, dataAt, mlength);
                    delivered(ni, pt, e, ev, wantEvent, src, PtlWire.ACK, ack, id, offset, mlength, list, unlinkNow);
                } else {
                    TargetOp t = new TargetOp();
                    t.type = type;
                    t.source = src;
                    t.id = id;
                    t.entry = e;
                    t.event = wantEvent ? ev : null;
                    t.offset = offset;
                    t.mlength = mlength;
                    t.ack = ack;
                    t.ni = niIndex;
                    e.inFlight++;
                    awaitingData.put(key(src, id), t);
                    t.event = ev;
                    if (unlinkNow) {
                        t.type = (byte) -PtlWire.PUT; // remembers the unlink for when the data is in
                    }
                }
            }
            case PtlWire.GET -> {
                if (mlength <= inlineMax) {
                    Outgoing out = takeOutgoing();
                    PtlWire.response(out.buf, PtlWire.REPLY, niIndex, 0, 0, list.ordinal(), ptIndex, offset, mlength, id);
                    e.region.copyOut(offset, out.buf, PtlWire.HEADER, mlength);
                    sendInline(src, out, PtlWire.HEADER + mlength);
                    targetDone(pt, e, ev, wantEvent, unlinkNow);
                } else {
                    Outgoing out = takeOutgoing();
                    PtlWire.response(out.buf, PtlWire.REPLY, niIndex, PtlWire.SEPARATE, 0, list.ordinal(), ptIndex, offset, mlength, id);
                    sendInline(src, out, PtlWire.HEADER);
                    TargetOp t = new TargetOp();
                    t.type = unlinkNow ? (byte) -PtlWire.GET : PtlWire.GET;
                    t.entry = e;
                    t.event = wantEvent ? ev : null;
                    t.send = new SendRequest();
                    e.inFlight++;
                    engine.send(t.send.to(src, PtlWire.DATA | id, e.region.layout(offset, mlength)));
                    moving.add(t);
                }
            }
            default -> atomic(ni, pt, e, ev, wantEvent, src, type, op, dt, p, operandLen, dataAt, ack, id, offset, mlength, list, unlinkNow);
        }
    }

    private static long key(int src, long id) {
        return ((long) src << 42) ^ id;
    }

    private void copyIn(ListEntry e, long offset, MemorySegment p, long at, long n) {
        if (n > 0) {
            e.region.copyIn(offset, p, at, n);
        }
    }

    private void atomic(Ni ni, PtEntry pt, ListEntry e, Event ev, boolean wantEvent, int src, byte type, Op op, Datatype dt, MemorySegment p,
                        int operandLen, long dataAt, int ack, long id, long offset, long mlength, ListKind list, boolean unlinkNow) {
        MemorySegment operand = operandLen > 0 ? p.asSlice(PtlWire.HEADER, operandLen) : null;
        boolean fetch = type != PtlWire.ATOMIC;
        Outgoing out = fetch ? takeOutgoing() : null;
        MemorySegment target = e.region.contiguous(offset, mlength);
        MemorySegment scratch = null;
        if (target == null) {
            // the range spans iovec elements: work on a copy, then write it back
            scratch = MemorySegment.ofArray(new byte[(int) mlength]);
            e.region.copyOut(offset, scratch, 0, mlength);
            target = scratch;
        }
        Atomics.apply(op, dt, target, 0, p, dataAt, mlength, operand, 0, fetch ? out.buf : null, PtlWire.HEADER);
        if (scratch != null) {
            e.region.copyIn(offset, scratch, 0, mlength);
        }
        if (fetch) {
            PtlWire.response(out.buf, PtlWire.REPLY, ni.index, 0, 0, list.ordinal(), pt.index, offset, mlength, id);
            sendInline(src, out, PtlWire.HEADER + mlength);
            targetDone(pt, e, ev, wantEvent, unlinkNow);
        } else {
            delivered(ni, pt, e, ev, wantEvent, src, PtlWire.ACK, ack, id, offset, mlength, list, unlinkNow);
        }
    }

    /** A put or atomic has its data in place: events, counts, the ack. */
    private void delivered(Ni ni, PtEntry pt, ListEntry e, Event ev, boolean wantEvent, int src, byte respType, int ack, long id,
                           long offset, long mlength, ListKind list, boolean unlinkNow) {
        targetDone(pt, e, ev, wantEvent, unlinkNow);
        if (ack != AckReq.NO_ACK_REQ.ordinal() && !e.has(ME_ACK_DISABLE)) {
            Outgoing out = takeOutgoing();
            PtlWire.response(out.buf, respType, ni.index, 0, 0, list.ordinal(), pt.index, offset, mlength, id);
            sendInline(src, out, PtlWire.HEADER);
        }
    }

    /** The target's events for a completed operation on entry {@code e}. */
    private void targetDone(PtEntry pt, ListEntry e, Event ev, boolean wantEvent, boolean unlinkNow) {
        if (ev != null && wantEvent && !(ev.niFailType == NiFail.NI_OK && e.has(ME_EVENT_SUCCESS_DISABLE))) {
            pt.eq.post(ev);
        }
        if (e.ct != null && e.has(ME_EVENT_CT_COMM)) {
            if (ev != null && ev.niFailType != NiFail.NI_OK) {
                e.ct.add(0, 1);
            } else {
                e.ct.add(e.has(ME_EVENT_CT_BYTES) && ev != null ? ev.mlength : 1, 0);
            }
        }
        if (unlinkNow) {
            if (pt.eq != null && !e.has(ME_EVENT_UNLINK_DISABLE)) {
                pt.eq.post(targetEvent(EventKind.EVENT_AUTO_UNLINK, pt, e, NiFail.NI_OK));
            }
            engine.deregister(e.registration);
            e.registration = null;
            if (e.list == ListKind.OVERFLOW_LIST && e.unexpectedRefs == 0) {
                autoFree(e);
            }
        }
    }

    private Event targetEvent(EventKind k, PtEntry pt, ListEntry e, NiFail fail) {
        Event ev = new Event();
        ev.type = k;
        ev.ptIndex = pt.index;
        ev.userPtr = e.userPtr;
        ev.niFailType = fail;
        ev.ptlList = e.list;
        return ev;
    }

    private ListEntry match(List<ListEntry> list, Ni ni, ProcessId who, long bits, long rlength, long roff) {
        for (int i = 0; i < list.size(); i++) {
            ListEntry e = list.get(i);
            if (e.matching) {
                if (((bits ^ e.matchBits) & ~e.ignoreBits) != 0 || !idMatches(e, who)) {
                    continue;
                }
            }
            if (e.has(ME_NO_TRUNCATE)) {
                long offset = e.has(ME_MANAGE_LOCAL) ? e.localOffset : roff;
                if (offset + rlength > e.region.length()) {
                    continue;
                }
            }
            return e;
        }
        return null;
    }

    private void disable(PtEntry pt, Ni ni) {
        if (!pt.enabled) {
            return;
        }
        pt.enabled = false;
        if (pt.eq != null) {
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
            t.type = 0; // data to drop
            awaitingData.put(key(src, id), t);
        }
        boolean answer = type != PtlWire.PUT && type != PtlWire.ATOMIC || ack != AckReq.NO_ACK_REQ.ordinal();
        if (!answer) {
            return;
        }
        Outgoing out = takeOutgoing();
        byte resp = type == PtlWire.PUT || type == PtlWire.ATOMIC ? PtlWire.ACK : PtlWire.REPLY;
        PtlWire.response(out.buf, resp, niIndex, 0, why.ordinal(), 0, 0, 0, 0, id);
        sendInline(src, out, PtlWire.HEADER);
    }

    /** The separate data of a large put (at the target) or of a large reply (at the initiator). */
    private void data(Message m) {
        long id = m.header() & PtlWire.ID_MASK;
        TargetOp t = awaitingData.remove(key(m.source(), id));
        if (t != null) {
            if (t.type == 0) {
                m.drop();
                return;
            }
            t.recv = new RecvRequest();
            m.receive(t.entry.region.layout(t.offset, t.mlength), t.recv);
            moving.add(t);
            return;
        }
        Outstanding o = lookup(id);
        if (o != null && o.waitResponse && o.replyMlength >= 0 && o.replyRecv == null && o.getMd != null && o.type == PtlWire.GET) {
            o.replyRecv = new RecvRequest();
            m.receive(o.getMd.region.layout(o.localGetOffset, o.replyMlength), o.replyRecv);
            replying.add(o);
            return;
        }
        LOG.log(System.Logger.Level.WARNING, "rank {0}: data for operation {1} from rank {2}, which nobody waits for: dropped", rank, id, m.source());
        m.drop();
    }

    /** An ACK at the initiator. */
    private void ack(MemorySegment p) {
        Outstanding o = lookup(PtlWire.id(p));
        if (o == null || !o.waitResponse) {
            return;
        }
        NiFail fail = NiFail.values()[PtlWire.fail(p)];
        MemDesc md = o.putMd;
        long mlength = PtlWire.length(p);
        if (o.ack != AckReq.CT_ACK_REQ && md.eq != null && !(fail == NiFail.NI_OK && has(md, MD_EVENT_SUCCESS_DISABLE))) {
            Event e = initiatorEvent(EventKind.EVENT_ACK, fail, o.userPtr, o.length, mlength, PtlWire.offset(p), o.ptIndex, o.matchBits, o.hdrData);
            e.ptlList = ListKind.values()[PtlWire.list(p)];
            md.eq.post(e);
        }
        if (md.ct != null && has(md, MD_EVENT_CT_ACK)) {
            countInitiator(md, fail, mlength);
        }
        o.waitResponse = false;
        if (!o.waitSend) {
            freeOp(o);
        }
    }

    /** A REPLY at the initiator: the data of a get, or the old values of a fetch / swap. */
    private void reply(int src, MemorySegment p) {
        Outstanding o = lookup(PtlWire.id(p));
        if (o == null || !o.waitResponse) {
            return;
        }
        NiFail fail = NiFail.values()[PtlWire.fail(p)];
        long mlength = PtlWire.length(p);
        o.replyOffset = PtlWire.offset(p);
        if (fail == NiFail.NI_OK && (PtlWire.flags(p) & PtlWire.SEPARATE) != 0) {
            o.replyMlength = mlength; // the data message follows: data() receives it
            return;
        }
        if (fail == NiFail.NI_OK && mlength > 0) {
            o.getMd.region.copyIn(o.localGetOffset, p, PtlWire.HEADER, mlength);
        }
        replied(o, fail, mlength);
    }

    private void replied(Outstanding o, NiFail fail, long mlength) {
        MemDesc md = o.getMd;
        postInitiator(md, EventKind.EVENT_REPLY, fail, o.userPtr, o.length, mlength, o.replyOffset, o.ptIndex, o.matchBits, o.hdrData, MD_EVENT_CT_REPLY);
        o.waitResponse = false;
        if (!o.waitSend) {
            freeOp(o);
        }
    }

    // =========================================================================================
    // Progress: completions the library waits for
    // =========================================================================================

    @Override
    public boolean onProgress() {
        boolean work = false;
        for (int i = inflight.size() - 1; i >= 0; i--) {
            Outgoing out = inflight.get(i);
            if (out.req.isDone()) {
                inflight.set(i, inflight.get(inflight.size() - 1));
                inflight.remove(inflight.size() - 1);
                outgoing.push(out);
                work = true;
            }
        }
        for (int i = sending.size() - 1; i >= 0; i--) {
            Outstanding o = sending.get(i);
            if (o.dataSend.isDone()) {
                sending.remove(i);
                NiFail f = o.dataSend.status() == Status.DONE ? NiFail.NI_OK : NiFail.NI_UNDELIVERABLE;
                o.waitSend = false;
                sendEvent(o, f);
                if (f != NiFail.NI_OK && o.waitResponse) {
                    failResponse(o, f);
                } else if (!o.waitResponse) {
                    freeOp(o);
                }
                work = true;
            }
        }
        for (int i = replying.size() - 1; i >= 0; i--) {
            Outstanding o = replying.get(i);
            if (o.replyRecv.isDone()) {
                replying.remove(i);
                boolean ok = o.replyRecv.status() == Status.DONE;
                replied(o, ok ? NiFail.NI_OK : NiFail.NI_UNDELIVERABLE, ok ? o.replyMlength : 0);
                work = true;
            }
        }
        for (int i = moving.size() - 1; i >= 0; i--) {
            TargetOp t = moving.get(i);
            dev.ferry.core.engine.Request r = t.recv != null ? t.recv : t.send;
            if (!r.isDone()) {
                continue;
            }
            moving.remove(i);
            t.entry.inFlight--;
            boolean ok = r.status() == Status.DONE;
            if (t.event != null && !ok) {
                t.event.niFailType = NiFail.NI_UNDELIVERABLE;
            }
            byte type = (byte) Math.abs(t.type);
            boolean unlinkNow = t.type < 0;
            PtEntry pt = t.entry.pt;
            if (type == PtlWire.PUT) {
                Ni ni = nis[t.ni];
                if (ni != null) {
                    delivered(ni, pt, t.entry, t.event, t.event != null && pt.eq != null && !t.entry.has(ME_EVENT_COMM_DISABLE), t.source, PtlWire.ACK,
                            ok ? t.ack : AckReq.NO_ACK_REQ.ordinal(), t.id, t.offset, t.mlength, t.entry.list, unlinkNow);
                }
            } else {
                targetDone(pt, t.entry, t.event, t.event != null, unlinkNow);
            }
            work = true;
        }
        return work;
    }

    private void failResponse(Outstanding o, NiFail f) {
        if (o.type == PtlWire.PUT || o.type == PtlWire.ATOMIC) {
            MemDesc md = o.putMd;
            if (o.ack != AckReq.CT_ACK_REQ) {
                postInitiator(md, EventKind.EVENT_ACK, f, o.userPtr, o.length, 0, 0, o.ptIndex, o.matchBits, o.hdrData, MD_EVENT_CT_ACK);
            } else if (md.ct != null && has(md, MD_EVENT_CT_ACK)) {
                md.ct.add(0, 1);
            }
            o.waitResponse = false;
            if (!o.waitSend) {
                freeOp(o);
            }
        } else {
            replied(o, f, 0);
        }
    }

    @Override
    public void onPeerFailed(int peer, Status status, String why) {
        failedRank[peer] = true;
        if (rank == 0) {
            barrierCheck(barrierReleased + 1); // a dead rank no longer holds a barrier up
        }
        failure = "rank " + peer + " failed: " + why;
        LOG.log(System.Logger.Level.WARNING, "rank {0}: {1}; its operations fail with NI_UNDELIVERABLE", rank, failure);
        for (Outstanding o : ops) {
            if (o != null && o.target == peer && (o.waitResponse || o.waitSend) && !sending.contains(o) && !replying.contains(o)) {
                if (o.waitResponse) {
                    failResponse(o, NiFail.NI_UNDELIVERABLE);
                }
            }
        }
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

    // =========================================================================================
    // Barrier (fini meets every rank, serving peers while it waits)
    // =========================================================================================

    /** Starts barrier {@code epoch}: tells rank 0; answers when released (see {@link #barrierDone}). */
    Void barrierEnter(long epoch) {
        if (rank == 0) {
            barrierArrival(epoch);
        } else {
            Outgoing out = takeOutgoing();
            PtlWire.request(out.buf, PtlWire.BARRIER, 0, 0, 0, 0, 0, 0, uid, 0, 0, epoch, 0, 0, 0);
            sendInline(0, out, PtlWire.HEADER);
        }
        return null;
    }

    /** At rank 0: one more rank reached barrier {@code epoch} (a rank enters the next only once released from this one). */
    private void barrierArrival(long epoch) {
        barrierArrived++;
        barrierCheck(epoch);
    }

    /** At rank 0: releases barrier {@code epoch} once every rank that is alive arrived. */
    private void barrierCheck(long epoch) {
        int dead = 0;
        for (boolean f : failedRank) {
            dead += f ? 1 : 0;
        }
        if (barrierArrived > 0 && barrierArrived + dead >= size) {
            barrierArrived = 0;
            for (int r = 1; r < size; r++) {
                if (!failedRank[r]) {
                    Outgoing out = takeOutgoing();
                    PtlWire.request(out.buf, PtlWire.RELEASE, 0, 0, 0, 0, 0, 0, uid, 0, 0, epoch, 0, 0, 0);
                    sendInline(r, out, PtlWire.HEADER);
                }
            }
            barrierReleased = epoch;
        }
    }

    boolean barrierDone(long epoch) {
        return barrierReleased >= epoch;
    }

    String failure() {
        return failure;
    }

    boolean quiet() {
        return inflight.isEmpty() && sending.isEmpty() && replying.isEmpty() && moving.isEmpty();
    }
}
