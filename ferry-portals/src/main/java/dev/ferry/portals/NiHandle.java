package dev.ferry.portals;

/** A handle to a network interface (ptl_handle_ni_t); see {@link Handle}. */
public final class NiHandle extends Handle {
    NiHandle(Object target) {
        super("network interface", target);
    }
}
