package dev.ferry.portals;

import dev.ferry.launch.pmi.InProcessJob;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import static dev.ferry.portals.Portals.*;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A table of cases in the style of a conformance suite: each data-movement call (put, get, atomic,
 * fetch-atomic, swap) against a priority-list entry, with every option bit of the entry and of the MD
 * and every kind of ack in turn, one rank (operations on itself) and two ranks of one JVM (the
 * in-process job). Each case checks what the specification says: the return of each call, every
 * event posted at the initiator and at the target (kind, failure, lengths, offset, match bits,
 * header data, list, portal index, initiator, user pointer, start, atomic operation and type), that
 * no other event is posted, the counting events, and the bytes in both memories. What each case
 * expects comes from {@link #expect}, written from the specification's rules, not from the code.
 */
class PortalsConformanceTest {
    private static final Duration BOUND = Duration.ofSeconds(120);
    private static final long LEN = 8, ENTRY_BYTES = 64, REMOTE_OFFSET = 16, HDR = 0x5eed;
    private static final long TARGET_VALUE = 1000, OPERAND = 7;
    private static final long WAIT_NANOS = 10_000_000_000L;

    enum Kind { PUT, GET, ATOMIC, FETCH, SWAP }

    /** One row: the operation, the entry's and the MD's options, the ack asked for. */
    record Case(int index, Kind kind, int meOptions, int mdOptions, AckReq ack, ListKind list, String name) {
        boolean ctOnMe() {
            return (meOptions & (ME_EVENT_CT_COMM | ME_EVENT_CT_OVERFLOW)) != 0;
        }

        boolean ctOnMd() {
            return (mdOptions & (MD_EVENT_CT_SEND | MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY)) != 0;
        }
    }

    /** What a case must produce, in order at each side. */
    record Expected(List<EventKind> initiator, NiFail response, List<EventKind> target, CtEvent mdCount, CtEvent meCount,
                    long offset, boolean applied) {
    }

    static List<Case> table() {
        int base = ME_OP_PUT | ME_OP_GET;
        List<Case> t = new ArrayList<>();
        Map<String, Integer> meVariants = new java.util.LinkedHashMap<>();
        meVariants.put("baseline", base);
        meVariants.put("ME_USE_ONCE", base | ME_USE_ONCE);
        meVariants.put("ME_USE_ONCE|ME_EVENT_UNLINK_DISABLE", base | ME_USE_ONCE | ME_EVENT_UNLINK_DISABLE);
        meVariants.put("ME_ACK_DISABLE", base | ME_ACK_DISABLE);
        meVariants.put("ME_UNEXPECTED_HDR_DISABLE", base | ME_UNEXPECTED_HDR_DISABLE);
        meVariants.put("ME_IS_ACCESSIBLE", base | ME_IS_ACCESSIBLE);
        meVariants.put("ME_EVENT_COMM_DISABLE", base | ME_EVENT_COMM_DISABLE);
        meVariants.put("ME_EVENT_FLOWCTRL_DISABLE", base | ME_EVENT_FLOWCTRL_DISABLE);
        meVariants.put("ME_EVENT_SUCCESS_DISABLE", base | ME_EVENT_SUCCESS_DISABLE);
        meVariants.put("ME_EVENT_OVER_DISABLE", base | ME_EVENT_OVER_DISABLE);
        meVariants.put("ME_EVENT_LINK_DISABLE", base | ME_EVENT_LINK_DISABLE);
        meVariants.put("ME_EVENT_CT_COMM", base | ME_EVENT_CT_COMM);
        meVariants.put("ME_EVENT_CT_COMM|ME_EVENT_CT_BYTES", base | ME_EVENT_CT_COMM | ME_EVENT_CT_BYTES);
        meVariants.put("ME_EVENT_CT_OVERFLOW", base | ME_EVENT_CT_OVERFLOW);
        meVariants.put("ME_MANAGE_LOCAL", base | ME_MANAGE_LOCAL);
        meVariants.put("ME_NO_TRUNCATE", base | ME_NO_TRUNCATE);
        meVariants.put("ME_MAY_ALIGN", base | ME_MAY_ALIGN);
        meVariants.put("no ME_OP_PUT", ME_OP_GET);
        meVariants.put("no ME_OP_GET", ME_OP_PUT);
        Map<String, Integer> mdVariants = new java.util.LinkedHashMap<>();
        mdVariants.put("MD_EVENT_SUCCESS_DISABLE", MD_EVENT_SUCCESS_DISABLE);
        mdVariants.put("MD_EVENT_SEND_DISABLE", MD_EVENT_SEND_DISABLE);
        mdVariants.put("MD_EVENT_CT_SEND", MD_EVENT_CT_SEND);
        mdVariants.put("MD_EVENT_CT_REPLY", MD_EVENT_CT_REPLY);
        mdVariants.put("MD_EVENT_CT_ACK", MD_EVENT_CT_ACK);
        mdVariants.put("MD_EVENT_CT_SEND|MD_EVENT_CT_ACK|MD_EVENT_CT_REPLY|MD_EVENT_CT_BYTES",
                MD_EVENT_CT_SEND | MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY | MD_EVENT_CT_BYTES);
        mdVariants.put("MD_UNORDERED", MD_UNORDERED);
        mdVariants.put("MD_VOLATILE", MD_VOLATILE);
        for (Kind k : Kind.values()) {
            for (var me : meVariants.entrySet()) {
                t.add(new Case(t.size(), k, me.getValue(), 0, AckReq.ACK_REQ, PRIORITY_LIST, k + " " + me.getKey()));
            }
            for (var md : mdVariants.entrySet()) {
                t.add(new Case(t.size(), k, base, md.getValue(), AckReq.ACK_REQ, PRIORITY_LIST, k + " " + md.getKey()));
            }
            // an entry of the overflow list takes the message (its header kept for later appends, unless disabled)
            for (var me : List.of(Map.entry("", 0), Map.entry("|ME_EVENT_OVER_DISABLE", ME_EVENT_OVER_DISABLE),
                    Map.entry("|ME_EVENT_CT_OVERFLOW", ME_EVENT_CT_OVERFLOW), Map.entry("|ME_UNEXPECTED_HDR_DISABLE", ME_UNEXPECTED_HDR_DISABLE),
                    Map.entry("|ME_EVENT_CT_COMM", ME_EVENT_CT_COMM))) {
                t.add(new Case(t.size(), k, base | me.getValue(), 0, AckReq.ACK_REQ, OVERFLOW_LIST, k + " OVERFLOW_LIST" + me.getKey()));
            }
            if (k == Kind.PUT || k == Kind.ATOMIC) {
                t.add(new Case(t.size(), k, base, 0, AckReq.NO_ACK_REQ, PRIORITY_LIST, k + " NO_ACK_REQ"));
                t.add(new Case(t.size(), k, base, MD_EVENT_CT_ACK, AckReq.CT_ACK_REQ, PRIORITY_LIST, k + " CT_ACK_REQ, MD_EVENT_CT_ACK"));
                t.add(new Case(t.size(), k, base | ME_ACK_DISABLE, MD_EVENT_CT_ACK, AckReq.CT_ACK_REQ, PRIORITY_LIST, k + " CT_ACK_REQ, ME_ACK_DISABLE"));
                t.add(new Case(t.size(), k, base, 0, AckReq.OC_ACK_REQ, PRIORITY_LIST, k + " OC_ACK_REQ"));
                t.add(new Case(t.size(), k, ME_OP_GET, MD_EVENT_CT_ACK, AckReq.CT_ACK_REQ, PRIORITY_LIST, k + " CT_ACK_REQ, no ME_OP_PUT"));
            }
        }
        return t;
    }

    /** The specification's rules for one case. */
    static Expected expect(Case c) {
        int me = c.meOptions(), md = c.mdOptions();
        boolean allowed = switch (c.kind()) {
            case PUT, ATOMIC -> (me & ME_OP_PUT) != 0;
            case GET -> (me & ME_OP_GET) != 0;
            case FETCH, SWAP -> (me & ME_OP_PUT) != 0 && (me & ME_OP_GET) != 0; // they read and write
        };
        // an operation the entry does not permit is an operation violation (PERM_VIOLATION is the
        // entry's uid refusing the initiator)
        NiFail response = allowed ? NiFail.NI_OK : NiFail.NI_OP_VIOLATION;
        boolean sends = c.kind() != Kind.GET;
        boolean replies = c.kind() == Kind.GET || c.kind() == Kind.FETCH || c.kind() == Kind.SWAP;
        // an ack is due when asked for and, on success, when the entry does not disable it;
        // a refused operation answers whatever was asked
        boolean acked = !replies && c.ack() != AckReq.NO_ACK_REQ && (!allowed || (me & ME_ACK_DISABLE) == 0);
        boolean successQuiet = (md & MD_EVENT_SUCCESS_DISABLE) != 0;
        List<EventKind> ini = new ArrayList<>();
        long ctOk = 0, ctFail = 0;
        boolean bytes = (md & MD_EVENT_CT_BYTES) != 0;
        if (sends) {
            if ((md & MD_EVENT_SEND_DISABLE) == 0 && !successQuiet) {
                ini.add(EventKind.EVENT_SEND);
            }
            if ((md & MD_EVENT_CT_SEND) != 0) {
                ctOk += bytes ? LEN : 1;
            }
        }
        if (acked) {
            if (c.ack() != AckReq.CT_ACK_REQ && !(allowed && successQuiet)) {
                ini.add(EventKind.EVENT_ACK);
            }
            if ((md & MD_EVENT_CT_ACK) != 0) {
                if (allowed) {
                    ctOk += bytes ? LEN : 1;
                } else {
                    ctFail++;
                }
            }
        }
        if (replies) {
            if (!(allowed && successQuiet)) {
                ini.add(EventKind.EVENT_REPLY);
            }
            if ((md & MD_EVENT_CT_REPLY) != 0) {
                if (allowed) {
                    ctOk += bytes ? LEN : 1;
                } else {
                    ctFail++;
                }
            }
        }
        List<EventKind> tgt = new ArrayList<>();
        if ((me & ME_EVENT_LINK_DISABLE) == 0) {
            tgt.add(EventKind.EVENT_LINK);
        }
        long meOk = 0;
        if (allowed) {
            if ((me & (ME_EVENT_COMM_DISABLE | ME_EVENT_SUCCESS_DISABLE)) == 0) {
                tgt.add(switch (c.kind()) {
                    case PUT -> EventKind.EVENT_PUT;
                    case GET -> EventKind.EVENT_GET;
                    case ATOMIC -> EventKind.EVENT_ATOMIC;
                    case FETCH, SWAP -> EventKind.EVENT_FETCH_ATOMIC;
                });
            }
            if ((me & ME_EVENT_CT_COMM) != 0) {
                meOk = (me & ME_EVENT_CT_BYTES) != 0 ? LEN : 1;
            }
            if ((me & ME_USE_ONCE) != 0 && (me & ME_EVENT_UNLINK_DISABLE) == 0) {
                tgt.add(EventKind.EVENT_AUTO_UNLINK);
            }
        }
        long offset = (me & ME_MANAGE_LOCAL) != 0 ? 0 : REMOTE_OFFSET; // a locally managed entry ignores the remote offset
        return new Expected(ini, response, tgt, c.ctOnMd() ? new CtEvent(ctOk, ctFail) : null,
                c.ctOnMe() ? new CtEvent(meOk, 0) : null, offset, allowed);
    }

    @TestFactory
    Stream<DynamicTest> oneRankOnItself() throws Exception {
        return run(1);
    }

    @TestFactory
    Stream<DynamicTest> twoRanksOfOneJvm() throws Exception {
        return run(2);
    }

    private static Stream<DynamicTest> run(int ranks) throws Exception {
        List<Case> table = table();
        Map<Integer, List<String>> problems = new ConcurrentHashMap<>();
        InProcessJob.run(ranks, BOUND, boot -> {
            try (PortalsLibrary p = PortalsLibrary.open(new PortalsConfig().bootstrap(boot))) {
                NiHandle ni = p.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
                for (Case c : table) {
                    new Run(p, ni, c, ranks, problems.computeIfAbsent(c.index(), i -> java.util.Collections.synchronizedList(new ArrayList<>()))).go();
                }
            }
        });
        return table.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            List<String> p = problems.getOrDefault(c.index(), List.of());
            if (!p.isEmpty()) {
                fail(c.name() + " (expected " + expect(c) + "): " + String.join("; ", p));
            }
        }));
    }

    /** One case at one rank: rank 0 initiates, the last rank is the target (the same one alone). */
    private static final class Run {
        private final PortalsLibrary p;
        private final NiHandle ni;
        private final Case c;
        private final List<String> problems;
        private final Expected x;
        private final boolean initiator, target;
        private final int targetRank;
        private final Object meUser = new Object(), mdUser = new Object();

        Run(PortalsLibrary p, NiHandle ni, Case c, int ranks, List<String> problems) {
            this.p = p;
            this.ni = ni;
            this.c = c;
            this.problems = problems;
            this.x = expect(c);
            this.initiator = p.rank() == 0;
            this.targetRank = ranks - 1;
            this.target = p.rank() == targetRank;
        }

        void go() {
            EqHandle teq = null;
            int pt = -1;
            MeHandle meh = null;
            CtHandle mect = CtHandle.NONE;
            MemorySegment entry = null;
            if (target) {
                teq = p.eqAlloc(ni, 64);
                pt = p.ptAlloc(ni, 0, teq, 10);
                entry = Arena.ofAuto().allocate(ENTRY_BYTES, 8);
                for (long o = 0; o < ENTRY_BYTES; o += 8) {
                    entry.set(ValueLayout.JAVA_LONG, o, TARGET_VALUE + o);
                }
                if (c.ctOnMe()) {
                    mect = p.ctAlloc(ni);
                }
                Me me = new Me();
                me.start = entry;
                me.length = ENTRY_BYTES;
                me.options = c.meOptions();
                me.matchBits = c.index();
                me.ctHandle = mect;
                meh = p.meAppend(ni, pt, me, c.list(), meUser);
            }
            p.barrier();
            if (initiator) {
                initiate(pt < 0 ? 10 : pt);
            }
            if (target) {
                checkTarget(teq, mect, entry);
            }
            p.barrier();
            if (target) {
                if ((c.meOptions() & ME_USE_ONCE) == 0 || !x.applied()) {
                    p.meUnlink(meh);
                }
                p.ptFree(ni, pt);
                p.eqFree(teq);
                if (mect != CtHandle.NONE) {
                    p.ctFree(mect);
                }
            }
        }

        private void initiate(int pt) {
            EqHandle ieq = p.eqAlloc(ni, 64);
            CtHandle ct = c.ctOnMd() ? p.ctAlloc(ni) : CtHandle.NONE;
            MemorySegment local = Arena.ofAuto().allocate(64, 8);
            local.set(ValueLayout.JAVA_LONG, 0, c.kind() == Kind.PUT ? 42 : OPERAND); // what goes out
            local.set(ValueLayout.JAVA_LONG, 8, -1);                                   // where answers land
            Md m = new Md();
            m.start = local;
            m.length = local.byteSize();
            m.options = c.mdOptions();
            m.eqHandle = ieq;
            m.ctHandle = ct;
            MdHandle md = p.mdBind(ni, m);
            ProcessId to = ProcessId.ofRank(targetRank);
            switch (c.kind()) {
                case PUT -> p.put(md, 0, LEN, c.ack(), to, pt, c.index(), REMOTE_OFFSET, mdUser, HDR);
                case GET -> p.get(md, 8, LEN, to, pt, c.index(), REMOTE_OFFSET, mdUser);
                case ATOMIC -> p.atomic(md, 0, LEN, c.ack(), to, pt, c.index(), REMOTE_OFFSET, mdUser, HDR, SUM, INT64_T);
                case FETCH -> p.fetchAtomic(md, 8, md, 0, LEN, to, pt, c.index(), REMOTE_OFFSET, mdUser, HDR, SUM, INT64_T);
                case SWAP -> p.swap(md, 8, md, 0, LEN, to, pt, c.index(), REMOTE_OFFSET, mdUser, HDR, null, Op.SWAP, INT64_T);
            }
            List<Event> got = events(ieq, x.initiator().size());
            for (int i = 0; i < got.size(); i++) {
                Event e = got.get(i);
                EventKind want = i < x.initiator().size() ? x.initiator().get(i) : null;
                if (e.type != want) {
                    problems.add("initiator event " + i + " is " + e.type + ", not " + want);
                    continue;
                }
                checkInitiatorEvent(e);
            }
            if (got.size() < x.initiator().size()) {
                problems.add("initiator events " + kinds(got) + ", not " + x.initiator());
            }
            if (x.mdCount() != null) {
                CtEvent seen = awaitCount(ct, x.mdCount());
                if (!seen.equals(x.mdCount())) {
                    problems.add("the MD's counting event is " + seen + ", not " + x.mdCount());
                }
            }
            if (c.kind() == Kind.GET || c.kind() == Kind.FETCH || c.kind() == Kind.SWAP) {
                long want = x.applied() ? TARGET_VALUE + x.offset() : -1;
                awaitValue(local, 8, want, "the answer in the MD");
            }
            long end = System.nanoTime() + 2_000_000_000L;
            while (true) {
                try {
                    p.mdRelease(md);
                    break;
                } catch (PtlException e) {
                    if (e.rc() != ReturnCode.IN_USE || System.nanoTime() > end) {
                        problems.add("mdRelease: " + e.getMessage());
                        return;
                    }
                }
            }
            p.eqFree(ieq);
            if (ct != CtHandle.NONE) {
                p.ctFree(ct);
            }
        }

        private void checkInitiatorEvent(Event e) {
            String w = "initiator " + e.type;
            if (e.userPtr != mdUser) {
                problems.add(w + ": user pointer is not the operation's");
            }
            if (e.type == EventKind.EVENT_SEND) {
                if (e.niFailType != NiFail.NI_OK) {
                    problems.add(w + ": fails " + e.niFailType);
                }
                return;
            }
            if (e.niFailType != x.response()) {
                problems.add(w + ": fails " + e.niFailType + ", not " + x.response());
            }
            if (e.type == EventKind.EVENT_ACK && c.ack() == AckReq.OC_ACK_REQ) {
                return; // an operation-completed ack says that, not what was matched
            }
            if (x.response() == NiFail.NI_OK) {
                if (e.mlength != LEN) {
                    problems.add(w + ": mlength " + e.mlength + ", not " + LEN);
                }
                if (e.remoteOffset != x.offset()) {
                    problems.add(w + ": remote offset " + e.remoteOffset + ", not " + x.offset());
                }
                if (e.ptlList != c.list()) {
                    problems.add(w + ": list " + e.ptlList + ", not " + c.list());
                }
            }
        }

        private void checkTarget(EqHandle teq, CtHandle mect, MemorySegment entry) {
            List<Event> got = events(teq, x.target().size());
            for (int i = 0; i < got.size(); i++) {
                Event e = got.get(i);
                EventKind want = i < x.target().size() ? x.target().get(i) : null;
                if (e.type != want) {
                    problems.add("target event " + i + " is " + e.type + ", not " + want);
                    continue;
                }
                if (e.userPtr != meUser) {
                    problems.add("target " + e.type + ": user pointer is not the entry's");
                }
                if (e.type == EventKind.EVENT_LINK || e.type == EventKind.EVENT_AUTO_UNLINK) {
                    continue;
                }
                checkCommEvent(e, entry);
            }
            if (got.size() < x.target().size()) {
                problems.add("target events " + kinds(got) + ", not " + x.target());
            }
            if (x.meCount() != null) {
                CtEvent seen = awaitCount(mect, x.meCount());
                if (!seen.equals(x.meCount())) {
                    problems.add("the entry's counting event is " + seen + ", not " + x.meCount());
                }
            }
            long before = TARGET_VALUE + x.offset();
            long want = !x.applied() || c.kind() == Kind.GET ? before : c.kind() == Kind.PUT ? 42 : c.kind() == Kind.SWAP ? OPERAND : before + OPERAND;
            awaitValue(entry, x.offset(), want, "the entry's word at " + x.offset());
            long other = x.offset() == 0 ? REMOTE_OFFSET : 0;
            if (entry.get(ValueLayout.JAVA_LONG, other) != TARGET_VALUE + other) {
                problems.add("the entry's word at " + other + " changed");
            }
        }

        private void checkCommEvent(Event e, MemorySegment entry) {
            String w = "target " + e.type;
            if (e.niFailType != NiFail.NI_OK) {
                problems.add(w + ": fails " + e.niFailType);
            }
            if (e.mlength != LEN || e.rlength != LEN) {
                problems.add(w + ": mlength " + e.mlength + ", rlength " + e.rlength + ", not " + LEN);
            }
            if (e.remoteOffset != x.offset()) {
                problems.add(w + ": remote offset " + e.remoteOffset + ", not " + x.offset());
            }
            if (e.matchBits != c.index()) {
                problems.add(w + ": match bits " + e.matchBits + ", not " + c.index());
            }
            if (c.kind() != Kind.GET && e.hdrData != HDR) {
                problems.add(w + ": header data " + e.hdrData + ", not " + HDR);
            }
            if (e.initiator == null || e.initiator.rank != 0) {
                problems.add(w + ": initiator " + e.initiator + ", not rank 0");
            }
            if (e.ptIndex != 10) {
                problems.add(w + ": portal index " + e.ptIndex + ", not 10");
            }
            if (e.ptlList != c.list()) {
                problems.add(w + ": list " + e.ptlList + ", not " + c.list());
            }
            if (e.start == null || e.start.address() != entry.address() + x.offset()) {
                problems.add(w + ": start " + (e.start == null ? null : Long.toHexString(e.start.address())) + ", not the entry's + " + x.offset());
            }
            Op op = c.kind() == Kind.SWAP ? Op.SWAP : SUM;
            if ((c.kind() == Kind.ATOMIC || c.kind() == Kind.FETCH || c.kind() == Kind.SWAP) && (e.atomicOperation != op || e.atomicType != INT64_T)) {
                problems.add(w + ": atomic " + e.atomicOperation + " " + e.atomicType + ", not " + op + " INT64_T");
            }
        }

        /**
         * The events that come within the bound, until {@code n} came, and any that follow within
         * 20 ms (50 ms when none is expected): an event too many is seen too.
         */
        private List<Event> events(EqHandle eq, int n) {
            List<Event> got = new ArrayList<>();
            long deadline = System.nanoTime() + (n == 0 ? 50_000_000L : WAIT_NANOS);
            while (true) {
                EqResult r = p.eqGet(eq);
                long now = System.nanoTime();
                if (r.rc() == ReturnCode.OK) {
                    got.add(r.event());
                    if (got.size() == n) {
                        deadline = now + 20_000_000L;
                    }
                    continue;
                }
                if (r.rc() != ReturnCode.EQ_EMPTY) {
                    problems.add("eqGet returned " + r.rc());
                    return got;
                }
                if (now - deadline > 0) {
                    return got;
                }
                Thread.onSpinWait();
            }
        }

        private CtEvent awaitCount(CtHandle ct, CtEvent want) {
            long end = System.nanoTime() + WAIT_NANOS;
            CtEvent seen = p.ctGet(ct);
            while (!seen.equals(want) && System.nanoTime() < end) {
                Thread.onSpinWait();
                seen = p.ctGet(ct);
            }
            return seen;
        }

        private void awaitValue(MemorySegment m, long at, long want, String what) {
            long end = System.nanoTime() + WAIT_NANOS;
            java.lang.invoke.VarHandle word = ValueLayout.JAVA_LONG.varHandle();
            while ((long) word.getAcquire(m, at) != want && System.nanoTime() < end) {
                Thread.onSpinWait(); // no call: the library serves by itself
            }
            long seen = (long) word.getAcquire(m, at);
            if (seen != want) {
                problems.add(what + " is " + seen + ", not " + want);
            }
        }

        private static List<EventKind> kinds(List<Event> events) {
            return events.stream().map(e -> e.type).toList();
        }
    }
}
