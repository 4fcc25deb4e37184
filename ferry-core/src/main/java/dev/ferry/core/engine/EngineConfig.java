package dev.ferry.core.engine;

import dev.ferry.core.config.EngineSettings;
import dev.ferry.core.config.FerrySettings;
import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.core.driver.DriverSelection;
import dev.ferry.launch.pmi.Bootstrap;
import dev.ferry.launch.pmi.Bootstraps;
import dev.ferry.spi.Settings;

import java.util.List;
import java.util.Objects;

/**
 * What an engine is made of, given explicitly (in the manner of Aeron's {@code Context}): the
 * bootstrap it wires up through, the drivers it may use, its settings and its progress mode.
 * What is left unset has a default from the {@link #settings(Settings) settings}, which default to
 * the environment: the launcher's bootstrap ({@code PMI_*}), the drivers found on the class path
 * and selected by {@code FERRY_DRIVERS}, the progress mode of {@code FERRY_PROGRESS}, and the
 * engine's own {@link System.Logger} for what it reports. A
 * configuration is used by one {@link Engine#init(EngineConfig, MessageHandler)} (the bootstrap
 * belongs to one rank); the settings object itself may be shared.
 *
 * <pre>{@code
 * EngineConfig c = new EngineConfig()
 *         .settings(Settings.defaults().with("FERRY_EAGER_LIMIT", "8k"))
 *         .bootstrap(boot)                 // e.g. one rank of an InProcessJob
 *         .progress(EngineConfig.Progress.THREAD);
 * try (Engine e = Engine.init(c, handler)) { ... }
 * }</pre>
 */
public final class EngineConfig {
    /** Who makes progress: the threads that call the engine, or a background thread of its own. */
    public enum Progress { CALLER, THREAD }

    private Settings settings = Settings.fromEnvironment();
    private Bootstrap bootstrap;
    private List<DiscoveredDriver> drivers;
    private Progress progress;
    private System.Logger logger;
    private dev.ferry.spi.IdleStrategy idle = dev.ferry.spi.IdleStrategy.DEFAULT;

    /** The settings the engine and its drivers read (default: the environment). */
    public EngineConfig settings(Settings s) {
        this.settings = Objects.requireNonNull(s, "settings");
        return this;
    }

    public Settings settings() {
        return settings;
    }

    /**
     * The bootstrap this rank wires up through; the caller keeps it and closes it after the
     * engine. Unset: the launcher's, from the environment, owned (closed) by the engine.
     */
    public EngineConfig bootstrap(Bootstrap b) {
        this.bootstrap = Objects.requireNonNull(b, "bootstrap");
        return this;
    }

    /** The bootstrap given, or null. */
    public Bootstrap bootstrap() {
        return bootstrap;
    }

    /** The drivers, in order of preference. Unset: those found, as FERRY_DRIVERS of the settings selects. */
    public EngineConfig drivers(List<DiscoveredDriver> d) {
        this.drivers = List.copyOf(d);
        return this;
    }

    /** The drivers given, or else those found and selected by the settings. */
    public List<DiscoveredDriver> resolveDrivers() {
        if (drivers != null) {
            return drivers;
        }
        List<DiscoveredDriver> selected = DriverSelection.parse(settings.value(FerrySettings.DRIVERS))
                .select(DriverCatalog.discover(settings).all());
        return dev.ferry.core.agent.AgentSettings.on(settings) ? dev.ferry.core.agent.AgentDriver.inPlaceOfNetwork(selected) : selected;
    }

    /** The progress mode. Unset: FERRY_PROGRESS of the settings. */
    public EngineConfig progress(Progress p) {
        this.progress = Objects.requireNonNull(p, "progress");
        return this;
    }

    /** The progress mode given, or FERRY_PROGRESS of the settings. */
    public Progress resolveProgress() {
        return progress != null ? progress : EngineSettings.progressThread(settings) ? Progress.THREAD : Progress.CALLER;
    }

    /** Where the engine (and the layer above it) reports warnings and information (default: {@code System.getLogger("dev.ferry.core.engine.Engine")}). */
    public EngineConfig logger(System.Logger l) {
        this.logger = Objects.requireNonNull(l, "logger");
        return this;
    }

    /**
     * How the engine's waiters idle before they doze in the drivers' waits (default
     * {@link dev.ferry.spi.IdleStrategy#DEFAULT}; the engine shortens its spin on a node with more
     * ranks than cores, and ends it in the drivers' sleeping waits).
     */
    public EngineConfig idleStrategy(dev.ferry.spi.IdleStrategy s) {
        this.idle = Objects.requireNonNull(s, "idle strategy");
        return this;
    }

    public dev.ferry.spi.IdleStrategy idleStrategy() {
        return idle;
    }

    /** The logger given, or the engine's default one. */
    public System.Logger resolveLogger() {
        return logger != null ? logger : dev.ferry.spi.LazyLogger.of(Engine.class); // found when first used: most jobs log nothing
    }

    /** The bootstrap given, or a new one from the environment (which the caller then owns). */
    Bootstrap resolveBootstrap() {
        return bootstrap != null ? bootstrap : Bootstraps.fromEnvironment();
    }
}
