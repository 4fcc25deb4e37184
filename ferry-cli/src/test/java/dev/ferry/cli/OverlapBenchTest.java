package dev.ferry.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ferry bench overlap}: real jobs of two ranks on nodes of their own, in caller and thread progress, and in agent mode with each. */
class OverlapBenchTest {
    @Test
    void eachModeSaysHowMuchOfTheTransferItHid() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Main.run(List.of("bench", "overlap", "--sizes", "256k", "--iterations", "20", "--warmup", "0", "--format", "json"),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String json = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, json + err.toString(StandardCharsets.UTF_8));
        List<String> lines = json.lines().filter(l -> l.startsWith("{\"benchmark\":\"overlap\"")).toList();
        assertEquals(4, lines.size(), json);
        for (String impl : List.of("caller", "thread", "agent", "agent-thread")) {
            String line = lines.stream().filter(l -> l.contains("\"impl\":\"" + impl + "\"")).findFirst().orElseThrow(() -> new AssertionError(impl + " in " + json));
            double pct = Double.parseDouble(line.replaceFirst(".*\"overlap_pct\":([0-9.]+).*", "$1"));
            double alone = Double.parseDouble(line.replaceFirst(".*\"alone_us\":([0-9.]+).*", "$1"));
            assertTrue(pct >= 0 && pct <= 100, line);
            assertTrue(alone > 0, line);
            assertTrue(line.contains("\"size\":262144"), line);
        }
    }
}
