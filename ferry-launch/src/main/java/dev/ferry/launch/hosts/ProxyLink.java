package dev.ferry.launch.hosts;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The launcher's end of one host's proxy: the process that runs it (ssh, or the proxy itself on
 * this host), its frames, and the last lines it wrote to its standard error (ssh's own complaints
 * among them), which name the cause when the host fails.
 */
final class ProxyLink {
    private static final int ERROR_LINES = 20;

    final String host;
    final List<Integer> ranks;
    private final Process process;
    private final DataOutputStream out;
    private final DataInputStream in;
    private final Deque<String> errors = new ArrayDeque<>();
    private final Thread errorReader;
    private volatile boolean closed;
    /** The proxy said it makes its host's ahead-of-time cache before it exits. */
    private volatile boolean training;
    /** How long a proxy that trains may take to end (the training job's own bound, and the cache's assembly). */
    private static final long TRAINING_MILLIS = 120_000;

    ProxyLink(String host, List<Integer> ranks, List<String> command) throws IOException {
        this.host = host;
        this.ranks = List.copyOf(ranks);
        ProcessBuilder pb = new ProcessBuilder(command);
        try {
            this.process = pb.start();
        } catch (IOException e) {
            throw new IOException("host " + host + ": cannot start " + command.get(0) + ": " + e.getMessage(), e);
        }
        this.out = ProxyWire.output(process.getOutputStream());
        this.in = ProxyWire.input(process.getInputStream());
        this.errorReader = Thread.ofPlatform().daemon().name("ferry-run-proxy-err-" + host).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (errors) {
                        if (errors.size() == ERROR_LINES) {
                            errors.removeFirst();
                        }
                        errors.addLast(line);
                    }
                }
            } catch (IOException ignored) {
                // ended
            }
        });
    }

    /** The next frame, or null at the end of the connection. */
    ProxyWire.Frame read() throws IOException {
        return ProxyWire.read(in);
    }

    /** Sends a frame; false when the proxy is gone. */
    boolean send(byte type, int rank, byte[] payload) {
        if (closed) {
            return false;
        }
        try {
            ProxyWire.write(out, type, rank, payload);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The rank's standard input on that host, as a stream; closing it ends the rank's input. */
    OutputStream stdin(int rank) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (len > 0 && !send(ProxyWire.STDIN, rank, java.util.Arrays.copyOfRange(b, off, off + len))) {
                    throw new IOException("host " + host + " is gone");
                }
            }

            @Override
            public void close() {
                send(ProxyWire.STDIN, rank, new byte[0]);
            }
        };
    }

    /** Ends the connection: the proxy ends its ranks and exits. */
    void close() {
        closed = true;
        synchronized (out) {
            try {
                out.close();
            } catch (IOException ignored) {
                // gone already
            }
        }
    }

    /** The proxy makes its host's ahead-of-time cache before it exits: its end may take longer. */
    void training() {
        training = true;
    }

    /**
     * Waits up to {@code millis} (longer for a proxy that said it trains, which it may say while
     * this waits) for the proxy's process to end, then kills it (the ssh client: the remote proxy
     * then sees its connection end).
     */
    void awaitEnd(long millis) {
        try {
            long start = System.nanoTime();
            while (!process.waitFor(100, TimeUnit.MILLISECONDS)) {
                if (System.nanoTime() - start > TimeUnit.MILLISECONDS.toNanos(training ? TRAINING_MILLIS : millis)) {
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                    break;
                }
            }
            errorReader.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** Kills the proxy's process at once (the launcher is being told to end). */
    void kill() {
        closed = true;
        process.destroyForcibly();
    }

    /**
     * Why the proxy ended before it said hello or before its ranks ended, from its exit status and
     * the last line on its standard error; the caller names the host.
     */
    String failure(String program) {
        awaitEnd(5000);
        String last;
        String all;
        synchronized (errors) {
            last = errors.isEmpty() ? "" : errors.getLast();
            all = String.join("\n", errors);
        }
        int status = process.isAlive() ? -1 : process.exitValue();
        if (all.contains("UnsupportedClassVersionError")) {
            return "the Java there is older than 25 (started by " + program + "); install a JDK 25 there (at the same path, or where its bin/ferry finds it)";
        }
        if (status == 127 || all.contains("No such file or directory") && all.contains(program)) {
            return "cannot run Ferry's proxy there (" + (last.isEmpty() ? "exit status 127" : last)
                    + "); Java 25 and Ferry must be at the same paths as here, or set --prefix / FERRY_HOME";
        }
        if (status == 255) {
            return "ssh failed: " + (last.isEmpty() ? "exit status 255" : last);
        }
        return "Ferry's proxy ended" + (status >= 0 ? " with status " + status : "")
                + (last.isEmpty() ? "" : ": " + last);
    }
}
