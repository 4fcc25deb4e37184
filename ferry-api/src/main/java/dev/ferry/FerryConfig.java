package dev.ferry;

import dev.ferry.launch.pmi.Bootstrap;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How a {@link Ferry} instance is made, given explicitly; what is left unset comes from the
 * environment ({@code FERRY_*} variables, each also a {@code ferry.*} system property), as under
 * {@code ferry run}. Settings are those {@code ferry info} lists (drivers, eager limit, rails...).
 *
 * <pre>{@code
 * FerryConfig c = new FerryConfig()
 *         .set("FERRY_DRIVERS", "shm,tcp")
 *         .progressThread(true)          // a background thread makes progress
 *         .logger(System.getLogger("my.app"));
 * try (Ferry ferry = Ferry.init(c)) { ... }
 * }</pre>
 */
public final class FerryConfig {
    private final Map<String, String> settings = new LinkedHashMap<>();
    private boolean environment = true;
    private Boolean progressThread;
    private System.Logger logger;
    private Bootstrap bootstrap;

    /** Sets a {@code FERRY_*} setting (overrides the environment's value). */
    public FerryConfig set(String name, String value) {
        settings.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
        return this;
    }

    /** Whether settings not set here come from the environment (default) or are Ferry's defaults. */
    public FerryConfig environment(boolean consult) {
        this.environment = consult;
        return this;
    }

    /** Whether a background thread makes progress (default: FERRY_PROGRESS; callers make it). */
    public FerryConfig progressThread(boolean thread) {
        this.progressThread = thread;
        return this;
    }

    /** Where Ferry reports (default: its own System.Logger). */
    public FerryConfig logger(System.Logger logger) {
        this.logger = Objects.requireNonNull(logger, "logger");
        return this;
    }

    /** A copy, for one rank of an in-process job. */
    FerryConfig copy() {
        FerryConfig c = new FerryConfig();
        c.settings.putAll(settings);
        c.environment = environment;
        c.progressThread = progressThread;
        c.logger = logger;
        return c;
    }

    FerryConfig bootstrap(Bootstrap b) {
        this.bootstrap = b;
        return this;
    }

    Bootstrap bootstrap() {
        return bootstrap;
    }

    Map<String, String> settings() {
        return settings;
    }

    boolean environment() {
        return environment;
    }

    Boolean progressThread() {
        return progressThread;
    }

    System.Logger logger() {
        return logger;
    }
}
