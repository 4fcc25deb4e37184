package dev.ferry.portals;

/**
 * ptl_handle_any_t: a Portals object (network interface, MD, ME, LE, event queue, counting event)
 * as the program holds it. A handle stays a valid Java object after its object was freed; the
 * library answers {@code ARG_INVALID} when it is used then, or on another interface than its own.
 *
 * <pre>{@code
 * if (handleIsEqual(a, b)) { ... }
 * NiHandle ni = niHandle(mdHandle);
 * }</pre>
 */
public abstract sealed class Handle permits NiHandle, MdHandle, MeHandle, LeHandle, EqHandle, CtHandle, Handle.Invalid {
    /** The library object behind the handle (null for the NONE and INVALID constants). */
    final Object target;
    private final String kind;

    Handle(String kind, Object target) {
        this.kind = kind;
        this.target = target;
    }

    /** PTL_INVALID_HANDLE. */
    static final class Invalid extends Handle {
        Invalid() {
            super("invalid handle", null);
        }
    }

    @Override
    public String toString() {
        return target == null ? kind + " (none)" : kind + " " + target;
    }
}
