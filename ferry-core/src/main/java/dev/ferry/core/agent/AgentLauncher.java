package dev.ferry.core.agent;

import dev.ferry.spi.IdleStrategy;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the node's agent, or starts one (as an Aeron client may launch its media driver): the
 * first rank of a node to look starts it as a process of its own, detached, which ends by itself
 * once no rank has used it for its idle time; the node's other ranks, looking at the same time,
 * wait for that one rather than start their own (a lock file beside the socket decides who
 * starts).
 *
 * <pre>{@code
 * AgentClient agent = AgentLauncher.connectOrStart(Path.of("/tmp/ferry-agent-job42.sock"), "job42",
 *         Path.of("/dev/shm"), Duration.ofSeconds(30), Duration.ofSeconds(10));
 * }</pre>
 */
public final class AgentLauncher {
    private static final System.Logger LOG = System.getLogger(AgentLauncher.class.getName());

    private AgentLauncher() {
    }

    /**
     * A connection to the agent at {@code socket}, started first if none answers; {@code bound}
     * limits the whole wait, {@code idleExit} is how long a started agent outlives its last rank.
     *
     * @throws AgentException when no agent answers within the bound, or the one there refuses
     */
    public static AgentClient connectOrStart(Path socket, String jobKey, Path channels, Duration bound, Duration idleExit) {
        return connectOrStart(socket, jobKey, channels, bound, idleExit, false);
    }

    /**
     * As {@link #connectOrStart(Path, String, Path, Duration, Duration)}; with {@code endWithJob} a
     * started agent ends once the job's last rank has left, and removes its files.
     */
    public static AgentClient connectOrStart(Path socket, String jobKey, Path channels, Duration bound, Duration idleExit, boolean endWithJob) {
        return connectOrStart(socket, jobKey, channels, bound, idleExit, endWithJob, Duration.ZERO, 0);
    }

