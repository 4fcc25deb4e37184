package dev.ferry.launch.run;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The launcher's rules for a running job, wherever its ranks run: the first rank to exit with a
 * non-zero status or to abort sets the job's status and the others are ended after the grace
 * period (SIGTERM, then SIGKILL), unless the job continues on failure (then the others go on, and
 * the job's status is 0 when any rank ended well, the ranks that died being named at the end); a timeout ends them all (status {@link Job#TIMEOUT_EXIT}); a host
 * that is lost ends the job as a failed rank does. Events come from any thread.
 */
public final class JobMonitor {
    private static final Duration KILL_AFTER_TERM = Duration.ofSeconds(2);
    /** How long the JVMs asked for their threads at a timeout have to print them before they are ended. */
    private static final Duration DUMP_GRACE = Duration.ofSeconds(2);

    /** How the monitor ends the ranks. */
    public interface Ranks {
        /** SIGTERM ({@code kill} false) or SIGKILL to every rank still running. */
        void terminate(boolean kill);

        /** Why the rank failed, as " after ..." to append to the report, or "". */
        default String cause(int rank) {
            return "";
        }

        /** Asks every rank's JVM, and the node's services, to print their threads ({@link ThreadDumps}): where a job that timed out waits. */
        default void dumpThreads() {
        }
    }

    private record Event(int kind, int rank, int code, String text) {
    }

    private static final int EXIT = 0, ABORT = 1, LOST = 2;

    private final int size;
    private final Duration timeout;
    private final Duration grace;
    private final boolean continueOnFailure;
    private final PrintStream err;
    private final IntFunction<String> where;
    private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private volatile boolean signalled;

    /**
     * @param where names a rank's place for reports, e.g. " on host vc2", or "" on one host
     */
    public JobMonitor(int size, Duration timeout, Duration grace, boolean continueOnFailure, PrintStream err, IntFunction<String> where) {
        this.size = size;
        this.timeout = timeout;
        this.grace = grace;
        this.continueOnFailure = continueOnFailure;
        this.err = err;
        this.where = where;
    }

    /** The rank's process ended with {@code status}. */
    public void exited(int rank, int status) {
        events.add(new Event(EXIT, rank, status, null));
    }

    /** The rank asked the launcher to abort the job. */
    public void aborted(int rank, int code) {
        events.add(new Event(ABORT, rank, code, null));
    }

    /**
     * {@code ranks} ranks will never report again (their host or its connection is gone); they
     * count as ended with status 1, and the job is ended with {@code why} as its cause.
     */
    public void lost(int ranks, String why) {
        events.add(new Event(LOST, ranks, 1, why));
    }

    /** The launcher itself was told to end: no rank is to blame for what follows. */
    public void signalled() {
        signalled = true;
    }

    /** Waits for every rank; applies the failure, abort and timeout rules; returns the job's status. */
    public int await(Ranks ranks) {
        long start = System.nanoTime();
        long timeoutAt = timeout == null ? Long.MAX_VALUE : start + timeout.toNanos();
        long killAt = Long.MAX_VALUE;
        boolean terminated = false;
        int exited = 0;
        Integer status = null;
        java.util.List<String> died = new java.util.ArrayList<>(); // continuing on failure: who, for the last word
        Integer firstDeath = null;
        boolean anyWell = false;
        while (exited < size) {
            long now = System.nanoTime();
            if (now - timeoutAt >= 0 && status == null) {
                err.println("ferry run: job timed out after " + timeout.toSeconds() + " s; the threads of its JVMs follow, then it ends");
                status = Job.TIMEOUT_EXIT;
                ranks.dumpThreads();
                killAt = System.nanoTime() + DUMP_GRACE.toNanos(); // for the dumps to be forwarded before the ranks end
            }
            if (now - killAt >= 0 && !terminated) {
                ranks.terminate(false);
                terminated = true;
                killAt = now + KILL_AFTER_TERM.toNanos();
            } else if (terminated && now - killAt >= 0) {
                ranks.terminate(true);
                killAt = Long.MAX_VALUE;
            }
            long wait = Math.max(1, Math.min(Math.min(timeoutAt, killAt) - now, TimeUnit.MILLISECONDS.toNanos(500)));
            Event e;
            try {
                e = events.poll(wait, TimeUnit.NANOSECONDS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                ranks.terminate(true);
                return 130;
            }
            if (e == null) {
                continue;
            }
            switch (e.kind) {
                case EXIT -> {
                    exited++;
                    anyWell |= e.code == 0;
                    if (e.code != 0 && status == null && !signalled && continueOnFailure) {
                        died.add(e.rank + where.apply(e.rank) + " (status " + describe(e.code) + ranks.cause(e.rank) + ")");
                        firstDeath = firstDeath == null ? e.code : firstDeath;
                        err.println("ferry run: rank " + e.rank + where.apply(e.rank) + " exited with status " + describe(e.code)
                                + ranks.cause(e.rank) + (exited < size ? "; the others go on (--continue-on-failure)" : ""));
                    } else if (e.code != 0 && status == null && !signalled) {
                        status = e.code;
                        err.println("ferry run: rank " + e.rank + where.apply(e.rank) + " exited with status "
                                + describe(e.code) + ranks.cause(e.rank) + (exited < size ? "; ending the job" : ""));
                        killAt = Math.min(killAt, System.nanoTime() + grace.toNanos());
                    }
                }
                case ABORT -> {
                    if (status == null) {
                        status = e.code == 0 ? 1 : e.code;
                        err.println("ferry run: rank " + e.rank + where.apply(e.rank) + " aborted the job with code " + e.code);
                        killAt = Math.min(killAt, System.nanoTime() + grace.toNanos());
                    }
                }
                default -> {
                    exited += e.rank;
                    if (status == null && !signalled && continueOnFailure) {
                        died.add(e.text);
                        firstDeath = firstDeath == null ? 1 : firstDeath;
                        err.println("ferry run: " + e.text + (exited < size ? "; the others go on (--continue-on-failure)" : ""));
                    } else if (status == null && !signalled) {
                        status = 1;
                        err.println("ferry run: " + e.text + (exited < size ? "; ending the job" : ""));
                        killAt = Math.min(killAt, System.nanoTime() + grace.toNanos());
                    }
                }
            }
        }
        if (status == null && firstDeath != null) {
            err.println("ferry run: the job went on without " + (died.size() == 1 ? "rank " : "ranks ") + String.join(", ", died)
                    + (anyWell ? "" : ", and no rank ended well"));
            return anyWell ? 0 : firstDeath;
        }
        return status == null ? 0 : status;
    }

    private static String describe(int status) {
        return status > 128 && status < 160 ? status + " (signal " + (status - 128) + ")" : String.valueOf(status);
    }
}
