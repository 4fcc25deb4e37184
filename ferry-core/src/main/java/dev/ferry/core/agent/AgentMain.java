package dev.ferry.core.agent;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The agent a rank starts ({@link AgentLauncher}): {@code SOCKET JOB-KEY CHANNELS IDLE-SECONDS},
 * in the foreground of a process of its own, until idle that long. ({@code ferry agent} is the
 * same agent for people.)
 */
public final class AgentMain {
    private AgentMain() {
    }

    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: AgentMain SOCKET JOB-KEY CHANNELS IDLE-SECONDS");
            System.exit(2);
        }
        Agent.Config c = new Agent.Config(Path.of(args[0]), args[1]).withChannels(Path.of(args[2])).withIdleExit(Duration.ofSeconds(Long.parseLong(args[3])));
        try (Agent a = Agent.start(c)) {
            System.out.println("agent " + ProcessHandle.current().pid() + " listening at " + c.socket());
            a.run();
            System.out.println("agent " + ProcessHandle.current().pid() + " ended after serving " + a.admitted() + " rank(s)");
        } catch (AgentException e) {
            System.err.println("agent: " + e.getMessage());
            System.exit(1);
        }
    }
}
