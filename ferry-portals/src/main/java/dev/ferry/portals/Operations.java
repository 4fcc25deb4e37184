package dev.ferry.portals;

import java.lang.foreign.MemorySegment;

import static dev.ferry.portals.Arguments.*;

/**
 * The data-movement calls (put, get, atomic, fetch-atomic, swap) once their arguments are
 * resolved and checked: each starts its operation at once ({@code now}: the caller may run in
 * the library itself) or answers it as a task, run later through the dispatch or when a
 * triggered operation's counter fires. Arguments are checked before anything is answered, so a
 * triggered operation with a bad argument fails at the call, not when it fires.
 *
 * <pre>{@code
 * Runnable later = ops.put(md, 0, 8, ACK_REQ, target, pt, bits, 0, null, 0, false);
 * }</pre>
 */
final class Operations {
    private final Handles handles;

    Operations(Handles handles) {
        this.handles = handles;
    }

    Runnable put(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                                  long remoteOffset, Object userPtr, long hdrData, boolean now) {
        MemDesc d = handles.md(mdHandle);
        checkRange("put", d, localOffset, length);
        checkSource("put", d, length, ackReq);
        checkPt(d.ni, ptIndex);
        int target = d.ni.lib.engineRank(d.ni, targetId);
        if (now) {
            d.ni.lib.initiator.start(PtlWire.PUT, d.ni, d, localOffset, null, 0, length, ackReq, target, ptIndex, matchBits, remoteOffset, userPtr, hdrData, null, null, null);
            return null;
        }
        return () -> d.ni.lib.initiator.start(PtlWire.PUT, d.ni, d, localOffset, null, 0, length, ackReq, target, ptIndex, matchBits, remoteOffset, userPtr, hdrData, null, null, null);
    }
    Runnable get(MdHandle mdHandle, long localOffset, long length, ProcessId targetId, int ptIndex, long matchBits,
                                  long remoteOffset, Object userPtr, boolean now) {
        MemDesc d = handles.md(mdHandle);
        checkRange("get", d, localOffset, length);
        checkPt(d.ni, ptIndex);
        int target = d.ni.lib.engineRank(d.ni, targetId);
        if (now) {
            d.ni.lib.initiator.start(PtlWire.GET, d.ni, null, 0, d, localOffset, length, null, target, ptIndex, matchBits, remoteOffset, userPtr, 0, null, null, null);
            return null;
        }
        return () -> d.ni.lib.initiator.start(PtlWire.GET, d.ni, null, 0, d, localOffset, length, null, target, ptIndex, matchBits, remoteOffset, userPtr, 0, null, null, null);
    }
    Runnable atomic(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                                     long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype, boolean now) {
        MemDesc d = handles.md(mdHandle);
        checkRange("atomic", d, localOffset, length);
        checkSource("atomic", d, length, ackReq);
        checkPt(d.ni, ptIndex);
        checkAtomic("atomic", length, d.ni.limits.maxAtomicSize, operation, datatype, false);
        int target = d.ni.lib.engineRank(d.ni, targetId);
        if (now) {
            d.ni.lib.initiator.start(PtlWire.ATOMIC, d.ni, d, localOffset, null, 0, length, ackReq, target, ptIndex, matchBits, remoteOffset, userPtr, hdrData, null, operation, datatype);
            return null;
        }
        return () -> d.ni.lib.initiator.start(PtlWire.ATOMIC, d.ni, d, localOffset, null, 0, length, ackReq, target, ptIndex, matchBits, remoteOffset, userPtr, hdrData, null, operation, datatype);
    }
    Runnable fetch(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length, ProcessId targetId,
                                    int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype, boolean now) {
        MemDesc g = handles.md(getMdHandle), p = handles.md(putMdHandle);
        if (g.ni != p.ni) {
            throw Library.invalid("fetchAtomic: the get and put MDs belong to different interfaces");
        }
        checkRange("fetchAtomic (get md)", g, localGetOffset, length);
        checkRange("fetchAtomic (put md)", p, localPutOffset, length);
        checkPt(p.ni, ptIndex);
        checkAtomic("fetchAtomic", length, p.ni.limits.maxFetchAtomicSize, operation, datatype, false);
        int target = p.ni.lib.engineRank(p.ni, targetId);
        if (now) {
            p.ni.lib.initiator.start(PtlWire.FETCH, p.ni, p, localPutOffset, g, localGetOffset, length, AckReq.NO_ACK_REQ, target, ptIndex, matchBits,
                    remoteOffset, userPtr, hdrData, null, operation, datatype);
            return null;
        }
        return () -> p.ni.lib.initiator.start(PtlWire.FETCH, p.ni, p, localPutOffset, g, localGetOffset, length, AckReq.NO_ACK_REQ, target, ptIndex, matchBits,
                remoteOffset, userPtr, hdrData, null, operation, datatype);
    }
    Runnable swap(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length, ProcessId targetId,
                                   int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, MemorySegment operand, Op operation, Datatype datatype,
                                   boolean now) {
        MemDesc g = handles.md(getMdHandle), p = handles.md(putMdHandle);
        if (g.ni != p.ni) {
            throw Library.invalid("swap: the get and put MDs belong to different interfaces");
        }
        checkRange("swap (get md)", g, localGetOffset, length);
        checkRange("swap (put md)", p, localPutOffset, length);
        checkPt(p.ni, ptIndex);
        checkAtomic("swap", length, p.ni.limits.maxFetchAtomicSize, operation, datatype, true);
        MemorySegment op = swapOperand(operand, operation, datatype, !now); // read later or elsewhere: a copy
        int target = p.ni.lib.engineRank(p.ni, targetId);
        if (now) {
            p.ni.lib.initiator.start(PtlWire.SWAP, p.ni, p, localPutOffset, g, localGetOffset, length, AckReq.NO_ACK_REQ, target, ptIndex, matchBits,
                    remoteOffset, userPtr, hdrData, op, operation, datatype);
            return null;
        }
        return () -> p.ni.lib.initiator.start(PtlWire.SWAP, p.ni, p, localPutOffset, g, localGetOffset, length, AckReq.NO_ACK_REQ, target, ptIndex, matchBits,
                remoteOffset, userPtr, hdrData, op, operation, datatype);
    }
}
