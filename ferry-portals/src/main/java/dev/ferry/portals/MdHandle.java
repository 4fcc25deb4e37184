package dev.ferry.portals;

/** A handle to a memory descriptor (ptl_handle_md_t); see {@link Handle}. */
public final class MdHandle extends Handle {
    MdHandle(Object target) {
        super("memory descriptor", target);
    }
}
