package dev.ferry.driver.ucx;

import dev.ferry.spi.Driver;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.Hints;
import dev.ferry.spi.Setting;

import java.util.List;

/**
 * The {@code ucx} driver: Ferry on InfiniBand and RoCE clusters (and anything else UCX drives)
 * through UCX's UCP layer, by JUCX 1.12.1. A context is a UCP context and worker, its URL the
 * worker address; instances are UCP endpoints. Packets up to the buffer size go as UCP tagged
 * messages; larger ones are pulled by the receiver with UCP gets straight from the sender's
 * registered memory (target-initiated), the memory key and address carried in a rendezvous
 * descriptor. Registrations are cached.
 *
 * <p>When libucp is missing or of a version JUCX 1.12 cannot use, {@code properties()} throws a
 * DriverException naming the reason, and the driver is listed as unavailable.
 *
 * <pre>{@code
 * DriverContext ctx = new UcxDriver().newContext(new Hints(size, rank, true, Map.of(Hints.JOB_KEY, key)));
 * ctx.properties();                    // DriverException when UCX is unusable here
 * DriverUrl url = ctx.init();          // the worker address
 * DriverInstance peer = ctx.newInstance();
 * peer.connectAsync(remoteUrl);        // creates the endpoint; never blocks
 * }</pre>
 */
public final class UcxDriver implements Driver {
    @Override
    public String name() {
        return "ucx";
    }

    @Override
    public String description() {
        String v = UcxLibrary.version();
        return "UCX " + (v != null ? v : "(not found)") + " through JUCX 1.12.1: RDMA, shared memory or tcp as UCX chooses;"
                + " tagged eager packets, zero-copy UCP gets for large ones";
    }

    @Override
    public List<Setting> settings() {
        return UcxSettings.all();
    }

    @Override
    public DriverContext newContext(Hints hints) {
        return new UcxContext(hints);
    }
}
