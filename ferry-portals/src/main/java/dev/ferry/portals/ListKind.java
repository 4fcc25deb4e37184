package dev.ferry.portals;

/**
 * ptl_list_t: which list of a portal table entry an entry is appended to, or where a message
 * landed ({@code Event.ptlList}).
 *
 * <pre>{@code
 * meAppend(ni, pt, me, ListKind.OVERFLOW_LIST, null);
 * }</pre>
 */
public enum ListKind {
    PRIORITY_LIST,
    OVERFLOW_LIST;

    private static final ListKind[] VALUES = values();

    /** The constant at wire index {@code i}, or null when there is none (a malformed header). */
    static ListKind fromWire(int i) {
        return PtlWire.code(VALUES, i);
    }
}
