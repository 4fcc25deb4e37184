package dev.ferry.launch.run;

import dev.ferry.launch.ChildJvm;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The rank JVMs of one job on this host: started with their PMI settings, their output read as it
 * comes, their ends reported, and at the end nothing of them left (no process, no /dev/shm file of
 * the job, no JVM performance file). {@link Job} uses it for a job on this machine, the multi-host
 * proxy for its host's share of a job.
 *
 * <pre>{@code
 * RankProcesses ranks = new RankProcesses(command, env, listener);
 * ranks.start(0, job);      // global rank 0, with PMI_PORT, PMI_RANK, FERRY_JOB_ID ... from job
 * ranks.end();              // SIGTERM, then SIGKILL, then the job's files removed
 * }</pre>
 */
public final class RankProcesses {
    private static final java.time.Duration KILL_AFTER_TERM = java.time.Duration.ofSeconds(2);

    /** What the ranks' processes report. Called from the reading threads. */
    public interface Listener {
        /** {@code len} bytes the rank wrote to its standard output ({@code err}: error). */
        void output(int rank, boolean err, byte[] bytes, int len);

        /** The rank's output stream {@code err} reached its end. */
        default void outputEnded(int rank, boolean err) {
        }

        /** The rank's process ended with {@code status}. */
        void exited(int rank, int status);
    }

    /** What every rank of the job is told: the PMI server, the job's size, id and key. */
    public record JobEnvironment(String pmiAddress, int size, String jobId, String jobKey, long launcherPid) {
    }

    private final List<String> command;
    private final Map<String, String> env;
    private final Listener listener;
    private final Map<Integer, Process> processes = new HashMap<>();
    private final List<Thread> pumps = new ArrayList<>();
    private final AotCache cds;
    private final String classPath;
    private String jobId;
    private boolean ended;

    /**
     * @param javaArgs the ranks' arguments after the {@code java} executable
     * @param env      added to every rank's environment
     */
    public RankProcesses(List<String> javaArgs, Map<String, String> env, Listener listener) {
        int cp = javaArgs.indexOf("-cp");
        this.classPath = cp >= 0 && cp + 1 < javaArgs.size() ? javaArgs.get(cp + 1) : "";
        this.cds = AotCache.forRanks(javaArgs, classPath);
        List<String> cmd = new ArrayList<>();
        cmd.add(ChildJvm.javaExecutable().toString());
        cmd.addAll(cds.jvmOptions());
        cmd.addAll(javaArgs);
        this.command = List.copyOf(cmd);
        this.env = Map.copyOf(env);
        this.listener = listener;
    }

    /**
     * What a service of the node ({@link NodeService}) is told of this job's ranks here: their
     * environment, java and JVM options before the class path, and class path.
     */
    public NodeService.NodeJob nodeJob(String jobId, String jobKey, List<Integer> ranks) {
        Map<String, String> e = new HashMap<>(System.getenv());
        e.putAll(env);
        List<String> jvm = new ArrayList<>();
        jvm.add(ChildJvm.javaExecutable().toString());
        jvm.addAll(AotCache.optionsOfCacheIn(command)); // the ranks' cache: ferry run's, or one the caller gave them (the test jobs')
        return new NodeService.NodeJob(jobId, jobKey, ranks, e, jvm, classPath);
    }

    /** After a job that ended well: makes the ahead-of-time cache later ranks start with, if there is none yet. */
    public void trainArchive() {
        cds.train(classPath);
    }

    /** Whether {@link #trainArchive} would make a cache: caches are on, the class path can have one, and there is none yet. */
    public boolean wantsArchive() {
        return cds.wanted();
    }

    /**
     * Starts global rank {@code rank}. Its standard input is a pipe ({@link #stdin}) when
     * {@code withInput}, else /dev/null.
     */
    public synchronized void start(int rank, JobEnvironment job, boolean withInput) throws IOException {
        if (ended) {
            throw new IOException("the job is ending; rank " + rank + " is not started");
        }
        this.jobId = job.jobId();
        ProcessBuilder pb = new ProcessBuilder(command);
        var e = pb.environment();
        e.putAll(env);
        e.put("PMI_PORT", job.pmiAddress());
        e.put("PMI_ID", String.valueOf(rank));
        e.put("PMI_RANK", String.valueOf(rank));
        e.put("PMI_SIZE", String.valueOf(job.size()));
        e.put(dev.ferry.spi.JobSettings.JOB_ID.name(), job.jobId());
        e.put(dev.ferry.spi.JobSettings.JOB_KEY.name(), job.jobKey());
        e.put(dev.ferry.launch.LaunchSettings.LAUNCHER_PID.name(), String.valueOf(job.launcherPid()));
        e.remove("PMI_FD");
        if (!withInput) {
            pb.redirectInput(new File("/dev/null"));
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException x) {
            throw new IOException("cannot start rank " + rank + ": " + x.getMessage(), x);
        }
        processes.put(rank, p);
        pumps.add(pump(p.getInputStream(), rank, false));
        pumps.add(pump(p.getErrorStream(), rank, true));
        p.onExit().thenAccept(done -> listener.exited(rank, done.exitValue()));
    }

    /** The rank's standard input (a pipe only for a rank started with input). */
    public synchronized OutputStream stdin(int rank) {
        Process p = processes.get(rank);
        return p == null ? OutputStream.nullOutputStream() : p.getOutputStream();
    }

    private Thread pump(InputStream in, int rank, boolean err) {
        return Thread.ofPlatform().daemon().name("ferry-run-output-" + rank).start(() -> {
            byte[] buf = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    listener.output(rank, err, buf, n);
                }
            } catch (IOException ignored) {
                // the rank is gone
            }
            listener.outputEnded(rank, err);
        });
    }

    /** Waits up to {@code millis} for every rank's output to have been read to its end. */
    public void awaitOutput(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        List<Thread> all;
        synchronized (this) {
            all = List.copyOf(pumps);
        }
        for (Thread t : all) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Asks every rank still running, and the JVMs it started, to print its threads to its output ({@link ThreadDumps}). */
    public synchronized void dumpThreads() {
        for (Process p : processes.values()) {
            ThreadDumps.request(p.toHandle());
        }
    }

    /**
     * SIGTERM (or SIGKILL) to every rank still running and to everything it started. Through the
     * process handle: Process.destroy would also close this side of the rank's pipes, and what it
     * prints while it ends would be lost.
     */
    public synchronized void terminate(boolean kill) {
        for (Process p : processes.values()) {
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

    /** Whatever happened: no rank process left, no shared-memory file of the job left. Idempotent. */
    public void end() {
        List<Process> all;
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            all = List.copyOf(processes.values());
        }
        terminate(false);
        long deadline = System.nanoTime() + KILL_AFTER_TERM.toNanos();
        for (Process p : all) {
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
        if (jobId != null) {
            Job.removeShmFiles(jobId);
        }
        for (Process p : all) {
            Job.removePerfData(p.pid());
        }
    }
}
