package dev.ferry.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Prints results as they come: a table, CSV, or one JSON object per line. */
public final class ResultPrinter {
    private static final List<String> COLUMNS = List.of("benchmark", "driver", "size", "iterations", "median_us", "p99_us", "mb_per_s");
    /** JSON lines, one object each, written by Jackson. */
    public static final ObjectMapper JSON = new ObjectMapper();
    private final PrintStream out;
    private final String format;
    private boolean headerDone;

    public ResultPrinter(PrintStream out, String format) {
        this.out = out;
        this.format = format;
    }

    public void print(Result r) {
        Map<String, Object> f = r.fields();
        switch (format) {
            case "json" -> out.println(json(f));
            case "csv" -> {
                if (!headerDone) {
                    out.println(String.join(",", COLUMNS) + ",extra");
                    headerDone = true;
                }
                String extra = r.extra().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).sorted().collect(Collectors.joining(";"));
                out.println(COLUMNS.stream().map(c -> f.get(c) == null ? "" : String.valueOf(f.get(c))).collect(Collectors.joining(",")) + "," + extra);
            }
            default -> {
                if (!headerDone) {
                    out.printf("%-17s %-10s %10s %11s %11s %11s %11s%n", "benchmark", "driver", "size", "iterations", "median_us", "p99_us", "MB/s");
                    headerDone = true;
                }
                String extra = r.extra().isEmpty() ? "" : "  " + r.extra();
                out.printf("%-17s %-10s %10d %11d %11s %11s %11s%s%n", r.benchmark(), r.driver(), r.size(), r.iterations(),
                        f.get("median_us"), f.get("p99_us"), f.get("mb_per_s") == null ? "-" : f.get("mb_per_s"), extra);
            }
        }
        out.flush();
    }

    /** One JSON object, on one line. */
    public static String json(Map<String, Object> fields) {
        try {
            return JSON.writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a benchmark line that is not JSON: " + fields, e);
        }
    }
}
