package dev.ferry.portals;

import dev.ferry.launch.pmi.SingletonBootstrap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;

import static dev.ferry.portals.Portals.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The rules a strict check against the specification and the reference implementation found
 * broken (each test failed before its fix): granted limits, NO_INIT before anything else, stale
 * list entry handles, byte counts without an event queue, acks an MD cannot report.
 */
class PortalsStrictTest {
    private static final ProcessId ME = ProcessId.ofRank(0);
    private PortalsLibrary p;
    private NiHandle ni;

    @BeforeEach
    void open() {
        p = PortalsLibrary.open(new PortalsConfig().bootstrap(new SingletonBootstrap()));
        ni = p.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
    }

    @AfterEach
    void close() {
        p.close();
    }

    private static void invalid(Runnable call) {
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, call::run).rc());
    }

    private MdHandle md(long length, EqHandle eq, CtHandle ct, int options) {
        Md md = new Md();
        md.start = Arena.ofAuto().allocate(length, 8);
        md.length = length;
        md.eqHandle = eq;
        md.ctHandle = ct;
        md.options = options;
        return p.mdBind(ni, md);
    }

    private Me me(long length, long bits, int options, CtHandle ct) {
        Me me = new Me();
        me.start = Arena.ofAuto().allocate(length, 8);
        me.length = length;
        me.matchBits = bits;
        me.options = options;
        me.ctHandle = ct;
        return me;
    }

    /** A counted operation within 10 s, or the test fails (never a hang). */
    private CtEvent reach(CtHandle ct, long n) {
        CtResult r = p.ctPoll(new CtHandle[] {ct}, new long[] {n}, 1, 10_000);
        assertEquals(ReturnCode.OK, r.rc(), "count " + n + " not reached within 10 s: " + p.ctGet(ct));
        return r.event();
    }

    /** Before: max_msg_size was Long.MAX_VALUE whatever was asked, a desired max_atomic_size of 4 came back 4096, and 8-byte atomics went through. */
    @Test
    void desiredLimitsAreGrantedAsMinimaReportedAndEnforced() {
        p.close();
        p = PortalsLibrary.open(new PortalsConfig().bootstrap(new SingletonBootstrap()));
        NiLimits want = new NiLimits();
        want.maxMsgSize = 1000;
        want.maxAtomicSize = 4;
        want.maxFetchAtomicSize = 8;
        want.maxVolatileSize = 64;
        want.maxEqs = 1 << 30; // more than provided: what is provided
        NiInitResult r = p.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, want);
        ni = r.niHandle();
        NiLimits got = r.actual();
        assertEquals(1000, got.maxMsgSize);
        assertEquals(4, got.maxAtomicSize);
        assertEquals(4, got.maxFetchAtomicSize, "no larger than max_atomic_size (issue 54), though 8 was asked");
        assertEquals(64, got.maxVolatileSize);
        assertEquals(Interfaces.provided().maxEqs, got.maxEqs);
        int pt = p.ptAlloc(ni, 0, EQ_NONE, PT_ANY);
        CtHandle tct = p.ctAlloc(ni);
        p.meAppend(ni, pt, me(4096, 1, ME_OP_PUT | ME_OP_GET | ME_EVENT_CT_COMM, tct), PRIORITY_LIST, null);
        CtHandle ict = p.ctAlloc(ni);
        MdHandle d = md(4096, EQ_NONE, ict, MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY);
        invalid(() -> p.put(d, 0, 1001, CT_ACK_REQ, ME, pt, 1, 0, null, 0));
        invalid(() -> p.get(d, 0, 1001, ME, pt, 1, 0, null));
        invalid(() -> p.atomic(d, 0, 8, CT_ACK_REQ, ME, pt, 1, 0, null, 0, SUM, INT64_T));
        invalid(() -> p.fetchAtomic(d, 0, d, 8, 16, ME, pt, 1, 0, null, 0, SUM, INT64_T));
        MdHandle v = md(128, EQ_NONE, ict, MD_VOLATILE | MD_EVENT_CT_ACK);
        invalid(() -> p.put(v, 0, 65, CT_ACK_REQ, ME, pt, 1, 0, null, 0));
        p.put(d, 0, 1000, CT_ACK_REQ, ME, pt, 1, 0, null, 0);
        p.atomic(d, 0, 4, CT_ACK_REQ, ME, pt, 1, 0, null, 0, SUM, INT32_T);
        p.put(v, 0, 64, CT_ACK_REQ, ME, pt, 1, 0, null, 0);
        assertEquals(0, reach(ict, 3).failure());
    }

    /** Before: a null or stale handle was reported ARG_INVALID ahead of NO_INIT. */
    @Test
    void everyCallOfAFinalizedLibraryAnswersNoInitFirst() {
        MdHandle d = md(8, EQ_NONE, CT_NONE, 0);
        p.close();
        for (Runnable call : new Runnable[] {
                () -> p.mdRelease(null), () -> p.mdRelease(d), () -> p.niFini(null), () -> p.ctWait(null, 1), () -> p.eqGet(null),
                () -> p.meUnlink(null), () -> p.put(null, -1, -1, null, null, -1, 0, 0, null, 0), () -> p.memAlloc(-1),
                () -> p.eqPoll(null, 0, 0), () -> p.ctPoll(null, null, 0, 0), () -> p.niHandle(null), () -> p.getUid(null), () -> p.barrier()}) {
            assertEquals(ReturnCode.NO_INIT, assertThrows(PtlException.class, call::run).rc());
        }
        // and through the static view, before init
        assertEquals(ReturnCode.NO_INIT, assertThrows(PtlException.class, () -> Portals.mdRelease(null)).rc());
        assertEquals(ReturnCode.NO_INIT, assertThrows(PtlException.class, () -> Portals.ctAlloc(null)).rc());
    }

    /** Before: meUnlink and leUnlink answered OK on an entry the library had already unlinked. */
    @Test
    void anEntryUnlinkedByTheLibraryLeavesAStaleHandle() {
        int pt = p.ptAlloc(ni, 0, EQ_NONE, PT_ANY);
        CtHandle tct = p.ctAlloc(ni);
        MeHandle once = p.meAppend(ni, pt, me(64, 1, ME_OP_PUT | ME_USE_ONCE | ME_EVENT_CT_COMM, tct), PRIORITY_LIST, null);
        Me full = me(16, 2, ME_OP_PUT | ME_MANAGE_LOCAL | ME_EVENT_CT_COMM, tct);
        full.minFree = 8;
        MeHandle local = p.meAppend(ni, pt, full, PRIORITY_LIST, null);
        MeHandle kept = p.meAppend(ni, pt, me(64, 3, ME_OP_PUT | ME_EVENT_CT_COMM, tct), PRIORITY_LIST, null);
        CtHandle ict = p.ctAlloc(ni);
        MdHandle d = md(64, EQ_NONE, ict, MD_EVENT_CT_ACK);
        p.put(d, 0, 8, CT_ACK_REQ, ME, pt, 1, 0, null, 0); // consumes the use-once entry
        p.put(d, 0, 10, CT_ACK_REQ, ME, pt, 2, 0, null, 0); // leaves 6 < min_free 8: unlinked
        reach(ict, 2);
        reach(tct, 2);
        invalid(() -> p.meUnlink(once));
        invalid(() -> p.meUnlink(local));
        p.meUnlink(kept);
        invalid(() -> p.meUnlink(kept)); // unlinked twice

        NiHandle nm = p.niInit(IFACE_DEFAULT, NI_NO_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int lpt = p.ptAlloc(nm, 0, EQ_NONE, PT_ANY);
        CtHandle lct = p.ctAlloc(nm);
        Le le = new Le();
        le.start = Arena.ofAuto().allocate(8, 8);
        le.length = 8;
        le.options = LE_OP_PUT | LE_USE_ONCE | LE_EVENT_CT_COMM;
        le.ctHandle = lct;
        LeHandle leh = p.leAppend(nm, lpt, le, PRIORITY_LIST, null);
        CtHandle nct = p.ctAlloc(nm);
        Md lmd = new Md();
        lmd.start = Arena.ofAuto().allocate(8, 8);
        lmd.length = 8;
        lmd.ctHandle = nct;
        lmd.options = MD_EVENT_CT_ACK;
        p.put(p.mdBind(nm, lmd), 0, 8, CT_ACK_REQ, ME, lpt, 0, 0, null, 0);
        reach(nct, 1);
        invalid(() -> p.leUnlink(leh));
    }

    /** Before: with EQ_NONE on the portal table entry, ME_EVENT_CT_BYTES counted 1 per operation, and a ctWait for N bytes never returned. */
    @Test
    void bytesAreCountedWithoutAnEventQueue() {
        int pt = p.ptAlloc(ni, 0, EQ_NONE, PT_ANY);
        CtHandle tct = p.ctAlloc(ni);
        p.meAppend(ni, pt, me(4096, 1, ME_OP_PUT | ME_OP_GET | ME_EVENT_CT_COMM | ME_EVENT_CT_BYTES, tct), PRIORITY_LIST, null);
        CtHandle ict = p.ctAlloc(ni);
        MdHandle d = md(4096, EQ_NONE, ict, MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY);
        p.put(d, 0, 100, CT_ACK_REQ, ME, pt, 1, 0, null, 0);
        p.get(d, 0, 300, ME, pt, 1, 0, null);
        p.atomic(d, 0, 16, CT_ACK_REQ, ME, pt, 1, 0, null, 0, SUM, INT64_T);
        assertEquals(416, reach(tct, 416).success());
    }

    /** Before: both were accepted, and the ack was reported nowhere. */
    @Test
    void anAckTheMdCannotReportIsRefused() {
        int pt = p.ptAlloc(ni, 0, EQ_NONE, PT_ANY);
        MdHandle countsOnly = md(8, EQ_NONE, p.ctAlloc(ni), MD_EVENT_CT_ACK);
        MdHandle eventsOnly = md(8, p.eqAlloc(ni, 16), CT_NONE, 0);
        invalid(() -> p.put(countsOnly, 0, 8, ACK_REQ, ME, pt, 1, 0, null, 0));
        invalid(() -> p.atomic(countsOnly, 0, 8, ACK_REQ, ME, pt, 1, 0, null, 0, SUM, INT64_T));
        invalid(() -> p.put(eventsOnly, 0, 8, CT_ACK_REQ, ME, pt, 1, 0, null, 0));
        invalid(() -> p.triggeredPut(countsOnly, 0, 8, ACK_REQ, ME, pt, 1, 0, null, 0, p.ctAlloc(ni), 1));
    }

    /** A handle of one library is no handle of another. */
    @Test
    void aHandleOfAnotherLibraryIsInvalid() {
        try (PortalsLibrary other = PortalsLibrary.open(new PortalsConfig().bootstrap(new SingletonBootstrap()))) {
            MdHandle d = md(8, EQ_NONE, CT_NONE, 0);
            invalid(() -> other.mdRelease(d));
            invalid(() -> other.ctAlloc(ni));
        }
    }


    /** Before: the ack of a large put could come before its data send was seen complete, and mdRelease then answered IN_USE. */
    @Test
    void anMdIsFreeOnceItsLastOperationIsAcknowledged() {
        int pt = p.ptAlloc(ni, 0, EQ_NONE, PT_ANY);
        p.meAppend(ni, pt, me(1 << 20, 1, ME_OP_PUT, CT_NONE), PRIORITY_LIST, null);
        for (int i = 0; i < 20; i++) {
            CtHandle ct = p.ctAlloc(ni);
            EqHandle eq = p.eqAlloc(ni, 8);
            MdHandle d = md(1 << 20, eq, ct, MD_EVENT_CT_ACK);
            p.put(d, 0, 1 << 20, ACK_REQ, ME, pt, 1, 0, null, 0);
            reach(ct, 1);
            p.mdRelease(d); // the ack says the data landed: nothing of the MD is in use any more
            assertEquals(EVENT_SEND, p.eqGet(eq).event().type, "SEND before ACK");
            assertEquals(EVENT_ACK, p.eqGet(eq).event().type);
            p.ctFree(ct);
            p.eqFree(eq);
        }
    }

    /** A library reports through the logger of its configuration (here: a message too short for a library header, dropped). */
    @Test
    void aLibraryReportsThroughItsConfiguredLogger() {
        java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        System.Logger log = new System.Logger() {
            public String getName() {
                return "test";
            }

            public boolean isLoggable(Level level) {
                return true;
            }

            public void log(Level level, java.util.ResourceBundle b, String msg, Throwable t) {
                seen.add(msg);
            }

            public void log(Level level, java.util.ResourceBundle b, String format, Object... params) {
                seen.add(java.text.MessageFormat.format(format, params));
            }
        };
        try (PortalsLibrary q = PortalsLibrary.open(new PortalsConfig().bootstrap(new SingletonBootstrap()).logger(log))) {
            Library l = q.lib();
            dev.ferry.core.request.SendRequest s = new dev.ferry.core.request.SendRequest();
            l.dispatch.call(() -> {
                l.engine.send(s.to(0, 0L, Arena.ofAuto().allocate(4)));
                return null;
            });
            NiHandle n = q.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
            CtHandle ct = q.ctAlloc(n);
            long end = System.nanoTime() + 10_000_000_000L;
            while (seen.isEmpty() && System.nanoTime() < end) {
                q.ctGet(ct); // progress
            }
            assertEquals(1, seen.size(), seen.toString());
            assertEquals("rank 0: a 4-byte message from rank 0 is too short for a library header: dropped", seen.get(0));
        }
    }
}
