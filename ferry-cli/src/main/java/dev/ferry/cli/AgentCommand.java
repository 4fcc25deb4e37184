package dev.ferry.cli;

import dev.ferry.core.agent.Agent;
import dev.ferry.core.agent.AgentException;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code ferry agent}: the node agent in the foreground, until a signal or its idle time ends it.
 */
final class AgentCommand {
    static final String USAGE = """
            usage: ferry agent --socket PATH [--job-key KEY] [--channels DIR] [--idle-exit SECONDS]
                               [--link-idle-close SECONDS] [--max-links N]
                   ferry agent --slurm-task-prolog
            The node agent (seed 003's library side in a process of its own): ranks of this user
            that greet it with the job's key get a command ring and packet rings and may register
            memory, which it then reaches with process_vm_readv/writev; with FERRY_AGENT=on their
            traffic to other nodes goes through it, over one connection to each other node's
            agent. It admits only processes of its own user (the kernel's SO_PEERCRED) with the
            job's key.
              --socket PATH       the Unix socket it listens on (a dead agent's file is taken over)
              --job-key KEY       the key its ranks greet it with (FERRY_JOB_KEY); without it,
                                  it serves one job at a time, keyed by the first rank that
                                  greets it, and the next job's once the last one's have left
              --channels DIR      where the ranks' ring files go (default /dev/shm)
              --idle-exit S       end after S seconds with no rank connected (default: never)
              --link-idle-close S close a link to another node's agent after S seconds without
                                  traffic, in order; the next record there opens it again
                                  (default: never; an agent a rank starts takes FERRY_IDLE_CLOSE)
              --max-links N       keep at most N links open, closing the least recently used
                                  (default: any number; a rank's agent takes FERRY_MAX_CONNECTIONS)
              --slurm-task-prolog as Slurm's task prolog (bin/ferry-task-prolog, below): start the
                                  node's agent of the step, or wait for it, and print the task's
                                  export lines; the environment says the rest
              -h, --help          this text
            It runs in the foreground. As a daemon, start it detached, for example
              nohup ferry agent --socket /run/user/$(id -u)/ferry-agent.sock --idle-exit 600 \\
                    >/tmp/ferry-agent.log 2>&1 &
            or as a systemd user service (ExecStart= that line, Restart=on-failure); the job's
            ranks find it with FERRY_AGENT=on and FERRY_AGENT_SOCKET=PATH, one job at a time (a
            job's ranks are let in once every rank of the last one here has left). Without an
            agent there, ferry run or a host's proxy starts one beside the ranks, or else the
            node's first rank does; either ends with the job.
            Under Slurm, bin/ferry-task-prolog (ferry agent --slurm-task-prolog) starts each node's
            agent before a step's tasks and turns agent mode on for them:
              srun --task-prolog=$FERRY_HOME/bin/ferry-task-prolog -N 3 -n 12 --mpi=pmix java ...
            or TaskProlog=/path/to/ferry-task-prolog in slurm.conf. It runs as the task's user; the
            node's first task starts the agent, the others wait until it listens; the agent takes
            the job key of the first rank that greets it (or FERRY_JOB_KEY) and ends with the step.
            Stop it with SIGTERM: it tells every rank's ring it has gone.""";


    private AgentCommand() {
    }

    /** Slurm's task prolog: what it prints is read by slurmstepd (export lines), so errors go to err alone. */
    private static int taskProlog(PrintStream out, PrintStream err) {
        try {
            for (String line : dev.ferry.core.agent.SlurmTaskProlog.run(System.getenv())) {
                out.println(line);
            }
            out.flush();
            return 0;
        } catch (java.io.IOException | AgentException e) {
            err.println("ferry agent: " + e.getMessage());
            return 1;
        }
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        Path socket = null, channels = Path.of("/dev/shm");
        String key = null;
        long idle = 0, linkIdle = 0, maxLinks = 0;
        try {
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "--socket" -> socket = Path.of(OptionValues.value(args, ++i, a));
                    case "--job-key" -> key = OptionValues.value(args, ++i, a);
                    case "--channels" -> channels = Path.of(OptionValues.value(args, ++i, a));
                    case "--idle-exit" -> idle = OptionValues.number(args, ++i, a, 1, 365L * 24 * 3600);
                    case "--link-idle-close" -> linkIdle = OptionValues.number(args, ++i, a, 1, 365L * 24 * 3600);
                    case "--max-links" -> maxLinks = OptionValues.number(args, ++i, a, 1, 1 << 20);
                    case "--slurm-task-prolog" -> {
                        if (args.size() != 1) {
                            throw new Program.UsageError("--slurm-task-prolog takes no other option (the environment says the rest)");
                        }
                        return taskProlog(out, err);
                    }
                    case "--help", "-h" -> {
                        out.println(USAGE);
                        return 0;
                    }
                    default -> throw new Program.UsageError("unknown option '" + a + "'");
                }
            }
            if (socket == null) {
                throw new Program.UsageError("--socket is needed");
            }
        } catch (Program.UsageError e) {
            err.println("ferry agent: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        Agent.Config c = new Agent.Config(socket, key).withChannels(channels).withIdleExit(Duration.ofSeconds(idle))
                .withLinks(Duration.ofSeconds(linkIdle), (int) maxLinks);
        Agent agent;
        try {
            agent = Agent.start(c);
        } catch (AgentException e) {
            err.println("ferry agent: " + e.getMessage());
            return 1;
        }
        Thread main = Thread.currentThread();
        Thread hook = new Thread(() -> {
            agent.close();
            try {
                main.join(5_000);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }, "ferry-agent-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println("ferry agent: listening on " + socket + " (process " + ProcessHandle.current().pid() + ")");
        out.flush();
        agent.run();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it waits for us
        }
        out.println("ferry agent: ended; it served " + agent.admitted() + " rank(s)");
        return 0;
    }
}
