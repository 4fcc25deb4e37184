package dev.ferry.portals;

import java.lang.foreign.MemorySegment;

import static dev.ferry.portals.Arguments.*;

/**
 * The Portals 4 data-movement calls (PtlPut, PtlGet, PtlAtomic, PtlFetchAtomic, PtlSwap,
 * PtlAtomicSync) and their triggered forms, as {@link PortalsLibrary} offers them.
 */
abstract sealed class MovementCalls extends EventCalls permits PortalsLibrary {
    MovementCalls(Library lib) {
        super(lib);
    }

    // ---- data movement ----------------------------------------------------------------------

    /** PtlPut. */
    public void put(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                           long remoteOffset, Object userPtr, long hdrData) {
        awaitRoom();
        Dispatch d = enter(); // in this thread when it may, no lambda made: see enter()
        try { later(ops.put(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, d != null)); } finally { leave(d); }
    }

    /**
     * The dispatch, when this thread may run a data operation in the library itself now (caller
     * mode: the lock is then held; thread mode: this is the progress thread), else null;
     * {@link #leave} after. Then the operation is started straight from its *Op method, and no
     * lambda is made: a lambda handed to {@link Dispatch#call} is only elided when the JIT inlines
     * everything between, and one call site shared by every API call sees too many kinds to inline
     * any (about 100 B per put once puts, gets and atomics are mixed).
     */
    private Dispatch enter() {
        Dispatch d = lib().dispatch;
        return d.enter() ? d : null;
    }

    /**
     * Back-pressure: while too much waits to leave (a target that takes nothing), a new operation
     * waits, making progress, for room: the initiator's memory stays bounded instead of
     * queueing without end (and so does the target's: the engine's credits). A dead target's
     * operations fail and make room.
     */
    private void awaitRoom() {
        Library l = lib();
        if (l.sender.crowded()) {
            waitFor(l, () -> !l.sender.crowded(), -1);
        }
    }

    /**
     * Extension (not a Portals call): the most inline messages that ever waited to leave at once,
     * and the bound past which operations wait for room.
     */
    public int[] inflightPeakAndBound() {
        Library l = lib();
        return l.dispatch.call(() -> new int[] {l.sender.inflightPeak(), l.sender.maxInflight()});
    }

    /** Ends what {@link #enter} began (nothing when it answered null). */
    private void leave(Dispatch entered) {
        if (entered != null) {
            entered.leave();
        }
    }

    /** Runs {@code r} through the dispatch, unless the operation was done at once (null). */
    private void later(Runnable r) {
        if (r != null) {
            run(r);
        }
    }

    private void run(Runnable r) {
        lib().dispatch.call(() -> {
            r.run();
            return null;
        });
    }


    /** PtlGet. */
    public void get(MdHandle mdHandle, long localOffset, long length, ProcessId targetId, int ptIndex, long matchBits,
                           long remoteOffset, Object userPtr) {
        awaitRoom();
        Dispatch d = enter();
        try { later(ops.get(mdHandle, localOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, d != null)); } finally { leave(d); }
    }


    /** PtlAtomic: {@code operation} (MIN .. BXOR) of the MD's elements into the target's. */
    public void atomic(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                              long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype) {
        awaitRoom();
        Dispatch d = enter();
        try { later(ops.atomic(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype, d != null)); } finally { leave(d); }
    }


    /** PtlFetchAtomic: like atomic, and the target's old values come back into the get MD. */
    public void fetchAtomic(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length, ProcessId targetId,
                                   int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype) {
        awaitRoom();
        Dispatch d = enter();
        try { later(ops.fetch(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype, d != null)); } finally { leave(d); }
    }


