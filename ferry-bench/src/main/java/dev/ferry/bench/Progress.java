package dev.ferry.bench;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A progress bar on the terminal for the command line's long runs (a benchmark, a soak, a job
 * still wiring up): drawn by the progressbar library on standard error once a run has lasted two
 * seconds, only when standard error is a terminal; nothing at all otherwise, so that piped or
 * logged output stays as it was.
 *
 * <pre>{@code
 * Progress p = Progress.forTerminal(System.err);
 * for (int i = 0; i < n; i++) { work(); p.update("engine-latency 8 B", i + 1, n); }
 * p.clear();
 * try (Progress.Shown bar = Progress.forTerminal(System.err).timed("soak p2p", Duration.ofSeconds(30))) { soak(); }
 * }</pre>
 */
public final class Progress {
    private static final long SHOW_AFTER_NANOS = 2_000_000_000L;
    private final PrintStream err;
    private final boolean terminal;
    private final long start = System.nanoTime();
    private ProgressBar bar;
    private String task;

    Progress(PrintStream err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    /** Progress shown on {@code err} when this process's console is a terminal. */
    public static Progress forTerminal(PrintStream err) {
        return new Progress(err, System.console() != null && System.console().isTerminal());
    }

    /** Reports that {@code what} is {@code done} of {@code total} through. Cheap enough to call per sample. */
    public synchronized void update(String what, long done, long total) {
        if (!terminal || System.nanoTime() - start < SHOW_AFTER_NANOS) {
            return;
        }
        if (bar == null || !what.equals(task)) {
            close();
            task = what;
            bar = new ProgressBarBuilder().setTaskName(what).setInitialMax(total).setStyle(ProgressBarStyle.ASCII)
                    .setConsumer(new ConsoleProgressBarConsumer(err)).setUpdateIntervalMillis(200).build();
        }
        bar.maxHint(total);
        bar.stepTo(done);
    }

    /**
     * Shows {@code what} advancing with the clock towards {@code expected} until the returned
     * handle is closed (for work that reports nothing while it runs); with no expected length
     * (null), a bar that says only how long it has run.
     */
    public Shown timed(String what, Duration expected) {
        if (!terminal) {
            return () -> { };
        }
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ferry-progress");
            t.setDaemon(true);
            return t;
        });
        long t0 = System.nanoTime();
        clock.scheduleAtFixedRate(() -> {
            long s = (System.nanoTime() - t0) / 1_000_000_000L;
            update(what, expected == null ? s : Math.min(s, expected.toSeconds()), expected == null ? -1 : expected.toSeconds());
        }, 200, 200, TimeUnit.MILLISECONDS);
        return () -> {
            clock.shutdownNow();
            clear();
        };
    }

    /** A bar on show until closed. */
    public interface Shown extends AutoCloseable {
        @Override
        void close();
    }

    /** Ends the bar shown, if any. */
    public synchronized void clear() {
        close();
    }

    private void close() {
        if (bar != null) {
            bar.close();
            bar = null;
            task = null;
        }
    }
}
