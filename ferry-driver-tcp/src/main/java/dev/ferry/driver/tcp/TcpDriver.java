package dev.ferry.driver.tcp;

import dev.ferry.spi.Driver;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.Hints;
import dev.ferry.spi.Setting;

import java.util.List;

/**
 * The {@code tcp} driver, Ferry's remote transport (seed 001): non-blocking NIO sockets, one
 * connection per instance, a handshake that checks the job key and the ranks, bounds-checked
 * frames, gathering writes and scattering reads, and a selector per context for probe-any and
 * wait-any.
 *
 * <pre>{@code
 * DriverContext ctx = new TcpDriver().newContext(new Hints(size, rank, true, Map.of(Hints.JOB_KEY, key)));
 * ctx.properties();
 * DriverUrl url = ctx.init();          // every usable interface address, or the first one
 * DriverInstance peer = ctx.newInstance();
 * peer.connectAsync(remoteUrl);        // never blocks
 * peer.connectWait();
 * }</pre>
 *
 * <p>A context can be bound to one interface (one rail) with the context attribute
 * {@link #INTERFACE_ATTRIBUTE} (an interface name or CIDR), overriding FERRY_TCP_INTERFACES.
 */
public final class TcpDriver implements Driver {
    /** Context attribute: bind this context to one interface (name or CIDR). */
    public static final String INTERFACE_ATTRIBUTE = "tcp.interface";

    @Override
    public String name() {
        return "tcp";
    }

    @Override
    public String description() {
        return "TCP sockets (NIO): any node; job key proved by challenge and response, TLS 1.3 with FERRY_TCP_TLS=on, bounded frames, gathering writes";
    }

    @Override
    public List<Setting> settings() {
        return TcpSettings.all();
    }

    @Override
    public DriverContext newContext(Hints hints) {
        return new TcpContext(hints);
    }
}