    /**
     * PtlSwap: SWAP, the CSWAPs and MSWAP with {@code operand} (one element: the compare value, or
     * MSWAP's mask), and the extensions MSK_CSWAP (operand: compare, compare mask, swap mask) and
     * MFETCH_ADD (operand: field boundaries); the old values come back into the get MD.
     */
    public void swap(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length, ProcessId targetId,
                            int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, MemorySegment operand, Op operation, Datatype datatype) {
        awaitRoom();
        Dispatch d = enter();
        try { later(ops.swap(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operand, operation, datatype, d != null)); } finally { leave(d); }
    }


    /** PtlAtomicSync: atomics here are applied by the library, coherent with the host once their events are seen; nothing to flush. */
    public void atomicSync() {
        lib();
    }

    // ---- triggered operations ---------------------------------------------------------------

    private void trigger(CtHandle trigCtHandle, long threshold, Ni ni, Runnable action) {
        Counter c = handles.ct(trigCtHandle, ni, false);
        if (threshold < 0) {
            throw Library.invalid("threshold " + threshold);
        }
        Runnable guarded = () -> {
            try {
                action.run();
            } catch (PtlException e) {
                System.getLogger(Portals.class.getName()).log(System.Logger.Level.WARNING, "a triggered operation failed when it fired: " + e.getMessage());
            }
        };
        lib().dispatch.call(() -> c.ni.lib.interfaces.trigger(c, threshold, guarded));
    }

    /** PtlTriggeredPut: the put runs when {@code trigCtHandle}'s success count reaches {@code threshold}. */
    public void triggeredPut(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                                    long remoteOffset, Object userPtr, long hdrData, CtHandle trigCtHandle, long threshold) {
        Runnable r = ops.put(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, false);
        trigger(trigCtHandle, threshold, handles.md(mdHandle).ni, r);
    }

    /** PtlTriggeredGet. */
    public void triggeredGet(MdHandle mdHandle, long localOffset, long length, ProcessId targetId, int ptIndex, long matchBits,
                                    long remoteOffset, Object userPtr, CtHandle trigCtHandle, long threshold) {
        Runnable r = ops.get(mdHandle, localOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, false);
        trigger(trigCtHandle, threshold, handles.md(mdHandle).ni, r);
    }

    /** PtlTriggeredAtomic. */
    public void triggeredAtomic(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                                       long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype, CtHandle trigCtHandle, long threshold) {
        Runnable r = ops.atomic(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype, false);
        trigger(trigCtHandle, threshold, handles.md(mdHandle).ni, r);
    }

    /** PtlTriggeredFetchAtomic. */
    public void triggeredFetchAtomic(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length,
                                            ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData,
                                            Op operation, Datatype datatype, CtHandle trigCtHandle, long threshold) {
        Runnable r = ops.fetch(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype, false);
        trigger(trigCtHandle, threshold, handles.md(putMdHandle).ni, r);
    }

    /** PtlTriggeredSwap. */
    public void triggeredSwap(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length,
                                     ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData,
                                     MemorySegment operand, Op operation, Datatype datatype, CtHandle trigCtHandle, long threshold) {
        Runnable r = ops.swap(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operand, operation, datatype, false);
        trigger(trigCtHandle, threshold, handles.md(putMdHandle).ni, r);
    }

    /** PtlTriggeredCTInc: increments {@code ctHandle} when {@code trigCtHandle} reaches {@code threshold}. */
    public void triggeredCtInc(CtHandle ctHandle, CtEvent increment, CtHandle trigCtHandle, long threshold) {
        Counter c = handles.ct(ctHandle, null, false);
        checkCt(increment);
        trigger(trigCtHandle, threshold, c.ni, () -> {
            if (!c.freed) {
                c.add(increment.success(), increment.failure());
            }
        });
    }

    /** PtlTriggeredCTSet. */
    public void triggeredCtSet(CtHandle ctHandle, CtEvent newCt, CtHandle trigCtHandle, long threshold) {
        Counter c = handles.ct(ctHandle, null, false);
        checkCt(newCt);
        trigger(trigCtHandle, threshold, c.ni, () -> {
            if (!c.freed) {
                c.set(newCt.success(), newCt.failure());
            }
        });
    }
}
