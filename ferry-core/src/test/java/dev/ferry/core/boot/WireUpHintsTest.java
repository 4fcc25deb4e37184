package dev.ferry.core.boot;

import dev.ferry.launch.pmi.InProcessJob;
import dev.ferry.spi.Hints;
import dev.ferry.spi.Settings;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** What the drivers are told of the job beside its size: the peers expected at once, and the ranks per node where known. */
class WireUpHintsTest {
    @Test
    void theDriversHearThePeersExpectedAndTheRanksPerNode() {
        try (InProcessJob job = InProcessJob.sparse(1000, 1)) {
            Map<String, String> plain = WireUp.attributes(job.bootstrap(0), "j", "k", "n0", Settings.defaults());
            assertEquals("999", plain.get(Hints.PEERS_EXPECTED));
            assertFalse(plain.containsKey(Hints.RANKS_ON_NODE));
            assertEquals("j", plain.get(Hints.JOB_ID));
            assertEquals("n0", plain.get(Hints.NODE));
            Map<String, String> capped = WireUp.attributes(job.bootstrap(0), "j", "k", "n0",
                    Settings.defaults().with("FERRY_MAX_CONNECTIONS", "16").with("FERRY_RANKS_PER_NODE", "96"));
            assertEquals("16", capped.get(Hints.PEERS_EXPECTED));
            assertEquals("96", capped.get(Hints.RANKS_ON_NODE));
        }
    }

    /** Once frozen for the closing fence, nothing is read from the bootstrap (a read would wait for the fence): URLs of peers never met are null. */
    @Test
    void aFrozenTableReadsNothing() {
        try (InProcessJob job = InProcessJob.sparse(3, 1)) {
            dev.ferry.spi.DriverUrl elsewhere = dev.ferry.spi.DriverUrl.single("self:elsewhere/2".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            dev.ferry.launch.pmi.KeyValues.put(job.bootstrap(0), "ferry.url.2.self", elsewhere.toText());
            try (WireUp w = WireUp.exchange(job.bootstrap(0), java.util.List.of(dev.ferry.core.driver.DriverCatalog.discover().find("self").orElseThrow()))) {
                assertEquals(elsewhere, w.url(2, "self"), "read on first use");
                w.freeze();
                assertEquals(null, w.url(2, "self"));
                assertEquals(null, w.url(1, "self"));
                assertEquals(w.node(0), w.node(0), "what was read before stays");
            }
        }
    }
}
