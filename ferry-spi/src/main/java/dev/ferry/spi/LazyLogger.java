package dev.ferry.spi;

import java.util.ResourceBundle;
import java.util.function.Supplier;

/**
 * A {@link System.Logger} that finds its logger at its first use, not when it is made: finding the
 * first logger of a process starts the logging back end (the service lookup of a
 * {@code LoggerFinder}, java.util.logging's configuration), about 10 ms of a rank's start, which
 * a job that logs nothing need not pay. The JDK's own modules defer their loggers the same way.
 *
 * <pre>{@code
 * private static final System.Logger LOG = LazyLogger.of(ShmFiles.class);
 * }</pre>
 */
public final class LazyLogger implements System.Logger {
    private final String name;
    private volatile System.Logger delegate;

    private LazyLogger(String name) {
        this.name = name;
    }

    /** A logger named {@code name}, found at its first use. */
    public static System.Logger of(String name) {
        return new LazyLogger(name);
    }

    /** A logger named for {@code type}, found at its first use. */
    public static System.Logger of(Class<?> type) {
        return new LazyLogger(type.getName());
    }

    private System.Logger delegate() {
        System.Logger d = delegate;
        if (d == null) {
            d = System.getLogger(name);
            delegate = d;
        }
        return d;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public boolean isLoggable(Level level) {
        return delegate().isLoggable(level);
    }

    @Override
    public void log(Level level, String msg) {
        delegate().log(level, msg);
    }

    @Override
    public void log(Level level, Supplier<String> msgSupplier) {
        delegate().log(level, msgSupplier);
    }

    @Override
    public void log(Level level, Object obj) {
        delegate().log(level, obj);
    }

    @Override
    public void log(Level level, String msg, Throwable thrown) {
        delegate().log(level, msg, thrown);
    }

    @Override
    public void log(Level level, Supplier<String> msgSupplier, Throwable thrown) {
        delegate().log(level, msgSupplier, thrown);
    }

    @Override
    public void log(Level level, String format, Object... params) {
        delegate().log(level, format, params);
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
        delegate().log(level, bundle, msg, thrown);
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        delegate().log(level, bundle, format, params);
    }
}
