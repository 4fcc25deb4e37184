package dev.ferry.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchOptionsTest {
    @Test
    void parsesEveryOption() {
        BenchOptions o = BenchOptions.parse("driver-bandwidth", List.of("--driver", "shm", "--sizes", "0, 8,4k,2m",
                "--iterations", "500", "--warmup", "7", "--window", "4", "--format", "CSV", "--no-references"));
        assertEquals("shm", o.driver());
        assertEquals(List.of(0L, 8L, 4096L, 2L << 20), o.sizes());
        assertEquals(500, o.iterations());
        assertEquals(7, o.warmup());
        assertEquals(4, o.window());
        assertEquals("csv", o.format());
        assertFalse(o.references());
        assertEquals(1, o.rounds());
        assertEquals(5, BenchOptions.parse("driver-latency", List.of("--rounds", "5")).rounds());
    }

    @Test
    void defaultsFollowTheBenchmark() {
        BenchOptions l = BenchOptions.parse("driver-latency", List.of());
        assertEquals("self", l.driver());
        assertTrue(l.sizes().contains(8L));
        assertEquals("table", l.format());
        assertTrue(l.references());
        assertEquals(l.iterations() / 10, l.warmup());
    }

    @Test
    void passiveMeasuresEachDriverWithFewSpacedOperations() {
        BenchOptions p = BenchOptions.parse("passive", List.of());
        assertTrue(p.passive());
        assertFalse(p.engine(), "several drivers in one command, as driver-latency");
        assertEquals("self,shm,tcp", p.driver());
        assertEquals(List.of(8L), p.sizes());
        assertEquals(200, p.iterations());
        assertEquals("arena", BenchOptions.parse("passive", List.of("--buffers", "arena")).buffers(), "the target's entry in memAlloc memory");
        assertEquals("counted", BenchOptions.parse("passive", List.of("--mode", "counted")).mode(), "the target's entry counts");
    }

    @Test
    void aByteBudgetCapsLargeSizes() {
        BenchOptions o = BenchOptions.parse("driver-latency", List.of("--iterations", "100000"));
        assertEquals(100000, o.iterationsFor(8));
        assertEquals(BenchOptions.BYTE_BUDGET / (4 << 20), o.iterationsFor(4 << 20));
    }

    @Test
    void badInputNamesWhatWasWrong() {
        assertMessage("unknown option '--fast'", () -> BenchOptions.parse("driver-latency", List.of("--fast")));
        assertMessage("'eight'", () -> BenchOptions.parse("driver-latency", List.of("--sizes", "8,eight")));
        assertMessage("--iterations must be at least 1", () -> BenchOptions.parse("driver-latency", List.of("--iterations", "0")));
        assertMessage("needs a value", () -> BenchOptions.parse("driver-latency", List.of("--driver")));
        assertMessage("table, csv or json", () -> BenchOptions.parse("driver-latency", List.of("--format", "xml")));
        assertMessage("unknown benchmark 'x'", () -> BenchOptions.parse("x", List.of()));
        assertMessage("'-1'", () -> BenchOptions.parse("driver-latency", List.of("--sizes", "-1")));
        assertMessage("--rounds takes at most 99, not 100", () -> BenchOptions.parse("driver-latency", List.of("--rounds", "100")));
        assertMessage("--rounds must be at least 1", () -> BenchOptions.parse("driver-latency", List.of("--rounds", "0")));
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable e) {
        UsageException u = assertThrows(UsageException.class, e);
        assertTrue(u.getMessage().contains(part), u.getMessage());
    }

    @Test
    void collectivesTakeRanksAndRunOnShmByDefault() {
        BenchOptions o = BenchOptions.parse("allreduce", List.of("--ranks", "2,4,8"));
        assertEquals(List.of(2, 4, 8), o.ranks());
        assertEquals("shm", o.driver());
        assertTrue(o.collective() && o.engine() && !o.api());
        assertEquals(List.of(0L), BenchOptions.parse("barrier", List.of()).sizes());
        assertMessage("--ranks is for the collective benchmarks", () -> BenchOptions.parse("latency", List.of("--ranks", "2")));
        assertMessage("at most 64", () -> BenchOptions.parse("bcast", List.of("--ranks", "65")));
    }

    @Test
    void buffersChooseTheMemoryOfTheBandwidthBenchmarksAndOverlap() {
        assertEquals("", BenchOptions.parse("engine-bandwidth", List.of()).buffers(), "the driver's default");
        assertEquals("arena", BenchOptions.parse("engine-bandwidth", List.of("--buffers", "ARENA")).buffers());
        assertEquals("both", BenchOptions.parse("engine-bandwidth", List.of("--buffers", "both")).buffers());
        assertEquals("arena", BenchOptions.parse("overlap", List.of("--buffers", "arena")).buffers());
        assertEquals("arena", BenchOptions.parse("engine-bandwidth", List.of("--buffers", "arena")).as("driver-bandwidth").buffers());
        assertMessage("--buffers takes offheap, arena, not 'both'", () -> BenchOptions.parse("overlap", List.of("--buffers", "both")));
        assertMessage("--buffers takes offheap, arena or both, not 'heap'", () -> BenchOptions.parse("engine-bandwidth", List.of("--buffers", "heap")));
        assertEquals("arena", BenchOptions.parse("bw", List.of("--buffers", "arena")).buffers(), "bw adds a phase of arena segments");
        assertMessage("--buffers is for engine-bandwidth, bw, bibw, overlap and passive, not latency", () -> BenchOptions.parse("latency", List.of("--buffers", "arena")));
        assertMessage("--mode is for latency (the API's ping-pong) and passive, not bw", () -> BenchOptions.parse("bw", List.of("--mode", "bsend")));
        assertMessage("--mode takes standard or counted for passive, not 'bsend'", () -> BenchOptions.parse("passive", List.of("--mode", "bsend")));
    }
}
