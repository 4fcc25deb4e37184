package dev.ferry.portals;

import dev.ferry.core.request.Message;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.SendRequest;
import dev.ferry.spi.Status;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import static dev.ferry.portals.Portals.*;

/**
 * The initiator side of the library: the operations this process started (put, get, atomic,
 * fetch-atomic, swap), from the call until their events were posted: sending them, the data of a
 * large put moving, acks and replies (a large reply pulled into the get MD), the SEND, ACK and
 * REPLY events and counts, and failure when the target dies. Runs in the library's one thread of
 * control.
 *
 * <pre>{@code
 * lib.initiator.start(PtlWire.PUT, ni, md, 0, null, 0, 8, AckReq.ACK_REQ, target, pt, bits, 0, null, 0, null, null, null);
 * }</pre>
 */
final class Initiator {
    private final Library lib;
    private Outstanding[] ops = new Outstanding[64];
    private final ArrayDeque<Outstanding> freeOps = new ArrayDeque<>();
    /** Large puts whose data the target still pulls. */
    private final List<Outstanding> sending = new ArrayList<>();
    /** Gets whose large reply is still being pulled. */
    private final List<Outstanding> replying = new ArrayList<>();

    Initiator(Library lib) {
        this.lib = lib;
    }

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
        if (o.counted) {
            lib.direct.performed(o.target);
            o.counted = false;
        }
        o.silent = false;
        o.deferredAck = null;
        o.replyList = null;
        letGoOfMds(o);
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

