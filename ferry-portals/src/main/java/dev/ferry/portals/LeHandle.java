package dev.ferry.portals;

/** A handle to a list entry (ptl_handle_le_t); see {@link Handle}. */
public final class LeHandle extends Handle {
    LeHandle(Object target) {
        super("list entry", target);
    }
}
