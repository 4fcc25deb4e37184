package dev.ferry.launch.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.function.Consumer;

/**
 * One job of {@code ferry run} on this machine: starts the ranks with the JDK that runs this
 * launcher, serves them PMI-1, forwards their output, gives the launcher's standard input to the
 * ranks the spec names, and ends with the first non-zero rank status ({@link JobMonitor}'s rules).
 * SIGINT or SIGTERM to the launcher ends them all. Afterwards no rank process (nor any process a
 * rank started) is left, and neither are the job's files: its segments in /dev/shm
 * ({@code ferry-JOBID-*}) and the ranks' JVM performance files ({@code /tmp/hsperfdata_USER/PID},
 * left by a rank that was killed).
 *
 * <pre>{@code
 * JobSpec spec = new JobSpec(4, List.of("-cp", cp, "my.Main"), Map.of(), false, null, Duration.ofSeconds(3));
 * int status = new Job(spec, System.out, System.err).run();
 * }</pre>
 */
public final class Job {
    /** Exit status of a job ended by its timeout (as GNU timeout). */
    public static final int TIMEOUT_EXIT = 124;
    /** Where shared-memory drivers keep their segments; the job's start with {@code ferry-JOBID-}. */
    public static final Path SHM = Path.of("/dev/shm");

    private final JobSpec spec;
    private final PrintStream err;
    private final String jobId;
    private final String jobKey;
    private final RankOutput output;
    private final JobMonitor monitor;
    private final RankProcesses ranks;
    private InputStream input = InputStream.nullInputStream();
    private Consumer<Duration> wireupListener = d -> { };
    private volatile boolean finished;

    public Job(JobSpec spec, PrintStream out, PrintStream err) {
        this.spec = spec;
        this.err = err;
        this.jobId = newJobId();
        this.jobKey = newJobKey();
        this.output = new RankOutput(spec.ranks(), out, err, spec.tagOutput());
        this.monitor = new JobMonitor(spec.ranks(), spec.timeout(), spec.grace(), spec.continueOnFailure(), err, r -> "");
        this.ranks = new RankProcesses(spec.javaArgs(), spec.env(), new RankProcesses.Listener() {
            @Override
            public void output(int rank, boolean isErr, byte[] bytes, int len) {
                output.write(rank, isErr, bytes, len);
            }

            @Override
            public void outputEnded(int rank, boolean isErr) {
                output.ended(rank, isErr);
            }

            @Override
            public void exited(int rank, int status) {
                monitor.exited(rank, status);
            }
        });
    }

    /** A job id of only characters a driver keeps in a file name (Hints.JOB_ID), so that the job's files can be found by it. */
    public static String newJobId() {
        return ProcessHandle.current().pid() + "_" + HexFormat.of().formatHex(new SecureRandom().generateSeed(4));
    }

    /** A fresh secret for the ranks' handshakes. */
    public static String newJobKey() {
        return HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
    }

    public String jobId() {
        return jobId;
    }

    /**
     * Told how long after this launcher's JVM started every rank was past the first PMI fence
     * (the bootstrap exchange).
     */
    public Job onWireup(Consumer<Duration> listener) {
        this.wireupListener = listener;
        return this;
    }

    /** What the launcher's standard input is: copied to the ranks {@link JobSpec#stdin()} names. */
    public Job withInput(InputStream in) {
        this.input = in;
        return this;
    }

    /** The launcher JVM's start, to the millisecond (ProcessHandle's rests on the boot time in whole seconds). */
    public static Instant launcherStart() {
        return Instant.ofEpochMilli(java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime());
    }

    /** Runs the job to its end; returns the exit status for the launcher. */
    public int run() throws IOException {
        Instant launcherStart = launcherStart();
        PmiServer.Events pmiEvents = new PmiServer.Events() {
            @Override
            public void aborted(int rank, int exitCode) {
                monitor.aborted(rank, exitCode);
            }

            @Override
            public void barrierCompleted(int number) {
                if (number == 1) {
                    wireupListener.accept(Duration.between(launcherStart, Instant.now()));
                }
            }
        };
        Thread reaper = new Thread(() -> {
            if (!finished) {
                monitor.signalled();
                err.println("ferry run: signalled (SIGTERM, SIGINT or SIGHUP); ending the job's " + spec.ranks() + " ranks");
            }
            ranks.end();
        }, "ferry-run-reaper");
        Runtime.getRuntime().addShutdownHook(reaper); // SIGINT, SIGTERM: end the whole job
        int status = -1;
        NodeService.Running services = null;
        try (PmiServer pmi = new PmiServer(spec.ranks(), "kvs_" + jobId, pmiEvents)) {
            var env = new RankProcesses.JobEnvironment(pmi.address(), spec.ranks(), jobId, jobKey, ProcessHandle.current().pid());
            // the node's services (agent mode's agent) start beside the ranks, which wait for them where they must
            services = NodeService.startAll(ranks.nodeJob(jobId, jobKey, java.util.stream.IntStream.range(0, spec.ranks()).boxed().toList()));
            for (String line : services.report()) {
                err.println("ferry run: " + line);
            }
            for (int r = 0; r < spec.ranks(); r++) {
                ranks.start(r, env, spec.takesInput(r));
            }
            StdinForwarder.start(input, spec, ranks::stdin);
            NodeService.Running finalServices = services;
            status = monitor.await(new JobMonitor.Ranks() {
                @Override
                public void terminate(boolean kill) {
                    ranks.terminate(kill);
                }

                @Override
                public void dumpThreads() {
                    ranks.dumpThreads();
                    for (String line : finalServices.dumpThreads()) {
                        err.println("ferry run: " + line);
                    }
                }

                @Override
                public String cause(int rank) {
                    ranks.awaitOutput(2000); // the report may still be in the pipe when the exit is seen
                    String u = output.uncaught(rank);
                    return u == null ? "" : " after an uncaught exception in " + u;
                }
            });
            ranks.awaitOutput(5000); // all output forwarded before the launcher returns
            return status;
        } finally {
            finished = true;
            if (status == 0) {
                ranks.trainArchive();
            }
            ranks.end();
            if (services != null) {
                services.close();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(reaper);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
    }

    /** Removes /dev/shm/ferry-JOBID-* (segments of shared-memory drivers that died with their rank). */
    public static void removeShmFiles(String jobId) {
        if (!Files.isDirectory(SHM)) {
            return;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(SHM, "ferry-" + jobId + "-*")) {
            for (Path p : s) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.getLogger(Job.class.getName()).log(System.Logger.Level.WARNING,
                    "ferry run: could not remove the job''s files in /dev/shm: {0}", e.getMessage());
        }
    }

    /**
     * Removes the JVM performance file of a rank that has ended ({@code /tmp/hsperfdata_USER/PID}):
     * a JVM removes its own when it exits, not when it is killed.
     */
    static void removePerfData(long pid) {
        Path f = Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"), Long.toString(pid));
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            System.getLogger(Job.class.getName()).log(System.Logger.Level.WARNING,
                    "ferry run: could not remove {0}: {1}", f, e.getMessage());
        }
    }
}
