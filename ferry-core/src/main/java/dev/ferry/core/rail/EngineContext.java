package dev.ferry.core.rail;

import dev.ferry.spi.Capabilities;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.Profile;

/**
 * One driver context the engine uses: a rail to every peer it reaches.
 *
 * @param id         index of this context in the engine, for statistics
 * @param name       the driver's name, with {@code .N} for a second and further context of one driver
 * @param driver     the driver's name
 * @param description the driver's own description
 * @param context    the open context
 * @param caps       its capabilities
 * @param profile    its profile
 */
public record EngineContext(int id, String name, String driver, String description, DriverContext context, Capabilities caps, Profile profile) {
    /** Largest engine packet on a rail of this context: a driver buffer where there are buffers, else 16 KiB. */
    public int packetLimit() {
        if (caps.supportsBufSend() && caps.supportsBufRecv() && caps.maxBufferSize() >= 1024) {
            return (int) Math.min(caps.maxBufferSize(), 64 * 1024);
        }
        return 16 * 1024;
    }
}
