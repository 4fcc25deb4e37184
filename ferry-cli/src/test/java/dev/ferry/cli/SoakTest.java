package dev.ferry.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ferry soak} for real: four JVMs, two played nodes (shm within, tcp between), random
 * checksummed point-to-point and one-sided traffic; for seconds on end nothing lost, duplicated,
 * corrupted or reordered; with chaos, a rank killed in each phase and every survivor told within
 * the bound, nothing left behind.
 */
class SoakTest {
    private static String soak(int expectedExit, String... args) {
        String o = soakLines(expectedExit, args);
        List<String> lines = o.strip().lines().toList();
        assertEquals(3, lines.size(), o); // the point-to-point phase, the one-sided phase, all
        assertTrue(lines.get(0).contains("\"phase\":\"p2p\"") && lines.get(1).contains("\"phase\":\"rma\""), o);
        int agentAt = List.of(args).indexOf("--agent");
        String agent = agentAt < 0 ? "off" : args[agentAt + 1];
        // what the point-to-point traffic went over: shm within a played node, tcp or the node agents between
        assertTrue(lines.get(0).contains(agent.equals("on") ? "\"rails\":\"agent shm\"" : "\"rails\":\"shm tcp\""), lines.get(0));
        return lines.get(2);
    }

    /**
     * Eight seconds in CI: 3,700 to 14,700 messages (0.6 to 2.4 GB) as the shared machine allows
     * (`ferry soak --duration` runs longer ones). The floor says real traffic flowed; it is not a
     * speed target (4,000 failed once on a busy machine, with nothing lost).
     */
    @ParameterizedTest(name = "FERRY_AGENT={0}")
    @ValueSource(strings = {"off", "on"})
    void eightSecondsOfRandomTrafficLoseNothing(String agent) {
        String json = soak(0, "soak", "-n", "4", "--ranks-per-node", "2", "--duration", "8", "--seed", "7", "--agent", agent, "--format", "json");
        assertTrue(json.contains("\"lost\":0,\"duplicated\":0,\"corrupted\":0,\"reordered\":0"), json);
        assertTrue(json.contains("\"left\":0,\"ok\":true"), json);
        long messages = Long.parseLong(json.replaceAll(".*\"messages\":(\\d+).*", "$1"));
        assertTrue(messages > 1_000, json);
    }

    @ParameterizedTest(name = "FERRY_AGENT={0}")
    @ValueSource(strings = {"off", "on"})
    void aKilledRankIsReportedByEverySurvivorAndLeavesNothing(String agent) {
        String json = soak(0, "soak", "-n", "4", "--ranks-per-node", "2", "--duration", "6", "--seed", "11", "--chaos", "--agent", agent, "--format", "json");
        assertTrue(json.contains("\"chaos\":true") && json.contains("\"left\":0,\"ok\":true"), json);
        long slowest = Long.parseLong(json.replaceAll(".*\"slowest_report_ms\":(-?\\d+).*", "$1"));
        assertTrue(slowest >= 0 && slowest <= SoakCommand.REPORT_BOUND.toMillis(), json);
    }

    /**
     * Three ranks of six killed one after another (some while the survivors recover from the one
     * before): the survivors revoke, agree and shrink, reach the end with every round they held
     * checked byte by byte, and nothing is left.
     */
    @ParameterizedTest(name = "FERRY_AGENT={0}")
    @ValueSource(strings = {"off", "on"})
    void survivorsRecoverFromKilledRanksAndGoOnToTheEnd(String agent) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(List.of("soak", "-n", "6", "--ranks-per-node", "2", "--duration", "8", "--seed", "12", "--chaos", "--recover",
                "--kills", "3", "--agent", agent, "--format", "json"), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String json = out.toString(StandardCharsets.UTF_8).strip();
        System.out.println(json);
        assertEquals(0, code, json + err.toString(StandardCharsets.UTF_8));
        assertEquals(1, json.lines().count(), json); // the recover phase alone
        assertTrue(json.contains("\"phase\":\"recover\"") && json.contains("\"corrupted\":0,\"reordered\":0"), json);
        assertTrue(json.contains("\"left\":0,\"ok\":true"), json);
        assertTrue(Long.parseLong(json.replaceAll(".*\"rounds_held\":(\\d+).*", "$1")) > 10, json);
        assertTrue(Long.parseLong(json.replaceAll(".*\"rounds_dropped\":(\\d+).*", "$1")) >= 1, json);
    }

