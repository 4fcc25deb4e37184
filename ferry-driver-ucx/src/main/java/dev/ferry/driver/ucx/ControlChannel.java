package dev.ferry.driver.ucx;

import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucs.UcsConstants;

import java.lang.foreign.MemorySegment;

/**
 * An instance's FIN and BYE messages ({@link UcxWire}): a receive posted for each, the FINs this
 * side owes for completed rendezvous sent in order as their small buffers come free, and the
 * BYE of a disconnect. The context's lock guards every call.
 */
final class ControlChannel {
    private static final int FIN_BUFFERS = 8;

    private final UcxContext ctx;
    private final int id;
    private final MemorySegment finIn;
    private final MemorySegment byeIn;
    private final MemorySegment byeOut;
    private final MemorySegment[] finOut = new MemorySegment[FIN_BUFFERS];
    private final UcpRequest[] finOutReq = new UcpRequest[FIN_BUFFERS];
    private UcpRequest finReq;
    private UcpRequest byeReq;
    private int finNext;
    private long rdvDone;
    private long finsOwed;
    /** Rendezvous the peer has completed (its last FIN). */
    long finsReceived;
    /** The peer disconnected, after sending {@link #peerDataSent} DATA messages. */
    boolean peerClosed;
    long peerDataSent;

    ControlChannel(UcxContext ctx, int id) {
        this.ctx = ctx;
        this.id = id;
        finIn = ctx.arena.allocate(UcxWire.COUNT_SIZE, 8);
        byeIn = ctx.arena.allocate(UcxWire.COUNT_SIZE, 8);
        byeOut = ctx.arena.allocate(UcxWire.COUNT_SIZE, 8);
        for (int i = 0; i < FIN_BUFFERS; i++) {
            finOut[i] = ctx.arena.allocate(UcxWire.COUNT_SIZE, 8);
        }
        finReq = post(finIn, UcxWire.KIND_FIN);
        byeReq = post(byeIn, UcxWire.KIND_BYE);
    }

    private UcpRequest post(MemorySegment into, long kind) {
        return ctx.worker.recvTaggedNonBlocking(into.address(), UcxWire.COUNT_SIZE, UcxWire.tag(kind, id), UcxWire.FULL_MASK, null);
    }

    /** Takes the FINs and the BYE that have arrived. */
    void take() {
        while (finReq.isCompleted() && finReq.getStatus() == UcsConstants.STATUS.UCS_OK) {
            finsReceived = Math.max(finsReceived, UcxWire.readCount(finIn));
            finReq = post(finIn, UcxWire.KIND_FIN);
        }
        if (!peerClosed && byeReq.isCompleted() && byeReq.getStatus() == UcsConstants.STATUS.UCS_OK) {
            peerClosed = true;
            peerDataSent = UcxWire.readCount(byeIn);
        }
    }

    /** A rendezvous from the peer was pulled: a FIN is owed. */
    void owe() {
        rdvDone++;
        finsOwed++;
    }

    boolean owes() {
        return finsOwed > 0;
    }

    /** Sends the FINs owed, as far as their buffers are free. */
    void sendOwed(UcpEndpoint ep, int peerId) {
        while (finsOwed > 0) {
            int i = finNext;
            if (finOutReq[i] != null && !finOutReq[i].isCompleted()) {
                return;
            }
            UcxWire.writeCount(finOut[i], rdvDone - finsOwed + 1);
            finOutReq[i] = ep.sendTaggedNonBlocking(finOut[i].address(), UcxWire.COUNT_SIZE, UcxWire.tag(UcxWire.KIND_FIN, peerId), null);
            finNext = (i + 1) % FIN_BUFFERS;
            finsOwed--;
        }
    }

    /** Some FIN UCX still holds. */
    boolean sending() {
        for (UcpRequest r : finOutReq) {
            if (r != null && !r.isCompleted()) {
                return true;
            }
        }
        return false;
    }

    /** Sends the BYE: {@code dataSent} DATA messages went before it. */
    UcpRequest bye(UcpEndpoint ep, int peerId, long dataSent) {
        UcxWire.writeCount(byeOut, dataSent);
        return ep.sendTaggedNonBlocking(byeOut.address(), UcxWire.COUNT_SIZE, UcxWire.tag(UcxWire.KIND_BYE, peerId), null);
    }

    void cancel() {
        for (UcpRequest r : new UcpRequest[] {finReq, byeReq}) {
            if (!r.isCompleted()) {
                ctx.worker.cancelRequest(r);
            }
        }
    }

    /** A receive is still in UCX's hands. */
    boolean busy() {
        return !finReq.isCompleted() || !byeReq.isCompleted();
    }
}
