package dev.ferry.launch.pmi;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A job of {@code size} ranks inside this JVM, each rank a thread with a {@link Bootstrap} of its
 * own: for tests, for debugging a parallel program in an IDE, and for a multicore program that
 * wants no launcher. The ranks share a key-value space and fence together as the ranks of a
 * launched job do; each builds its engine or library on its bootstrap as it would under
 * {@code ferry run}, and its peers are reached through the {@code self} driver (through the node's
 * drivers with {@code FERRY_SAME_PROCESS=node}).
 *
 * <p>A rank whose code returns leaves the job, as a process that exits does: the fences still to
 * come are the other ranks' (a rank that crashed its engine and returned is not waited for at
 * the others' closing fence). A rank that throws fails the job: fences still to come fail at once at the other ranks
 * (naming the rank), and {@link #run} throws the first failure, naming its rank, with the others
 * suppressed. A rank that calls {@link Bootstrap#abort} ends its own thread with a
 * {@link JobAbortedException} and fails the job the same way; the JVM goes on.
 *
 * <pre>{@code
 * InProcessJob.run(4, Duration.ofSeconds(60), boot -> {
 *     try (Engine e = Engine.init(new EngineConfig().bootstrap(boot), handler)) {
 *         // rank boot.rank() of 4
 *     }
 * });
 * }</pre>
 */
public final class InProcessJob implements AutoCloseable {
    private static final AtomicInteger JOBS = new AtomicInteger();

    /** What each rank runs. */
    @FunctionalInterface
    public interface Rank {
        void run(Bootstrap boot) throws Exception;
    }

    /** A rank of an in-process job called {@link Bootstrap#abort}. */
    public static final class JobAbortedException extends RuntimeException {
        private final int exitCode;

        JobAbortedException(int rank, int exitCode, String message) {
            super("rank " + rank + " aborted the job (code " + exitCode + "): " + message);
            this.exitCode = exitCode;
        }

        public int exitCode() {
            return exitCode;
        }
    }

    private final int size;
    /** Ranks that run (0 .. live - 1) and meet at fences; the others only have the keys put for them. */
    private final int live;
    private final String id;
    private final ConcurrentHashMap<String, String> values = new ConcurrentHashMap<>();
    /** Guards the fence: ranks arrived in this generation, the generation, and why fences fail. */
    private final Object fenceLock = new Object();
    private int arrived;
    /** Ranks that still meet at fences: the live ones whose code has not returned. */
    private int meeting;
    private long generation;
    /** Why fences can no longer complete (a rank failed or the job ended), or null. */
    private String broken;
    private final Bootstrap[] ranks;

    private InProcessJob(int size, int live) {
        if (size < 1) {
            throw new IllegalArgumentException("an in-process job needs at least 1 rank, not " + size);
        }
        if (live < 1 || live > size) {
            throw new IllegalArgumentException("an in-process job of " + size + " ranks runs 1 to " + size + " of them, not " + live);
        }
        this.size = size;
        this.live = live;
        this.id = "inproc-" + ProcessHandle.current().pid() + "_" + JOBS.incrementAndGet();
        this.meeting = live;
        this.ranks = new Bootstrap[live];
        for (int r = 0; r < live; r++) {
            ranks[r] = new RankBootstrap(r);
        }
    }

    /** A job of {@code size} ranks whose bootstraps the caller hands to threads of its own. */
    public static InProcessJob of(int size) {
        return new InProcessJob(size, size);
    }

    /**
     * A job of {@code size} ranks of which only ranks 0 .. {@code live} - 1 run (and meet at
     * fences): the rest are a table of peers never contacted, whose keys the caller puts
     * through a running rank's bootstrap, for measuring what a large job costs a rank (ferry bench scale).
     */
    public static InProcessJob sparse(int size, int live) {
        return new InProcessJob(size, live);
    }


    /**
     * Runs {@code body} as each of {@code size} ranks, each in a thread of its own named
     * {@code ferry-rank-R}, and returns when all have returned.
     *
     * @throws RankFailedException the rank that threw first, named, with the others' failures suppressed
     * @throws TimeoutException    when some rank is still running after {@code bound}; they are interrupted
     */
    public static void run(int size, Duration bound, Rank body) throws TimeoutException, InterruptedException {
        try (InProcessJob job = of(size)) {
            job.runAll(bound, body);
        }
    }

    /** Runs {@code body} on every rank of this job, as {@link #run(int, Duration, Rank)} says. */
    public void runAll(Duration bound, Rank body) throws TimeoutException, InterruptedException {
        Objects.requireNonNull(body, "body");
        List<Thread> threads = new ArrayList<>();
        // in the order they happened: the first is the cause, the others (failed fences) follow from it
        java.util.Queue<RankFailedException> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        for (int r = 0; r < live; r++) {
            int rank = r;
            threads.add(Thread.ofPlatform().name("ferry-rank-" + r).start(() -> {
                try {
                    body.run(ranks[rank]);
                    leave();
                } catch (Throwable t) {
                    failures.add(new RankFailedException(rank, t)); // before the fences it breaks fail
                    fail("rank " + rank + " failed: " + t);
                }
            }));
        }
        long end = System.nanoTime() + bound.toNanos();
        for (Thread t : threads) {
            long left = end - System.nanoTime();
            if (left <= 0 || !t.join(Duration.ofNanos(left))) {
                List<String> running = threads.stream().filter(Thread::isAlive).map(Thread::getName).toList();
                String where = whereTheyAre(threads); // before the interrupts move them
                fail("the job ran out of time");
                threads.forEach(Thread::interrupt);
                throw new TimeoutException("in-process job of " + size + " ranks: " + running + " still running after " + bound + where);
            }
        }
        RankFailedException first = failures.poll();
        for (RankFailedException f : failures) {
            first.addSuppressed(f);
        }
        if (first != null) {
            throw first;
        }
    }

    /** Where each rank still running is: its thread's innermost frames, so that a hang names its wait. */
    private static String whereTheyAre(List<Thread> threads) {
        StringBuilder b = new StringBuilder();
        for (Thread t : threads) {
            StackTraceElement[] stack = t.getStackTrace();
            if (!t.isAlive() || stack.length == 0) {
                continue;
            }
            b.append("\n").append(t.getName()).append(':');
            for (int i = 0; i < Math.min(stack.length, 12); i++) {
                b.append("\n    at ").append(stack[i]);
            }
        }
        return b.toString();
    }

    /** The bootstrap of {@code rank}, for a thread the caller runs itself. */
    public Bootstrap bootstrap(int rank) {
        Objects.checkIndex(rank, live);
        return ranks[rank];
    }

    public int size() {
        return size;
    }

    /** Fails every fence still waiting or to come, naming why. */
    private void fail(String why) {
        synchronized (fenceLock) {
            if (broken == null) {
                broken = why;
            }
            fenceLock.notifyAll();
        }
    }

    /** A rank's code returned (its thread calls this once): later fences, and one the others wait in now, complete without it. */
    private void leave() {
        synchronized (fenceLock) {
            meeting--;
            if (arrived > 0 && arrived == meeting) {
                nextGeneration();
            }
        }
    }

    /** Everyone still meeting is in: the fence completes (under {@link #fenceLock}). */
    private void nextGeneration() {
        arrived = 0;
        generation++;
        fenceLock.notifyAll();
    }

    private void fence(int rank) {
        synchronized (fenceLock) {
            long g = generation;
            if (broken == null && ++arrived == meeting) {
                nextGeneration();
                return;
            }
            while (generation == g) {
                if (broken != null) {
                    throw new PmiException("fence on rank " + rank + ": " + broken);
                }
                try {
                    fenceLock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new PmiException("fence on rank " + rank + ": interrupted");
                }
            }
        }
    }

    /** Ends the job: fences still waiting fail. */
    @Override
    public void close() {
        fail("the job ended");
    }

    /** A rank of an in-process job threw; the cause is what it threw. */
    public static final class RankFailedException extends RuntimeException {
        private final int rank;

        RankFailedException(int rank, Throwable cause) {
            super("rank " + rank + " failed: " + cause, cause);
            this.rank = rank;
        }

        public int rank() {
            return rank;
        }
    }

    private final class RankBootstrap implements Bootstrap {
        private final int rank;

        RankBootstrap(int rank) {
            this.rank = rank;
        }

        @Override
        public int rank() {
            return rank;
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public String jobId() {
            return id;
        }

        @Override
        public String protocol() {
            return "in-process";
        }

        @Override
        public int maxValueLength() {
            return 1 << 20;
        }

        @Override
        public int maxKeyLength() {
            return 1 << 10;
        }

        @Override
        public boolean wideUrlSupport() {
            return true;
        }

        @Override
        public void put(String key, String value) {
            values.put(key, value);
        }

        @Override
        public void fence() {
            InProcessJob.this.fence(rank);
        }

        @Override
        public String get(String key) {
            return values.get(key);
        }

        @Override
        public void abort(int exitCode, String message) {
            fail("rank " + rank + " aborted: " + message);
            throw new JobAbortedException(rank, exitCode, message);
        }

        @Override
        public void close() {
            // the job's key-value space lives as long as the job
        }
    }
}
