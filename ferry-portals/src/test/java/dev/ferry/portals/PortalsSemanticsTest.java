package dev.ferry.portals;


import dev.ferry.core.request.SendRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static dev.ferry.portals.Portals.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Portals semantics in one process (a job of one rank: the operations go to itself through the
 * self driver, through the same library paths as between processes): matching, truncation,
 * use-once, locally managed offsets, overflow list and unexpected headers, search, flow control,
 * events and counts, atomics, triggered operations, iovecs, and the argument checks.
 */
class PortalsSemanticsTest {
    static NiHandle ni;
    static NiHandle phys;
    static NiHandle nm;
    static final ProcessId ME = ProcessId.ofRank(0);

    @BeforeAll
    static void up() {
        init();
        ni = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        phys = niInit(IFACE_DEFAULT, NI_MATCHING | NI_PHYSICAL, PID_ANY, null).niHandle();
        nm = niInit(IFACE_DEFAULT, NI_NO_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
    }

    @AfterAll
    static void down() {
        niFini(nm);
        niFini(phys);
        niFini(ni);
        fini();
    }

    static MemorySegment bytes(int n, int seed) {
        MemorySegment m = Arena.ofAuto().allocate(Math.max(1, n), 8);
        for (int i = 0; i < n; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) (seed + i * 7));
        }
        return m.asSlice(0, n);
    }

    static Me me(MemorySegment m, long bits, int options, CtHandle ct) {
        Me me = new Me();
        me.start = m;
        me.length = m.byteSize();
        me.matchBits = bits;
        me.options = options;
        me.ctHandle = ct;
        return me;
    }

    static MdHandle md(MemorySegment m, EqHandle eq, CtHandle ct, int options) {
        Md md = new Md();
        md.start = m;
        md.length = m.byteSize();
        md.eqHandle = eq;
        md.ctHandle = ct;
        md.options = options;
        return mdBind(ni, md);
    }

    static List<Event> drain(EqHandle eq) {
        List<Event> l = new ArrayList<>();
        EqResult r;
        while ((r = eqGet(eq)).rc() != ReturnCode.EQ_EMPTY) {
            l.add(r.event());
        }
        return l;
    }

    static Event next(EqHandle eq) {
        EqResult r = eqPoll(new EqHandle[] {eq}, 1, 10_000);
        assertNotNull(r.event(), "an event within 10 s");
        return r.event();
    }

    /**
     * A peer's request whose header claims more bytes than its message holds (a put's data, a
     * compare-and-swap's operand) is dropped with a warning; the target's memory and counts stay as
     * they were and the next well-formed operation goes through.
     */
    @Test
    void requestsThatDoNotHoldWhatTheirHeaderClaimsAreDropped() {
        int pt = ptAlloc(ni, 0, EQ_NONE, PT_ANY);
        MemorySegment window = bytes(64, 0);
        byte[] before = window.toArray(ValueLayout.JAVA_BYTE);
        CtHandle tct = ctAlloc(ni);
        MeHandle h = meAppend(ni, pt, me(window, 7, ME_OP_PUT | ME_OP_GET | ME_EVENT_CT_COMM, tct), PRIORITY_LIST, null);
        Library l = Portals.lib();
        int niIndex = ((Ni) ni.target).index;
        MemorySegment put = Arena.ofAuto().allocate(PtlWire.HEADER + 8, 8);
        PtlWire.request(put, PtlWire.PUT, niIndex, 0, 0, 0, 0, pt, 0, 7, 0, 0, 1000, 1, 0); // 1000 bytes claimed, 8 carried
        MemorySegment cswap = Arena.ofAuto().allocate(PtlWire.HEADER + 8, 8);
        PtlWire.request(cswap, PtlWire.SWAP, niIndex, 0, CSWAP.ordinal(), INT64_T.ordinal(), 0, pt, 0, 7, 0, 0, 8, 2, 0); // no operand
        SendRequest s1 = new SendRequest();
        SendRequest s2 = new SendRequest();
        l.dispatch.call(() -> {
            l.engine.send(s1.to(0, 0L, put));
            l.engine.send(s2.to(0, 0L, cswap));
            return null;
        });
        CtHandle ict = ctAlloc(ni);
        MemorySegment src = bytes(8, 9);
        MdHandle d = md(src, EQ_NONE, ict, MD_EVENT_CT_ACK);
        put(d, 0, 8, CT_ACK_REQ, ME, pt, 7, 0, null, 0); // sent after the two: it arrives after them
        assertEquals(new CtEvent(1, 0), ctWait(ict, 1));
        assertEquals(new CtEvent(1, 0), ctGet(tct), "only the well-formed put reached the entry");
        assertArrayEquals(src.toArray(ValueLayout.JAVA_BYTE), window.asSlice(0, 8).toArray(ValueLayout.JAVA_BYTE));
        assertArrayEquals(java.util.Arrays.copyOfRange(before, 8, 64), window.asSlice(8, 56).toArray(ValueLayout.JAVA_BYTE));
        meUnlink(h);
        mdRelease(d);
        ctFree(ict);
        ctFree(tct);
        ptFree(ni, pt);
    }

    @Test
    void putMatchesByBitsAndIgnoreBitsAndReportsEveryEvent() {
        EqHandle teq = eqAlloc(ni, 64);
        EqHandle ieq = eqAlloc(ni, 64);
        int pt = ptAlloc(ni, 0, teq, PT_ANY);
        MemorySegment window = bytes(256, 0);
        Me m = me(window, 0xABCD_0000L, ME_OP_PUT, CT_NONE);
        m.ignoreBits = 0xffff;
        MeHandle h = meAppend(ni, pt, m, PRIORITY_LIST, "window");
        assertEquals(EVENT_LINK, next(teq).type);
        MemorySegment src = bytes(100, 5);
        MdHandle d = md(src, ieq, CT_NONE, 0);
        put(d, 0, 100, ACK_REQ, ME, pt, 0xABCD_1234L, 16, "op", 77);
        Event send = next(ieq);
        assertEquals(EVENT_SEND, send.type);
        Event ack = next(ieq);
        assertEquals(EVENT_ACK, ack.type);
        assertEquals(100, ack.mlength);
        assertEquals(16, ack.remoteOffset);
        assertEquals("op", ack.userPtr);
        Event put = next(teq);
        assertEquals(EVENT_PUT, put.type);
        assertEquals(NI_OK, put.niFailType);
        assertEquals(0xABCD_1234L, put.matchBits);
        assertEquals(77, put.hdrData);
        assertEquals(100, put.rlength);
        assertEquals(100, put.mlength);
        assertEquals("window", put.userPtr);
        assertEquals(0, put.initiator.rank);
        assertEquals(PRIORITY_LIST, put.ptlList);
        assertArrayEquals(src.toArray(ValueLayout.JAVA_BYTE), window.asSlice(16, 100).toArray(ValueLayout.JAVA_BYTE));
        assertArrayEquals(src.toArray(ValueLayout.JAVA_BYTE), put.start.toArray(ValueLayout.JAVA_BYTE));
        // other bits do not match: dropped, counted, the initiator told
        int drops = niStatus(ni, SR_DROP_COUNT);
        put(d, 0, 8, ACK_REQ, ME, pt, 0x1_0000L, 0, null, 0);
        next(ieq);
        Event nack = next(ieq);
        assertEquals(EVENT_ACK, nack.type);
        assertEquals(NI_DROPPED, nack.niFailType);
        assertEquals(drops + 1, niStatus(ni, SR_DROP_COUNT));
        meUnlink(h);
        mdRelease(d);
        ptFree(ni, pt);
        eqFree(teq);
        eqFree(ieq);
    }

    /**
     * The lists match through the same hash-binned queues as the API's receives: an earlier entry
     * that ignores bits wins over a later exact one, an entry too short for NO_TRUNCATE is passed
     * over, a persistent entry stays, and 10 000 exact entries on other bits change nothing.
     */
    @Test
    void entriesMatchInAppendOrderWhetherExactOrIgnoringBits() {
        EqHandle teq = eqAlloc(ni, 64);
        int pt = ptAlloc(ni, 0, teq, PT_ANY);
        List<MeHandle> linked = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            linked.add(meAppend(ni, pt, me(bytes(8, 0), 0x1_0000_0000L + i, ME_OP_PUT | ME_EVENT_LINK_DISABLE, CT_NONE), PRIORITY_LIST, "other " + i));
        }
        linked.add(meAppend(ni, pt, me(bytes(4, 0), 0x107, ME_OP_PUT | ME_NO_TRUNCATE | ME_EVENT_LINK_DISABLE, CT_NONE), PRIORITY_LIST, "a"));
        Me wild = me(bytes(64, 0), 0x100, ME_OP_PUT | ME_EVENT_LINK_DISABLE, CT_NONE);
        wild.ignoreBits = 0xff;
        MeHandle b = meAppend(ni, pt, wild, PRIORITY_LIST, "b");
        meAppend(ni, pt, me(bytes(64, 0), 0x107, ME_OP_PUT | ME_USE_ONCE | ME_EVENT_LINK_DISABLE | ME_EVENT_UNLINK_DISABLE, CT_NONE),
                PRIORITY_LIST, "c");
        MdHandle d = md(bytes(64, 3), EQ_NONE, CT_NONE, 0);
        record Put(long bits, int length, String takenBy) {
        }
        List<Put> puts = List.of(new Put(0x107, 8, "b"), new Put(0x1ff, 8, "b"), new Put(0x1_0000_0000L + 5000, 8, "other 5000"));
        for (Put p : puts) {
            put(d, 0, p.length(), NO_ACK_REQ, ME, pt, p.bits(), 0, null, 0);
            Event e = next(teq);
            assertEquals(EVENT_PUT, e.type, p.toString());
            assertEquals(p.takenBy(), e.userPtr, p.toString());
        }
        meUnlink(b);
        for (Put p : List.of(new Put(0x107, 8, "c"), new Put(0x107, 2, "a"), new Put(0x107, 3, "a"))) {
            put(d, 0, p.length(), NO_ACK_REQ, ME, pt, p.bits(), 0, null, 0);
            Event e = next(teq);
            assertEquals(EVENT_PUT, e.type, p.toString());
            assertEquals(p.takenBy(), e.userPtr, p.toString());
        }
        int drops = niStatus(ni, SR_DROP_COUNT);
        put(d, 0, 8, NO_ACK_REQ, ME, pt, 0x107, 0, null, 0); // a is too short, b and c are gone
        put(d, 0, 1, NO_ACK_REQ, ME, pt, 0x107, 0, null, 0);
        assertEquals("a", next(teq).userPtr, "the dropped put left the lists as they were");
        assertEquals(drops + 1, niStatus(ni, SR_DROP_COUNT));
        linked.forEach(Portals::meUnlink);
        mdRelease(d);
        ptFree(ni, pt);
        eqFree(teq);
    }

    @Test
    void truncationUseOnceManageLocalAndNoTruncate() {
        CtHandle ct = ctAlloc(ni);
        EqHandle teq = eqAlloc(ni, 64);
        int pt = ptAlloc(ni, 0, teq, PT_ANY);
        MemorySegment small = bytes(10, 0);
        meAppend(ni, pt, me(small, 1, ME_OP_PUT | ME_USE_ONCE | ME_EVENT_CT_COMM | ME_EVENT_LINK_DISABLE, ct), PRIORITY_LIST, null);
        MemorySegment src = bytes(64, 3);
        MdHandle d = md(src, EQ_NONE, CT_NONE, 0);
        put(d, 0, 64, NO_ACK_REQ, ME, pt, 1, 4, null, 0);
        ctWait(ct, 1);
        Event e = next(teq);
        assertEquals(EVENT_PUT, e.type);
        assertEquals(64, e.rlength);
        assertEquals(6, e.mlength, "truncated to what is left after offset 4");
        assertEquals(EVENT_AUTO_UNLINK, next(teq).type);
        // used up: the next put finds nothing
        put(d, 0, 8, NO_ACK_REQ, ME, pt, 1, 0, null, 0);
        // locally managed offsets, no truncation, min free
        MemorySegment log = bytes(100, 0);
        Me m = me(log, 2, ME_OP_PUT | ME_MANAGE_LOCAL | ME_NO_TRUNCATE | ME_EVENT_CT_COMM | ME_EVENT_LINK_DISABLE, ct);
        m.minFree = 30;
        meAppend(ni, pt, m, PRIORITY_LIST, null);
        for (int i = 0; i < 3; i++) {
            put(d, i, 30, NO_ACK_REQ, ME, pt, 2, 999, null, 0);
        }
        ctWait(ct, 4);
        List<Event> ev = drain(teq);
        assertEquals(List.of(EVENT_PUT, EVENT_PUT, EVENT_PUT, EVENT_AUTO_UNLINK), ev.stream().map(x -> x.type).toList(), ev.toString());
        assertEquals(0, ev.get(0).remoteOffset);
        assertEquals(30, ev.get(1).remoteOffset);
        assertEquals(60, ev.get(2).remoteOffset);
        assertArrayEquals(src.asSlice(2, 30).toArray(ValueLayout.JAVA_BYTE), log.asSlice(60, 30).toArray(ValueLayout.JAVA_BYTE));
        mdRelease(d);
        ptFree(ni, pt);
        eqFree(teq);
        ctFree(ct);
    }

    /** ptl_size_t is unsigned: a remote offset of 2^63 or more (negative as a Java long) lies beyond any entry, so nothing moves. */
    @Test
    void aRemoteOffsetBeyondTwoToTheSixtyThreeMovesNothing() {
        CtHandle ct = ctAlloc(ni);
        EqHandle teq = eqAlloc(ni, 64);
        int pt = ptAlloc(ni, 0, teq, PT_ANY);
        MemorySegment window = bytes(16, 7);
        MeHandle h = meAppend(ni, pt, me(window, 1, ME_OP_PUT | ME_OP_GET | ME_EVENT_CT_COMM | ME_EVENT_LINK_DISABLE, ct), PRIORITY_LIST, null);
        MemorySegment src = bytes(16, 3);
        MdHandle d = md(src, EQ_NONE, CT_NONE, 0);
        put(d, 0, 8, NO_ACK_REQ, ME, pt, 1, -8, null, 0);
        get(d, 0, 8, ME, pt, 1, Long.MIN_VALUE, null);
        CtEvent c = ctWait(ct, 2);
        assertEquals(0, c.failure());
        List<Event> ev = drain(teq);
        assertEquals(List.of(EVENT_PUT, EVENT_GET), ev.stream().map(x -> x.type).toList(), ev.toString());
        assertEquals(0, ev.get(0).mlength, "a put at offset 2^64 - 8 is truncated to nothing");
        assertEquals(-8, ev.get(0).remoteOffset);
        assertEquals(0, ev.get(1).mlength);
        assertArrayEquals(bytes(16, 7).toArray(ValueLayout.JAVA_BYTE), window.toArray(ValueLayout.JAVA_BYTE), "the window is untouched");
        meUnlink(h);
        mdRelease(d);
        ptFree(ni, pt);
        eqFree(teq);
        ctFree(ct);
    }

    @Test
    void overflowListKeepsUnexpectedHeadersForLaterEntriesAndSearches() {
        EqHandle teq = eqAlloc(ni, 64);
        CtHandle ct = ctAlloc(ni);
        int pt = ptAlloc(ni, 0, teq, PT_ANY);
        MemorySegment ovf = bytes(1024, 0);
        Me o = me(ovf, 0, ME_OP_PUT | ME_MANAGE_LOCAL | ME_EVENT_CT_COMM | ME_EVENT_LINK_DISABLE, ct);
        o.ignoreBits = -1L;
        MeHandle oh = meAppend(ni, pt, o, OVERFLOW_LIST, "ovf");
        MemorySegment src = bytes(40, 9);
        MdHandle d = md(src, EQ_NONE, CT_NONE, 0);
        put(d, 0, 40, NO_ACK_REQ, ME, pt, 5, 0, null, 55);
        put(d, 0, 20, NO_ACK_REQ, ME, pt, 6, 0, null, 66);
        ctWait(ct, 2);
        List<Event> landed = drain(teq);
        assertEquals(2, landed.size());
        assertEquals(OVERFLOW_LIST, landed.get(0).ptlList);
        // a search finds the header of tag 6 without taking it, then with deleting it
        meSearch(ni, pt, me(MemorySegment.NULL, 6, ME_OP_PUT, CT_NONE), SEARCH_ONLY, "probe");
        Event s = next(teq);
        assertEquals(EVENT_SEARCH, s.type);
        assertEquals(NI_OK, s.niFailType);
        assertEquals(66, s.hdrData);
        assertEquals("probe", s.userPtr);
        meSearch(ni, pt, me(MemorySegment.NULL, 6, ME_OP_PUT, CT_NONE), SEARCH_DELETE, null);
        assertEquals(NI_OK, next(teq).niFailType);
        meSearch(ni, pt, me(MemorySegment.NULL, 6, ME_OP_PUT, CT_NONE), SEARCH_ONLY, null);
        assertEquals(NI_NO_MATCH, next(teq).niFailType);
        // a priority entry for tag 5 takes its header: PUT_OVERFLOW pointing at the data in the overflow buffer
        MemorySegment late = bytes(40, 0);
        meAppend(ni, pt, me(late, 5, ME_OP_PUT | ME_USE_ONCE, CT_NONE), PRIORITY_LIST, "late");
        Event po = next(teq);
        assertEquals(EVENT_PUT_OVERFLOW, po.type);
        assertEquals("late", po.userPtr);
        assertEquals(55, po.hdrData);
        assertEquals(40, po.mlength);
        assertArrayEquals(src.toArray(ValueLayout.JAVA_BYTE), po.start.toArray(ValueLayout.JAVA_BYTE));
        Event au = next(teq);
        assertEquals(EVENT_AUTO_UNLINK, au.type, "a use-once entry used up by a header is never linked, and says it is unlinked");
        assertEquals("late", au.userPtr);
        assertTrue(drain(teq).isEmpty());
        meUnlink(oh);
        mdRelease(d);
        ptFree(ni, pt);
        eqFree(teq);
        ctFree(ct);
    }

    @Test
    void flowControlDisablesTheEntryWhenNothingMatches() {
        EqHandle teq = eqAlloc(ni, 8);
        EqHandle ieq = eqAlloc(ni, 8);
        assertEquals(ReturnCode.PT_EQ_NEEDED, assertThrows(PtlException.class, () -> ptAlloc(ni, PT_FLOWCTRL, EQ_NONE, PT_ANY)).rc());
        int pt = ptAlloc(ni, PT_FLOWCTRL, teq, PT_ANY);
        MdHandle d = md(bytes(8, 1), ieq, CT_NONE, MD_EVENT_SEND_DISABLE);
        put(d, 0, 8, ACK_REQ, ME, pt, 1, 0, null, 0);
        assertEquals(NI_PT_DISABLED, next(ieq).niFailType);
        assertEquals(EVENT_PT_DISABLED, next(teq).type);
        MemorySegment w = bytes(8, 0);
        meAppend(ni, pt, me(w, 1, ME_OP_PUT | ME_EVENT_LINK_DISABLE, CT_NONE), PRIORITY_LIST, null);
        put(d, 0, 8, ACK_REQ, ME, pt, 1, 0, null, 0);
        assertEquals(NI_PT_DISABLED, next(ieq).niFailType, "still disabled until enabled");
        ptEnable(ni, pt);
        put(d, 0, 8, ACK_REQ, ME, pt, 1, 0, null, 0);
        assertEquals(NI_OK, next(ieq).niFailType);
        assertEquals(EVENT_PUT, next(teq).type);
    }

    /** ME_EVENT_FLOWCTRL_DISABLE: the entry whose match found the event queue full disables the entry silently. */
    @Test
    void flowControlEventsCanBeDisabledByTheEntry() {
        EqHandle teq = eqAlloc(ni, 2);
        EqHandle ieq = eqAlloc(ni, 8);
        int pt = ptAlloc(ni, PT_FLOWCTRL, teq, PT_ANY);
        meAppend(ni, pt, me(bytes(8, 0), 1, ME_OP_PUT | ME_EVENT_LINK_DISABLE | ME_EVENT_FLOWCTRL_DISABLE, CT_NONE), PRIORITY_LIST, null);
        MdHandle d = md(bytes(8, 1), ieq, CT_NONE, MD_EVENT_SEND_DISABLE);
        int acked = 0;
        NiFail last = NI_OK;
        while (last == NI_OK) {
            assertTrue(acked < 8, "the target's queue of 2 never filled");
            put(d, 0, 8, ACK_REQ, ME, pt, 1, 0, null, 0);
            last = next(ieq).niFailType;
            acked++;
        }
        assertEquals(NI_PT_DISABLED, last);
        for (int i = 0; i < acked - 1; i++) {
            assertEquals(EVENT_PUT, next(teq).type);
        }
        assertEquals(ReturnCode.EQ_EMPTY, eqGet(teq).rc(), "no PT_DISABLED event");
        ptEnable(ni, pt);
        put(d, 0, 8, ACK_REQ, ME, pt, 1, 0, null, 0);
        assertEquals(NI_OK, next(ieq).niFailType);
        assertEquals(EVENT_PUT, next(teq).type);
    }

    @Test
    void getAtomicsFetchAndSwap() {
        int pt = ptAlloc(ni, 0, EQ_NONE, PT_ANY);
        MemorySegment target = Arena.ofAuto().allocate(64, 8);
        target.set(ValueLayout.JAVA_LONG, 0, 100);
        target.set(ValueLayout.JAVA_LONG, 8, 5);
        meAppend(ni, pt, me(target, 7, ME_OP_PUT | ME_OP_GET, CT_NONE), PRIORITY_LIST, null);
        CtHandle ct = ctAlloc(ni);
        MemorySegment local = Arena.ofAuto().allocate(64, 8);
        MdHandle d = md(local, EQ_NONE, ct, MD_EVENT_CT_REPLY | MD_EVENT_CT_ACK);
        get(d, 0, 16, ME, pt, 7, 0, null);
        ctWait(ct, 1);
        assertEquals(100, local.get(ValueLayout.JAVA_LONG, 0));
        assertEquals(5, local.get(ValueLayout.JAVA_LONG, 8));
        local.set(ValueLayout.JAVA_LONG, 32, 11);
        atomic(d, 32, 8, CT_ACK_REQ, ME, pt, 7, 0, null, 0, SUM, INT64_T);
        ctWait(ct, 2);
        assertEquals(111, target.get(ValueLayout.JAVA_LONG, 0));
        fetchAtomic(d, 40, d, 32, 8, ME, pt, 7, 0, null, 0, SUM, INT64_T);
        ctWait(ct, 3);
        assertEquals(111, local.get(ValueLayout.JAVA_LONG, 40));
        assertEquals(122, target.get(ValueLayout.JAVA_LONG, 0));
        MemorySegment cmp = MemorySegment.ofArray(new long[] {122});
        local.set(ValueLayout.JAVA_LONG, 32, 1000);
        swap(d, 40, d, 32, 8, ME, pt, 7, 0, null, 0, cmp, CSWAP, INT64_T);
        ctWait(ct, 4);
        assertEquals(122, local.get(ValueLayout.JAVA_LONG, 40));
        assertEquals(1000, target.get(ValueLayout.JAVA_LONG, 0));
        swap(d, 40, d, 32, 8, ME, pt, 7, 0, null, 0, cmp, CSWAP, INT64_T);
        ctWait(ct, 5);
        assertEquals(1000, target.get(ValueLayout.JAVA_LONG, 0), "compare fails: unchanged");
        // seed 004: masked fetch-add on two 32-bit fields at offset 8 (5 in the low field)
        local.set(ValueLayout.JAVA_LONG, 32, 0x0000_0001_ffff_fffbL);
        swap(d, 40, d, 32, 8, ME, pt, 7, 8, null, 0, MemorySegment.ofArray(new long[] {(1L << 31) | (1L << 63)}), MFETCH_ADD, UINT64_T);
        ctWait(ct, 6);
        assertEquals(5, local.get(ValueLayout.JAVA_LONG, 40));
        assertEquals(0x0000_0001_0000_0000L, target.get(ValueLayout.JAVA_LONG, 8), "the low field wrapped without carrying into the high one");
        // seed 004: masked compare-and-swap
        local.set(ValueLayout.JAVA_LONG, 32, 0xffL);
        swap(d, 40, d, 32, 8, ME, pt, 7, 8, null, 0, MemorySegment.ofArray(new long[] {0x1_0000_0000L, 0xffff_ffff_0000_0000L, 0xfL}), MSK_CSWAP, UINT64_T);
        ctWait(ct, 7);
        assertEquals(0x0000_0001_0000_000fL, target.get(ValueLayout.JAVA_LONG, 8));
        ctFree(ct);
        mdRelease(d);
    }

    @Test
    void triggeredOperationsFireAtTheirThresholdAndCanBeCancelled() {
        int pt = ptAlloc(ni, 0, EQ_NONE, PT_ANY);
        MemorySegment target = Arena.ofAuto().allocate(8, 8);
        CtHandle tct = ctAlloc(ni);
        meAppend(ni, pt, me(target, 0, ME_OP_PUT | ME_EVENT_CT_COMM, tct), PRIORITY_LIST, null);
        CtHandle trig = ctAlloc(ni);
        CtHandle done = ctAlloc(ni);
        MemorySegment one = MemorySegment.ofArray(new long[] {1});
        MdHandle d = md(Arena.ofAuto().allocate(8, 8).copyFrom(one), EQ_NONE, CT_NONE, 0);
        triggeredAtomic(d, 0, 8, NO_ACK_REQ, ME, pt, 0, 0, null, 0, SUM, INT64_T, trig, 2);
        triggeredCtInc(done, new CtEvent(5, 0), trig, 3);
        ctInc(trig, new CtEvent(1, 0));
        assertEquals(0, ctGet(tct).success());
        ctInc(trig, new CtEvent(1, 0));
        ctWait(tct, 1);
        assertEquals(1, target.get(ValueLayout.JAVA_LONG, 0));
        assertEquals(0, ctGet(done).success());
        ctSet(trig, new CtEvent(3, 0));
        assertEquals(5, ctGet(done).success());
        triggeredCtSet(done, new CtEvent(9, 0), trig, 10);
        ctCancelTriggered(trig);
        ctInc(trig, new CtEvent(10, 0));
        assertEquals(5, ctGet(done).success(), "cancelled");
        CtResult none = ctPoll(new CtHandle[] {done}, new long[] {6}, 1, 50);
        assertEquals(ReturnCode.CT_NONE_REACHED, none.rc());
        CtResult hit = ctPoll(new CtHandle[] {trig, done}, new long[] {100, 5}, 2, 50);
        assertEquals(1, hit.which());
    }

    @Test
    void iovecsOnBothSidesAndNonMatchingListEntries() {
        int pt = ptAlloc(nm, 0, EQ_NONE, PT_ANY);
        MemorySegment a = bytes(7, 0), b = bytes(9, 0);
        Le le = new Le();
        le.options = LE_OP_PUT | LE_OP_GET | IOVEC | LE_EVENT_CT_COMM;
        le.iovecs = new Iovec[] {new Iovec(a, 7), new Iovec(b, 9)};
        le.length = 2;
        CtHandle ct = ctAlloc(nm);
        le.ctHandle = ct;
        leAppend(nm, pt, le, PRIORITY_LIST, null);
        MemorySegment x = bytes(5, 40), y = bytes(11, 80);
        Md md = new Md();
        md.options = IOVEC;
        md.iovecs = new Iovec[] {new Iovec(x, 5), new Iovec(y, 11)};
        md.length = 2;
        MdHandle d = mdBind(nm, md);
        put(d, 0, 16, NO_ACK_REQ, ME, pt, 0, 0, null, 0);
        ctWait(ct, 1);
        byte[] sent = new byte[16];
        MemorySegment.copy(x, ValueLayout.JAVA_BYTE, 0, sent, 0, 5);
        MemorySegment.copy(y, ValueLayout.JAVA_BYTE, 0, sent, 5, 11);
        byte[] got = new byte[16];
        MemorySegment.copy(a, ValueLayout.JAVA_BYTE, 0, got, 0, 7);
        MemorySegment.copy(b, ValueLayout.JAVA_BYTE, 0, got, 7, 9);
        assertArrayEquals(sent, got);
        ctFree(ct);
    }

    @Test
    void physicalAddressingAndTheMap() {
        ProcessId self = getPhysId(phys);
        assertEquals(0, self.phys.pid);
        assertEquals(self.phys, getId(phys).phys);
        assertEquals(0, getId(ni).rank);
        GetMapResult m = getMap(ni, 4);
        assertEquals(1, m.actualMapSize());
        assertEquals(self.phys.nid, m.mapping()[0].phys.nid);
        setMap(ni, 1, new ProcessId[] {self});
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> setMap(ni, 1, new ProcessId[] {ProcessId.ofPhys(0, 5)})).rc());
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> setMap(phys, 1, new ProcessId[] {self})).rc());
        int pt = ptAlloc(phys, 0, EQ_NONE, PT_ANY);
        CtHandle ct = ctAlloc(phys);
        MemorySegment w = bytes(8, 0);
        Me me = me(w, 0, ME_OP_PUT | ME_EVENT_CT_COMM, ct);
        me.matchId = ProcessId.ofPhys(self.phys.nid, PID_ANY);
        meAppend(phys, pt, me, PRIORITY_LIST, null);
        Md md = new Md();
        md.start = bytes(8, 3);
        md.length = 8;
        put(mdBind(phys, md), 0, 8, NO_ACK_REQ, self, pt, 0, 0, null, 0);
        ctWait(ct, 1);
        assertArrayEquals(bytes(8, 3).toArray(ValueLayout.JAVA_BYTE), w.toArray(ValueLayout.JAVA_BYTE));
        assertTrue(getUid(ni) >= 0);
    }

    @Test
    void badArgumentsGiveTheSpecificationsCodes() {
        MemorySegment m = bytes(16, 0);
        MdHandle d = md(m, EQ_NONE, CT_NONE, 0);
        int pt = ptAlloc(ni, 0, EQ_NONE, PT_ANY);
        assertEquals(ReturnCode.PT_IN_USE, assertThrows(PtlException.class, () -> ptAlloc(ni, 0, EQ_NONE, pt)).rc());
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> ptAlloc(ni, 0, EQ_NONE, 100000)).rc());
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> put(d, 8, 9, NO_ACK_REQ, ME, pt, 0, 0, null, 0)).rc());
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> put(d, -1, 1, NO_ACK_REQ, ME, pt, 0, 0, null, 0)).rc());
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> put(d, 0, 1, NO_ACK_REQ, ProcessId.ofRank(1), pt, 0, 0, null, 0)).rc());
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> atomic(d, 0, 8, NO_ACK_REQ, ME, pt, 0, 0, null, 0, BOR, DOUBLE)).rc());
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> atomic(d, 0, 6, NO_ACK_REQ, ME, pt, 0, 0, null, 0, SUM, INT32_T)).rc());
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> atomic(d, 0, 8, NO_ACK_REQ, ME, pt, 0, 0, null, 0, SWAP, INT64_T)).rc());
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> swap(d, 0, d, 8, 8, ME, pt, 0, 0, null, 0, null, CSWAP, INT64_T)).rc());
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> swap(d, 0, d, 0, 16, ME, pt, 0, 0, null, 0, m, CSWAP, INT64_T)).rc());
        Me big = me(m, 0, ME_OP_PUT, CT_NONE);
        big.length = 17;
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> meAppend(ni, pt, big, PRIORITY_LIST, null)).rc());
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> meAppend(ni, 200, me(m, 0, 0, CT_NONE), PRIORITY_LIST, null)).rc());
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> leAppend(ni, pt, new Le(), PRIORITY_LIST, null)).rc());
        CtHandle foreign = ctAlloc(phys);
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> meAppend(ni, pt, me(m, 0, 0, foreign), PRIORITY_LIST, null)).rc());
        ctFree(foreign);
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> ctGet(foreign)).rc(), "a freed handle");
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> niInit(3, NI_MATCHING | NI_LOGICAL, PID_ANY, null)).rc());
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> niInit(IFACE_DEFAULT, NI_MATCHING | NI_NO_MATCHING | NI_LOGICAL, PID_ANY, null)).rc());
        assertEquals(ReturnCode.PID_IN_USE, assertThrows(PtlException.class, () -> niInit(IFACE_DEFAULT, NI_NO_MATCHING | NI_PHYSICAL, 7, null)).rc());
        MeHandle h = meAppend(ni, pt, me(m, 0, ME_OP_PUT | ME_EVENT_LINK_DISABLE, CT_NONE), PRIORITY_LIST, null);
        assertEquals(ReturnCode.PT_IN_USE, assertThrows(PtlException.class, () -> ptFree(ni, pt)).rc());
        meUnlink(h);
        ptFree(ni, pt);
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class, () -> endBundle(ni)).rc());
        startBundle(ni);
        endBundle(ni);
        assertTrue(handleIsEqual(d, d));
        assertFalse(handleIsEqual(d, md(m, EQ_NONE, CT_NONE, 0)));
        assertTrue(handleIsEqual(EQ_NONE, EqHandle.NONE));
        assertTrue(handleIsEqual(niHandle(d), ni));
        EqHandle q = eqAlloc(ni, 2);
        assertEquals(ReturnCode.EQ_EMPTY, eqGet(q).rc());
        assertEquals(ReturnCode.EQ_EMPTY, eqPoll(new EqHandle[] {q}, 1, 0).rc());
        assertNull(eqGet(q).event());
    }

    @Test
    void aFullEventQueueDropsAndSaysSo() {
        EqHandle teq = eqAlloc(ni, 2);
        int pt = ptAlloc(ni, 0, teq, PT_ANY);
        CtHandle ct = ctAlloc(ni);
        meAppend(ni, pt, me(bytes(8, 0), 0, ME_OP_PUT | ME_EVENT_CT_COMM | ME_EVENT_LINK_DISABLE, ct), PRIORITY_LIST, null);
        MdHandle d = md(bytes(8, 0), EQ_NONE, CT_NONE, 0);
        for (int i = 0; i < 4; i++) {
            put(d, 0, 8, NO_ACK_REQ, ME, pt, 0, 0, null, i);
        }
        ctWait(ct, 4);
        EqResult first = eqGet(teq);
        assertEquals(ReturnCode.EQ_DROPPED, first.rc());
        assertEquals(0, first.event().hdrData);
        assertEquals(ReturnCode.OK, eqGet(teq).rc());
        assertEquals(ReturnCode.EQ_EMPTY, eqGet(teq).rc());
    }

    @Test
    void permissionsAndOperationViolations() {
        EqHandle ieq = eqAlloc(ni, 16);
        int pt = ptAlloc(ni, 0, EQ_NONE, PT_ANY);
        Me locked = me(bytes(8, 0), 1, ME_OP_PUT, CT_NONE);
        locked.uid = getUid(ni) + 1;
        meAppend(ni, pt, locked, PRIORITY_LIST, null);
        meAppend(ni, pt, me(bytes(8, 0), 2, ME_OP_GET, CT_NONE), PRIORITY_LIST, null);
        MdHandle d = md(bytes(8, 0), ieq, CT_NONE, MD_EVENT_SEND_DISABLE);
        int perm = niStatus(ni, SR_PERMISSIONS_VIOLATIONS), ops = niStatus(ni, SR_OPERATION_VIOLATIONS);
        put(d, 0, 8, ACK_REQ, ME, pt, 1, 0, null, 0);
        assertEquals(NI_PERM_VIOLATION, next(ieq).niFailType);
        put(d, 0, 8, ACK_REQ, ME, pt, 2, 0, null, 0);
        assertEquals(NI_OP_VIOLATION, next(ieq).niFailType);
        assertEquals(perm + 1, niStatus(ni, SR_PERMISSIONS_VIOLATIONS));
        assertEquals(ops + 1, niStatus(ni, SR_OPERATION_VIOLATIONS));
    }

    // ---- issue 54: the gaps against the specification, each test failing before its fix ----------

    /** An overflow entry that keeps every header, and {@code n} puts of {@code size} bytes with hdr_data 1..n into it. */
    private static MeHandle overflowed(int pt, int n, int size, CtHandle ct) {
        Me o = me(bytes(64 * 1024, 0), 0, ME_OP_PUT | ME_OP_GET | ME_EVENT_CT_COMM | ME_EVENT_LINK_DISABLE, ct);
        o.ignoreBits = -1L;
        MeHandle h = meAppend(ni, pt, o, OVERFLOW_LIST, "ovf");
        MdHandle d = md(bytes(size, 3), EQ_NONE, CT_NONE, 0);
        for (int i = 1; i <= n; i++) {
            put(d, 0, size, NO_ACK_REQ, ME, pt, i, 0, null, i);
        }
        ctWait(ct, n);
        mdRelease(d);
        return h;
    }

    /**
     * Before: a use-once priority entry consumed at once by a waiting header posted no AUTO_UNLINK,
     * and a target waiting for it waited forever. The reference posts it unless the entry disables it.
     */
    @Test
    void aUseOnceEntryUsedUpByAWaitingHeaderPostsAutoUnlink() {
        EqHandle teq = eqAlloc(ni, 64);
        CtHandle ct = ctAlloc(ni);
        int pt = ptAlloc(ni, 0, teq, PT_ANY);
        MeHandle o = overflowed(pt, 2, 16, ct);
        drain(teq);
        meAppend(ni, pt, me(bytes(16, 0), 1, ME_OP_PUT | ME_USE_ONCE, CT_NONE), PRIORITY_LIST, "once");
        List<Event> ev = drain(teq);
        assertEquals(List.of(EVENT_PUT_OVERFLOW, EVENT_AUTO_UNLINK), ev.stream().map(e -> e.type).toList(), ev.toString());
        assertEquals("once", ev.get(1).userPtr);
        assertEquals(pt, ev.get(1).ptIndex);
        assertEquals(NI_OK, ev.get(1).niFailType);
        assertEquals(ReturnCode.ARG_INVALID, assertThrows(PtlException.class,
                () -> meUnlink(meAppend(ni, pt, me(bytes(16, 0), 2, ME_OP_PUT | ME_USE_ONCE | ME_EVENT_UNLINK_DISABLE, CT_NONE), PRIORITY_LIST, null))).rc(),
                "unlinked already");
        assertEquals(List.of(EVENT_PUT_OVERFLOW), drain(teq).stream().map(e -> e.type).toList(), "ME_EVENT_UNLINK_DISABLE: no AUTO_UNLINK");
        meUnlink(o);
        ptFree(ni, pt);
        eqFree(teq);
        ctFree(ct);
    }

    /** Before: a search that deletes posted SEARCH for each header; it reports the kind it found, as an append's match would. */
    @Test
    void searchDeleteReportsTheKindOfOperationItFound() {
        EqHandle teq = eqAlloc(ni, 64);
        CtHandle ct = ctAlloc(ni);
        int pt = ptAlloc(ni, 0, teq, PT_ANY);
        Me o = me(bytes(4096, 0), 0, ME_OP_PUT | ME_OP_GET | ME_EVENT_CT_COMM | ME_EVENT_LINK_DISABLE, ct);
        o.ignoreBits = -1L;
        MeHandle oh = meAppend(ni, pt, o, OVERFLOW_LIST, null);
        MemorySegment local = Arena.ofAuto().allocate(64, 8);
        MdHandle d = md(local, EQ_NONE, CT_NONE, 0);
        put(d, 0, 8, NO_ACK_REQ, ME, pt, 1, 0, null, 0);
        atomic(d, 0, 8, NO_ACK_REQ, ME, pt, 2, 8, null, 0, SUM, INT64_T);
        get(d, 16, 8, ME, pt, 3, 16, null);
        fetchAtomic(d, 24, d, 0, 8, ME, pt, 4, 24, null, 0, SUM, INT64_T);
        ctWait(ct, 4);
        drain(teq);
        Me probe = me(MemorySegment.NULL, 0, ME_OP_PUT | ME_OP_GET, CT_NONE);
        probe.ignoreBits = -1L;
        meSearch(ni, pt, probe, SEARCH_ONLY, "look");
        assertEquals(EVENT_SEARCH, next(teq).type, "a search that only looks still says SEARCH");
        meSearch(ni, pt, probe, SEARCH_DELETE, "delete");
        List<Event> ev = drain(teq);
        assertEquals(List.of(EVENT_PUT_OVERFLOW, EVENT_ATOMIC_OVERFLOW, EVENT_GET_OVERFLOW, EVENT_FETCH_ATOMIC_OVERFLOW),
                ev.stream().map(e -> e.type).toList(), ev.toString());
        for (Event e : ev) {
            assertEquals("delete", e.userPtr);
            assertEquals(OVERFLOW_LIST, e.ptlList);
        }
        meSearch(ni, pt, probe, SEARCH_ONLY, null);
        assertEquals(NI_NO_MATCH, next(teq).niFailType, "deleted: nothing left to find");
        meUnlink(oh);
        mdRelease(d);
        ptFree(ni, pt);
        eqFree(teq);
        ctFree(ct);
    }

    /** Before: a REPLY carried no ptl_list (only an ACK did); it names the list the target matched. */
    @Test
    void replyEventsNameTheListTheTargetMatched() {
        EqHandle ieq = eqAlloc(ni, 16);
        CtHandle ct = ctAlloc(ni);
        int pt = ptAlloc(ni, 0, EQ_NONE, PT_ANY);
        MeHandle ph = meAppend(ni, pt, me(bytes(64, 1), 1, ME_OP_GET, CT_NONE), PRIORITY_LIST, null);
        MeHandle oh = meAppend(ni, pt, me(bytes(64, 2), 2, ME_OP_GET, CT_NONE), OVERFLOW_LIST, null);
        MdHandle d = md(Arena.ofAuto().allocate(64, 8), ieq, CT_NONE, 0);
        get(d, 0, 8, ME, pt, 1, 0, "p");
        Event p = next(ieq);
        assertEquals(EVENT_REPLY, p.type);
        assertEquals(PRIORITY_LIST, p.ptlList);
        get(d, 8, 8, ME, pt, 2, 0, "o");
        Event ov = next(ieq);
        assertEquals(EVENT_REPLY, ov.type);
        assertEquals("o", ov.userPtr);
        assertEquals(OVERFLOW_LIST, ov.ptlList);
        meUnlink(ph);
        meUnlink(oh);
        mdRelease(d);
        ptFree(ni, pt);
        eqFree(ieq);
        ctFree(ct);
    }

    /**
     * Before: a large put the target dropped posted its failure ACK before its SEND (the SEND
     * came once the data message was dropped too); SEND comes first, as for a success.
     */
    @Test
    void aDroppedLargePutPostsSendBeforeItsAck() {
        EqHandle ieq = eqAlloc(ni, 16);
        int pt = ptAlloc(ni, 0, EQ_NONE, PT_ANY); // nothing appended: every put is dropped
        MdHandle d = md(bytes(1 << 20, 5), ieq, CT_NONE, 0);
        put(d, 0, 1 << 20, ACK_REQ, ME, pt, 1, 0, "big", 0);
        Event first = next(ieq);
        Event second = next(ieq);
        assertEquals(EVENT_SEND, first.type, first + " then " + second);
        assertEquals(EVENT_ACK, second.type);
        assertEquals(NI_DROPPED, second.niFailType);
        assertEquals("big", second.userPtr);
        mdRelease(d);
        ptFree(ni, pt);
        eqFree(ieq);
    }

    /**
     * Before: with no room left for unexpected headers, a message matching the overflow list
     * still landed and only its header was lost. Under flow control it is dropped, the entry
     * disabled and PT_DISABLED posted (without flow control it still lands, its header not kept).
     */
    @Test
    void noRoomForUnexpectedHeadersUnderFlowControlDropsAndDisables() {
        NiLimits want = new NiLimits();
        want.maxUnexpectedHeaders = 1;
        NiHandle small = niInit(IFACE_DEFAULT, NI_NO_MATCHING | NI_PHYSICAL, PID_ANY, want).niHandle();
        try {
            EqHandle teq = eqAlloc(small, 16);
            EqHandle ieq = eqAlloc(small, 16);
            int pt = ptAlloc(small, PT_FLOWCTRL, teq, PT_ANY);
            MemorySegment buf = Arena.ofAuto().allocate(64, 8);
            Le le = new Le();
            le.start = buf;
            le.length = 64;
            le.options = LE_OP_PUT | LE_EVENT_LINK_DISABLE;
            LeHandle lh = leAppend(small, pt, le, OVERFLOW_LIST, null);
            Md md = new Md();
            md.start = bytes(8, 40);
            md.length = 8;
            md.eqHandle = ieq;
            md.options = MD_EVENT_SEND_DISABLE;
            MdHandle d = mdBind(small, md);
            ProcessId self = getPhysId(small);
            put(d, 0, 8, ACK_REQ, self, pt, 0, 0, null, 0);
            assertEquals(NI_OK, next(ieq).niFailType, "the first header fits");
            assertEquals(EVENT_PUT, next(teq).type);
            put(d, 0, 8, ACK_REQ, self, pt, 0, 8, null, 0);
            assertEquals(NI_PT_DISABLED, next(ieq).niFailType, "no room for its header: dropped");
            assertEquals(EVENT_PT_DISABLED, next(teq).type);
            assertEquals(0, buf.get(ValueLayout.JAVA_LONG, 8), "nothing of the dropped message landed");
            leUnlink(lh);
            mdRelease(d);
            ptFree(small, pt);
            eqFree(ieq);
            eqFree(teq);
        } finally {
            niFini(small);
        }
    }

    /**
     * Before: a program that only retried PtlMDRelease never had its ACK processed: its calls made
     * no progress and kept the passive-progress thread away, so the MD stayed IN_USE. Every call
     * now leaves the library having made a pass.
     */
    @Test
    void anMdReleasedInARetryLoopIsFreedWithoutOtherCalls() throws Exception {
        int pt = ptAlloc(ni, 0, EQ_NONE, PT_ANY);
        MeHandle h = meAppend(ni, pt, me(bytes(64, 0), 1, ME_OP_PUT | ME_EVENT_LINK_DISABLE, CT_NONE), PRIORITY_LIST, null);
        EqHandle ieq = eqAlloc(ni, 8);
        MdHandle d = md(bytes(8, 1), ieq, CT_NONE, MD_EVENT_SEND_DISABLE);
        put(d, 0, 8, ACK_REQ, ME, pt, 1, 0, null, 0);
        long end = System.nanoTime() + 2_000_000_000L;
        for (int tries = 1; ; tries++) {
            try {
                mdRelease(d);
                break;
            } catch (PtlException e) {
                assertEquals(ReturnCode.IN_USE, e.rc());
                assertTrue(System.nanoTime() < end, "still IN_USE after " + tries + " releases over 2 s");
            }
        }
        assertEquals(EVENT_ACK, next(ieq).type);
        meUnlink(h);
        ptFree(ni, pt);
        eqFree(ieq);
    }
}