    /**
     * Connections closing while idle (5 ms, the ranks pausing together now and then) and capped at
     * two per driver (some 100 closed idle and 40 evicted in 4 s), over shm and tcp at once: every message still whole, once and in order, and
     * connections really were closed and reopened. With one shm ring per rank, each reopened
     * connection takes the ring or the shared queue, whichever is free then.
     */
    @ParameterizedTest(name = "FERRY_SHM_RINGS={0}")
    @ValueSource(strings = {"all", "1"})
    void idleCloseAndACapOfTwoLoseNothing(String shmRings) {
        String out = soakLines(0, "soak", "-n", "8", "--ranks-per-node", "4", "--duration", "4", "--seed", "13",
                "--idle-close", "5ms", "--max-connections", "2", "--shm-rings", shmRings, "--format", "json");
        String p2p = out.lines().filter(l -> l.contains("\"phase\":\"p2p\"")).findFirst().orElseThrow();
        assertTrue(Long.parseLong(p2p.replaceAll(".*\"closed_idle\":(\\d+).*", "$1")) > 10, p2p);
        assertTrue(Long.parseLong(p2p.replaceAll(".*\"evicted\":(\\d+).*", "$1")) > 10, p2p);
        String all = out.strip().lines().reduce((a, b) -> b).orElseThrow();
        assertTrue(all.contains("\"lost\":0,\"duplicated\":0,\"corrupted\":0,\"reordered\":0") && all.contains("\"left\":0,\"ok\":true"), all);
    }

    /**
     * A rank killed while connections close and reopen all the time, shm peers sending through
     * shared queues: every survivor still hears of it within the bound.
     */
    @Test
    void aRankKilledWhileConnectionsCloseAndReopenIsReportedByEverySurvivor() {
        String all = soak(0, "soak", "-n", "4", "--ranks-per-node", "2", "--duration", "5", "--seed", "7", "--chaos",
                "--idle-close", "5ms", "--max-connections", "1", "--shm-rings", "0", "--format", "json");
        assertTrue(all.contains("\"chaos\":true") && all.contains("\"left\":0,\"ok\":true"), all);
        long slowest = Long.parseLong(all.replaceAll(".*\"slowest_report_ms\":(-?\\d+).*", "$1"));
        assertTrue(slowest >= 0 && slowest <= SoakCommand.REPORT_BOUND.toMillis(), all);
    }

    private static String soakLines(int expectedExit, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8);
        assertEquals(expectedExit, code, o + err.toString(StandardCharsets.UTF_8));
        System.out.print(o);
        return o;
    }

    @Test
    void badOptionsAreOneLine() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(List.of("soak", "--duration", "0"), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertEquals("ferry soak: --duration must be between 1 and 604800, not 0", err.toString(StandardCharsets.UTF_8).strip());
        err.reset();
        code = Main.run(List.of("soak", "--recover"), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertEquals("ferry soak: --recover recovers from --chaos: give both", err.toString(StandardCharsets.UTF_8).strip());
        err.reset();
        code = Main.run(List.of("soak", "--idle-close", "5"), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertEquals("ferry soak: --idle-close: FERRY_IDLE_CLOSE must be a duration like 5ms, 2s or 1m (units us, ms, s, m), or off; not '5'",
                err.toString(StandardCharsets.UTF_8).strip());
        err.reset();
        code = Main.run(List.of("soak", "--shm-rings", "few"), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertEquals("ferry soak: --shm-rings must be a count of peers (0 or more), all or auto, not 'few'", err.toString(StandardCharsets.UTF_8).strip());
        err.reset();
        code = Main.run(List.of("soak", "--agent", "maybe"), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertEquals("ferry soak: --agent is on or off, not 'maybe'", err.toString(StandardCharsets.UTF_8).strip());
    }
}
