package dev.ferry.conformance;

import dev.ferry.spi.Driver;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The kit's handle on a {@link PeerAgent}: in a thread of this JVM, or in a child JVM that can be
 * killed with SIGKILL. Every call is bounded by {@link Transfers#TIMEOUT}.
 */
public abstract class PeerLink implements AutoCloseable {

    /** Sends one command and returns the answer after {@code ok}; fails on {@code err} or timeout. */
    public final String call(String command) {
        String answer = exchange(command);
        if (answer.startsWith("ok")) {
            return answer.substring(2).strip();
        }
        throw new AssertionError("peer answered '" + answer + "' to '" + command + "'");
    }

    protected abstract String exchange(String command);

    /** Kills the peer the hard way: SIGKILL for a process; for a thread, its contexts close without disconnecting. */
    public abstract void kill();

    /** True when the peer is a separate process. */
    public abstract boolean isProcess();

    /** Ends the peer in order. */
    @Override
    public abstract void close();

    /** A peer in a thread of this JVM. */
    public static PeerLink inThread(Driver driver) {
        return new ThreadLink(driver);
    }

    /**
     * A peer in a child JVM started with this JVM's java and class path.
     *
     * @param driverClass the driver's class, instantiated there with its no-argument constructor
     */
    public static PeerLink inProcess(Class<? extends Driver> driverClass, List<String> jvmOptions) {
        return new ProcessLink(driverClass, jvmOptions);
    }

    private static final class ThreadLink extends PeerLink {
        private final PeerAgent agent;
        private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "peer-agent");
            t.setDaemon(true);
            return t;
        });

        ThreadLink(Driver driver) {
            this.agent = new PeerAgent(driver);
        }

        @Override
        protected String exchange(String command) {
            Future<String> f = executor.submit(() -> agent.handle(command));
            try {
                return f.get(Transfers.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                f.cancel(true);
                throw new AssertionError("peer did not answer '" + command + "' within " + Transfers.TIMEOUT.toSeconds() + " s");
            } catch (Exception e) {
                throw new AssertionError("peer failed on '" + command + "'", e);
            }
        }

        @Override
        public void kill() {
            call("closeall");
        }

        @Override
        public boolean isProcess() {
            return false;
        }

        @Override
        public void close() {
            exchange("exit");
            executor.shutdownNow();
        }
    }

    private static final class ProcessLink extends PeerLink {
        private final Process process;
        private final BufferedReader out;
        private final Writer in;

        ProcessLink(Class<? extends Driver> driverClass, List<String> jvmOptions) {
            String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            List<String> cmd = new ArrayList<>();
            cmd.add(java);
            cmd.add("--enable-native-access=ALL-UNNAMED");
            cmd.addAll(jvmOptions);
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add(PeerMain.class.getName());
            cmd.add(driverClass.getName());
            try {
                process = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the peer JVM " + cmd, e);
            }
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            String hello = readAnswer("start");
            if (!hello.startsWith("ready")) {
                throw new AssertionError("peer JVM said '" + hello + "' instead of ready");
            }
        }

        /** The peer's process id. */
        long pid() {
            return process.pid();
        }

        @Override
        protected synchronized String exchange(String command) {
            try {
                in.write(command + "\n");
                in.flush();
            } catch (IOException e) {
                throw new AssertionError("peer JVM is gone (writing '" + command + "')", e);
            }
            return readAnswer(command);
        }

        private String readAnswer(String command) {
            // The read runs on a helper thread so that a silent peer cannot hang the test.
            Future<String> f = READER.submit(() -> {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith("@ ")) {
                        return line.substring(2);
                    }
                }
                return null;
            });
            try {
                String line = f.get(Transfers.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                if (line == null) {
                    throw new AssertionError("peer JVM exited (status " + waitExit() + ") before answering '" + command + "'");
                }
                return line;
            } catch (TimeoutException e) {
                f.cancel(true);
                throw new AssertionError("peer JVM did not answer '" + command + "' within " + Transfers.TIMEOUT.toSeconds() + " s");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new AssertionError("reading the peer's answer to '" + command + "'", e.getCause());
            }
        }

        private String waitExit() {
            try {
                return process.waitFor(5, TimeUnit.SECONDS) ? String.valueOf(process.exitValue()) : "still running";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "unknown";
            }
        }

        @Override
        public void kill() {
            process.destroyForcibly(); // SIGKILL on Linux
            try {
                if (!process.waitFor(Transfers.TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    throw new AssertionError("peer JVM " + process.pid() + " survived SIGKILL");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public boolean isProcess() {
            return true;
        }

        @Override
        public void close() {
            if (process.isAlive()) {
                try {
                    exchange("exit");
                } catch (AssertionError ignored) {
                    // already dying; destroyed below
                }
                try {
                    if (!process.waitFor(10, TimeUnit.SECONDS)) {
                        process.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    process.destroyForcibly();
                }
            }
        }

        private static final ExecutorService READER = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "peer-reader");
            t.setDaemon(true);
            return t;
        });
    }
}
