package dev.ferry.portals;

/**
 * ptl_search_op_t: what meSearch / leSearch do with the unexpected headers they find: report
 * the first ({@link #SEARCH_ONLY}), or report and delete every one that matches ({@link #SEARCH_DELETE}).
 *
 * <pre>{@code
 * meSearch(ni, pt, probe, SearchOp.SEARCH_ONLY, null);   // one EVENT_SEARCH on the pt's queue
 * }</pre>
 */
public enum SearchOp {
    SEARCH_ONLY,
    SEARCH_DELETE
}