    /** One operation: put, get, atomic, fetch, swap (the API checked the arguments against the MDs). */
    Void start(byte type, Ni ni, MemDesc putMd, long putOff, MemDesc getMd, long getOff, long length, AckReq ack, int target,
               int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, MemorySegment operand, Op op, Datatype dt) {
        if (lib.failedRank[target]) {
            failed(type, putMd, getMd, length, userPtr, ack, NiFail.NI_UNDELIVERABLE, ptIndex, matchBits, hdrData);
            return null;
        }
        boolean counted = lib.direct.counts(target);
        if (lib.failedRank[target]) {
            // the directory request, the first message to the target, found it gone
            failed(type, putMd, getMd, length, userPtr, ack, NiFail.NI_UNDELIVERABLE, ptIndex, matchBits, hdrData);
            return null;
        }
        if (counted && lib.direct.start(type, ni, putMd, putOff, getMd, getOff, length, ack, target, ptIndex, matchBits, remoteOffset, userPtr,
                hdrData, operand, op, dt)) {
            return null; // done on the target's shared memory, events posted
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
        boolean inline = !carriesData || operandLen + length <= lib.inlineMax;
        o.waitResponse = type != PtlWire.PUT && type != PtlWire.ATOMIC || ack != AckReq.NO_ACK_REQ;
        if (counted) {
            // a direct operation must not overtake this one: the target answers it even without an ack
            o.counted = true;
            o.silent = !o.waitResponse;
            o.waitResponse = true;
            lib.direct.counted(target);
        }
        int wireAck = (ack == null ? 0 : ack.ordinal()) | (counted ? PtlWire.ORDERED : 0);
        boolean bare = operandLen == 0 && !(carriesData && inline && length > 0);
        InlineSender.Outgoing out = bare ? lib.sender.takeHeader() : lib.sender.take();
        PtlWire.request(out.buf, type, ni.index, wireAck, op == null ? 0 : op.ordinal(), dt == null ? 0 : dt.ordinal(),
                inline ? 0 : PtlWire.SEPARATE, ptIndex, lib.uid, matchBits, remoteOffset, hdrData, length, o.id(), operandLen);
        long n = PtlWire.HEADER;
        if (operandLen > 0) {
            MemorySegment.copy(operand, 0, out.buf, n, operandLen);
            n += operandLen;
        }
        if (carriesData && inline && length > 0) {
            putMd.region.copyOut(putOff, out.buf, n, length);
            n += length;
        }
        int generation = o.generation;
        lib.sender.send(target, out, n);
        if (o.generation != generation) {
            // the send found the target gone (its connection could not be made or broke at once):
            // the failure already ended the operation, with its events
            return null;
        }
        if (carriesData && !inline) {
            // the data as a message of its own, moved from the MD itself (zero-copy for large ones)
            SendRequest s = new SendRequest();
            lib.engine.send(s.to(target, PtlWire.LIBRARY | PtlWire.DATA | o.id(), putMd.region.layout(putOff, length)));
            o.dataSend = s;
            o.waitSend = true;
            sending.add(o);
        } else if (carriesData) {
            sendEvent(o, NiFail.NI_OK); // the data was copied out of the MD: it has left it
        }
        if (!o.waitSend && !o.waitResponse) {
            freeOp(o);
        } else if (!o.waitSend && o.silent) {
            letGoOfMds(o);
        }
        if (target == lib.engine.rank()) {
            lib.dispatch.selfTargeted(); // the call that started it also delivers it (Dispatch.Caller.leave)
        }
        return null;
    }

    /**
     * The operation is done with its MDs: at its end, or as soon as it waits only for its silent
     * answer (the ordering count), as it would be without the count. They may then be released.
     */
    private static void letGoOfMds(Outstanding o) {
        if (o.putMd != null) {
            o.putMd.inFlight--;
            o.putMd = null;
        }
        if (o.getMd != null) {
            o.getMd.inFlight--;
            o.getMd = null;
        }
    }

    /**
     * Events of an operation done directly ({@link DirectAccess}): the data left and arrived in one
     * step, so SEND, then the ACK (unless none was asked for or the entry disables acks) or the
     * REPLY, as the message path would post them.
     */
    void directDone(byte type, MemDesc putMd, MemDesc getMd, long length, long mlength, long offset, AckReq ack, boolean ackDisabled,
                    Object userPtr, int pt, long bits, long hdr) {
        if (type != PtlWire.GET) {
            sendEvent(putMd, NiFail.NI_OK, userPtr, length, pt, bits, hdr);
        }
        if (type == PtlWire.GET || type == PtlWire.FETCH || type == PtlWire.SWAP) {
            postInitiator(getMd, EventKind.EVENT_REPLY, NiFail.NI_OK, ListKind.PRIORITY_LIST, userPtr, length, mlength, offset, pt, bits, hdr, MD_EVENT_CT_REPLY);
        } else if (ack != AckReq.NO_ACK_REQ && !ackDisabled) {
            ackEvent(putMd, ack, NiFail.NI_OK, ListKind.PRIORITY_LIST, userPtr, length, mlength, offset, pt, bits, hdr);
        }
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
        sendEvent(o.putMd, fail, o.userPtr, o.length, o.ptIndex, o.matchBits, o.hdrData);
    }

    /** SEND: the data left the MD (event and count; the count is of the requested length). */
    private void sendEvent(MemDesc md, NiFail fail, Object userPtr, long length, int pt, long bits, long hdr) {
        if (md.eq != null && !has(md, MD_EVENT_SEND_DISABLE) && !(fail == NiFail.NI_OK && has(md, MD_EVENT_SUCCESS_DISABLE))) {
            md.eq.post(initiatorEvent(EventKind.EVENT_SEND, fail, userPtr, length, 0, 0, pt, bits, hdr));
        }
        if (md.ct != null && has(md, MD_EVENT_CT_SEND)) {
            countInitiator(md, fail, length);
        }
    }

    /** ACK: the event (not for CT_ACK_REQ) and the count of {@code mlength}. */
    private void ackEvent(MemDesc md, AckReq ack, NiFail fail, ListKind list, Object userPtr, long length, long mlength, long offset,
                          int pt, long bits, long hdr) {
        if (ack != AckReq.CT_ACK_REQ && md.eq != null && !(fail == NiFail.NI_OK && has(md, MD_EVENT_SUCCESS_DISABLE))) {
            Event e = initiatorEvent(EventKind.EVENT_ACK, fail, userPtr, length, mlength, offset, pt, bits, hdr);
            e.ptlList = list;
            md.eq.post(e);
        }
        if (md.ct != null && has(md, MD_EVENT_CT_ACK)) {
            countInitiator(md, fail, mlength);
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
        postInitiator(md, k, fail, null, userPtr, rlength, mlength, offset, pt, bits, hdr, ctOption);
    }

    /** An initiator event naming {@code list}, the list the target matched (null where no target said). */
    private void postInitiator(MemDesc md, EventKind k, NiFail fail, ListKind list, Object userPtr, long rlength, long mlength, long offset,
                               int pt, long bits, long hdr, int ctOption) {
        if (md.eq != null && !(k == EventKind.EVENT_SEND && has(md, MD_EVENT_SEND_DISABLE))
                && !(fail == NiFail.NI_OK && has(md, MD_EVENT_SUCCESS_DISABLE))) {
            Event e = initiatorEvent(k, fail, userPtr, rlength, mlength, offset, pt, bits, hdr);
            e.ptlList = list;
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

    /** An ACK at the initiator. */
    void ack(MemorySegment p) {
        Outstanding o = lookup(PtlWire.id(p));
        if (o == null || !o.waitResponse) {
            return;
        }
        NiFail fail = NiFail.fromWire(PtlWire.fail(p));
        ListKind list = ListKind.fromWire(PtlWire.list(p));
        if (fail == null || list == null) {
            lib.malformed(p, "an ack");
            return;
        }
        long mlength = PtlWire.length(p);
        boolean silent = (PtlWire.flags(p) & PtlWire.SILENT) != 0;
        if (o.waitSend && fail != NiFail.NI_OK) {
            // the target dropped the put while its data still moves: SEND first, then this ACK (progress)
            o.deferredAck = new Outstanding.DeferredAck(fail, list, mlength, PtlWire.offset(p), silent);
            return;
        }
        if (o.waitSend) {
            dataLanded(o);
        }
        acked(o, fail, list, mlength, PtlWire.offset(p), silent);
    }

    /** The ACK's event and count (unless silent), and the operation's end once its data left too. */
    private void acked(Outstanding o, NiFail fail, ListKind list, long mlength, long offset, boolean silent) {
        if (!o.silent && !silent) { // else an answer for the ordering count only (no ack was asked for, or the entry disables them)
            ackEvent(o.putMd, o.ack, fail, list, o.userPtr, o.length, mlength, offset, o.ptIndex, o.matchBits, o.hdrData);
        }
        o.waitResponse = false;
        if (!o.waitSend) {
            freeOp(o);
        }
    }

    /**
     * A REPLY at the initiator: the data of a get, or the old values of a fetch / swap. {@code p} is
     * its header; the whole message ({@code n} bytes) lies in {@code buf} from {@code at}.
     */
    void reply(MemorySegment p, MemorySegment buf, long at, long n) {
        Outstanding o = lookup(PtlWire.id(p));
        if (o == null || !o.waitResponse) {
            return;
        }
        NiFail fail = NiFail.fromWire(PtlWire.fail(p));
        ListKind list = ListKind.fromWire(PtlWire.list(p));
        if (fail == null || list == null) {
            lib.malformed(p, "a reply");
            return;
        }
        o.replyList = list;
        long mlength = PtlWire.length(p);
        boolean separate = (PtlWire.flags(p) & PtlWire.SEPARATE) != 0;
        if (mlength < 0 || mlength > o.length || fail == NiFail.NI_OK && !separate && n < PtlWire.HEADER + mlength) {
            lib.malformed(p, "a reply of " + n + " bytes for " + mlength + " (asked " + o.length + ")");
            return;
        }
        o.replyOffset = PtlWire.offset(p);
        if (fail == NiFail.NI_OK && separate) {
            o.replyMlength = mlength; // the data message follows: data() receives it
            return;
        }
        if (fail == NiFail.NI_OK && mlength > 0) {
            o.getMd.region.copyIn(o.localGetOffset, buf, at + PtlWire.HEADER, mlength);
        }
        replied(o, fail, mlength);
    }

    private void replied(Outstanding o, NiFail fail, long mlength) {
        MemDesc md = o.getMd;
        postInitiator(md, EventKind.EVENT_REPLY, fail, o.replyList, o.userPtr, o.length, mlength, o.replyOffset, o.ptIndex, o.matchBits, o.hdrData, MD_EVENT_CT_REPLY);
        o.waitResponse = false;
        if (!o.waitSend) {
            freeOp(o);
        }
    }

    private void failResponse(Outstanding o, NiFail f) {
        if (o.type == PtlWire.PUT || o.type == PtlWire.ATOMIC) {
            MemDesc md = o.putMd;
            if (o.silent) {
                // no ack was asked for: nothing to report
            } else if (o.ack != AckReq.CT_ACK_REQ) {
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

    /** The separate data of a large reply: received into the get MD; false when nobody waits for it. */
    boolean replyData(Message m, long id) {
        Outstanding o = lookup(id);
        if (o != null && o.waitResponse && o.replyMlength >= 0 && o.replyRecv == null && o.getMd != null && o.type == PtlWire.GET) {
            o.replyRecv = new RecvRequest();
            m.receive(o.getMd.region.layout(o.localGetOffset, o.replyMlength), o.replyRecv);
            replying.add(o);
            return true;
        }
        return false;
    }

    /**
     * A large put's data reached the target (its successful ack says so) before this side saw its
     * send complete: the MD is no longer read, so SEND is due now, ahead of the ACK, and the MD
     * may be released once the ACK is seen. The engine completes its request on its own.
     */
    private void dataLanded(Outstanding o) {
        sending.remove(o);
        o.waitSend = false;
        sendEvent(o, NiFail.NI_OK);
        if (o.silent) {
            letGoOfMds(o);
        }
    }

    /** Checks the large puts' data and the large replies in motion; true when any completed. */
    boolean progress() {
        boolean work = false;
        for (int i = sending.size() - 1; i >= 0; i--) {
            Outstanding o = sending.get(i);
            if (o.dataSend.isDone()) {
                sending.remove(i);
                NiFail f = o.dataSend.status() == Status.DONE ? NiFail.NI_OK : NiFail.NI_UNDELIVERABLE;
                o.waitSend = false;
                sendEvent(o, f);
                if (o.silent) {
                    letGoOfMds(o);
                }
                Outstanding.DeferredAck d = o.deferredAck;
                if (d != null) {
                    o.deferredAck = null;
                    acked(o, d.fail(), d.list(), d.mlength(), d.offset(), d.silent());
                } else if (f != NiFail.NI_OK && o.waitResponse) {
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
        return work;
    }

    /** {@code peer} died: the operations waiting for its answer fail (those still moving data fail with their requests). */
    void peerFailed(int peer) {
        for (Outstanding o : ops) {
            if (o != null && o.target == peer && (o.waitResponse || o.waitSend) && !sending.contains(o) && !replying.contains(o)) {
                if (o.waitResponse) {
                    failResponse(o, NiFail.NI_UNDELIVERABLE);
                }
            }
        }
    }

    boolean quiet() {
        return sending.isEmpty() && replying.isEmpty();
    }
}
