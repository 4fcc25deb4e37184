package dev.ferry.spi;

/**
 * Outcome of a driver call (seed 000's error codes, plus the two non-error outcomes).
 *
 * <p>Hot-path calls return one of these constants and never allocate or throw for an ordinary
 * outcome. {@link #NOT_IMPLEMENTED} and {@link #INVALID} are non-fatal: the connection is intact
 * and the caller may carry on.
 *
 * <pre>{@code
 * Status s;
 * while ((s = instance.sendPoll(packet)) == Status.NOT_YET) Thread.onSpinWait();
 * if (s != Status.DONE) throw new IllegalStateException("send failed: " + s);
 * }</pre>
 */
public enum Status {
    /** The operation completed. */
    DONE,
    /** Not complete yet (NM_EAGAIN): poll again later. From a post or buffer get: nothing was posted, try again. */
    NOT_YET,
    /** The connection is broken; the peer is now considered unreachable (NM_EBROKEN). Fatal for the instance. */
    BROKEN,
    /** Send or receive on a connection, or call on a context, that was closed or disconnected (NM_ECLOSED). */
    CLOSED,
    /** The driver does not implement this optional operation (NM_ENOTIMPL). Non-fatal. */
    NOT_IMPLEMENTED,
    /** An invalid parameter was given (NM_EINVAL), e.g. a packet over the maximum size. Non-fatal. */
    INVALID,
    /** A blocking wait was ended by a cancel call ({@link DriverContext#recvCancelAny()}) (NM_ECANCELED). */
    CANCELED;

    /** True for the outcomes that end the connection: {@link #BROKEN} and {@link #CLOSED}. */
    public boolean isFatal() {
        return this == BROKEN || this == CLOSED;
    }
}
