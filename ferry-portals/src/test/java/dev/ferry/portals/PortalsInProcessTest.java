package dev.ferry.portals;

import dev.ferry.core.engine.EngineConfig;
import dev.ferry.launch.pmi.InProcessJob;
import dev.ferry.spi.Settings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Libraries of an in-process job: the multi-rank programs of {@link PortalsRanks}, each rank a thread with a library of its own. */
class PortalsInProcessTest {
    private static final Duration BOUND = Duration.ofSeconds(300);
    /** Ranks of this JVM through shm, as if they were processes of one node. */
    private static final Settings SHM = Settings.fromEnvironment().with("FERRY_SAME_PROCESS", "node").with("FERRY_DRIVERS", "self,shm");

    private static List<String> run(int n, Settings settings, EngineConfig.Progress progress, String... program) throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        InProcessJob.run(n, BOUND, boot -> {
            PortalsConfig c = new PortalsConfig().bootstrap(boot).settings(settings);
            if (progress != null) {
                c.progress(progress);
            }
            try (PortalsLibrary p = PortalsLibrary.open(c)) {
                PortalsRanks.run(p, lines::add, program);
            }
        });
        return lines;
    }

    @Test
    void everySizeBetweenThreeRanksOfOneJvm() throws Exception {
        List<String> ok = run(3, Settings.fromEnvironment(), null, "ops");
        assertEquals(3, ok.size(), ok.toString());
        assertTrue(ok.stream().allMatch(l -> l.startsWith("ok ops rank ")), ok.toString());
    }

    @Test
    void everySizeOverTcp() throws Exception {
        Settings tcp = Settings.fromEnvironment().with("FERRY_SAME_PROCESS", "node").with("FERRY_RANKS_PER_NODE", "1")
                .with("FERRY_DRIVERS", "self,tcp").with("FERRY_TCP_INTERFACES", "lo");
        assertEquals(3, run(3, tcp, null, "ops").size());
    }

    @Test
    void everySizeInAMixedJobWithTheProgressThread() throws Exception {
        Settings mixed = Settings.fromEnvironment().with("FERRY_SAME_PROCESS", "node").with("FERRY_RANKS_PER_NODE", "2")
                .with("FERRY_TCP_INTERFACES", "lo").with("FERRY_DRIVERS", "self,shm,tcp");
        assertEquals(4, run(4, mixed, EngineConfig.Progress.THREAD, "ops").size());
    }

    /** Direct access between ranks of one JVM through the shm arena, as between processes. */
    @Test
    void everySizeDirectlyOverShm() throws Exception {
        List<String> ok = run(3, SHM, null, "ops", "direct");
        assertTrue(ok.stream().allMatch(l -> l.endsWith("; 42 of 66 done directly; 0 served by the node agent")), ok.toString());
    }

    /** A direct operation never overtakes a message-path one sent before it to the same peer (write-after-write order). */
    @Test
    void aDirectPutDoesNotOvertakeAnEarlierPutByMessage() throws Exception {
        List<String> ok = run(2, SHM, null, "order", "200");
        assertTrue(ok.stream().anyMatch(l -> l.startsWith("ok order rank 1: the last put landed last")), ok.toString());
    }

    @Test
    void atomicsOnOneCounterFromThreeRanks() throws Exception {
        List<String> ok = run(3, Settings.fromEnvironment(), null, "hammer", "200");
        assertTrue(ok.stream().anyMatch(l -> l.startsWith("ok hammer: counter 1200")), ok.toString());
    }

    /** Two libraries with different settings live side by side, and a handle of one is refused by the other. */
    @Test
    void librariesOfOneJvmAreIndependent() throws Exception {
        InProcessJob.run(1, BOUND, boot -> {
            try (PortalsLibrary a = PortalsLibrary.open(new PortalsConfig().bootstrap(boot).settings(Settings.fromEnvironment().with("FERRY_PORTALS_DIRECT", "off")))) {
                InProcessJob.run(1, BOUND, boot2 -> {
                    try (PortalsLibrary b = PortalsLibrary.open(new PortalsConfig().bootstrap(boot2))) {
                        NiHandle na = a.niInit(Portals.IFACE_DEFAULT, Portals.NI_MATCHING | Portals.NI_LOGICAL, Portals.PID_ANY, null).niHandle();
                        NiHandle nb = b.niInit(Portals.IFACE_DEFAULT, Portals.NI_MATCHING | Portals.NI_LOGICAL, Portals.PID_ANY, null).niHandle();
                        PtlException x = assertThrows(PtlException.class, () -> b.ptAlloc(na, 0, Portals.EQ_NONE, Portals.PT_ANY));
                        assertEquals(ReturnCode.ARG_INVALID, x.rc());
                        assertEquals(0, b.ptAlloc(nb, 0, Portals.EQ_NONE, Portals.PT_ANY));
                        assertEquals(0, a.ptAlloc(na, 0, Portals.EQ_NONE, Portals.PT_ANY));
                        assertTrue(!a.lib().direct.enabled() && b.lib().direct.enabled(), "each library has its own FERRY_PORTALS_DIRECT");
                    }
                });
            }
        });
    }

    /**
     * Rank 1 appends a counted entry, then computes without any Portals call until rank 0 says
     * (through memory of this JVM, not Portals) that its put, get, atomic and fetch-atomic all
     * completed, or for 60 s at most. Answers what rank 0 saw: how long the four took, or that
     * they had not completed after {@code patienceMs}.
     */
    private static String passiveTarget(Settings settings, long patienceMs) throws Exception {
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<String> seen = new java.util.concurrent.atomic.AtomicReference<>();
        InProcessJob.run(2, BOUND, boot -> {
            try (PortalsLibrary p = PortalsLibrary.open(new PortalsConfig().bootstrap(boot).settings(settings))) {
                NiHandle ni = p.niInit(Portals.IFACE_DEFAULT, Portals.NI_MATCHING | Portals.NI_LOGICAL, Portals.PID_ANY, null).niHandle();
                int pt = 3;
                java.lang.foreign.MemorySegment window = counted64ByteWindow(p, ni, pt);
                p.barrier();
                if (p.rank() == 1) {
                    long end = System.nanoTime() + 60_000_000_000L;
                    long x = 1;
                    while (!done.get() && System.nanoTime() < end) {
                        x = x * 6364136223846793005L + 1442695040888963407L; // computing, no Portals call
                    }
                    seen.compareAndSet(null, "rank 1 computed " + (x == 0 ? "" : "until told"));
                } else {
                    java.lang.foreign.MemorySegment local = java.lang.foreign.Arena.ofShared().allocate(64, 8);
                    local.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, 41);
                    local.set(java.lang.foreign.ValueLayout.JAVA_LONG, 8, 1);
                    Md md = new Md();
                    md.start = local;
                    md.length = 64;
                    md.options = Portals.MD_EVENT_CT_ACK | Portals.MD_EVENT_CT_REPLY;
                    CtHandle ct = p.ctAlloc(ni);
                    md.ctHandle = ct;
                    MdHandle d = p.mdBind(ni, md);
                    ProcessId one = ProcessId.ofRank(1);
                    long t0 = System.nanoTime();
                    p.put(d, 0, 8, Portals.CT_ACK_REQ, one, pt, 0, 0, null, 0);                         // window[0] = 41
                    p.atomic(d, 8, 8, Portals.CT_ACK_REQ, one, pt, 0, 0, null, 0, Portals.SUM, Portals.INT64_T); // window[0] += 1
                    p.fetchAtomic(d, 16, d, 8, 8, one, pt, 0, 0, null, 0, Portals.SUM, Portals.INT64_T);    // local[16] = 42, window[0] = 43
                    p.get(d, 24, 8, one, pt, 0, 0, null);                                                 // local[24] = 43
                    CtResult r = p.ctPoll(new CtHandle[] {ct}, new long[] {4}, 1, (int) patienceMs);
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    if (r.rc() == ReturnCode.OK) {
                        seen.set("served in " + ms + " ms: fetched " + local.get(java.lang.foreign.ValueLayout.JAVA_LONG, 16)
                                + ", got " + local.get(java.lang.foreign.ValueLayout.JAVA_LONG, 24) + ", failures " + r.event().failure());
                    } else {
                        seen.set("not served within " + patienceMs + " ms: " + p.ctGet(ct));
                    }
                    done.set(true);
                }
                p.barrier(); // rank 1 is back in the library: whatever waited is served now
            }
        });
        return seen.get();
    }

    /** A target computing without a Portals call still applies, answers and counts puts, gets and atomics: over self, shm and tcp. */
    @Test
    void aTargetThatMakesNoCallStillServes() throws Exception {
        Settings tcp = Settings.fromEnvironment().with("FERRY_SAME_PROCESS", "node").with("FERRY_RANKS_PER_NODE", "1")
                .with("FERRY_DRIVERS", "self,tcp").with("FERRY_TCP_INTERFACES", "lo");
        for (Settings s : List.of(Settings.fromEnvironment(), SHM, tcp)) {
            String seen = passiveTarget(s, 10_000);
            System.out.println("passive target, " + s + ": " + seen);
            assertTrue(seen.startsWith("served in ") && seen.endsWith("fetched 42, got 43, failures 0"), s + ": " + seen);
        }
    }

    /** With FERRY_PORTALS_PROGRESS=caller the same target serves nothing until its next call: what the default thread is for. */
    @Test
    void inCallerModeAComputingTargetServesNothing() throws Exception {
        String seen = passiveTarget(Settings.fromEnvironment().with("FERRY_PORTALS_PROGRESS", "caller"), 500);
        assertTrue(seen.startsWith("not served within 500 ms"), seen);
    }

    /**
     * A put, an atomic, a fetch-atomic and a get on this process itself have landed when their
     * call returns, with no call after it and no passive-progress thread (caller mode): the call
     * delivers them, as a target elsewhere would take them in while this process computes.
     */
    @Test
    void operationsOnItselfHaveLandedWhenTheirCallReturns() throws Exception {
        InProcessJob.run(1, BOUND, boot -> {
            Settings caller = Settings.fromEnvironment().with("FERRY_PORTALS_PROGRESS", "caller");
            try (PortalsLibrary p = PortalsLibrary.open(new PortalsConfig().bootstrap(boot).settings(caller))) {
                NiHandle ni = p.niInit(Portals.IFACE_DEFAULT, Portals.NI_MATCHING | Portals.NI_LOGICAL, Portals.PID_ANY, null).niHandle();
                int pt = 3;
                java.lang.foreign.MemorySegment window = counted64ByteWindow(p, ni, pt);
                java.lang.foreign.MemorySegment local = java.lang.foreign.Arena.ofShared().allocate(64, 8);
                Md md = new Md();
                md.start = local;
                md.length = 64;
                MdHandle d = p.mdBind(ni, md);
                ProcessId self = ProcessId.ofRank(0);
                java.lang.invoke.VarHandle word = java.lang.foreign.ValueLayout.JAVA_LONG.varHandle();
                local.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, 41);
                p.put(d, 0, 8, Portals.NO_ACK_REQ, self, pt, 0, 0, null, 0);
                assertEquals(41L, (long) word.getAcquire(window, 0L), "the put");
                local.set(java.lang.foreign.ValueLayout.JAVA_LONG, 8, 1);
                p.atomic(d, 8, 8, Portals.NO_ACK_REQ, self, pt, 0, 0, null, 0, Portals.SUM, Portals.INT64_T);
                assertEquals(42L, (long) word.getAcquire(window, 0L), "the atomic");
                p.fetchAtomic(d, 16, d, 8, 8, self, pt, 0, 0, null, 0, Portals.SUM, Portals.INT64_T);
                assertEquals(42L, (long) word.getAcquire(local, 16L), "the fetch-atomic's answer");
                assertEquals(43L, (long) word.getAcquire(window, 0L), "the fetch-atomic");
                p.get(d, 24, 8, self, pt, 0, 0, null);
                assertEquals(43L, (long) word.getAcquire(local, 24L), "the get");
            }
        });
    }

    /**
     * A published entry that counts, in bytes: a same-node peer's direct puts are counted at the
     * target as its own would be (in the directory's counter word, which the target's count
     * includes), and a set count holds over them; once a triggered operation waits on the count,
     * the next put goes by message and fires it.
     */
    @Test
    void aPeersDirectPutsAreCountedAtTheTargetUntilATriggerWaits() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        InProcessJob.run(2, BOUND, boot -> {
            try (PortalsLibrary p = PortalsLibrary.open(new PortalsConfig().bootstrap(boot).settings(SHM))) {
                NiHandle ni = p.niInit(Portals.IFACE_DEFAULT, Portals.NI_MATCHING | Portals.NI_LOGICAL, Portals.PID_ANY, null).niHandle();
                int pt = p.ptAlloc(ni, 0, Portals.EQ_NONE, 0);
                java.lang.foreign.MemorySegment window = p.memAlloc(64);
                CtHandle arrived = p.ctAlloc(ni);
                if (p.rank() == 1) {
                    Me me = new Me();
                    me.start = window;
                    me.length = 64;
                    me.options = Portals.ME_OP_PUT | Portals.ME_EVENT_LINK_DISABLE | Portals.ME_EVENT_CT_COMM | Portals.ME_EVENT_CT_BYTES;
                    me.ctHandle = arrived;
                    p.meAppend(ni, pt, me, Portals.PRIORITY_LIST, null);
                }
                p.barrier();
                java.lang.foreign.MemorySegment local = java.lang.foreign.Arena.ofShared().allocate(8, 8);
                CtHandle acked = p.ctAlloc(ni);
                Md md = new Md();
                md.start = local;
                md.length = 8;
                md.options = Portals.MD_EVENT_CT_ACK;
                md.ctHandle = acked;
                MdHandle d = p.mdBind(ni, md);
                ProcessId one = ProcessId.ofRank(1);
                if (p.rank() == 0) {
                    for (int i = 1; i <= 11; i++) { // the first by message: it asks for rank 1's directory
                        p.put(d, 0, 8, Portals.CT_ACK_REQ, one, pt, 0, 8L * (i % 8), null, 0);
                        assertEquals(0, p.ctWait(acked, i).failure());
                    }
                    seen.add("rank 0: " + p.lib().direct.done + " done directly");
                }
                p.barrier();
                CtHandle fired = p.ctAlloc(ni);
                if (p.rank() == 1) {
                    seen.add("rank 1: counted " + p.ctGet(arrived).success());
                    p.ctSet(arrived, new CtEvent(40, 0)); // over what peers counted too
                    seen.add("rank 1: set to " + p.ctGet(arrived).success());
                    p.triggeredCtInc(fired, new CtEvent(1, 0), arrived, 48);
                }
                p.barrier();
                if (p.rank() == 0) {
                    p.put(d, 0, 8, Portals.CT_ACK_REQ, one, pt, 0, 0, null, 0);
                    assertEquals(0, p.ctWait(acked, 12).failure());
                    seen.add("rank 0: then " + p.lib().direct.done + " done directly");
                } else {
                    seen.add("rank 1: fired " + p.ctWait(fired, 1).success() + " at " + p.ctGet(arrived).success());
                }
                p.barrier();
            }
        });
        assertTrue(seen.containsAll(List.of("rank 0: 10 done directly", "rank 1: counted 88", "rank 1: set to 40", "rank 0: then 10 done directly",
                "rank 1: fired 1 at 48")),
                seen.toString());
    }

    /** Portal table entry {@code pt} with one counted entry of 64 bytes, which puts and gets reach (never the direct path: its memory is not the arena's); its memory. */
    private static java.lang.foreign.MemorySegment counted64ByteWindow(PortalsLibrary p, NiHandle ni, int pt) {
        p.ptAlloc(ni, 0, Portals.EQ_NONE, pt);
        java.lang.foreign.MemorySegment window = java.lang.foreign.Arena.ofShared().allocate(64, 8);
        Me me = new Me();
        me.start = window;
        me.length = 64;
        me.options = Portals.ME_OP_PUT | Portals.ME_OP_GET | Portals.ME_EVENT_CT_COMM; // not arena memory: never the direct path
        me.ctHandle = p.ctAlloc(ni);
        p.meAppend(ni, pt, me, Portals.PRIORITY_LIST, null);
        return window;
    }
}
