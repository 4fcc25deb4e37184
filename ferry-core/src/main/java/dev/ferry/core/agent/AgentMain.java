package dev.ferry.core.agent;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The agent a rank starts ({@link AgentLauncher}):
 * {@code SOCKET JOB-KEY CHANNELS IDLE-SECONDS [job] [link-idle-close=NANOS] [max-links=N]}, in the
 * foreground of a process of its own, until idle that long, or with {@code job} until the job's
 * last rank has left; then it removes its lock and log (a log with a warning stays). The link
 * options are the starting rank's FERRY_IDLE_CLOSE and FERRY_MAX_CONNECTIONS. ({@code ferry agent}
 * is the same agent for people.)
 */
public final class AgentMain {
    private AgentMain() {
    }

    public static void main(String[] args) {
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
        Agent.Config c = new Agent.Config(Path.of(args[0]), args[1]).withChannels(Path.of(args[2])).withIdleExit(Duration.ofSeconds(Long.parseLong(args[3])))
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
