package dev.ferry.portals;

/** A handle to a match list entry (ptl_handle_me_t); see {@link Handle}. */
public final class MeHandle extends Handle {
    MeHandle(Object target) {
        super("match list entry", target);
    }
}
