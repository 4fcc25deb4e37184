package dev.ferry.core.agent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Slurm's task prolog, as slurmstepd runs it for each task of a node: one agent started for the
 * step, which takes the key of the first rank to greet it and ends with the step; lines Slurm
 * reads; clear errors outside Slurm or with a setting the ranks would refuse.
 */
class SlurmTaskPrologTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private Map<String, String> env(String... more) {
        Map<String, String> e = new HashMap<>(Map.of("SLURM_JOB_ID", "42", "SLURM_STEP_ID", "0", "SLURMD_NODENAME", "n1",
                "FERRY_AGENT_SOCKET", dir.resolve("step.sock").toString(), "FERRY_STATS", "on"));
        for (int i = 0; i < more.length; i += 2) {
            e.put(more[i], more[i + 1]);
        }
        return e;
    }

    private static List<String> prolog(Map<String, String> env) {
        try {
            return SlurmTaskProlog.run(env);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theNodesTasksStartOneAgentKeyedByTheFirstRankWhichEndsWithTheStep() throws Exception {
        Path socket = dir.resolve("step.sock");
        java.util.concurrent.Executor ownThread = r -> Thread.ofPlatform().daemon().start(r); // both at once
        CompletableFuture<List<String>> a = CompletableFuture.supplyAsync(() -> prolog(env()), ownThread);
        CompletableFuture<List<String>> b = CompletableFuture.supplyAsync(() -> prolog(env()), ownThread);
        List<String> all = new ArrayList<>();
        for (CompletableFuture<List<String>> task : List.of(a, b)) {
            List<String> lines = task.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertEquals(List.of("export FERRY_AGENT=on", "export FERRY_AGENT_SOCKET=" + socket), lines.subList(0, 2), lines.toString());
            all.addAll(lines.subList(2, lines.size()));
        }
        assertEquals(1, all.size(), "one task started the agent and says so: " + all);
        assertTrue(all.get(0).matches("print ferry: agent process \\d+ started for node n1 by the task prolog"), all.get(0));
        long pid = Long.parseLong(all.get(0).split(" ")[4]);
        assertTrue(Agent.answers(socket), "it listens before the tasks start");

        try (AgentClient rank = AgentClient.connect(socket, "key drawn by rank 0", BOUND)) {
            assertEquals(pid, rank.agentPid(), "the rank uses the prolog's agent");
            AgentException other = assertThrows(AgentException.class, () -> AgentClient.connect(socket, "another job's key", BOUND));
            assertTrue(other.getMessage().contains("the job key differs"), other.getMessage());
            assertEquals(7, rank.ping(7));
        }
        ProcessHandle.of(pid).ifPresent(h -> assertDoesNotThrow(() -> h.onExit().get(BOUND.toSeconds(), TimeUnit.SECONDS),
                "the step's last rank has left: the agent ends"));
        assertFalse(Files.exists(socket), "its socket removed");
        String log = Files.readString(dir.resolve("step.sock.log")); // kept: it holds the refusal
        assertTrue(log.contains("WARNING: agent: refused process") && log.contains("the job key differs"), log);
        assertTrue(log.contains("ended after serving 1 rank(s)"), log);
    }

    @Test
    void outsideSlurmOrWithASettingTheRanksWouldRefuseItSaysWhy() throws Exception {
        IOException outside = assertThrows(IOException.class, () -> SlurmTaskProlog.run(Map.of()));
        assertTrue(outside.getMessage().contains("SLURM_JOB_ID"), outside.getMessage());
        IOException bad = assertThrows(IOException.class, () -> SlurmTaskProlog.run(env("FERRY_AGENT", "maybe")));
        assertTrue(bad.getMessage().contains("FERRY_AGENT: 'maybe'"), bad.getMessage());
        assertEquals(List.of(), SlurmTaskProlog.run(env("FERRY_AGENT", "off")), "agent mode off by the user: nothing said, nothing started");
        assertFalse(Files.exists(dir.resolve("step.sock")));
    }
}
