package dev.ferry.portals;

import static dev.ferry.portals.Arguments.*;

/**
 * The Portals 4 calls of event queues (PtlEQAlloc ... PtlEQPoll) and counting events (PtlCTAlloc
 * ... PtlCTInc), as {@link PortalsLibrary} offers them.
 */
abstract sealed class EventCalls extends LibraryCalls permits MovementCalls {
    EventCalls(Library lib) {
        super(lib);
    }

    // ---- event queues -----------------------------------------------------------------------

    /** PtlEQAlloc: an event queue of {@code count} events. */
    public EqHandle eqAlloc(NiHandle niHandle, long count) {
        Ni ni = handles.ni(niHandle);
        if (count <= 0) {
            throw Library.invalid("event queue count " + count + " (must be positive)");
        }
        return lib().dispatch.call(() -> ni.lib.interfaces.eqAlloc(ni, count));
    }

    /** PtlEQFree: IN_USE while a portal table entry uses it. */
    public void eqFree(EqHandle eqHandle) {
        EventQueue q = handles.eq(eqHandle, null, false);
        lib().dispatch.call(() -> q.ni.lib.interfaces.eqFree(q));
    }

    private EqResult take(EventQueue q, int which) {
        Event e = q.poll();
        if (e == null) {
            return null;
        }
        return new EqResult(q.takeDropped() ? ReturnCode.EQ_DROPPED : ReturnCode.OK, e, which);
    }

    /** PtlEQGet: the next event, or EQ_EMPTY (makes progress once). */
    public EqResult eqGet(EqHandle eqHandle) {
        EventQueue q = handles.eq(eqHandle, null, false);
        Library l = lib();
        l.dispatch.poll(() -> !q.isEmpty());
        EqResult r = take(q, 0);
        return r != null ? r : new EqResult(ReturnCode.EQ_EMPTY, null, 0);
    }

    /** PtlEQWait: waits for the next event; INTERRUPTED when the queue is freed or its interface finalized meanwhile. */
    public EqResult eqWait(EqHandle eqHandle) {
        EventQueue q = handles.eq(eqHandle, null, false);
        Library l = lib();
        waitFor(l, () -> !q.isEmpty() || q.freed || q.ni.closed, -1);
        EqResult r = take(q, 0);
        if (r == null) {
            throw new PtlException(ReturnCode.INTERRUPTED, "eqWait: the event queue was freed or its interface finalized");
        }
        return r;
    }

    /**
     * PtlEQPoll: the next event of any of the first {@code size} queues, waiting up to
     * {@code timeout} ms (TIME_FOREVER: no limit; 0: look once); EQ_EMPTY when none came.
     */
    public EqResult eqPoll(EqHandle[] eqHandles, int size, int timeout) {
        lib();
        if (eqHandles == null || size <= 0 || size > eqHandles.length) {
            throw Library.invalid("size " + size + " with " + (eqHandles == null ? "no" : eqHandles.length) + " event queue handles");
        }
        EventQueue[] qs = new EventQueue[size];
        for (int i = 0; i < size; i++) {
            qs[i] = handles.eq(eqHandles[i], null, false);
        }
        Library l = lib();
        waitFor(l, () -> {
            for (EventQueue q : qs) {
                if (!q.isEmpty()) {
                    return true;
                }
            }
            return false;
        }, timeout);
        for (int i = 0; i < size; i++) {
            EqResult r = take(qs[i], i);
            if (r != null) {
                return r;
            }
        }
        return new EqResult(ReturnCode.EQ_EMPTY, null, 0);
    }

    // ---- counting events --------------------------------------------------------------------

    /** PtlCTAlloc: a counting event at {0, 0}. */
    public CtHandle ctAlloc(NiHandle niHandle) {
        Ni ni = handles.ni(niHandle);
        return lib().dispatch.call(() -> ni.lib.interfaces.ctAlloc(ni));
    }

    /** PtlCTFree (its pending triggered operations are dropped). */
    public void ctFree(CtHandle ctHandle) {
        Counter c = handles.ct(ctHandle, null, false);
        lib().dispatch.call(() -> c.ni.lib.interfaces.ctFree(c));
    }

