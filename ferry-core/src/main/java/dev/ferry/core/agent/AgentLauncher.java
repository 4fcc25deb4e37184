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
                    Process p = start(socket, jobKey, channels, idleExit, endWithJob, linkIdleClose, maxLinks);
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

    /** Starts {@link AgentMain} in a JVM of its own (this one's java and class path), its output to a log beside the socket. */
    private static Process start(Path socket, String jobKey, Path channels, Duration idleExit, boolean endWithJob, Duration linkIdleClose, int maxLinks)
            throws IOException {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(aheadOfTimeCache());
        // The client compiler only, as bin/ferry runs the daemon: the agent's Java is a relay between
        // system calls and copies, and the server compiler's work (a third of a job agent's CPU)
        // competes with the node's ranks for the cores while the job starts.
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), AgentMain.class.getName(), socket.toString(), jobKey, channels.toString(),
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
        Path log = socket.resolveSibling(socket.getFileName() + ".log");
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
    private static final String CACHE_OPTION = "-XX:AOTCache=";

    private static List<String> aheadOfTimeCache() {
        String[] args = ProcessHandle.current().info().arguments().orElse(new String[0]);
        for (String a : args) {
            if (a.startsWith(CACHE_OPTION)) {
                return dev.ferry.launch.run.AotCache.jvmOptions(a.substring(CACHE_OPTION.length()));
            }
        }
        return List.of();
    }

    /** Waits until the started agent listens (or dies: its log says why). */
    private static void awaitListening(Process p, Path socket, long end) {
        IdleStrategy.DEFAULT.await(() -> !p.isAlive() || Files.exists(socket) && Agent.answers(socket), Math.max(0, end - System.nanoTime()));
        if (!p.isAlive() && !Agent.answers(socket)) {
            throw new AgentException("the agent started at " + socket + " ended at once (exit " + p.exitValue() + "; see "
                    + socket.resolveSibling(socket.getFileName() + ".log") + ")");
        }
    }
}
