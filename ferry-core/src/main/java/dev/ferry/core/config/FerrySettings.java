package dev.ferry.core.config;

import dev.ferry.spi.Setting;

import java.util.List;

/**
 * The settings the core reads. Drivers declare their own through
 * {@link dev.ferry.spi.Driver#settings()}; {@code ferry info} lists both.
 *
 * <pre>{@code
 * String wanted = FerrySettings.DRIVERS.value();   // e.g. "shm,tcp" or "^tcp", null when unset
 * }</pre>
 */
public final class FerrySettings {
    /** Ordered list of drivers to use, first preferred; {@code ^name} excludes one (seed 002, like UCX_TLS). */
    public static final Setting DRIVERS = new Setting("FERRY_DRIVERS", null,
            "drivers to use, first preferred, comma-separated; ^name excludes a driver; unset: every driver found",
            Setting.Type.LIST, "core");
    /** A directory of plugin jars, each providing drivers through META-INF/services (seed 002's dynamically loaded modules). */
    public static final Setting DRIVER_PATH = new Setting("FERRY_DRIVER_PATH", null,
            "directory of driver plugin jars, loaded at run time (several directories separated by ':')",
            Setting.Type.LIST, "core");

    private FerrySettings() {
    }

    /** Every core setting, in the order {@code ferry info} shows them. */
    public static List<Setting> all() {
        return List.of(DRIVERS, DRIVER_PATH);
    }
}
