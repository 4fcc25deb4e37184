package dev.ferry.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ferry info inside a job, as a user runs it (the README's first command, ferry demo, is ReadmeTest's). */
class EngineCommandsTest {
    private record Run(int code, String out, String err) {
    }

    private static Run ferry(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void infoInsideAJobShowsTheRailsPerKindOfPeerAndTheCollectivesAlgorithms() {
        Run r = ferry("run", "-n", "4", "--ranks-per-node", "2", "--env", "FERRY_TCP_INTERFACES=lo", "--env", "FERRY_INFO=1", "info");
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().contains("self      (1 peer): rails self"), r.out());
        assertTrue(r.out().contains("same node (1 peer): rails shm"), r.out());
        assertTrue(r.out().contains("remote    (2 peers): rails tcp"), r.out());
        assertTrue(r.out().contains("rendezvous"), r.out());
        assertTrue(r.out().contains("allreduce       recursive_doubling; linear"), r.out()); // the collectives' algorithms
        // FERRY_INFO=1: every rank logs the same table at start
        assertEquals(4, r.err().lines().filter(l -> l.contains("rails shm")).count(), r.err());
    }
}
