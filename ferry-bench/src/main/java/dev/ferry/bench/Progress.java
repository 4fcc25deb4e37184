package dev.ferry.bench;

import java.io.PrintStream;

/**
 * A one-line progress report on the terminal, for runs longer than a few seconds: shown only when
 * standard error is a terminal, redrawn at most five times a second, erased at the end.
 */
final class Progress {
    private static final long SHOW_AFTER_NANOS = 2_000_000_000L;
    private static final long REDRAW_NANOS = 200_000_000L;
    private final PrintStream err;
    private final boolean terminal;
    private final long start = System.nanoTime();
    private long lastDraw;
    private boolean drawn;

    Progress(PrintStream err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    static Progress forTerminal(PrintStream err) {
        return new Progress(err, System.console() != null && System.console().isTerminal());
    }

    /** Reports that {@code what} is {@code done} of {@code total} through. Cheap enough to call per sample. */
    void update(String what, long done, long total) {
        if (!terminal) {
            return;
        }
        long now = System.nanoTime();
        if (now - start < SHOW_AFTER_NANOS || now - lastDraw < REDRAW_NANOS) {
            return;
        }
        lastDraw = now;
        drawn = true;
        err.printf("\r\033[K%s %d%% (%ds)", what, total == 0 ? 100 : done * 100 / total, (now - start) / 1_000_000_000L);
        err.flush();
    }

    void clear() {
        if (drawn) {
            err.print("\r\033[K");
            err.flush();
            drawn = false;
        }
    }
}
