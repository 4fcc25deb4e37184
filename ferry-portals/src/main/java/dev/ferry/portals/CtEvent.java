package dev.ferry.portals;

/**
 * ptl_ct_event_t: the two values of a counting event.
 *
 * <pre>{@code
 * CtEvent c = ctGet(ct);
 * if (c.failure() > 0) { ... some operation failed ... }
 * }</pre>
 */
public record CtEvent(long success, long failure) {
}
