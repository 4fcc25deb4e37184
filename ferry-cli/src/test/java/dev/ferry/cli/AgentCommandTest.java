package dev.ferry.cli;

import dev.ferry.core.agent.AgentClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** {@code ferry agent}: it serves a rank, ends by itself when idle, and says what is wrong with its arguments. */
class AgentCommandTest {
    @TempDir
    Path dir;

    @Test
    void servesARankAndEndsWhenIdle() throws Exception {
        Path socket = dir.resolve("a.sock");
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        CompletableFuture<Integer> agent = CompletableFuture.supplyAsync(() -> AgentCommand.run(List.of("--socket", socket.toString(), "--job-key", "k",
                "--channels", dir.toString(), "--idle-exit", "1"), new PrintStream(out, true), new PrintStream(err, true)));
        assertTrue(dev.ferry.spi.IdleStrategy.DEFAULT.await(() -> out.toString(StandardCharsets.UTF_8).contains("listening on"),
                Duration.ofSeconds(30).toNanos()), () -> "the agent did not start: " + err);
        try (AgentClient c = AgentClient.connect(socket, "k", Duration.ofSeconds(10))) {
            assertEquals(5, c.ping(5));
        }
        assertEquals(0, agent.get(30, TimeUnit.SECONDS), err.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("ended; it served 1 rank(s)"), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void badArgumentsAreNamed() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream e = new PrintStream(err, true);
        assertEquals(2, AgentCommand.run(List.of("--job-key", "k"), System.out, e));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--socket is needed"), err.toString(StandardCharsets.UTF_8));
        assertEquals(2, AgentCommand.run(List.of("--idle-exit", "soon"), System.out, e));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--idle-exit takes a whole number"), err.toString(StandardCharsets.UTF_8));
        assertEquals(1, AgentCommand.run(List.of("--socket", "/no/such/dir/a.sock", "--job-key", "k", "--channels", dir.toString()), System.out, e));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("cannot listen at /no/such/dir/a.sock"), err.toString(StandardCharsets.UTF_8));
    }
}
