package dev.ferry.spi;

import java.util.List;

/**
 * A network driver (seed 000's {@code nm_minidriver_iface_s}), found with
 * {@link java.util.ServiceLoader}: list the implementation in
 * {@code META-INF/services/dev.ferry.spi.Driver} of its jar. A driver depends on this module alone.
 *
 * <p>A driver with a context corresponds to a NIC; one driver may have several contexts (one per
 * rail in multi-rail). Life cycle of a context, in order:
 * <ol>
 *   <li>{@link #newContext(Hints)}: cheap, takes no resources;</li>
 *   <li>{@link DriverContext#properties()}: exactly once, before init;</li>
 *   <li>{@link DriverContext#init()}: returns the context's URL;</li>
 *   <li>{@link DriverContext#newInstance()} once per gate (peer), then connect, transfer, disconnect;</li>
 *   <li>{@link DriverContext#close()}: last; any call after it is an error.</li>
 * </ol>
 *
 * <pre>{@code
 * Driver drv = ServiceLoader.load(Driver.class).stream()
 *     .map(ServiceLoader.Provider::get).filter(d -> d.name().equals("self")).findFirst().orElseThrow();
 * try (DriverContext ctx = drv.newContext(Hints.single())) {
 *     DriverProperties props = ctx.properties();
 *     DriverUrl url = ctx.init();
 *     DriverInstance peer = ctx.newInstance();
 *     peer.connectAsync(remoteUrl);
 *     ...
 * }
 * }</pre>
 */
public interface Driver {
    /** Short unique name, lower case: {@code self}, {@code shm}, {@code tcp}. Used by FERRY_DRIVERS. */
    String name();

    /** One line for humans ({@code ferry info}). */
    String description();

    /** The FERRY_* settings this driver reads, so that {@code ferry info} can show them. */
    default List<Setting> settings() {
        return List.of();
    }

    /** A new, uninitialised context; ask its {@link DriverContext#properties()} next. */
    DriverContext newContext(Hints hints);
}
