package dev.ferry.portals;

/** A handle to a event queue (ptl_handle_eq_t); see {@link Handle}. */
public final class EqHandle extends Handle {
    /** PTL_EQ_NONE: no event queue. */
    public static final EqHandle NONE = new EqHandle(null);

    EqHandle(Object target) {
        super("event queue", target);
    }
}
