package dev.ferry.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The report's pieces that need no run: latency percentiles, the suite's shape, JSON lines read back, sizes for the peers. */
class ReportPartsTest {
    @Test
    void latenciesGivePercentilesOfWhatWasRecorded() {
        Latencies l = new Latencies();
        for (int i = 1; i <= 1000; i++) {
            l.record(i / 10.0); // 0.1 to 100 us
        }
        assertEquals(1000, l.count());
        assertEquals(50.0, l.percentile(50), 0.1);
        assertEquals(90.0, l.percentile(90), 0.1);
        assertEquals(99.9, l.percentile(99.9), 0.1);
        Map<String, Object> p = l.percentiles();
        assertEquals(List.of("p50_us", "p90_us", "p999_us"), List.copyOf(p.keySet()));
        assertEquals(Map.of("buffers", "segment", "p50_us", p.get("p50_us"), "p90_us", p.get("p90_us"), "p999_us", p.get("p999_us")),
                l.with(Map.of("buffers", "segment")));
    }

    @Test
    void theQuickSuiteMeasuresReferencesOnceAndTheFullOneMore() {
        ReportSuite quick = ReportSuite.quick();
        // references (ref-shm, ref-readv, ref-nio) once, with the shm steps; a collective's own reference is its naive form
        List<String> withReferences = quick.steps().stream().filter(s -> !s.args().contains("--no-references")).map(ReportSuite.Step::name).toList();
        assertEquals(List.of("latency shm", "bw shm", "bcast", "allreduce", "allgather", "alltoall"), withReferences);
        assertTrue(ReportSuite.full().steps().size() > quick.steps().size());
        ReportSuite small = quick.only(List.of("latency shm")).with("8,4k", 500);
        assertEquals(1, small.steps().size());
        assertEquals(List.of("latency", "--driver", "shm", "--sizes", "8,4k", "--iterations", "500"), small.steps().get(0).args());
        assertEquals("8,4k", small.sizes());
        assertEquals(List.of("latency", "--driver", "shm", "--sizes", "8,4k", "--iterations", "500", "--warmup", "0"),
                small.warmup(0).steps().get(0).args(), "the report's --warmup reaches every step");
        assertEquals(small.steps(), small.warmup(-1).steps(), "without it, each step keeps its own");
    }

    @Test
    void aJsonLineReadsBackAsTheResultThatPrintedIt() {
        Result r = new Result("latency", "shm", 8, 2000, 0.159, 0.21, null, Map.of("buffers", "segment", "p50_us", 0.158));
        Result back = ReportCommand.parse(ResultPrinter.json(r.fields()));
        assertEquals(r.benchmark(), back.benchmark());
        assertEquals(r.size(), back.size());
        assertEquals(r.medianUs(), back.medianUs(), 1e-9);
        assertEquals("segment", back.extra().get("buffers"));
        assertEquals(0.158, ((Number) back.extra().get("p50_us")).doubleValue(), 1e-9);
    }

    @Test
    void peersTakeSizesInBytes() {
        assertEquals("1,8,4096,1048576", ReportPeers.bytes("1,8,4k,1m"));
    }

    @Test
    void aPeerThatIsNotInstalledIsListedAsMissingWithWhy(@org.junit.jupiter.api.io.TempDir java.nio.file.Path work) throws Exception {
        ReportPeers none = ReportPeers.find(ReportPeers.KNOWN, work, work.toString()); // a PATH with nothing on it
        assertEquals(List.of(), none.found());
        assertEquals(Map.of("mpich", "mpicc.mpich is not installed", "openmpi", "mpicc.openmpi is not installed",
                "ucx", "ucx_perftest is not installed (Debian: ucx-utils)"), none.missing());
        IllegalArgumentException bad = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ReportPeers.find(List.of("lam"), work, ""));
        assertTrue(bad.getMessage().contains("unknown peer 'lam'"), bad.getMessage());
    }
}
