package dev.ferry.driver.tcp;

import java.util.concurrent.TimeUnit;

/**
 * At most one warning per interval about what outsiders cause (refused or broken handshakes): a
 * port scan or a flood of bad connections must not flood the job's output. The first warning of
 * an interval is logged; the others of that interval are counted, logged at DEBUG, and summed up
 * in the next warning. Used by one thread (the set-up thread).
 *
 * <pre>{@code
 * WarningLimit w = new WarningLimit(LOG, TimeUnit.SECONDS.toNanos(10));
 * w.warn("tcp: refused a connection from {0}: {1}", remote, why);
 * }</pre>
 */
final class WarningLimit {
    static final long DEFAULT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final System.Logger log;
    private final long intervalNanos;
    private long nextAt = System.nanoTime();
    private long suppressed;

    WarningLimit(System.Logger log, long intervalNanos) {
        this.log = log;
        this.intervalNanos = intervalNanos;
    }

    void warn(String format, Object... args) {
        long now = System.nanoTime();
        if (now - nextAt >= 0) {
            nextAt = now + intervalNanos;
            if (suppressed > 0) {
                log.log(System.Logger.Level.WARNING, "tcp: {0} more such warning(s) in the last {1} s, not shown",
                        suppressed, TimeUnit.NANOSECONDS.toSeconds(intervalNanos));
                suppressed = 0;
            }
            log.log(System.Logger.Level.WARNING, format, args);
        } else {
            suppressed++;
            log.log(System.Logger.Level.DEBUG, format, args);
        }
    }
}
