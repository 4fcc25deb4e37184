package dev.ferry.launch.run;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code ferry run} starts: {@code ranks} JVMs, each running {@code javaArgs} (JVM options,
 * class path, then the main class or {@code -jar}, and the program's arguments) with
 * {@code env} added.
 *
 * @param ranks      number of ranks, at least 1
 * @param javaArgs   arguments after the {@code java} executable
 * @param env        environment added to every rank (e.g. FERRY_DRIVERS)
 * @param tagOutput  prefix every output line with {@code [RANK] }
 * @param timeout    end the job after this long, or null for no limit
 * @param grace      how long the other ranks get after one failed, before they are killed
 * @param stdin      the rank that reads the launcher's standard input, {@link #STDIN_ALL} or
 *                   {@link #STDIN_NONE}; the others read an empty input (/dev/null)
 * @param continueOnFailure a rank that fails does not end the job: the others go on to their
 *                   own end (a fault-tolerant program's survivors), and the job ends when all did
 */
public record JobSpec(int ranks, List<String> javaArgs, Map<String, String> env, boolean tagOutput,
                      Duration timeout, Duration grace, int stdin, boolean continueOnFailure) {
    /** Every rank reads a copy of the launcher's standard input. */
    public static final int STDIN_ALL = -2;
    /** No rank reads the launcher's standard input. */
    public static final int STDIN_NONE = -1;

    public JobSpec {
        if (ranks < 1) {
            throw new IllegalArgumentException("a job has at least 1 rank, not " + ranks);
        }
        if (stdin < STDIN_ALL || stdin >= ranks) {
            throw new IllegalArgumentException("--stdin names rank " + stdin + ", but the job has ranks 0 to " + (ranks - 1));
        }
        javaArgs = List.copyOf(javaArgs);
        env = Map.copyOf(env);
        Objects.requireNonNull(grace, "grace");
    }

    /** A job that ends when a rank fails. */
    public JobSpec(int ranks, List<String> javaArgs, Map<String, String> env, boolean tagOutput,
                   Duration timeout, Duration grace, int stdin) {
        this(ranks, javaArgs, env, tagOutput, timeout, grace, stdin, false);
    }

    /** A job whose ranks read no input. */
    public JobSpec(int ranks, List<String> javaArgs, Map<String, String> env, boolean tagOutput,
                   Duration timeout, Duration grace) {
        this(ranks, javaArgs, env, tagOutput, timeout, grace, STDIN_NONE);
    }

    /** Whether rank {@code rank} reads the launcher's standard input. */
    public boolean takesInput(int rank) {
        return stdin == STDIN_ALL || stdin == rank;
    }
}
