package dev.ferry.spi;

/**
 * A reusable out-parameter of {@link DriverContext#acceptProbe}: the URL of a peer context that is
 * connecting to this one while no instance here has connected to it yet.
 *
 * <p>Seed 000 has both ends call {@code connect_async}; it leaves open how the passive end learns
 * that it should. An engine that connects on first use (rather than to every peer at start) needs
 * to know, or a peer's first message would wait forever for an instance to claim it. Like
 * libfabric's {@code FI_CONNREQ} event or a UCX listener's connection request.
 *
 * <pre>{@code
 * ConnectRequest req = new ConnectRequest();
 * while (ctx.acceptProbe(req) == Status.DONE) {
 *     DriverInstance inst = ctx.newInstance();
 *     inst.connectAsync(req.url);          // claims the peer's connection
 * }
 * }</pre>
 */
public final class ConnectRequest {
    /** The connecting peer's URL, as it published it; set by the driver. */
    public DriverUrl url;
    /**
     * The connecting peer's rank where its URL tells it (the driver put the rank in it), else -1:
     * an engine that looks URLs up on first contact checks the rank's URL rather than holding
     * every rank's. Set by the driver with {@link #url}.
     */
    public int rank = -1;
}
