package dev.ferry.launch.run;

import dev.ferry.launch.ChildJvm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One job of {@code ferry run}: starts the ranks with the JDK that runs this launcher, serves them
 * PMI-1, forwards their output, and ends with the first non-zero rank status. When a rank dies
 * abnormally or aborts, the others are ended after the grace period (SIGTERM, then SIGKILL);
 * a timeout ends them all (exit code {@link #TIMEOUT_EXIT}); SIGINT or SIGTERM to the launcher
 * ends them all. Afterwards no rank process (nor any process a rank started) is left, and neither
 * are the job's files: its segments in /dev/shm ({@code ferry-JOBID-*}) and the ranks' JVM
 * performance files ({@code /tmp/hsperfdata_USER/PID}, left by a rank that was killed).
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
    private static final Duration KILL_AFTER_TERM = Duration.ofSeconds(2);

    private final JobSpec spec;
    private final PrintStream out;
    private final PrintStream err;
    private final String jobId;
    private final String jobKey;
    private final Process[] ranks;
    private final List<Thread> pumps = new ArrayList<>();
    private final Thread[] errorPumps;
    /** Per rank, the JVM's report of the first uncaught exception that ended a thread, or null. */
    private final java.util.concurrent.atomic.AtomicReferenceArray<String> uncaught;
    private final LinkedBlockingQueue<int[]> events = new LinkedBlockingQueue<>();
    private Consumer<Duration> wireupListener = d -> { };
    private volatile boolean finished;
    /** The launcher itself was told to end (SIGINT, SIGTERM, SIGHUP): no rank is to blame. */
    private volatile boolean signalled;
    private final ClassDataArchive cds;
    private final String classPath;

    private static final int EXIT = 0, ABORT = 1;
    /** How the JVM's default handler starts its report of an uncaught exception. */
    private static final String UNCAUGHT = "Exception in thread \"";

    public Job(JobSpec spec, PrintStream out, PrintStream err) {
        this.spec = spec;
        this.out = out;
        this.err = err;
        SecureRandom random = new SecureRandom();
        // Only characters a driver keeps in a file name as they are (Hints.JOB_ID), so that the
        // job's files can be found by its id.
        this.jobId = ProcessHandle.current().pid() + "_" + HexFormat.of().formatHex(random.generateSeed(4));
        this.jobKey = HexFormat.of().formatHex(random.generateSeed(16));
        this.ranks = new Process[spec.ranks()];
        this.errorPumps = new Thread[spec.ranks()];
        this.uncaught = new java.util.concurrent.atomic.AtomicReferenceArray<>(spec.ranks());
        int cp = spec.javaArgs().indexOf("-cp");
        this.classPath = cp >= 0 && cp + 1 < spec.javaArgs().size() ? spec.javaArgs().get(cp + 1) : "";
        this.cds = ClassDataArchive.forClassPath(classPath);
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

    /** Runs the job to its end; returns the exit status for the launcher. */
    public int run() throws IOException {
        // The JVM's own record of its start, to the millisecond (ProcessHandle's start instant
        // rests on the kernel's boot time in whole seconds, and can be off by up to one).
        Instant launcherStart = Instant.ofEpochMilli(java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime());
        PmiServer.Events pmiEvents = new PmiServer.Events() {
            @Override
            public void aborted(int rank, int exitCode) {
                events.add(new int[] {ABORT, rank, exitCode});
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
                signalled = true;
                err.println("ferry run: signalled (SIGTERM, SIGINT or SIGHUP); ending the job's " + spec.ranks() + " ranks");
            }
            endEverything();
        }, "ferry-run-reaper");
        Runtime.getRuntime().addShutdownHook(reaper); // SIGINT, SIGTERM: end the whole job
        int status = -1;
        try (PmiServer pmi = new PmiServer(spec.ranks(), "kvs_" + jobId, pmiEvents)) {
            start(pmi.address());
            status = monitor();
            return status;
        } finally {
            if (status == 0) {
                cds.train(classPath);
            }
            endEverything();
            try {
                Runtime.getRuntime().removeShutdownHook(reaper);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
    }

    private void start(String pmiAddress) throws IOException {
        for (int r = 0; r < spec.ranks(); r++) {
            List<String> cmd = new ArrayList<>();
            cmd.add(ChildJvm.javaExecutable().toString());
            cmd.addAll(cds.jvmOptions());
            cmd.addAll(spec.javaArgs());
            ProcessBuilder pb = new ProcessBuilder(cmd);
            var env = pb.environment();
            env.putAll(spec.env());
            env.put("PMI_PORT", pmiAddress);
            env.put("PMI_ID", String.valueOf(r));
            env.put("PMI_RANK", String.valueOf(r));
            env.put("PMI_SIZE", String.valueOf(spec.ranks()));
            env.put(dev.ferry.spi.JobSettings.JOB_ID.name(), jobId);
            env.put(dev.ferry.spi.JobSettings.JOB_KEY.name(), jobKey);
            env.put(dev.ferry.launch.LaunchSettings.LAUNCHER_PID.name(), String.valueOf(ProcessHandle.current().pid()));
            env.remove("PMI_FD");
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                throw new IOException("cannot start rank " + r + ": " + e.getMessage(), e);
            }
            ranks[r] = p;
            int rank = r;
            pumps.add(pump(p.getInputStream(), out, rank, false));
            errorPumps[r] = pump(p.getErrorStream(), err, rank, true);
            pumps.add(errorPumps[r]);
            p.onExit().thenAccept(done -> events.add(new int[] {EXIT, rank, done.exitValue()}));
        }
    }

    private Thread pump(InputStream in, PrintStream to, int rank, boolean errors) {
        String tag = spec.tagOutput() ? "[" + rank + "] " : "";
        return Thread.ofPlatform().daemon().name("ferry-run-output-" + rank).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (errors && line.startsWith(UNCAUGHT)) {
                        uncaught.compareAndSet(rank, null, line.substring("Exception in ".length()));
                    }
                    synchronized (to) {
                        to.println(tag + line);
                    }
                }
            } catch (IOException ignored) {
                // the rank is gone
            }
        });
    }

    /** Waits for every rank; applies the failure, abort and timeout rules; returns the job's status. */
    private int monitor() {
        long start = System.nanoTime();
        long timeoutAt = spec.timeout() == null ? Long.MAX_VALUE : start + spec.timeout().toNanos();
        long killAt = Long.MAX_VALUE;
        boolean terminated = false;
        int exited = 0;
        Integer status = null;
        while (exited < spec.ranks()) {
            long now = System.nanoTime();
            if (now - timeoutAt >= 0 && status == null) {
                err.println("ferry run: job timed out after " + spec.timeout().toSeconds() + " s; ending it");
                status = TIMEOUT_EXIT;
                killAt = now;
            }
            if (now - killAt >= 0 && !terminated) {
                terminateAll(false);
                terminated = true;
                killAt = now + KILL_AFTER_TERM.toNanos();
            } else if (terminated && now - killAt >= 0) {
                terminateAll(true);
                killAt = Long.MAX_VALUE;
            }
            long wait = Math.max(1, Math.min(Math.min(timeoutAt, killAt) - now, TimeUnit.MILLISECONDS.toNanos(500)));
            int[] e;
            try {
                e = events.poll(wait, TimeUnit.NANOSECONDS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                terminateAll(true);
                return 130;
            }
            if (e == null) {
                continue;
            }
            if (e[0] == EXIT) {
                exited++;
                if (e[2] != 0 && status == null && !signalled) {
                    status = e[2];
                    err.println("ferry run: rank " + e[1] + " exited with status " + describe(e[2]) + cause(e[1])
                            + (exited < spec.ranks() ? "; ending the job" : ""));
                    killAt = Math.min(killAt, System.nanoTime() + spec.grace().toNanos());
                }
            } else if (status == null) {
                status = e[2] == 0 ? 1 : e[2];
                err.println("ferry run: rank " + e[1] + " aborted the job with code " + e[2]);
                killAt = Math.min(killAt, System.nanoTime() + spec.grace().toNanos());
            }
        }
        for (Thread t : pumps) {
            try {
                t.join(5000); // all output forwarded before the launcher returns
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        }
        return status == null ? 0 : status;
    }

    /** What the rank's JVM reported of an uncaught exception, once its error output has been read to the end. */
    private String cause(int rank) {
        try {
            errorPumps[rank].join(2000); // the report may still be in the pipe when the exit is seen
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
        String u = uncaught.get(rank);
        return u == null ? "" : " after an uncaught exception in " + u;
    }

    private static String describe(int status) {
        return status > 128 && status < 160 ? status + " (signal " + (status - 128) + ")" : String.valueOf(status);
    }

    /**
     * SIGTERM (or SIGKILL) to every rank still running and to everything it started. Through the
     * process handle: Process.destroy would also close this side of the rank's pipes, and what it
     * prints while it ends would be lost.
     */
    private void terminateAll(boolean kill) {
        for (Process p : ranks) {
            if (p == null) {
                continue;
            }
            p.descendants().forEach(d -> {
                if (kill) {
                    d.destroyForcibly();
                } else {
                    d.destroy();
                }
            });
            if (p.isAlive()) {
                if (kill) {
                    p.toHandle().destroyForcibly();
                } else {
                    p.toHandle().destroy();
                }
            }
        }
    }

    /** Whatever happened: no rank process left, no shared-memory file of the job left. */
    private synchronized void endEverything() {
        if (finished) {
            return;
        }
        finished = true;
        terminateAll(false);
        long deadline = System.nanoTime() + KILL_AFTER_TERM.toNanos();
        for (Process p : ranks) {
            if (p == null) {
                continue;
            }
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.toHandle().destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
        removeShmFiles(jobId);
        for (Process p : ranks) {
            if (p != null) {
                removePerfData(p.pid());
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
