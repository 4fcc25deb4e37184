package dev.ferry.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ferry bench report} as a person looks at it: a small real run (shm latency and
 * bandwidth, two sizes, no warm-up: the page is checked, not the figures, beside MPICH, Open MPI
 * and UCX, which .ci/run installs), its page rendered by
 * Debian's headless chromium, every plot drawn with its series, and its JSON lines checked
 * against their schema.
 */
class BenchReportTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    static Path dir;
    static String dom;
    static String browserLog;

    @BeforeAll
    static void report() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Main.run(List.of("bench", "report", "--out", dir.toString(), "--only", "latency shm,bw shm",
                "--sizes", "8,4k", "--iterations", "500", "--warmup", "0", "--peers", "mpich,openmpi,ucx"),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(Files.isExecutable(CHROMIUM), "Debian's chromium is needed (apt-get install chromium; .ci/run does it)");
        Path profile = Files.createDirectories(dir.resolve("chromium-profile"));
        List<String> browser = List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile,
                "--enable-logging=stderr", "--v=0", "--window-size=1000,4000");
        List<String> shot = new ArrayList<>(browser);
        shot.addAll(List.of("--screenshot=" + dir.resolve("shot.png"), dir.resolve("index.html").toUri().toString()));
        browserLog = run(shot);
        List<String> dump = new ArrayList<>(browser);
        dump.addAll(List.of("--dump-dom", dir.resolve("index.html").toUri().toString()));
        dom = run(dump);
    }

    private static String run(List<String> cmd) throws Exception {
        Path log = Files.createTempFile(dir, "chromium", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).redirectError(log.toFile()).start();
        byte[] stdout = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium did not end within 120 s");
        assertEquals(0, p.exitValue(), Files.readString(log));
        return new String(stdout, StandardCharsets.UTF_8) + Files.readString(log);
    }

    @Test
    void everyPlotIsDrawnWithItsSeries() {
        Matcher figures = Pattern.compile("<figure class=\"plot\" data-figure=\"([^\"]+)\">(.*?)</figure>", Pattern.DOTALL).matcher(dom);
        Set<String> seen = new HashSet<>();
        while (figures.find()) {
            String id = figures.group(1), svg = figures.group(2);
            seen.add(id);
            assertTrue(svg.startsWith("<svg") && svg.contains("<path"), id + ": no drawing");
            List<String> expected = switch (id) {
                case "latency-shm" -> List.of("Ferry API", "Ferry engine", "MPICH", "Open MPI", "UCX");
                case "bw-shm" -> List.of("Ferry API", "Ferry API (byte[])", "MPICH", "Open MPI", "UCX", "ref-shm (memcpy)");
                case "percentiles-8" -> List.of("Ferry API", "Ferry engine", "MPICH", "Open MPI");
                case "latency-tcp", "bw-tcp" -> List.of("ref-nio (NIO sockets)");
                default -> List.of();
            };
            for (String series : expected) {
                assertTrue(svg.contains(">" + series.replace("&", "&amp;") + "<"), id + ": no series '" + series + "' in its legend");
            }
        }
        // the shm steps measure the references too: ref-nio draws the tcp plots' reference series
        assertEquals(Set.of("latency-shm", "latency-tcp", "bw-shm", "bw-tcp", "percentiles-8"), seen);
        assertFalse(dom.contains("<script"), "the page runs no script");
        assertFalse(browserLog.contains("Uncaught") || browserLog.contains("SyntaxError"), browserLog);
        for (String peer : List.of("mpich", "openmpi", "ucx")) { // .ci/run installs them all
            assertTrue(dom.contains("<td>" + peer + "</td><td>measured: "), peer + " not measured");
        }
    }

    @Test
    void theScreenshotShowsThePlots() throws Exception {
        BufferedImage img = ImageIO.read(dir.resolve("shot.png").toFile());
        assertEquals(1000, img.getWidth());
        int blue = 0, orange = 0;
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                int rgb = img.getRGB(x, y) & 0xffffff;
                colours.add(rgb);
                blue += near(rgb, 0x1f77b4) ? 1 : 0;
                orange += near(rgb, 0xff7f0e) ? 1 : 0;
            }
        }
        assertTrue(colours.size() > 50, "a page of text and plots, not a blank: " + colours.size() + " colours");
        assertTrue(blue > 20 && orange > 20, "the first two series' lines are drawn: blue " + blue + ", orange " + orange);
    }

    private static boolean near(int rgb, int target) {
        for (int shift = 0; shift <= 16; shift += 8) {
            if (Math.abs(((rgb >> shift) & 0xff) - ((target >> shift) & 0xff)) > 24) {
                return false;
            }
        }
        return true;
    }

    /** Every line of results.jsonl: the fields and types ferry bench documents. */
    @Test
    void theJsonLinesFollowTheirSchema() throws Exception {
        List<String> lines = Files.readAllLines(dir.resolve("results.jsonl"));
        assertTrue(lines.size() >= 12, "lines: " + lines.size());
        Set<String> drivers = new HashSet<>();
        for (String line : lines) {
            JsonNode n = JSON.readTree(line);
            assertTrue(n.get("benchmark").isTextual() && n.get("driver").isTextual(), line);
            assertTrue(n.get("size").canConvertToLong() && n.get("size").asLong() >= 0, line);
            assertTrue(n.get("iterations").canConvertToLong() && n.get("iterations").asLong() > 0, line);
            assertTrue(n.get("median_us").isNumber() && n.get("median_us").asDouble() > 0, line);
            if ("ucx_perftest".equals(n.path("source").asText())) { // UCX's own tool gives a median and a mean, no tail
                assertTrue(n.get("p99_us").isNull() && n.get("mean_us").isNumber(), line);
            } else {
                assertTrue(n.get("p99_us").isNumber() && n.get("p99_us").asDouble() >= n.get("median_us").asDouble() * 0.999, line);
            }
            boolean bandwidth = n.get("benchmark").asText().contains("bw") || n.get("benchmark").asText().contains("bandwidth");
            assertEquals(bandwidth, n.has("mb_per_s"), line);
            if (bandwidth) {
                assertTrue(n.get("mb_per_s").isNumber() && n.get("mb_per_s").asDouble() > 0, line);
            } else if (!n.get("driver").asText().startsWith("ref-") && !n.has("source")) {
                for (String p : List.of("p50_us", "p90_us", "p999_us")) {
                    assertTrue(n.get(p).isNumber() && n.get(p).asDouble() > 0, p + " missing: " + line);
                }
                assertTrue(n.get("p50_us").asDouble() <= n.get("p90_us").asDouble() && n.get("p90_us").asDouble() <= n.get("p999_us").asDouble(), line);
            }
            drivers.add(n.get("driver").asText());
        }
        assertTrue(drivers.containsAll(Set.of("shm", "mpich", "openmpi", "ucx")), "drivers: " + drivers);
    }
}
