package dev.ferry.portals;

import java.lang.foreign.MemorySegment;

import static dev.ferry.portals.Portals.*;

/**
 * Tests of the Portals 4 reference implementation (github.com/Portals4/portals4, {@code test/}),
 * ported call for call to the Java binding: the C calls map one to one ({@code PtlPTAlloc} ->
 * {@code ptAlloc}, output parameters become return values, {@code CHECK_RETURNVAL} becomes the
 * exception a failing call throws). The reference's test-support calls map to: {@code libtest_get_rank}
 * -> {@code getId(ni).rank}, {@code libtest_get_size} -> {@code getMap(ni, 0).actualMapSize()},
 * {@code libtest_get_mapping} -> {@code getMap(ni, size).mapping()}, {@code libtest_barrier} ->
 * {@code barrier()}. A C test's {@code return 1} is an {@link AssertionError} here; its exit 0 is
 * an {@code ok} line.
 *
 * <ul>
 *   <li>{@code flowctl-noeq <interface>}: {@code test_flowctl_noeq.c}, with INTERFACE 1 (matching,
 *       ME) or 2 (non-matching, LE): rank 0's event queue has room for half the puts of the others;
 *       a flow-controlled portal table entry must be disabled with a PT_DISABLED event (and no
 *       dropped events), and the initiators see their puts either acked or failed PT_DISABLED.</li>
 * </ul>
 */
public final class ReferenceTests {
    private ReferenceTests() {
    }

