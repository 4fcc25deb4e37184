package dev.ferry.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input to ferry run and ferry exec: one line naming what is wrong, status 2, nothing started. */
class RunCommandTest {
    private static String fails(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code, "exit status for " + List.of(args));
        assertEquals("", out.toString(StandardCharsets.UTF_8), "nothing ran");
        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(1, lines.size(), lines.toString());
        return lines.get(0);
    }

    @Test
    void badInputIsOneLineAndStatus2(@TempDir Path dir) throws Exception {
        assertTrue(fails("run", "-n", "0", "--example", "hello").contains("-n must be between 1"));
        assertTrue(fails("run", "--example", "hello").contains("number of ranks is missing"));
        assertTrue(fails("run", "-n", "2", "--frobnicate", "--example", "hello").contains("unknown option '--frobnicate'"));
        assertTrue(fails("run", "-n", "2", "no.such.Main").contains("main class 'no.such.Main' not found"));
        assertTrue(fails("run", "-n", "2", "--example", "nope").contains("no example named 'nope'"));
        assertTrue(fails("run", "-n", "2", "-jar", dir.resolve("missing.jar").toString()).contains("does not exist"));
        Path notJar = Files.writeString(dir.resolve("bad.jar"), "not a jar");
        assertTrue(fails("run", "-n", "2", "-jar", notJar.toString()).contains("not a readable jar"));
        assertTrue(fails("run", "-n", "x", "--example", "hello").contains("whole number"));
        assertTrue(fails("run", "-n", "2").contains("no program given"));
        assertTrue(fails("exec", "--example", "nope").startsWith("ferry exec: no example named 'nope'"));
        assertTrue(fails("run", "-n", "2", "--timeout", "0", "--example", "hello").contains("--timeout"));
    }

    @Test
    void settingsTheRanksWouldTripOverAreRefusedOnceByTheLauncher(@TempDir Path dir) {
        // Before: started, and every rank printed a stack trace (drivers), or ran without the entry (-cp).
        assertTrue(fails("run", "-n", "2", "--drivers", "self,nosuch", "--example", "hello")
                .startsWith("ferry run: FERRY_DRIVERS names unknown driver(s) [nosuch]; drivers found: ["));
        assertTrue(fails("run", "-n", "2", "--env", "FERRY_DRIVERS=^nosuch", "--example", "hello").contains("[nosuch]"));
        String missing = dir.resolve("nonexistent").toString();
        assertEquals("ferry run: class path entry '" + missing + "' does not exist",
                fails("run", "-n", "2", "-cp", missing, "--example", "hello"));
        assertTrue(fails("run", "-n", "2", "-cp", dir.resolve("none") + "/*", "--example", "hello").contains("no directory"));
    }
}
