package dev.ferry.portals;

/**
 * A Portals call failed: {@link #rc()} is the specification's return code, the message says what
 * was wrong.
 *
 * <pre>{@code
 * try {
 *     ptAlloc(ni, 0, EQ_NONE, 7);
 * } catch (PtlException e) {
 *     if (e.rc() == ReturnCode.PT_IN_USE) { ... }
 * }
 * }</pre>
 */
public final class PtlException extends RuntimeException {
    private final ReturnCode rc;

    public PtlException(ReturnCode rc, String message) {
        super("PTL_" + rc + ": " + message);
        this.rc = rc;
    }

    /** With the failure that caused it (an engine that did not start). */
    public PtlException(ReturnCode rc, String message, Throwable cause) {
        super("PTL_" + rc + ": " + message, cause);
        this.rc = rc;
    }

    /** The return code. */
    public ReturnCode rc() {
        return rc;
    }
}
