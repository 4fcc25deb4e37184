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
    OVERFLOW_LIST
}
