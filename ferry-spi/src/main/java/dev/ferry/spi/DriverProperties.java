package dev.ferry.spi;

import java.util.Objects;

/**
 * A driver's answer to {@link DriverContext#properties()}: its capabilities and its profile.
 *
 * <pre>{@code
 * DriverProperties p = ctx.properties();
 * if (p.capabilities().supportsBufSend()) { ... }
 * }</pre>
 */
public record DriverProperties(Capabilities capabilities, Profile profile) {
    public DriverProperties {
        Objects.requireNonNull(capabilities, "capabilities");
        Objects.requireNonNull(profile, "profile");
    }
}
