package dev.ferry.core.wire;

import dev.ferry.spi.Capabilities;
import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Puts the bytes of a {@link DataLayout} into a packet in a form the rail's driver takes (seed
 * 000's capabilities): as the layout itself where the driver has data-based transfers; else as an
 * iovec of the layout's segments, where they are no more than the driver's iovecs take (one,
 * without iovec support); else through a contiguous bounce buffer, copied in before a send and out
 * after a receive. Real drivers have data layouts, so the engine's paths over them stay as they
 * were; a driver with iovecs or contiguous buffers only still works under the engine.
 *
 * <pre>{@code
 * LayoutForm form = new LayoutForm(caps);
 * form.send(packet, layout);            // then sendPost(packet)
 * form.receive(packet, layout);         // then recvPost(packet); once DONE:
 * form.received(packet, layout);        // a bounce's bytes copied into the layout
 * }</pre>
 */
public final class LayoutForm {
    private final boolean data;
    private final int maxSegments;

    public LayoutForm(Capabilities caps) {
        this.data = caps.supportsData();
        this.maxSegments = caps.supportsIovec() ? caps.maxIovecSegments() : 1;
    }

    /** Whether the driver takes data layouts as they are (the common case: nothing to convert). */
    boolean direct() {
        return data;
    }

    /** Sets {@code p} up to send {@code l}'s bytes (reset first). */
    public void send(Packet p, DataLayout l) {
        use(p, l, true);
    }

    /** Sets {@code p} up to receive into {@code l} (reset first); after the receive, {@link #received}. */
    public void receive(Packet p, DataLayout l) {
        use(p, l, false);
    }

    /** {@code p} set up with {@code l} in the driver's form; a bounce buffer gets {@code l}'s bytes when {@code sending}. */
    private void use(Packet p, DataLayout l, boolean sending) {
        p.reset();
        if (data) {
            p.useData(l);
        } else if (l.segmentCount() <= maxSegments) {
            p.useIov(iovec(l));
        } else {
            MemorySegment bounce = Arena.ofAuto().allocate(Math.max(1, l.size()), 8).asSlice(0, l.size());
            if (sending) {
                new DataCursor().reset(l).copyTo(bounce, 0, l.size());
            }
            p.useIov(IoVec.of(bounce));
        }
    }

    /** A receive set up by {@link #receive} completed with {@code n} bytes: a bounce's are copied into {@code l}. */
    public void received(Packet p, DataLayout l, long n) {
        if (!data && l.segmentCount() > maxSegments) {
            new DataCursor().reset(l).copyFrom(p.iov().get(0), 0, n);
        }
    }

    /** The layout's segments as an iovec (made for each packet: only restricted drivers take this path). */
    private static IoVec iovec(DataLayout l) {
        int n = (int) l.segmentCount();
        IoVec v = new IoVec(Math.max(1, n));
        for (int i = 0; i < n; i++) {
            MemorySegment base = l.segmentBase(i);
            long off = l.segmentOffset(i);
            long len = l.segmentLength(i);
            v.add(off == 0 && len == base.byteSize() ? base : base.asSlice(off, len));
        }
        return v;
    }
}
