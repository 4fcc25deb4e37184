package dev.ferry.spi;

/**
 * A reusable out-parameter for the context-wide calls {@link DriverContext#recvProbeAny} and
 * {@link DriverContext#recvWaitAny}: they set {@link #instance} when they answer
 * {@link Status#DONE}, so the hot path allocates nothing.
 *
 * <pre>{@code
 * InstanceRef ready = new InstanceRef();       // once
 * if (ctx.recvProbeAny(ready) == Status.DONE) {
 *     ready.instance.recvPoll(packet);         // guaranteed to succeed immediately
 * }
 * }</pre>
 */
public final class InstanceRef {
    /** The instance with data ready, set by the driver. */
    public DriverInstance instance;
}
