package dev.ferry.core.agent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** The first rank of a node to look starts its agent; the others use that one; it ends when idle. */
class AgentLauncherTest {
    static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void ranksLookingAtOnceStartOneAgentWhichEndsOnceIdle() throws Exception {
        Path socket = dir.resolve("node.sock");
        java.util.concurrent.Executor ownThread = r -> Thread.ofPlatform().daemon().start(r); // both at once (the common pool has one thread on 2 cores)
        CompletableFuture<AgentClient> a = CompletableFuture.supplyAsync(() -> AgentLauncher.connectOrStart(socket, "job", dir, BOUND, Duration.ofSeconds(1)), ownThread);
        CompletableFuture<AgentClient> b = CompletableFuture.supplyAsync(() -> AgentLauncher.connectOrStart(socket, "job", dir, BOUND, Duration.ofSeconds(1)), ownThread);
        AgentClient one = a.get(BOUND.toSeconds(), TimeUnit.SECONDS), two = b.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        long pid = one.agentPid();
        assertEquals(pid, two.agentPid(), "both use the one agent");
        assertNotEquals(ProcessHandle.current().pid(), pid, "a process of its own");
        assertEquals(3, one.ping(3));
        assertEquals(4, two.ping(4));
        one.close();
        two.close();
        ProcessHandle agent = ProcessHandle.of(pid).orElseThrow();
        agent.onExit().get(BOUND.toSeconds(), TimeUnit.SECONDS); // idle for a second, it ends
        String log = Files.readString(dir.resolve("node.sock.log"));
        assertEquals(1, log.lines().filter(l -> l.contains("listening at")).count(), log);
        assertTrue(log.contains("ended after serving 2 rank(s)"), log);
    }

    @Test
    void aRunningAgentIsUsedAndARefusalIsNotAReasonToStartAnother() throws Exception {
        Path socket = dir.resolve("running.sock");
        try (Agent running = Agent.start(new Agent.Config(socket, "job", AgentSocket.uid(), dir, 8, 256, Duration.ZERO, ChannelLayout.DEFAULT_RING_BYTES, null, false, Duration.ZERO, 0))) {
            Thread t = new Thread(running::run);
            t.setDaemon(true);
            t.start();
            try (AgentClient c = AgentLauncher.connectOrStart(socket, "job", dir, BOUND, Duration.ofSeconds(1))) {
                assertEquals(ProcessHandle.current().pid(), c.agentPid(), "the agent that runs here");
            }
            AgentException refused = assertThrows(AgentException.class, () -> AgentLauncher.connectOrStart(socket, "other", dir, BOUND, Duration.ofSeconds(1)));
            assertTrue(refused.getMessage().contains("another job"), refused.getMessage());
            assertFalse(Files.exists(dir.resolve("running.sock.log")), "no agent was started");
        }
    }
}
