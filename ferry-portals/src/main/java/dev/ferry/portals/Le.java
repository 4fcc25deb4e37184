package dev.ferry.portals;

import java.lang.foreign.MemorySegment;

/**
 * ptl_le_t: a list entry on a non-matching interface: memory a target exposes, who may reach it
 * ({@code uid}, or {@code UID_ANY}), its counting event and its options ({@code LE_OP_PUT},
 * {@code LE_USE_ONCE}, ...).
 *
 * <pre>{@code
 * Le le = new Le();
 * le.start = window; le.length = window.byteSize();
 * le.uid = UID_ANY; le.options = LE_OP_PUT | LE_OP_GET; le.ctHandle = CT_NONE;
 * LeHandle h = leAppend(ni, pt, le, PRIORITY_LIST, null);
 * }</pre>
 */
public final class Le {
    public MemorySegment start;
    public long length;
    public CtHandle ctHandle = CtHandle.NONE;
    public int uid = Portals.UID_ANY;
    public int options;
    /** The elements when {@code options} has {@code IOVEC}. */
    public Iovec[] iovecs;
}
