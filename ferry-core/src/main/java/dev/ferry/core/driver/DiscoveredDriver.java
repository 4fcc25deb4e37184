package dev.ferry.core.driver;

import dev.ferry.spi.Driver;
import dev.ferry.spi.DriverProperties;

import java.util.Objects;

/**
 * A driver found by {@link DriverCatalog}: where it came from, and either its properties (asked
 * on a probe context) or why it cannot be used on this machine.
 *
 * @param name       the driver's name
 * @param source     where it was found: {@code classpath:LOCATION} or {@code plugin:JAR}
 * @param driver     the driver
 * @param properties its properties, or null when unavailable
 * @param problem    why it is unavailable, or null when available
 * @param badSetting the problem is a setting the driver does not understand (an error wherever
 *                   the driver would be used, not a reason to do without it)
 */
public record DiscoveredDriver(String name, String source, Driver driver, DriverProperties properties, String problem,
                               boolean badSetting) {
    public DiscoveredDriver(String name, String source, Driver driver, DriverProperties properties, String problem) {
        this(name, source, driver, properties, problem, false);
    }

    public DiscoveredDriver {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(driver, "driver");
        if ((properties == null) == (problem == null)) {
            throw new IllegalArgumentException("exactly one of properties and problem");
        }
    }

    public boolean available() {
        return properties != null;
    }
}
