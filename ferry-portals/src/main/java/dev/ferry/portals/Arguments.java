package dev.ferry.portals;

import java.lang.foreign.MemorySegment;

import static dev.ferry.portals.Portals.MD_VOLATILE;

/**
 * The checks of a call's arguments against the specification and the interface's granted limits
 * that need nothing of the library's state: every failure is ARG_INVALID naming the argument.
 * {@link PortalsLibrary} runs them after resolving the call's handles, before dispatching.
 *
 * <pre>{@code
 * checkRange("put", md, localOffset, length);
 * checkSource("put", md, length, ackReq);
 * }</pre>
 */
final class Arguments {
    private Arguments() {
    }

    static void checkCt(CtEvent e) {
        if (e == null || e.success() < 0 || e.failure() < 0) {
            throw Library.invalid("counting event value " + e);
        }
    }

    static void checkRange(String what, MemDesc d, long offset, long length) {
        if (offset < 0 || length < 0 || offset > d.region.length() || length > d.region.length() - offset) {
            throw Library.invalid(what + ": offset " + offset + " + length " + length + " is outside the " + d.region.length() + "-byte memory descriptor");
        }
        if (length > d.ni.limits.maxMsgSize) {
            throw Library.invalid(what + ": length " + length + " is beyond the interface's max_msg_size of " + d.ni.limits.maxMsgSize);
        }
    }

    /**
     * What a put or atomic asks of its MD, as the reference implementation checks it: an ack
     * reported as a full event needs the MD's event queue, a counted one its counter, and a
     * volatile MD's data is copied at the call only up to max_volatile_size.
     */
    static void checkSource(String what, MemDesc d, long length, AckReq ackReq) {
        checkAck(ackReq);
        if (ackReq == AckReq.ACK_REQ && d.eq == null) {
            throw Library.invalid(what + ": ACK_REQ from a memory descriptor without an event queue (its ack could not be reported)");
        }
        if (ackReq == AckReq.CT_ACK_REQ && d.ct == null) {
            throw Library.invalid(what + ": CT_ACK_REQ from a memory descriptor without a counting event (its ack could not be counted)");
        }
        if ((d.options & MD_VOLATILE) != 0 && length > d.ni.limits.maxVolatileSize) {
            throw Library.invalid(what + ": length " + length + " from a volatile memory descriptor is beyond max_volatile_size " + d.ni.limits.maxVolatileSize);
        }
    }

    static void checkPt(Ni ni, int ptIndex) {
        if (ptIndex < 0 || ptIndex > ni.limits.maxPtIndex) {
            throw Library.invalid("pt_index " + Integer.toUnsignedString(ptIndex) + " is beyond max_pt_index " + ni.limits.maxPtIndex);
        }
    }

    static Op checkAtomic(String call, long length, long limit, Op op, Datatype dt, boolean swapFamily) {
        if (op == null || dt == null) {
            throw Library.invalid(call + ": operation and datatype must be given");
        }
        if (swapFamily == op.isArithmetic()) {
            throw Library.invalid(call + ": " + op + (swapFamily ? " is not a swap operation (SWAP, CSWAP.., MSWAP, MSK_CSWAP, MFETCH_ADD)" : " is a swap operation: use swap"));
        }
        String why = Atomics.check(op, dt);
        if (why != null) {
            throw Library.invalid(call + ": " + why);
        }
        if (length > limit) {
            throw Library.invalid(call + ": length " + length + " is beyond the interface's limit of " + limit + " bytes");
        }
        if (!dt.divides(length)) {
            throw Library.invalid(call + ": length " + length + " is not a whole number of " + dt + " (" + dt.size() + " bytes)");
        }
        if (swapFamily && op != Op.SWAP && length != dt.size()) {
            throw Library.invalid(call + ": " + op + " works on one element: length must be " + dt.size() + ", not " + length);
        }
        return op;
    }

    static AckReq checkAck(AckReq a) {
        if (a == null) {
            throw Library.invalid("ack_req is null");
        }
        return a;
    }

    /**
     * The operand {@code operation} needs, exactly its size (the operation reads its size), or
     * null when it needs none; a copy when {@code copy}: it is read later (triggered) or in another
     * thread (thread mode), and the caller may reuse its own at once.
     */
    static MemorySegment swapOperand(MemorySegment operand, Op operation, Datatype datatype, boolean copy) {
        int need = Atomics.operandSize(operation, datatype);
        if (need == 0) {
            return null;
        }
        if (operand == null || operand.byteSize() < need) {
            throw Library.invalid("swap: " + operation + " needs an operand of " + need + " bytes, got " + (operand == null ? "none" : operand.byteSize()));
        }
        if (copy) {
            MemorySegment c = MemorySegment.ofArray(new byte[need]);
            MemorySegment.copy(operand, 0, c, 0, need);
            return c;
        }
        return operand.byteSize() == need ? operand : operand.asSlice(0, need);
    }
}
