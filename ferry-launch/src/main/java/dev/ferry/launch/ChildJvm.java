package dev.ferry.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A child JVM started with this JVM's {@code java} and class path, driven through a line-based
 * control channel: lines to its standard input, answers from its standard output marked with
 * {@link #MARK} (anything else it prints is passed through to this process's standard error,
 * so a stray print can never be taken for an answer). Every read is bounded. Children still
 * running when this JVM exits are killed.
 *
 * <pre>{@code
 * try (ChildJvm peer = ChildJvm.builder("dev.ferry.bench.BenchPeer").args("ref-nio").start()) {
 *     String port = peer.readAnswer(Duration.ofSeconds(30));   // the child called ChildJvm.answer(port)
 *     peer.send("exit");
 * }
 * }</pre>
 */
public final class ChildJvm implements AutoCloseable {
    /** Prefix of an answer line on the child's standard output. */
    public static final String MARK = "@ ";

    /**
     * JVM options for a process that launches and relays rather than computes ({@code ferry run},
     * a host's proxy; {@code bin/ferry} gives the same): the client compiler and the serial
     * collector start it at two thirds of the CPU, which the job's ranks on the same cores get.
     */
    public static final List<String> RELAY_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final ExecutorService READERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "child-jvm-reader");
        t.setDaemon(true);
        return t;
    });

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "child-jvm-reaper"));
    }

    private final Process process;
    private final BufferedReader out;
    private final Writer in;
    private final String name;

    private ChildJvm(Process process, String name) {
        this.process = process;
        this.name = name;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        LIVE.add(process);
    }

    /** In the child: writes one answer line for the parent. */
    public static void answer(String line) {
        PrintStream o = System.out;
        synchronized (o) {
            o.print(MARK + line + "\n");
            o.flush();
        }
    }

    /** The {@code java} executable of this JVM. */
    public static Path javaExecutable() {
        return ProcessHandle.current().info().command().map(Path::of)
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java"));
    }

    public static Builder builder(String mainClass) {
        return new Builder(mainClass);
    }

    /** Options for a child JVM. */
    public static final class Builder {
        private final String mainClass;
        private final List<String> args = new ArrayList<>();
        private final List<String> jvmOptions = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED"));
        private final Map<String, String> env = new LinkedHashMap<>();
        private final List<String> prefix = new ArrayList<>();
        private String classPath = System.getProperty("java.class.path");

        private Builder(String mainClass) {
            this.mainClass = mainClass;
        }

        public Builder args(String... a) {
            args.addAll(List.of(a));
            return this;
        }

        public Builder args(List<String> a) {
            args.addAll(a);
            return this;
        }

        public Builder jvmOptions(List<String> o) {
            jvmOptions.addAll(o);
            return this;
        }

        public Builder env(String key, String value) {
            env.put(key, value);
            return this;
        }

        public Builder classPath(String cp) {
            classPath = cp;
            return this;
        }

        /** A command the JVM is started under, e.g. {@code ip netns exec NS}. */
        public Builder prefix(List<String> command) {
            prefix.addAll(command);
            return this;
        }

        public ChildJvm start() {
            List<String> cmd = new ArrayList<>(prefix);
            cmd.add(javaExecutable().toString());
            cmd.addAll(jvmOptions);
            cmd.add("-cp");
            cmd.add(classPath);
            cmd.add(mainClass);
            cmd.addAll(args);
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
            pb.environment().putAll(env);
            try {
                return new ChildJvm(pb.start(), mainClass + " " + String.join(" ", args));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start a child JVM: " + cmd, e);
            }
        }
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Writes one line to the child's standard input. */
    public void send(String line) {
        try {
            in.write(line + "\n");
            in.flush();
        } catch (IOException e) {
            throw new IllegalStateException("child JVM '" + name + "' is gone (exit " + exitDescription() + "); could not send '" + line + "'", e);
        }
    }

    /** The next answer line, without its mark; throws when the child exits or stays silent past {@code timeout}. */
    public String readAnswer(Duration timeout) {
        Future<String> f = READERS.submit(() -> {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(MARK)) {
                    return line.substring(MARK.length());
                }
                System.err.println("[" + process.pid() + "] " + line);
            }
            return null;
        });
        try {
            String line = f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (line == null) {
                throw new IllegalStateException("child JVM '" + name + "' exited (status " + exitDescription() + ") without answering");
            }
            return line;
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new IllegalStateException("child JVM '" + name + "' did not answer within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for child JVM '" + name + "'", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("reading child JVM '" + name + "'", e.getCause());
        }
    }

    /** {@link #send} then {@link #readAnswer}. */
    public String call(String line, Duration timeout) {
        send(line);
        return readAnswer(timeout);
    }

    private String exitDescription() {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? String.valueOf(process.exitValue()) : "still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** SIGKILL, then waits for the process to be gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("child JVM " + process.pid() + " survived SIGKILL for 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LIVE.remove(process);
    }

    /** Closes its standard input (a well-behaved child exits), waits up to 10 s, then kills it. */
    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException ignored) {
            // the child is gone already
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
        }
        LIVE.remove(process);
    }

    /** Exit status after the child ended; waits at most {@code timeout}. */
    public int waitFor(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("child JVM '" + name + "' still running after " + timeout.toMillis() + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        LIVE.remove(process);
        return process.exitValue();
    }
}