    /** PtlCTCancelTriggered: drops the triggered operations waiting on this counting event. */
    public void ctCancelTriggered(CtHandle ctHandle) {
        Counter c = handles.ct(ctHandle, null, false);
        lib().dispatch.call(() -> c.cancelTriggered());
    }

    /** PtlCTGet (makes progress once). */
    public CtEvent ctGet(CtHandle ctHandle) {
        Counter c = handles.ct(ctHandle, null, false);
        lib().dispatch.poll(() -> false);
        return c.event();
    }

    /**
     * Extension (not a Portals call): {@link #ctGet} for a waiter on {@code total}, the success
     * and failure counts together. It makes a progress pass as a wait's poll does: when the counts
     * fall short of the total, and every 8th call anyway (a process whose operations complete at
     * once still serves its peers); ctGet makes one on every call.
     *
     * <pre>{@code
     * while (ptl.ctGetToward(ct, issued).success() < issued) { ... }   // failures ended it too
     * }</pre>
     */
    public CtEvent ctGetToward(CtHandle ctHandle, long total) {
        Counter c = handles.ct(ctHandle, null, false);
        lib().dispatch.pollTotal(c, total);
        return c.event();
    }

    /**
     * PtlCTWait: waits until the success count reaches {@code test} or the failure count is not
     * zero; INTERRUPTED when the counting event is freed meanwhile.
     */
    public CtEvent ctWait(CtHandle ctHandle, long test) {
        Counter c = handles.ct(ctHandle, null, false);
        CounterReached w = CounterReached.take(c, test);
        try {
            waitFor(lib(), w, -1);
        } finally {
            w.release();
        }
        if (c.freed) {
            throw new PtlException(ReturnCode.INTERRUPTED, "ctWait: the counting event was freed");
        }
        return c.event();
    }

    /**
     * PtlCTPoll: waits up to {@code timeout} ms until one of the first {@code size} counting
     * events reaches its test (or fails); CT_NONE_REACHED when none did.
     */
    public CtResult ctPoll(CtHandle[] ctHandles, long[] tests, int size, int timeout) {
        lib();
        if (ctHandles == null || tests == null || size <= 0 || size > ctHandles.length || size > tests.length) {
            throw Library.invalid("size " + size + " with " + (ctHandles == null ? "no" : ctHandles.length) + " handles and "
                    + (tests == null ? "no" : tests.length) + " tests");
        }
        Counter[] cs = new Counter[size];
        for (int i = 0; i < size; i++) {
            cs[i] = handles.ct(ctHandles[i], null, false);
        }
        int[] which = {-1};
        waitFor(lib(), () -> {
            for (int i = 0; i < size; i++) {
                if (cs[i].success() >= tests[i] || cs[i].failure != 0) {
                    which[0] = i;
                    return true;
                }
            }
            return false;
        }, timeout);
        if (which[0] < 0) {
            return new CtResult(ReturnCode.CT_NONE_REACHED, null, 0);
        }
        return new CtResult(ReturnCode.OK, cs[which[0]].event(), which[0]);
    }

    /** PtlCTSet (fires the triggered operations it reaches). */
    public void ctSet(CtHandle ctHandle, CtEvent newCt) {
        Counter c = handles.ct(ctHandle, null, false);
        checkCt(newCt);
        lib().dispatch.call(() -> {
            c.set(newCt.success(), newCt.failure());
            return null;
        });
    }

    /** PtlCTInc (fires the triggered operations it reaches). */
    public void ctInc(CtHandle ctHandle, CtEvent increment) {
        Counter c = handles.ct(ctHandle, null, false);
        checkCt(increment);
        if (increment.success() != 0 && increment.failure() != 0) {
            throw Library.invalid("ctInc: increment success or failure, not both (" + increment + ")");
        }
        lib().dispatch.call(() -> {
            c.add(increment.success(), increment.failure());
            return null;
        });
    }
}
