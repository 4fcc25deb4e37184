package dev.ferry.core.agent;

import dev.ferry.spi.IdleStrategy;
import dev.ferry.spi.Settings;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The node agent started by Slurm before a step's tasks ({@code srun --task-prolog}, or
 * {@code TaskProlog} in slurm.conf), beside {@code ferry run}'s and a rank's ways. Slurm runs it
 * for each task, as the task's user, with the task's environment, and reads what it prints: the
 * node's first task starts the agent (the lock beside the socket decides, as among ranks), every
 * task waits until it listens, and each tells its task to use it.
 *
 * <pre>{@code
 * for (String line : SlurmTaskProlog.run(System.getenv())) System.out.println(line);
 * // export FERRY_AGENT=on
 * // export FERRY_AGENT_SOCKET=/tmp/ferry-agent-1000-6c1f0a9d2b3e4f50.sock
 * }</pre>
 *
 * The step's job key is drawn by its first rank once the ranks run, after this, so the agent takes
 * the key of the first rank that greets it ({@link Agent.Config#jobKey}), unless
 * {@code FERRY_JOB_KEY} gives one. It ends once the node's last rank has left, or after
 * {@link #IDLE_EXIT} if no rank came.
 */
public final class SlurmTaskProlog {
    /** How long the agent has to listen. */
    private static final Duration LISTEN_BOUND = Duration.ofSeconds(30);
    /** How long an agent no rank reached lives (a step whose program is not a Ferry job). */
    static final Duration IDLE_EXIT = Duration.ofSeconds(30);

    private SlurmTaskProlog() {
    }

    /**
     * Starts the node's agent of the step, or waits for the one another task starts, and answers
     * the lines for Slurm: {@code export} lines, and with {@code FERRY_STATS=on} a {@code print}
     * line naming the process started. Nothing when {@code FERRY_AGENT=off} is set.
     *
     * @throws IOException not under Slurm, a setting the ranks would refuse, or no agent listening in time
     */
    public static List<String> run(Map<String, String> env) throws IOException {
        String job = env.get("SLURM_JOB_ID"), step = env.getOrDefault("SLURM_STEP_ID", env.get("SLURM_STEPID"));
        if (job == null || step == null) {
            throw new IOException("SLURM_JOB_ID and SLURM_STEP_ID are not set: run it as srun --task-prolog or as Slurm's TaskProlog");
        }
        String node = env.getOrDefault("SLURMD_NODENAME", java.net.InetAddress.getLocalHost().getHostName());
        Settings settings = AgentNodeService.settings(env);
        if (env.containsKey(AgentSettings.AGENT.name()) && !AgentNodeService.on(settings)) {
            return List.of(); // agent mode off by the user's choice
        }
        AgentNodeService.Links links = AgentNodeService.Links.of(settings);
        String key = env.get(dev.ferry.spi.JobSettings.JOB_KEY.name());
        if (key != null && key.isBlank()) {
            key = null;
        }
        Path socket = AgentSettings.socket(settings, key != null ? key : "slurm-" + job + "." + step, node);
        AgentLauncher.Started started = AgentLauncher.startForJob(socket, key, Path.of("/dev/shm"), LISTEN_BOUND, IDLE_EXIT, links.idleClose(), links.max(),
                AgentLauncher.thisJvm(), System.getProperty("java.class.path"));
        // started here, by another task's prolog, or there already (a daemon): it listens before the task starts
        if (!IdleStrategy.DEFAULT.await(() -> Agent.answers(socket) || started != null && !started.alive(), LISTEN_BOUND.toNanos())
                || !Agent.answers(socket)) {
            throw new IOException("no agent listens at " + socket + " within " + LISTEN_BOUND.toSeconds() + " s (its log: "
                    + AgentLauncher.logOf(socket) + ")");
        }
        List<String> lines = new ArrayList<>(List.of("export " + AgentSettings.AGENT.name() + "=on", "export " + AgentSettings.SOCKET.name() + "=" + socket));
        if (started != null && links.report()) {
            lines.add("print ferry: agent process " + started.pid() + " started for node " + node + " by the task prolog");
        }
        return lines;
    }
}
