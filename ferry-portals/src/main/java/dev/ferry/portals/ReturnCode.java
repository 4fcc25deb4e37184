package dev.ferry.portals;

/**
 * The Portals return codes (ptl_retvals), by the specification's names without the {@code PTL_}
 * prefix. Ordinary outcomes ({@link #EQ_EMPTY}, {@link #EQ_DROPPED}, {@link #CT_NONE_REACHED})
 * are returned by the calls that can produce them; every other code but {@link #OK} is thrown as
 * a {@link PtlException} that carries it.
 *
 * <pre>{@code
 * EqResult r = eqGet(eq);
 * if (r.rc() == ReturnCode.EQ_EMPTY) { ... nothing yet ... }
 * }</pre>
 */
public enum ReturnCode {
    /** Success. */
    OK,
    /** One of the arguments is invalid (a bad value, a freed or foreign handle, a range outside a buffer). */
    ARG_INVALID,
    /** A poll of counting events timed out before any reached its test. */
    CT_NONE_REACHED,
    /** At least one event was dropped because the event queue was full; the event returned is the next one. */
    EQ_DROPPED,
    /** No event was available. */
    EQ_EMPTY,
    /** A failure that no other code describes. */
    FAIL,
    /** The call had no effect (reserved by the specification for implementation-defined cases). */
    IGNORED,
    /** The resource is in use (an MD with operations in flight, a portal table entry with entries attached). */
    IN_USE,
    /** A wait was interrupted (the network interface was finalized, or a peer failed while waiting on it). */
    INTERRUPTED,
    /** The list would exceed the interface's max_list_size. */
    LIST_TOO_LONG,
    /** Portals was not initialized ({@code init} not called, or {@code fini} already called as often). */
    NO_INIT,
    /** Not enough resources: a limit of the interface was reached. */
    NO_SPACE,
    /** The requested process id is in use. */
    PID_IN_USE,
    /** Every portal table entry is allocated. */
    PT_FULL,
    /** Flow control was requested without an event queue. */
    PT_EQ_NEEDED,
    /** The requested portal table entry is allocated. */
    PT_IN_USE,
    /** The operation was aborted. */
    ABORTED
}
