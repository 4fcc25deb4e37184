package dev.ferry.core.agent;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** An {@link AgentPeers} program in a JVM of its own, talked to by lines; every read has a bound. */
final class Peer implements AutoCloseable {
    static final Duration BOUND = Duration.ofSeconds(30);

    private final Process process;
    private final BufferedReader out;
    private final PrintWriter in;

    Peer(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), AgentPeers.class.getName()));
        cmd.addAll(List.of(args));
        process = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        out = new BufferedReader(new InputStreamReader(process.getInputStream()));
        in = new PrintWriter(process.getOutputStream(), true);
    }

    /** The next line it says, within the bound. */
    String line() throws Exception {
        String l = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).get(BOUND.toSeconds(), TimeUnit.SECONDS);
        if (l == null) {
            throw new AssertionError("the peer ended without a word (exit " + process.waitFor() + ")");
        }
        return l;
    }

    /** Says {@code line} and returns its answer. */
    String ask(String line) throws Exception {
        in.println(line);
        return line();
    }

    long pid() {
        return process.pid();
    }

    /** Kills it (SIGKILL, as a crash) and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError("the peer did not die");
        }
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
