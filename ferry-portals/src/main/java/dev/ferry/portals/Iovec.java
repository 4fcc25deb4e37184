package dev.ferry.portals;

import java.lang.foreign.MemorySegment;

/**
 * ptl_iovec_t: one element of a scatter/gather list, used when an MD, ME or LE has the
 * {@code IOVEC} option. In Java the list is an array of these in the structure's {@code iovecs}
 * field (the C API's {@code start} pointing at an array), and {@code length} is its element count.
 *
 * <pre>{@code
 * md.options = IOVEC;
 * md.iovecs = new Iovec[] {new Iovec(a, 64), new Iovec(b, 4096)};
 * md.length = 2;
 * }</pre>
 */
public record Iovec(MemorySegment iovBase, long iovLen) {
}
