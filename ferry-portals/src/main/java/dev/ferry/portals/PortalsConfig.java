package dev.ferry.portals;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.core.engine.EngineConfig;
import dev.ferry.launch.pmi.Bootstrap;
import dev.ferry.spi.Settings;

import java.util.List;

/**
 * What a {@link PortalsLibrary} is made of, given explicitly (in the manner of Aeron's
 * {@code Context}): its settings (the library's, its engine's and its drivers'), the bootstrap of
 * its rank, the drivers it may use, its progress mode and its logger. Unset, each comes from the settings,
 * which default to the environment (the launcher's bootstrap, {@code FERRY_DRIVERS},
 * {@code FERRY_PROGRESS}, {@code FERRY_PORTALS_DIRECT}). One configuration opens one library.
 *
 * <pre>{@code
 * PortalsConfig c = new PortalsConfig()
 *         .settings(Settings.defaults().with("FERRY_PORTALS_DIRECT", "off"))
 *         .bootstrap(boot);                 // e.g. a rank of an InProcessJob
 * try (PortalsLibrary ptl = PortalsLibrary.open(c)) { ... }
 * }</pre>
 */
public final class PortalsConfig {
    private final EngineConfig engine = new EngineConfig();

    /** The settings of the library, its engine and drivers (default: the environment). */
    public PortalsConfig settings(Settings s) {
        engine.settings(s);
        return this;
    }

    public Settings settings() {
        return engine.settings();
    }

    /** The bootstrap of this rank, which the caller keeps (default: the launcher's, from the environment). */
    public PortalsConfig bootstrap(Bootstrap b) {
        engine.bootstrap(b);
        return this;
    }

    /** The drivers, in order of preference (default: those found, as FERRY_DRIVERS selects). */
    public PortalsConfig drivers(List<DiscoveredDriver> d) {
        engine.drivers(d);
        return this;
    }

    /** The progress mode (default: FERRY_PROGRESS). */
    public PortalsConfig progress(EngineConfig.Progress p) {
        engine.progress(p);
        return this;
    }

    /** Where the library and its engine report warnings and information (default: their class loggers). */
    public PortalsConfig logger(System.Logger l) {
        engine.logger(l);
        return this;
    }

    /** The engine's part of this configuration. */
    EngineConfig engine() {
        return engine;
    }
}
