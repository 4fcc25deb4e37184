package dev.ferry.portals;

import dev.ferry.core.request.Message;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.SendRequest;
import dev.ferry.spi.Status;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.ferry.portals.Portals.*;

/**
 * The target side of the library's operations (seed 003's lib_parse, for a request that arrives):
 * match it against the portal table entry's lists, move its data in or out, post the events and
 * counters, and answer with an ACK or a REPLY; a put's separate data and a get's reply data move
 * as engine rendezvous, completed on later progress passes. Runs in the library's one thread of
 * control.
 */
final class Target {
    private final Library lib;

    Target(Library lib) {
        this.lib = lib;
    }

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


    private final Map<Long, TargetOp> awaitingData = new HashMap<>();
    private final List<TargetOp> moving = new ArrayList<>();

    private static EventKind kindOf(byte type) {
        return switch (type) {
            case PtlWire.PUT -> EventKind.EVENT_PUT;
            case PtlWire.GET -> EventKind.EVENT_GET;
            case PtlWire.ATOMIC -> EventKind.EVENT_ATOMIC;
            default -> EventKind.EVENT_FETCH_ATOMIC;
        };
    }

    /**
     * A request at the target: match, move the data, post events, answer. {@code p} is its header;
     * the whole message ({@code n} bytes, header included) lies in {@code buf} from {@code at}.
     */
    void request(int src, MemorySegment p, MemorySegment buf, long at, long n) {
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
                lib.malformed(p, "an atomic request from rank " + src);
                return;
            }
        }
        int operandLen = PtlWire.operandLen(p);
        long dataAt = PtlWire.HEADER + operandLen;
        // what travels inline must be there: the operand, and the data of all but a separate put or a get
        long inline = type == PtlWire.GET || separate && type == PtlWire.PUT ? 0 : rlength;
        if (operandLen < 0 || operandLen > PtlWire.MAX_OPERAND || op != null && operandLen < Atomics.operandSize(op, dt) || rlength < 0
                || n < dataAt + inline) {
            lib.malformed(p, "a request from rank " + src + " of " + n + " bytes (operand " + operandLen + ", length " + rlength + ")");
            return;
        }
        Ni ni = niIndex < lib.nis.length ? lib.nis[niIndex] : null;
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
        ProcessId who = lib.idOf(ni, src);
        long bits = PtlWire.matchBits(p);
        long roff = PtlWire.offset(p);
        ListEntry e = lib.lists.match(pt.priority, ni, who, bits, rlength, roff);
        ListKind list = ListKind.PRIORITY_LIST;
        if (e == null) {
            e = lib.lists.match(pt.overflow, ni, who, bits, rlength, roff);
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
        boolean keepsHeader = list == ListKind.OVERFLOW_LIST && !e.has(ME_UNEXPECTED_HDR_DISABLE);
        boolean headerRoom = ni.unexpectedHeaders < ni.limits.maxUnexpectedHeaders;
        if (keepsHeader && !headerRoom && (pt.options & PT_FLOWCTRL) != 0) {
            // no room to keep its header: under flow control the message is dropped, nothing of it
            // lands, and the entry is disabled, as when no entry matches
            ni.status[SR_DROP_COUNT]++;
            disable(pt, ni, true);
            respondFailure(src, type, niIndex, ack, id, NiFail.NI_PT_DISABLED, separate);
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
        if (keepsHeader) {
            if (headerRoom) {
                MatchLists.keep(pt, ni, new Unexpected(kindOf(type), who, ev.uid, bits, rlength, mlength, offset, ev.hdrData, op, dt, e));
                ni.unexpectedHeaders++;
                e.unexpectedRefs++;
            } else {
                ni.status[SR_DROP_COUNT]++;
                lib.log.log(System.Logger.Level.WARNING, "rank {0}: max_unexpected_headers {1} reached: the header of a message in the overflow list is not kept", lib.rank, ni.limits.maxUnexpectedHeaders);
            }
        }
        boolean unlinkNow = e.has(ME_USE_ONCE) || e.has(ME_MANAGE_LOCAL) && e.minFree > 0 && e.region.length() - e.localOffset < e.minFree;
        if (unlinkNow) {
            e.pt.list(e.list).remove(e);
            e.linked = false;
            e.autoUnlinked = true;
            ni.entries--;
            if (e.list == ListKind.PRIORITY_LIST) {
                lib.directory.republish(ni, pt); // entries behind it may now lead the list
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
                if (mlength <= lib.inlineMax) {
                    InlineSender.Outgoing out = lib.sender.take();
                    PtlWire.response(out.buf, PtlWire.REPLY, niIndex, 0, 0, list.ordinal(), ptIndex, offset, mlength, id);
                    e.region.copyOut(offset, out.buf, PtlWire.HEADER, mlength);
                    lib.sender.send(src, out, PtlWire.HEADER + mlength);
                    targetDone(pt, e, ev, wantEvent, unlinkNow, mlength);
                } else {
                    InlineSender.Outgoing out = lib.sender.takeHeader();
                    PtlWire.response(out.buf, PtlWire.REPLY, niIndex, PtlWire.SEPARATE, 0, list.ordinal(), ptIndex, offset, mlength, id);
                    lib.sender.send(src, out, PtlWire.HEADER);
                    TargetOp t = moving(type, e, ev, wantEvent, unlinkNow);
                    t.mlength = mlength;
                    t.send = new SendRequest();
                    lib.engine.send(t.send.to(src, PtlWire.LIBRARY | PtlWire.DATA | id, e.region.layout(offset, mlength)));
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
        InlineSender.Outgoing out = fetch ? lib.sender.take() : null;
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
                    lib.atomicScratch);
        } else {
            Atomics.apply(op, dt, target, targetAt, data, dataAt, mlength, operand, operandAt, fetch ? out.buf : null, PtlWire.HEADER);
        }
        if (scratch != null) {
            e.region.copyIn(offset, scratch, 0, mlength);
        }
        if (fetch) {
            PtlWire.response(out.buf, PtlWire.REPLY, ni.index, 0, 0, list.ordinal(), pt.index, offset, mlength, id);
            lib.sender.send(src, out, PtlWire.HEADER + mlength);
            targetDone(pt, e, ev, wantEvent, unlinkNow, mlength);
        } else {
            delivered(ni, pt, e, ev, wantEvent, src, PtlWire.ACK, ack, id, offset, mlength, list, unlinkNow);
        }
    }

    /** A put or atomic has its data in place: events, counts, the ack. */
    private void delivered(Ni ni, PtEntry pt, ListEntry e, Event ev, boolean wantEvent, int src, byte respType, int ack, long id,
                           long offset, long mlength, ListKind list, boolean unlinkNow) {
        targetDone(pt, e, ev, wantEvent, unlinkNow, mlength);
        boolean asked = (ack & ~PtlWire.ORDERED) != AckReq.NO_ACK_REQ.ordinal();
        boolean due = asked && !e.has(ME_ACK_DISABLE);
        // an ack the entry disables is still answered, silently: no event or count at the
        // initiator, but its operation ends there (else its MD stays in use for good)
        if (asked || (ack & PtlWire.ORDERED) != 0) {
            InlineSender.Outgoing out = lib.sender.takeHeader();
            PtlWire.response(out.buf, respType, ni.index, due ? 0 : PtlWire.SILENT, 0, list.ordinal(), pt.index, offset, mlength, id);
            lib.sender.send(src, out, PtlWire.HEADER);
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
            lib.engine.memory().deregister(e.registration);
            e.registration = null;
            if (e.list == ListKind.OVERFLOW_LIST && e.unexpectedRefs == 0) {
                lib.lists.autoFree(e);
            }
        }
    }

    /** Flow control: disables {@code pt}, with a PT_DISABLED event unless the entry that caused it asked for none. */
    private void disable(PtEntry pt, Ni ni, boolean event) {
        if (!pt.enabled) {
            return;
        }
        pt.enabled = false;
        lib.directory.republish(ni, pt);
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
        InlineSender.Outgoing out = lib.sender.takeHeader();
        byte resp = type == PtlWire.PUT || type == PtlWire.ATOMIC ? PtlWire.ACK : PtlWire.REPLY;
        PtlWire.response(out.buf, resp, niIndex, due ? 0 : PtlWire.SILENT, why.ordinal(), 0, 0, 0, 0, id);
        lib.sender.send(src, out, PtlWire.HEADER);
    }


    /** The separate data of a large put, when this target waits for it; false when it does not. */
    boolean data(Message m) {
        long id = m.header() & PtlWire.ID_MASK;
        TargetOp t = awaitingData.remove(key(m.source(), id));
        if (t == null) {
            return false;
        }
        if (t.drop) {
            m.drop();
            return true;
        }
        t.recv = new RecvRequest();
        m.receive(t.entry.region.layout(t.offset, t.mlength), t.recv);
        moving.add(t);
        return true;
    }

    /** Completes the operations whose data finished moving; true when one did. */
    boolean progress() {
        boolean work = false;
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
                Ni ni = lib.nis[t.ni];
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

    /** A peer failed: the data this target waited for from it will not come. */
    void peerFailed(int peer) {
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

    boolean quiet() {
        return moving.isEmpty();
    }
}
