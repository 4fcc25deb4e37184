package dev.ferry.cli;

import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.internal.KnownSettings;
import dev.ferry.spi.Setting;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every setting the code reads is declared once, listed by {@code ferry info} and documented in
 * the README's table: the names are taken from the main sources of every module (string literals
 * outside comments), not from a list kept by hand.
 */
class KnownSettingsTest {
    private static final Pattern LITERAL = Pattern.compile("\"(FERRY_[A-Z0-9_]+)\"");

    private static Path projectRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("ferry-spi"))) {
            p = p.getParent();
        }
        assertTrue(p != null, "no project root above " + Path.of("").toAbsolutePath());
        return p;
    }

    /** Java source without its comments (block, Javadoc and line comments), strings kept. */
    static String withoutComments(String src) {
        String noBlocks = src.replaceAll("(?s)/\\*.*?\\*/", "");
        return noBlocks.lines().map(l -> l.strip().startsWith("//") ? "" : l.replaceAll("\\s//\\s.*$", "")).collect(Collectors.joining("\n"));
    }

    /** The FERRY_ names in string literals of the main sources; a name ending in '_' is a prefix. */
    private static Set<String> namesInCode(Path root) throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/")).toList()) {
                Matcher m = LITERAL.matcher(withoutComments(Files.readString(f)));
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        return names;
    }

    @Test
    void everySettingTheCodeReadsIsDeclaredAndDocumentedInTheReadme() throws IOException {
        Path root = projectRoot();
        Map<String, Setting> declared = KnownSettings.all(DriverCatalog.discover()).stream()
                .collect(Collectors.toMap(Setting::name, s -> s));
        Set<String> inCode = namesInCode(root);
        assertTrue(inCode.size() > 20, "the scan found the settings: " + inCode);
        for (String n : inCode) {
            boolean prefix = n.endsWith("_") || declared.keySet().stream().anyMatch(d -> d.startsWith(n + "_"));
            assertTrue(declared.containsKey(n) || prefix, n + " is read in the code but declared nowhere (ferry info would call it unknown)");
        }
        Set<String> tableRows = Files.readAllLines(root.resolve("README.md")).stream().filter(l -> l.startsWith("| `FERRY_"))
                .collect(Collectors.toSet());
        for (Setting s : declared.values()) {
            assertTrue(tableRows.stream().anyMatch(l -> l.contains("`" + s.name() + "`")), s.name() + " (read by " + s.reader()
                    + ") is missing from the README's table of settings");
            assertFalse(s.reader().isBlank(), s.name() + " names no reader");
        }
    }

    @Test
    void aDeclaredSettingIsNoStranger() {
        Set<String> declared = KnownSettings.all(DriverCatalog.discover()).stream().map(Setting::name).collect(Collectors.toSet());
        for (String n : new String[] {"FERRY_CDS", "FERRY_PMI", "FERRY_NODE_ID", "FERRY_RANKS_PER_NODE", "FERRY_COLL_ALLREDUCE",
                "FERRY_TCP_CONNECT_TIMEOUT_MS", "FERRY_UCX_RCACHE_BYTES", "FERRY_JOB_KEY"}) {
            assertTrue(declared.contains(n), n);
        }
        assertEquals(declared.size(), KnownSettings.all(DriverCatalog.discover()).size(), "each name once");
    }

    @Test
    void infoFlagsOnlyNamesNothingReads() {
        System.setProperty("ferry.coll.allreduce", "ring");
        System.setProperty("ferry.no.such.setting", "1");
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> unknown = (Map<String, Object>) InfoCommand.collect(DriverCatalog.discover()).get("unknown_settings");
            assertTrue(unknown.containsKey("ferry.no.such.setting"), unknown.toString());
            assertFalse(unknown.containsKey("ferry.coll.allreduce"), unknown.toString());
        } finally {
            System.clearProperty("ferry.coll.allreduce");
            System.clearProperty("ferry.no.such.setting");
        }
    }

    @Test
    void commentsAreNotRead() {
        assertEquals("int a = 1; \nString s = \"FERRY_X\";", withoutComments("int a = 1; /* \"FERRY_Y\" */\nString s = \"FERRY_X\"; // \"FERRY_Z\""));
    }
}