    /**
     * As {@link #connectOrStart(Path, String, Path, Duration, Duration, boolean)}; an agent it
     * starts closes its links to other nodes' agents when idle for {@code linkIdleClose} (zero:
     * never) and keeps at most {@code maxLinks} open (0: any number).
     */
    public static AgentClient connectOrStart(Path socket, String jobKey, Path channels, Duration bound, Duration idleExit, boolean endWithJob,
                                             Duration linkIdleClose, int maxLinks) {
        long start = System.nanoTime(), end = start + bound.toNanos();
        AgentException last = null;
        Path lock = socket.resolveSibling(socket.getFileName() + ".lock");
        while (System.nanoTime() < end) {
            try {
                return AgentClient.connect(socket, jobKey, bound);
            } catch (AgentException e) {
                if (e.error() != AgentError.ABSENT) {
                    throw e; // one answered, and refused
                }
                last = e;
            }
            try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock held = tryLock(ch)) {
                if (held != null && !Agent.answers(socket)) {
                    Process p = start(socket, jobKey, channels, idleExit, endWithJob, linkIdleClose, maxLinks, thisJvm(), System.getProperty("java.class.path"));
                    awaitListening(p, socket, end);
                }
            } catch (IOException e) {
                throw new AgentException("cannot take " + lock + " to start the node's agent: " + e.getMessage());
            }
            // another rank is starting it, or it has just started: look again after an idle step
            long now = System.nanoTime();
            IdleStrategy.DEFAULT.idle(now - start, end - now);
        }
        throw new AgentException("no agent answered at " + socket + " within " + bound + (last == null ? "" : " (" + last.getMessage() + ")"));
    }

    /** The lock, or null when another process or thread of this one holds it. */
    private static FileLock tryLock(FileChannel ch) throws IOException {
        try {
            return ch.tryLock();
        } catch (java.nio.channels.OverlappingFileLockException e) {
            return null;
        }
    }

    /**
     * Starts the node's agent for a job before its ranks (a launcher's part: {@link AgentNodeService}),
     * with the ranks' java, JVM options and class path ({@code jvm}, {@code classPath}), to end
     * with the job. The lock beside the socket is taken at once and held until the agent listens,
     * on a thread of its own while the ranks start: a rank that looks meanwhile waits for this
     * agent rather than start one. Null when an agent answers there already, or another process
     * holds the lock (it is starting one). A null {@code jobKey} makes an agent keyed by its first
     * rank ({@link Agent.Config#jobKey}).
     *
     * @throws IOException when the lock cannot be taken or the process not started
     */
    public static Started startForJob(Path socket, String jobKey, Path channels, Duration bound, Duration idleExit, Duration linkIdleClose, int maxLinks,
                                      List<String> jvm, String classPath) throws IOException {
        if (Agent.answers(socket)) {
            return null;
        }
        Path lock = socket.resolveSibling(socket.getFileName() + ".lock");
        FileChannel ch = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock held;
        try {
            held = tryLock(ch);
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        if (held == null || Agent.answers(socket)) {
            ch.close();
            return null;
        }
        Process p;
        try {
            p = start(socket, jobKey, channels, idleExit, true, linkIdleClose, maxLinks, jvm, classPath);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        long end = System.nanoTime() + bound.toNanos();
        Thread listening = Thread.ofPlatform().daemon().name("ferry-agent-start").start(() -> {
            try (ch) {
                awaitListening(p, socket, end);
            } catch (AgentException | IOException e) {
                // the ranks, finding none, start their own (or say why they cannot)
                LOG.log(System.Logger.Level.WARNING, "the agent started for the job at {0} does not listen: {1}", socket, e.getMessage());
            }
        });
        return new Started(p, socket, channels, listening);
    }

    /** An agent a launcher started for its node's ranks ({@link #startForJob}). */
    public static final class Started {
        private final Process process;
        private final Path socket;
        /** Where the agent makes its ranks' ring files ({@code ferry-agent-PID-...}). */
        private final Path channels;
        private final Thread listening;

        Started(Process process, Path socket, Path channels, Thread listening) {
            this.process = process;
            this.socket = socket;
            this.channels = channels;
            this.listening = listening;
        }

        public long pid() {
            return process.pid();
        }

        public Path socket() {
            return socket;
        }

        /** Whether the agent's process still runs. */
        public boolean alive() {
            return process.isAlive();
        }

        /** Where the agent's output goes: its log, beside its socket. */
        public Path log() {
            return logOf(socket);
        }

        /**
         * After the ranks have ended: the agent ends by itself once the last has left (it sees
         * their sockets close); one still there after {@code bound} (no rank ever came: a job
         * that failed before the wire-up) is ended by SIGTERM, then SIGKILL.
         */
        public void end(Duration bound) {
            try {
                listening.join(Math.max(1, bound.toMillis()));
                if (!process.waitFor(bound.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    process.destroy();
                    if (!process.waitFor(2, java.util.concurrent.TimeUnit.SECONDS)) {
                        process.destroyForcibly();
                    }
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            if (!process.isAlive()) {
                removeRings();
            }
        }

        /**
         * Removes the ring files of this agent, which ended: one that died (SIGKILL) leaves those
         * of ranks that ended before they could remove them themselves.
         */
        private void removeRings() {
            String prefix = "ferry-agent-" + process.pid() + "-";
            try (var files = java.nio.file.Files.list(channels)) {
                for (Path f : files.filter(f -> f.getFileName().toString().startsWith(prefix)).toList()) {
                    java.nio.file.Files.deleteIfExists(f);
                }
            } catch (java.io.IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "the ring files of agent {0} in {1} stay: {2}", String.valueOf(process.pid()), channels, e.toString());
            }
        }
    }

    /** Starts {@link AgentMain} in a JVM of its own ({@code jvm}: java and its options), its output to a log beside the socket. */
    private static Process start(Path socket, String jobKey, Path channels, Duration idleExit, boolean endWithJob, Duration linkIdleClose, int maxLinks,
                                 List<String> jvm, String classPath) throws IOException {
        List<String> cmd = new ArrayList<>(jvm);
        cmd.add("--enable-native-access=ALL-UNNAMED");
        // The client compiler only, as bin/ferry runs the daemon: the agent's Java is a relay between
        // system calls and copies, and the server compiler's work (a third of a job agent's CPU)
        // competes with the node's ranks for the cores while the job starts.
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.addAll(List.of("-cp", classPath, AgentMain.class.getName(), socket.toString(), jobKey == null ? AgentMain.FIRST_RANKS_KEY : jobKey, channels.toString(),
                Long.toString(Math.max(1, idleExit.toSeconds()))));
        if (endWithJob) {
            cmd.add("job");
        }
        if (!linkIdleClose.isZero()) {
            cmd.add("link-idle-close=" + linkIdleClose.toNanos());
        }
        if (maxLinks > 0) {
            cmd.add("max-links=" + maxLinks);
        }
        Path log = logOf(socket);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        LOG.log(System.Logger.Level.DEBUG, "started the node''s agent, process {0}, at {1} (log {2})", String.valueOf(p.pid()), socket, log);
        return p;
    }

    /**
     * The ahead-of-time cache this rank's JVM maps ({@code -XX:AOTCache}, as {@code ferry run} and
     * the test jobs give their ranks), for the agent too: it runs on the same class path, and much
     * of what it loads (the memory, system-call and ring classes) the ranks load as well, so it
     * listens sooner (350 ms from its start here, against 420). None when this JVM maps none.
     */
    private static List<String> aheadOfTimeCache() {
        return dev.ferry.launch.run.AotCache.optionsOfCacheIn(List.of(ProcessHandle.current().info().arguments().orElse(new String[0])));
    }

    /** This process's java with its ahead-of-time cache: what an agent started from here runs on (with this class path). */
    static List<String> thisJvm() {
        List<String> jvm = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java")));
        jvm.addAll(aheadOfTimeCache());
        return jvm;
    }

    /** The log of the agent at {@code socket}: its output, beside the socket. */
    static Path logOf(Path socket) {
        return socket.resolveSibling(socket.getFileName() + ".log");
    }

    /** Waits until the started agent listens (or dies: its log says why). */
    private static void awaitListening(Process p, Path socket, long end) {
        IdleStrategy.DEFAULT.await(() -> !p.isAlive() || Files.exists(socket) && Agent.answers(socket), Math.max(0, end - System.nanoTime()));
        if (!p.isAlive() && !Agent.answers(socket)) {
            throw new AgentException("the agent started at " + socket + " ended at once (exit " + p.exitValue() + "; see "
                    + logOf(socket) + ")");
        }
    }
}