    public static void main(String[] args) {
        switch (args[0]) {
            case "flowctl-noeq" -> flowctlNoeq(Integer.parseInt(args[1]));
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.flush();
    }

    private static void fail(String why) {
        throw new AssertionError(why);
    }

    /** test_flowctl_noeq.c: "Test flow control where we exhaust the eq, but have room to receive messages". */
    static void flowctlNoeq(int iface) {
        final boolean matching = iface == 1;
        final int niType = matching ? NI_MATCHING : NI_NO_MATCHING;
        final int options = matching ? ME_OP_PUT : LE_OP_PUT;
        final int iters = 16;
        NiHandle niHandle;
        ProcessId[] procs;
        int rank;
        int ptIndex = 0, signalPtIndex = 0;
        Handle valueEHandle = null, signalEHandle = null;
        int numProcs;
        EqHandle eqHandle;
        CtHandle ctHandle = null;
        MdHandle mdHandle = null;

        init();

        niHandle = niInit(IFACE_DEFAULT, niType | NI_LOGICAL, PID_ANY, null).niHandle();
        rank = getId(niHandle).rank;
        numProcs = getMap(niHandle, 0).actualMapSize();
        if (numProcs < 2) {
            fail("test_flowctl_noeq requires at least two processes");
        }
        procs = getMap(niHandle, numProcs).mapping();
        setMap(niHandle, numProcs, procs);

        if (0 == rank) {
            /* create data ME */
            eqHandle = eqAlloc(niHandle, (numProcs - 1) * iters / 2);
            ptIndex = ptAlloc(niHandle, PT_FLOWCTRL, eqHandle, 5);
            valueEHandle = append(niHandle, matching, 5, null, 0, CT_NONE, options, "value");

            /* create signal ME */
            ctHandle = ctAlloc(niHandle);
            signalPtIndex = ptAlloc(niHandle, 1, EQ_NONE, 6);
            signalEHandle = append(niHandle, matching, 6, null, 0, ctHandle, options | LE_EVENT_CT_COMM, "signal");
        } else {
            /* 16 extra just in case... */
            eqHandle = eqAlloc(niHandle, iters * 2 + 16);

            Md md = new Md();
            md.start = null;
            md.length = 0;
            md.options = 0;
            md.eqHandle = eqHandle;
            md.ctHandle = CT_NONE;

            mdHandle = mdBind(niHandle, md);
        }

        barrier();

        if (0 == rank) {
            CtEvent ct;
            Event ev = null;
            int count = 0, sawDropped = 0, sawFlowctl = 0;

            /* wait for signal counts */
            ct = ctWait(ctHandle, numProcs - 1);
            if (ct.success() != numProcs - 1 || ct.failure() != 0) {
                fail("0: signal counts " + ct);
            }

            System.err.println("0: got all my signals");

            /* wait for event entries */
            while (count < iters * (numProcs - 1)) {
                EqResult ret = eqGet(eqHandle);
                if (ret.rc() == ReturnCode.OK) {
                    count++;
                    ev = ret.event();
                } else if (ret.rc() == ReturnCode.EQ_DROPPED) {
                    count++;
                    sawDropped++;
                    ev = ret.event();
                } else {
                    // the C test counts PTL_EQ_EMPTY here too (its "else if (PTL_EQ_DROPPED)" is always
                    // true); an empty queue is simply polled again
                    continue;
                }

                if (ev.type == EVENT_PT_DISABLED) {
                    sawFlowctl++;
                    break;
                }
            }

            System.err.println("0: Saw " + sawDropped + " dropped, " + sawFlowctl + " flowctl");
            if (sawDropped != 0 || sawFlowctl == 0) {
                fail("0: saw " + sawDropped + " dropped, " + sawFlowctl + " flowctl");
            }
        } else {
            ProcessId target = ProcessId.ofRank(0);
            Event ev;
            int count = 0, fails = 0;

            for (int i = 0; i < iters; ++i) {
                put(mdHandle, 0, 0, ACK_REQ, target, 5, 0, 0, null, 0);
            }

            System.err.println(rank + ": done with sends");

            while (count < iters) {
                EqResult ret = eqGet(eqHandle);
                if (ret.rc() == ReturnCode.EQ_EMPTY) {
                    continue;
                } else if (ret.rc() != ReturnCode.OK) {
                    fail(rank + ": PtlEQGet returned " + ret.rc());
                }
                ev = ret.event();

                if (ev.niFailType == NI_OK) {
                    if (ev.type == EVENT_SEND) {
                        continue;
                    } else if (ev.type == EVENT_ACK) {
                        count++;
                    } else {
                        System.err.println(rank + ": Unexpected event type " + ev.type);
                    }
                } else if (ev.niFailType == NI_PT_DISABLED) {
                    count++;
                    fails++;
                } else {
                    fail(rank + ": Unexpected fail type: " + ev.niFailType);
                }
            }

            System.err.println(rank + ": Saw " + fails + " of " + count + " events as fails");

            put(mdHandle, 0, 0, NO_ACK_REQ, target, 6, 0, 0, null, 0);
            /* wait for the send event on the last put */
            eqWait(eqHandle);
        }

        if (0 == rank) {
            unlink(signalEHandle);
            ptFree(niHandle, signalPtIndex);
            ctFree(ctHandle);
            unlink(valueEHandle);
            ptFree(niHandle, ptIndex);
            eqFree(eqHandle);
        } else {
            mdRelease(mdHandle);
            eqFree(eqHandle);
        }

        barrier();

        niFini(niHandle);
        fini();
        System.out.println("ok flowctl-noeq interface " + iface + " rank " + rank);
    }

    /** The C test's APPEND macro: PtlMEAppend (INTERFACE 1, match any rank, bits 0) or PtlLEAppend. */
    private static Handle append(NiHandle ni, boolean matching, int pt, MemorySegment start, long length, CtHandle ct, int options, Object userPtr) {
        if (matching) {
            Me e = new Me();
            e.start = start;
            e.length = length;
            e.ctHandle = ct;
            e.uid = UID_ANY;
            e.options = options;
            e.matchId = ProcessId.ofRank(RANK_ANY);
            e.matchBits = 0;
            e.ignoreBits = 0;
            return meAppend(ni, pt, e, PRIORITY_LIST, userPtr);
        }
        Le e = new Le();
        e.start = start;
        e.length = length;
        e.ctHandle = ct;
        e.uid = UID_ANY;
        e.options = options;
        return leAppend(ni, pt, e, PRIORITY_LIST, userPtr);
    }

    /** The C test's UNLINK macro. */
    private static void unlink(Handle h) {
        if (h instanceof MeHandle m) {
            meUnlink(m);
        } else {
            leUnlink((LeHandle) h);
        }
    }
}
