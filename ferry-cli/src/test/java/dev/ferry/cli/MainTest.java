package dev.ferry.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void infoJsonHasDriversAndSettings() {
        assertEquals(0, run("info", "--format", "json"));
        String json = out.toString(StandardCharsets.UTF_8).strip();
        assertEquals(1, json.lines().count());
        assertTrue(json.startsWith("{\"drivers\":[{\"name\":\"self\",\"source\":\"classpath:"), json);
        assertTrue(json.contains("\"capabilities\":{\"supports_data\":true"), json);
        assertTrue(json.contains("\"profile\":{\"latency_ns\":"), json);
        assertTrue(json.contains("\"settings\":{\"FERRY_DRIVERS\":{\"value\":"), json);
        assertTrue(json.contains("\"FERRY_DRIVER_PATH\""), json);
    }

    @Test
    void infoTextShowsSelectionAndASettingSetAsAProperty() {
        System.setProperty("ferry.drivers", "self");
        try {
            assertEquals(0, run("info"));
        } finally {
            System.clearProperty("ferry.drivers");
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("Selected by FERRY_DRIVERS, in order of preference: self"), text);
        assertTrue(text.contains("FERRY_DRIVERS            = self"), text);
        assertTrue(text.contains("(property; core)"), text);
    }

    @Test
    void aSelectionOfAnUnknownDriverIsShownAsAnError() {
        System.setProperty("ferry.drivers", "self,warp");
        try {
            assertEquals(0, run("info", "--format", "json"));
        } finally {
            System.clearProperty("ferry.drivers");
        }
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("\"selection_error\":\"FERRY_DRIVERS names unknown driver(s) [warp]"));
    }

    @Test
    void unknownCommandsAndOptionsExit2WithOneLine() {
        assertEquals(2, run("launch"));
        assertEquals(2, run("info", "--verbose"));
        assertEquals(2, run("info", "--format"));
        assertEquals(2, run("bench"));
        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(4, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("unknown command 'launch'"));
        assertTrue(lines.get(1).contains("unknown option '--verbose'"));
    }

    @Test
    void helpIsNotAnError() {
        assertEquals(0, run("help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("ferry <command>"));
    }

    @Test
    void helpNamesEveryBenchmark() {
        for (String b : dev.ferry.bench.BenchOptions.KNOWN) {
            assertTrue(Main.USAGE.contains(b), "the usage does not name 'ferry bench " + b + "'");
        }
        assertTrue(Main.USAGE.contains("bench jmh") && Main.USAGE.contains("bench wireup"));
    }
}
