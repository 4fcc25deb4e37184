package dev.ferry.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the real benchmarks briefly (the self driver in this JVM, ref-shm and ref-nio against child
 * JVMs) and checks the shape of what they print, not their speed: speed belongs to the benchmark
 * runs themselves.
 */
class DriverBenchTest {
    private static List<String> run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = BenchCommand.run(Arrays.asList(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, "exit code; stderr: " + err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void latencyPrintsOneJsonLinePerSizeWithTheReferences() {
        List<String> lines = run("driver-latency", "--driver", "self", "--sizes", "0,8,100000", "--iterations", "300", "--format", "json");
        // self: 3 sizes; ref-shm: the 8-byte cache line; ref-nio: sizes above 0
        assertEquals(6, lines.size(), String.join("\n", lines));
        // the samples' median and p99, then HdrHistogram's p50, p90 and p99.9
        assertTrue(lines.get(0).matches("\\{\"benchmark\":\"driver-latency\",\"driver\":\"self\",\"size\":0,\"iterations\":\\d+,\"median_us\":[0-9.E-]+,\"p99_us\":[0-9.E-]+,"
                + "\"p50_us\":[0-9.E-]+,\"p90_us\":[0-9.E-]+,\"p999_us\":[0-9.E-]+}"), lines.get(0));
        assertTrue(lines.get(2).contains("\"size\":100000"), lines.get(2));
        assertTrue(lines.get(3).startsWith("{\"benchmark\":\"driver-latency\",\"driver\":\"ref-shm\",\"size\":8,"), lines.get(3));
        assertTrue(lines.get(4).startsWith("{\"benchmark\":\"driver-latency\",\"driver\":\"ref-nio\",\"size\":8,"), lines.get(4));
        assertTrue(lines.get(5).contains("\"driver\":\"ref-nio\",\"size\":100000"), lines.get(5));
    }

    @Test
    void bandwidthLinesCarryMegabytesPerSecond() {
        List<String> lines = run("driver-bandwidth", "--driver", "self", "--sizes", "4096,1m", "--iterations", "64", "--window", "8", "--format", "json");
        assertEquals(8, lines.size(), String.join("\n", lines));
        for (String l : lines) {
            assertTrue(l.matches(".*\"mb_per_s\":[0-9.E]+(,\"buffers\":\"offheap\")?}"), l);
        }
        // the driver's lines say which memory was sent from; self has no arena of its own, so off-heap only
        assertTrue(lines.get(0).endsWith(",\"buffers\":\"offheap\"}"), lines.get(0));
        assertTrue(lines.get(1).endsWith(",\"buffers\":\"offheap\"}"), lines.get(1));
        assertTrue(lines.get(2).contains("\"driver\":\"ref-shm\""));
        assertTrue(lines.get(4).contains("\"driver\":\"ref-readv\""), lines.get(4));
        assertTrue(lines.get(6).contains("\"driver\":\"ref-nio\""));
    }

    @Test
    void roundsInterleaveThePhasesAndPrintOneLinePerKind() {
        List<String> lines = run("driver-latency", "--driver", "self", "--sizes", "8", "--iterations", "200", "--warmup", "0",
                "--rounds", "3", "--format", "json");
        // self, ref-shm and ref-nio, each once, whichever order the rounds ran in
        assertEquals(3, lines.size(), String.join("\n", lines));
        // iterations: the rounds' sum; a round times whole batches, so it may count a few under 200
        assertTrue(lines.get(0).matches("\\{\"benchmark\":\"driver-latency\",\"driver\":\"self\",\"size\":8,\"iterations\":(5[4-9]\\d|600),.*"), lines.get(0));
        for (String l : lines) {
            assertTrue(l.matches(".*,\"round_medians_us\":\\[[0-9.E-]+,[0-9.E-]+,[0-9.E-]+],\"rounds\":3}"), l);
        }
    }

    @Test
    void tableAndCsvFormats() {
        List<String> table = run("driver-latency", "--sizes", "8", "--iterations", "50", "--no-references");
        assertEquals(2, table.size());
        assertTrue(table.get(0).startsWith("benchmark"));
        List<String> csv = run("driver-latency", "--sizes", "8", "--iterations", "50", "--no-references", "--format", "csv");
        assertEquals("benchmark,driver,size,iterations,median_us,p99_us,mb_per_s,extra", csv.get(0));
        assertTrue(csv.get(1).startsWith("driver-latency,self,8,"), csv.get(1));
    }

    @Test
    void jmhBenchmarksAreRegisteredAndBadJmhOptionsExit2() {
        List<String> listed = run("jmh", "-l", "SpiHotPath");
        assertTrue(listed.stream().anyMatch(l -> l.contains("SpiHotPathBenchmark.bufferSendAndReceive")), listed.toString());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, BenchCommand.run(List.of("jmh", "-wi", "many"), System.out, new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("ferry bench jmh: "), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void badInputExitsWith2AndOneLine() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(2, BenchCommand.run(List.of("driver-latency", "--driver", "warp"), System.out, e));
        assertEquals(2, BenchCommand.run(List.of("nonsense"), System.out, e));
        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("unknown driver 'warp'"), lines.get(0));
    }
}
