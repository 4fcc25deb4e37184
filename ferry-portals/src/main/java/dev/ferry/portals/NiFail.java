package dev.ferry.portals;

/**
 * ptl_ni_fail_t: the {@code niFailType} of an event: whether the operation it reports succeeded,
 * and if not, why.
 *
 * <pre>{@code
 * if (event.niFailType != NiFail.NI_OK) { ... }
 * }</pre>
 */
public enum NiFail {
    /** Success. */
    NI_OK,
    /** The target could not be reached (it died, or its interface is not up). */
    NI_UNDELIVERABLE,
    /** The portal table entry at the target was disabled. */
    NI_PT_DISABLED,
    /** The target dropped the message (no entry matched). */
    NI_DROPPED,
    /** The entry's uid does not admit the initiator. */
    NI_PERM_VIOLATION,
    /** The entry does not allow the operation (a put on an entry without OP_PUT, ...). */
    NI_OP_VIOLATION,
    /** The operation touched memory outside a buffer. */
    NI_SEGV,
    /** A search found no matching header. */
    NI_NO_MATCH;

    private static final NiFail[] VALUES = values();

    /** The constant at wire index {@code i}, or null when there is none (a malformed header). */
    static NiFail fromWire(int i) {
        return PtlWire.code(VALUES, i);
    }
}
