package dev.ferry.portals;

/** A handle to a counting event (ptl_handle_ct_t); see {@link Handle}. */
public final class CtHandle extends Handle {
    /** PTL_CT_NONE: no counting event. */
    public static final CtHandle NONE = new CtHandle(null);

    CtHandle(Object target) {
        super("counting event", target);
    }
}
