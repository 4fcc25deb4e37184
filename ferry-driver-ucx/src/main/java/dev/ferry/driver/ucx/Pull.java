package dev.ferry.driver.ucx;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpRemoteKey;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucs.UcsConstants;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The receiving side of one rendezvous: the remote keys of the sender's descriptor unpacked, and
 * one UCP get per stretch where a remote segment meets a segment of the posted layout
 * (target-initiated, seed 001). What does not fit the posted memory is not pulled.
 */
final class Pull {
    final long total;
    final long room;
    private final List<UcpRequest> gets = new ArrayList<>();
    private final List<UcpRemoteKey> keys = new ArrayList<>();
    /** Heap destinations, pulled into native staging and copied after the gets. */
    private final List<HeapCopy> heapCopies = new ArrayList<>();

    private record HeapCopy(MemorySegment staging, MemorySegment destination, long offset) {
    }
    private int checked;

    private Pull(long total, long room) {
        this.total = total;
        this.room = room;
    }

    static Pull start(UcpEndpoint ep, MemorySegment desc, DataLayout into, UcxContext ctx) {
        long total = UcxWire.rtsTotal(desc);
        int n = UcxWire.rtsSegments(desc);
        if (n < 0 || total < 0) {
            throw new IllegalArgumentException("descriptor with " + n + " segments of " + total + " bytes");
        }
        Pull p = new Pull(total, into.size());
        DataCursor local = new DataCursor().reset(into);
        long off = UcxWire.RTS_HEADER;
        long left = Math.min(total, p.room);
        for (int s = 0; s < n && left > 0; s++) {
            long raddr = UcxWire.segAddress(desc, off);
            long rlen = UcxWire.segLength(desc, off);
            int klen = UcxWire.segKeyLength(desc, off);
            if (klen <= 0 || off + UcxWire.RTS_SEGMENT_HEADER + klen > desc.byteSize()) {
                throw new IllegalArgumentException("descriptor segment " + s + " with a " + klen + "-byte key");
            }
            UcpRemoteKey key = ep.unpackRemoteKey(UcxUtils.getByteBufferView(desc.address() + off + UcxWire.RTS_SEGMENT_HEADER, klen));
            p.keys.add(key);
            off += UcxWire.RTS_SEGMENT_HEADER + klen;
            long done = 0;
            while (done < rlen && left > 0) {
                long chunk = Math.min(Math.min(rlen - done, local.chunkLength()), left);
                MemorySegment base = local.chunkBase();
                long at = local.chunkOffset();
                long dst;
                if (base.isNative()) {
                    dst = base.address() + at;
                } else {
                    MemorySegment tmp = Arena.ofAuto().allocate(chunk, 64); // freed by the GC once copied
                    p.heapCopies.add(new HeapCopy(tmp, base, at));
                    dst = tmp.address();
                }
                p.gets.add(ep.getNonBlocking(raddr + done, key, dst, chunk, null));
                local.advance(chunk);
                done += chunk;
                left -= chunk;
            }
        }
        return p;
    }

    /** UCS_OK when every get is done, UCS_INPROGRESS while some run, else the first error. */
    int poll() {
        while (checked < gets.size()) {
            UcpRequest g = gets.get(checked);
            if (!g.isCompleted()) {
                return UcsConstants.STATUS.UCS_INPROGRESS;
            }
            if (g.getStatus() != UcsConstants.STATUS.UCS_OK) {
                return g.getStatus();
            }
            checked++;
        }
        return UcsConstants.STATUS.UCS_OK;
    }

    boolean done() {
        return poll() != UcsConstants.STATUS.UCS_INPROGRESS;
    }

    void finish(UcxContext ctx) {
        for (HeapCopy c : heapCopies) {
            MemorySegment.copy(c.staging(), 0, c.destination(), c.offset(), c.staging().byteSize());
        }
        abandon(ctx);
    }

    void abandon(UcxContext ctx) {
        for (UcpRequest g : gets) {
            if (!g.isCompleted()) {
                ctx.worker.cancelRequest(g);
            }
        }
        for (UcpRemoteKey k : keys) {
            k.close();
        }
        keys.clear();
    }
}
