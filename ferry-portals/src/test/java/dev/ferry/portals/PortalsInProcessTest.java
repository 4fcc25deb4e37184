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
        assertTrue(ok.stream().allMatch(l -> l.endsWith("; 42 of 66 done directly")), ok.toString());
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
}
