package dev.ferry.core.agent;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The agent a rank starts ({@link AgentLauncher}):
 * {@code SOCKET JOB-KEY CHANNELS IDLE-SECONDS [job] [link-idle-close=NANOS] [max-links=N]} (JOB-KEY
 * {@code -}: the first rank's, {@link Agent.Config#jobKey}), in the
 * foreground of a process of its own, until idle that long, or with {@code job} until the job's
 * last rank has left; then it removes its lock and log (a log with a warning stays). The link
 * options are the starting rank's FERRY_IDLE_CLOSE and FERRY_MAX_CONNECTIONS. ({@code ferry agent}
 * is the same agent for people.)
 */
public final class AgentMain {
    /** The JOB-KEY argument of an agent keyed by its first rank. */
    static final String FIRST_RANKS_KEY = "-";

    private AgentMain() {
    }

    /**
     * A session and process group of its own, before it listens: the agent serves the node's
     * ranks, not the process that started it, whose group may be ended as a whole when it ends
     * (Slurm ends a task prolog's group once the prolog exits; a launcher may end a rank's).
     */
    private static void leaveTheStartersSession() {
        if (dev.ferry.spi.Syscall.available()) {
            try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment errno = dev.ferry.spi.Syscall.errnoCapture(a);
                if (dev.ferry.spi.Syscall.call(errno, dev.ferry.spi.Syscall.number(dev.ferry.spi.Syscall.Call.SETSID), 0, 0, 0, 0, 0, 0) < 0) {
                    System.err.println("agent: setsid failed (errno " + dev.ferry.spi.Syscall.errno(errno) + "); it stays in its starter's session");
                }
            }
        }
    }

    public static void main(String[] args) {
        leaveTheStartersSession();
        boolean job = false;
        long idleClose = 0;
        int maxLinks = 0;
        boolean ok = args.length >= 4;
        for (int i = 4; ok && i < args.length; i++) {
            if (args[i].equals("job")) {
                job = true;
            } else if (args[i].startsWith("link-idle-close=")) {
                idleClose = Long.parseLong(args[i].substring("link-idle-close=".length()));
            } else if (args[i].startsWith("max-links=")) {
                maxLinks = Integer.parseInt(args[i].substring("max-links=".length()));
            } else {
                ok = false;
            }
        }
        if (!ok) {
            System.err.println("usage: AgentMain SOCKET JOB-KEY CHANNELS IDLE-SECONDS [job] [link-idle-close=NANOS] [max-links=N]");
            System.exit(2);
        }
        Agent.Config c = new Agent.Config(Path.of(args[0]), args[1].equals(FIRST_RANKS_KEY) ? null : args[1]).withChannels(Path.of(args[2])).withIdleExit(Duration.ofSeconds(Long.parseLong(args[3])))
                .withEndWithJob(job).withLinks(Duration.ofNanos(idleClose), maxLinks);
        try (Agent a = Agent.start(c)) {
            // ended by a signal (a launcher ending the job): the loop ends and frees the ranks' files
            Runtime.getRuntime().addShutdownHook(new Thread(a::close, "ferry-agent-close"));
            System.out.println("agent " + ProcessHandle.current().pid() + " listening at " + c.socket() + ", for other nodes' agents at " + a.linkAddress());
            a.run();
            System.out.println("agent " + ProcessHandle.current().pid() + " ended after serving " + a.admitted() + " rank(s)");
        } catch (AgentException e) {
            System.err.println("agent: " + e.getMessage());
            System.exit(1);
        }
        if (job) { // a clean end: nothing of the job's stays on the node
            try {
                java.nio.file.Files.deleteIfExists(c.socket().resolveSibling(c.socket().getFileName() + ".lock"));
                java.nio.file.Path log = c.socket().resolveSibling(c.socket().getFileName() + ".log");
                if (java.nio.file.Files.exists(log) && java.nio.file.Files.readAllLines(log).stream().noneMatch(l -> l.startsWith("WARNING") || l.startsWith("SEVERE"))) {
                    java.nio.file.Files.delete(log); // nothing went wrong: nothing to read
                }
            } catch (java.io.IOException e) {
                System.err.println("agent: could not remove its files: " + e);
            }
        }
    }
}
