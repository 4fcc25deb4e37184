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

    /**
     * A launcher starts the agent before its ranks: a rank looking while it still starts waits for
     * that one (the launcher holds the lock until it listens) rather than start its own; the agent
     * ends by itself once the job's ranks have left, removing its lock and log; a second start
     * for the same socket starts nothing.
     */
    @Test
    void anAgentALauncherStartsServesTheRanksAndEndsWithTheJob() throws Exception {
        Path socket = dir.resolve("job.sock");
        java.util.List<String> jvm = java.util.List.of(ProcessHandle.current().info().command().orElseThrow());
        String cp = System.getProperty("java.class.path");
        AgentLauncher.Started started = AgentLauncher.startForJob(socket, "job", dir, BOUND, Duration.ofSeconds(30), Duration.ZERO, 0, jvm, cp);
        assertNotNull(started);
        try (AgentClient rank = AgentLauncher.connectOrStart(socket, "job", dir, BOUND, Duration.ofSeconds(30))) { // at once: it may not listen yet
            assertEquals(started.pid(), rank.agentPid(), "the rank uses the launcher's agent");
            assertNull(AgentLauncher.startForJob(socket, "job", dir, BOUND, Duration.ofSeconds(30), Duration.ZERO, 0, jvm, cp), "one answers already");
            assertEquals(5, rank.ping(5));
        }
        ProcessHandle.of(started.pid()).ifPresent(h -> assertDoesNotThrow(() -> h.onExit().get(BOUND.toSeconds(), TimeUnit.SECONDS),
                "the job's last rank has left: the agent ends"));
        started.end(Duration.ofSeconds(1));
        assertFalse(Files.exists(dir.resolve("job.sock.lock")), "its lock removed");
        assertFalse(Files.exists(dir.resolve("job.sock.log")), "its log, with nothing wrong in it, removed");
    }

    /** An agent no rank ever reached (a job that failed before its wire-up) is ended by the launcher, not left to its idle time. */
    @Test
    void anAgentNoRankReachedIsEndedByTheLauncher() throws Exception {
        Path socket = dir.resolve("unused.sock");
        AgentLauncher.Started started = AgentLauncher.startForJob(socket, "job", dir, BOUND, Duration.ofSeconds(60), Duration.ZERO, 0,
                java.util.List.of(ProcessHandle.current().info().command().orElseThrow()), System.getProperty("java.class.path"));
        assertNotNull(started);
        long t0 = System.nanoTime();
        started.end(Duration.ofMillis(100));
        assertFalse(ProcessHandle.of(started.pid()).map(ProcessHandle::isAlive).orElse(false), "ended");
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(30), "within the launcher's bound, not the idle time of 60 s");
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
