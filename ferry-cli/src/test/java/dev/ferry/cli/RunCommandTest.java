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

    @Test
    void aSettingNotUnderstoodIsOneLineFromTheLauncher() {
        assertEquals("ferry run: FERRY_RNDV_PULL must be on or off, not '1'",
                fails("run", "-n", "2", "--env", "FERRY_RNDV_PULL=1", "--example", "hello"));
        assertEquals("ferry run: FERRY_PROGRESS must be caller or thread, not 'fast'",
                fails("run", "-n", "2", "-Dferry.progress=fast", "--example", "hello"));
        assertTrue(fails("run", "-n", "2", "--env", "FERRY_RAILS=tcp:abc", "--example", "hello").startsWith("ferry run: FERRY_RAILS: 'tcp:abc' is not NAME:COUNT"));
        assertTrue(fails("run", "-n", "2", "--env", "FERRY_EAGER_LIMIT=300000", "--example", "hello")
                .startsWith("ferry run: FERRY_EAGER_LIMIT=300000 needs FERRY_EAGER_CREDITS of at least 300016"));
        assertEquals("ferry run: driver shm: FERRY_SHM_SINGLE_COPY must be auto or off, not 'xyz'",
                fails("run", "-n", "2", "--env", "FERRY_SHM_SINGLE_COPY=xyz", "--example", "hello"));
    }

    @Test
    void driversThatLeaveAPairUnreachableAreRefusedBeforeTheJob() {
        assertTrue(fails("run", "-n", "2", "--env", "FERRY_DRIVERS=^shm,^tcp,^self", "--example", "hello")
                .startsWith("ferry run: no selected driver reaches ranks on the same node (FERRY_DRIVERS=^shm,^tcp,^self); selected: none"));
        assertTrue(fails("run", "-n", "2", "--drivers", "self", "--example", "hello")
                .startsWith("ferry run: no selected driver reaches ranks on the same node (FERRY_DRIVERS=self); selected: self"));
        assertTrue(fails("run", "-n", "4", "--ranks-per-node", "2", "--drivers", "shm", "--example", "hello")
                .startsWith("ferry run: no selected driver reaches ranks on different nodes (FERRY_DRIVERS=shm)"));
        assertEquals("ferry run: FERRY_DRIVERS names driver 'tcp', which is unavailable here: tcp: no usable network interface matches 'nosuch0'",
                fails("run", "-n", "2", "--env", "FERRY_TCP_INTERFACES=nosuch0", "--drivers", "tcp", "--example", "hello"));
        String noTcp = fails("run", "-n", "2", "--ranks-per-node", "1", "--env", "FERRY_TCP_INTERFACES=nosuch0", "--example", "hello");
        assertTrue(noTcp.startsWith("ferry run: no selected driver reaches ranks on different nodes")
                && noTcp.contains("tcp: no usable network interface matches 'nosuch0'"), noTcp);
    }

    @Test
    void moreRanksThanTheHostCanStartAreRefused() {
        String huge = fails("run", "-n", "100000", "--example", "hello");
        assertTrue(huge.startsWith("ferry run: -n 100000 is more than this host can start"), huge);
        int cap = Preflight.RANKS_PER_CORE * Runtime.getRuntime().availableProcessors();
        assertEquals("ferry run: -n " + (cap + 1) + " is more than 32 ranks per core on this host's "
                + Runtime.getRuntime().availableProcessors() + " cores (" + cap + "); --oversubscribe starts them anyway",
                fails("run", "-n", String.valueOf(cap + 1), "--example", "hello"));
        try { // past the cap with --oversubscribe: only memory and the process limit still bound it
            Preflight.ranks(cap + 1, true);
        } catch (Program.UsageError e) {
            assertTrue(e.getMessage().contains("more than this host can start"), e.getMessage());
        }
    }

    @Test
    void debugShowsTheTraceBehindTheLine() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(List.of("run", "-n", "2", "--debug", "--env", "FERRY_RNDV_PULL=1", "--example", "hello"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals("ferry run: FERRY_RNDV_PULL must be on or off, not '1'", lines.get(0));
        assertTrue(lines.size() > 3 && lines.get(1).startsWith("java.lang.IllegalArgumentException") && lines.get(2).strip().startsWith("at dev.ferry.core.config.EngineSettings"), lines.toString());
    }
}
