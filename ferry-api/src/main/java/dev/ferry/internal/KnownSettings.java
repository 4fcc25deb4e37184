package dev.ferry.internal;

import dev.ferry.core.config.EngineSettings;
import dev.ferry.core.config.FerrySettings;
import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.launch.LaunchSettings;
import dev.ferry.portals.PortalsSettings;
import dev.ferry.spi.JobSettings;
import dev.ferry.spi.Setting;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every setting Ferry reads, each as it is declared once by the layer or driver that reads it:
 * the core's driver selection, the job's, the launcher's, the engine's, the Portals library's,
 * the collectives' and the tools interface's, then each driver's ({@link dev.ferry.spi.Driver#settings()}).
 * What {@code ferry info} lists, the names it does not flag as unknown, and what the JMX bean shows.
 *
 * <pre>{@code
 * for (Setting s : KnownSettings.all(DriverCatalog.discover())) System.out.println(s.name() + ": " + s.reader());
 * }</pre>
 */
public final class KnownSettings {
    private KnownSettings() {
    }

    /** The settings of the layers, then those of the drivers in {@code catalog}; each name once. */
    public static List<Setting> all(DriverCatalog catalog) {
        Map<String, Setting> byName = new LinkedHashMap<>();
        List<Setting> layers = new ArrayList<>(FerrySettings.all());
        layers.addAll(dev.ferry.core.agent.AgentSettings.all());
        layers.addAll(JobSettings.all());
        layers.addAll(LaunchSettings.all());
        layers.addAll(EngineSettings.all());
        layers.addAll(PortalsSettings.all());
        layers.addAll(CollectiveSettings.all());
        layers.addAll(ToolSettings.all());
        for (Setting s : layers) {
            byName.putIfAbsent(s.name(), s);
        }
        for (DiscoveredDriver d : catalog.all()) {
            for (Setting s : settingsOf(d)) {
                byName.putIfAbsent(s.name(), s); // a driver may name a shared one (FERRY_JOB_KEY): declared once above
            }
        }
        return List.copyOf(byName.values());
    }

    /** A driver's own settings; none when asking fails (a broken plugin is reported elsewhere). */
    public static List<Setting> settingsOf(DiscoveredDriver d) {
        try {
            return d.driver().settings();
        } catch (RuntimeException e) {
            return List.of();
        }
    }
}
