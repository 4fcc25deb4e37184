package dev.ferry.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class RoundsTest {
    private static Result latency(String driver, double median, double p99) {
        return new Result("engine-latency", driver, 8, 1000, median, p99, null, Map.of());
    }

    @Test
    void eachKindBecomesOneLineOfTheRoundsMedians() {
        Rounds r = new Rounds();
        r.add(latency("shm", 0.40, 1.0));
        r.add(latency("ref-shm", 0.20, 0.5));
        r.add(latency("ref-shm", 0.30, 0.7)); // a reversed round: references first
        r.add(latency("shm", 0.90, 9.0));
        r.add(latency("shm", 0.50, 2.0));
        r.add(latency("ref-shm", 0.25, 0.6));
        List<Result> m = r.merged();
        assertEquals(2, m.size());
        Result shm = m.get(0);
        assertEquals("shm", shm.driver()); // the order kinds first came in
        assertEquals(0.50, shm.medianUs());
        assertEquals(2.0, shm.p99Us());
        assertEquals(3000, shm.iterations());
        assertNull(shm.mbPerS());
        assertEquals(3, shm.extra().get("rounds"));
        assertEquals(List.of(0.4, 0.9, 0.5), shm.extra().get("round_medians_us"));
        assertEquals(null, shm.extra().get("round_mb_per_s"));
        assertEquals(0.25, m.get(1).medianUs());
    }

    @Test
    void extraFieldsKeepKindsApartAndStay() {
        Rounds r = new Rounds();
        for (int i = 0; i < 2; i++) {
            r.add(new Result("driver-bandwidth", "shm", 65536, 100, 6.0 + i, 9, 10000.0 + i * 1000, Map.of("buffers", "offheap")));
            r.add(new Result("driver-bandwidth", "shm", 65536, 100, 3.0 + i, 9, 20000.0 + i * 1000, Map.of("buffers", "arena")));
        }
        List<Result> m = r.merged();
        assertEquals(2, m.size());
        assertEquals("offheap", m.get(0).extra().get("buffers"));
        assertEquals(6.5, m.get(0).medianUs());
        assertEquals(10500.0, m.get(0).mbPerS());
        assertEquals(List.of(10000.0, 11000.0), m.get(0).extra().get("round_mb_per_s"));
        assertEquals("arena", m.get(1).extra().get("buffers"));
        assertEquals(20500.0, m.get(1).mbPerS());
    }

    @Test
    void aMeasuredFieldDoesNotSplitALineAndKeepsItsLargestValue() {
        Rounds r = new Rounds();
        for (long alloc : new long[] {0, 120, 0}) {
            r.add(new Result("acc-latency", "tcp", 8, 100, 15.0, 60, null, Map.of("op", "accumulate(sum)+flush", "alloc_b_per_op", alloc)));
        }
        List<Result> m = r.merged();
        assertEquals(1, m.size(), "rounds that allocated differently are still one kind of line");
        assertEquals(3, m.get(0).extra().get("rounds"));
        assertEquals(120L, m.get(0).extra().get("alloc_b_per_op"));
    }

    @Test
    void goalsAreComparedRoundByRoundAgainstTheLineOfTheSameRound() {
        Rounds r = new Rounds();
        double[] driver = {0.40, 0.30, 0.50};
        double[] engine = {0.45, 0.42, 0.52};
        for (int i = 0; i < 3; i++) {
            r.add(new Result("driver-latency", "shm", 8, 10, driver[i], 1, null, Map.of()));
            r.add(new Result("engine-latency", "shm", 8, 10, engine[i], 1, null, Map.of()));
            r.add(new Result("driver-bandwidth", "shm", 65536, 10, 1, 1, 1000.0 * (i + 1), Map.of("buffers", "arena")));
            r.add(new Result("engine-bandwidth", "shm", 65536, 10, 1, 1, 900.0 * (i + 1), Map.of("buffers", "arena")));
            r.add(new Result("driver-bandwidth", "ref-shm", 65536, 10, 1, 1, 2000.0, Map.of()));
            r.add(new Result("put-latency", "shm", 8, 10, 1.0 + i, 1, null, Map.of("op", "put+ack")));
            r.add(new Result("driver-latency", "ref-shm", 8, 10, 0.25, 1, null, Map.of()));
        }
        Map<String, Result> m = new java.util.HashMap<>();
        for (Result x : r.merged()) {
            m.put(x.benchmark() + " " + x.driver(), x);
        }
        // per round 50, 120 and 20 ns: the median of the differences, not the difference of the medians (50)
        assertEquals(50.0, m.get("engine-latency shm").extra().get("overhead_ns_vs_driver"));
        assertEquals(0.9, m.get("engine-bandwidth shm").extra().get("ratio_to_driver"));
        assertEquals(0.9, m.get("engine-bandwidth shm").extra().get("ratio_to_memcpy")); // 900, 1800, 2700 over 2000
        assertEquals(4.0, m.get("put-latency shm").extra().get("ratio_to_ref_shm_round_trip")); // 2 us over 2 x 0.25
        assertNull(m.get("put-latency shm").extra().get("ratio_to_ref_nio_round_trip"), "no ref-nio line, no ratio");
        assertNull(m.get("driver-latency shm").extra().get("overhead_ns_vs_driver"));
    }

    @Test
    void ucxIsComparedWithTheShmAndTcpDriversAndWithUcxItself() {
        Rounds r = new Rounds();
        double[] shm = {0.30, 0.40, 0.35};
        double[] ucx = {0.90, 0.80, 0.70};
        double[] ucp = {0.60, 0.40, 0.70};
        for (int i = 0; i < 3; i++) {
            r.add(new Result("driver-latency", "shm", 8, 10, shm[i], 1, null, Map.of()));
            r.add(new Result("driver-latency", "ucx", 8, 10, ucx[i], 1, null, Map.of()));
            r.add(new Result("driver-latency", "ref-ucp", 8, 10, ucp[i], 1, null, Map.of()));
        }
        Map<String, Result> m = new java.util.HashMap<>();
        for (Result x : r.merged()) {
            m.put(x.driver(), x);
        }
        assertEquals(2.0, m.get("ucx").extra().get("ratio_to_shm")); // 3.0, 2.0, 2.0
        assertEquals(1.5, m.get("ucx").extra().get("ratio_to_ref_ucp")); // 1.5, 2.0, 1.0
        assertEquals(2.0, m.get("ref-ucp").extra().get("ratio_to_shm")); // 2.0, 1.0, 2.0
        assertNull(m.get("ucx").extra().get("ratio_to_tcp"), "no tcp line, no ratio");
        assertNull(m.get("shm").extra().get("ratio_to_shm"));
    }

    @Test
    void aCollectiveIsComparedWithItsNaiveFormOfTheSameRanks() {
        Rounds r = new Rounds();
        for (String ranks : List.of("2", "4")) {
            r.add(new Result("allreduce", "shm", 8, 100, ranks.equals("2") ? 1.0 : 3.0, 2, null, Map.of("ranks", ranks, "impl", "ferry", "algorithm", "ring")));
            r.add(new Result("allreduce", "shm", 8, 100, 2.0, 4, null, Map.of("ranks", ranks, "impl", "naive", "algorithm", "naive")));
        }
        List<Result> m = r.merged();
        assertEquals(0.5, m.get(0).extra().get("ratio_to_naive"));
        assertNull(m.get(1).extra().get("ratio_to_naive"));
        assertEquals(1.5, m.get(2).extra().get("ratio_to_naive"));
    }
}
