package dev.ferry.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The report's page: one self-contained HTML file (inline SVG, inline style, no script, nothing
 * fetched), with the machine's description, the peers found and missing, a plot and a table per
 * benchmark, and a link to the raw JSON lines beside it.
 *
 * <pre>{@code
 * Files.writeString(dir.resolve("index.html"), ReportPage.html(results, peers, command, took));
 * }</pre>
 */
final class ReportPage {
    private ReportPage() {
    }

    /** The machine the report ran on, as name and value lines. */
    static Map<String, String> machine() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("CPU", cpuModel());
        m.put("cores", String.valueOf(Runtime.getRuntime().availableProcessors()));
        m.put("memory", memory());
        m.put("kernel", read("/proc/sys/kernel/osrelease"));
        m.put("JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vendor") + ")");
        m.put("Ferry", dev.ferry.launch.hosts.Version.current());
        Map<String, String> settings = new TreeMap<>();
        System.getenv().forEach((k, v) -> {
            if (k.startsWith("FERRY_")) {
                settings.put(k, v);
            }
        });
        m.put("settings", settings.isEmpty() ? "defaults (no FERRY_* variable set)" : settings.toString());
        return m;
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String memory() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                    .map(l -> (Long.parseLong(l.replaceAll("[^0-9]", "")) >> 20) + " GiB").findFirst().orElse("unknown");
        } catch (IOException | NumberFormatException e) {
            return "unknown";
        }
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file)).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** The whole page. */
    static String html(List<Result> results, List<ReportPeers.Peer> peers, Map<String, String> missing, String command, Duration took) {
        StringBuilder h = new StringBuilder("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>Ferry benchmark report</title>
                <style>
                body { font-family: sans-serif; margin: 2em auto; max-width: 920px; color: #222; }
                table { border-collapse: collapse; margin: 0.5em 0 2em; font-size: 0.85em; }
                th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
                th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; }
                figure { margin: 0; } svg { max-width: 100%; height: auto; }
                </style></head><body>
                <h1>Ferry benchmark report</h1>
                """);
        h.append("<p>Made by <code>").append(escape(command)).append("</code> on ").append(Instant.now()).append(" in ")
                .append(took.toSeconds()).append(" s. Raw results, one JSON object per line: <a href=\"results.jsonl\">results.jsonl</a>.</p>\n");
        h.append("<h2 id=\"machine\">Machine</h2><table>");
        machine().forEach((k, v) -> h.append("<tr><th>").append(escape(k)).append("</th><td>").append(escape(v)).append("</td></tr>"));
        h.append("</table>\n<h2 id=\"peers\">Peers</h2><table><tr><th>peer</th><th>status</th></tr>");
        for (ReportPeers.Peer p : peers) {
            h.append("<tr><td>").append(escape(p.name())).append("</td><td>measured: ").append(escape(p.version()))
                    .append(", ").append(escape(p.how())).append("</td></tr>");
        }
        missing.forEach((name, why) -> h.append("<tr><td>").append(escape(name)).append("</td><td>missing: ").append(escape(why)).append("</td></tr>"));
        h.append("</table>\n<p>Latencies are one way (half a round trip), medians over batches of round trips; bandwidths the median ")
                .append("of windows of 16 messages and a reply. Ratios: how many times faster Ferry's main series is than the best peer at that size.</p>\n");
        for (ReportFigures.Figure f : ReportFigures.ALL) {
            ReportFigures.Drawn d = f.draw(results);
            if (d != null) {
                h.append("<h2 id=\"").append(f.id()).append("\">").append(escape(f.title())).append("</h2>\n<figure class=\"plot\" data-figure=\"")
                        .append(f.id()).append("\">").append(d.svg()).append("</figure>\n").append(d.table()).append('\n');
            }
        }
        ReportFigures.Drawn p = ReportFigures.percentiles(results, 8);
        if (p != null) {
            h.append("<h2 id=\"percentiles-8\">Latency percentiles at 8 B, same node (HdrHistogram)</h2>\n<figure class=\"plot\" data-figure=\"percentiles-8\">")
                    .append(p.svg()).append("</figure>\n").append(p.table()).append('\n');
        }
        return h.append("</body></html>\n").toString();
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    static String size(long bytes) {
        return bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : bytes >= 1024 && bytes % 1024 == 0 ? (bytes >> 10) + " KiB" : bytes + " B";
    }

    static String number(double v) {
        return v >= 100 ? String.format("%.0f", v) : v >= 10 ? String.format("%.1f", v) : String.format("%.3g", v);
    }
}
