package dev.ferry.portals;

import java.lang.foreign.MemorySegment;

/**
 * ptl_md_t: the memory an initiator sends from or receives into, with its event queue and
 * counting event. {@code start} is a memory segment (off-heap memory can be moved zero-copy;
 * heap segments work too); {@code length} bytes of it are described. With the {@code IOVEC}
 * option, {@code iovecs} holds the elements and {@code length} their count.
 *
 * <pre>{@code
 * Md md = new Md();
 * md.start = buffer; md.length = buffer.byteSize();
 * md.options = MD_EVENT_CT_ACK; md.eqHandle = EQ_NONE; md.ctHandle = ct;
 * MdHandle h = mdBind(ni, md);
 * }</pre>
 */
public final class Md {
    public MemorySegment start;
    public long length;
    public int options;
    public EqHandle eqHandle = EqHandle.NONE;
    public CtHandle ctHandle = CtHandle.NONE;
    /** The elements when {@code options} has {@code IOVEC}. */
    public Iovec[] iovecs;
}
