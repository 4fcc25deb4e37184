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
 * The receiving side of one rendezvous (target-initiated, seed 001). With a BY_TAG descriptor
 * and posted memory that is one native range able to take it all, one tagged receive of the BULK
 * message straight into it (UCX's rendezvous then reads the sender's memory itself). Otherwise
 * the remote keys of the descriptor unpacked, and one UCP get per stretch where a remote segment
 * meets a segment of the posted layout; what does not fit the posted memory is not pulled, and a
 * BULK message is then consumed with an empty receive once the gets are done.
 */
final class Pull {
    final long total;
    final long room;
    /** The descriptor's BULK tag, 0 without BY_TAG. */
    private final long bulkTag;
    /** The tagged receive of the BULK message (taking it whole), else null. */
    private RequestSlots tagRecv;
    private final List<UcpRequest> gets = new ArrayList<>();
    private final List<UcpRemoteKey> keys = new ArrayList<>();
    /** Heap destinations, pulled into native staging and copied after the gets. */
    private final List<HeapCopy> heapCopies = new ArrayList<>();

    private record HeapCopy(MemorySegment staging, MemorySegment destination, long offset) {
    }
    private int checked;

    private Pull(long total, long room, long bulkTag) {
        this.total = total;
        this.room = room;
        this.bulkTag = bulkTag;
    }

    static Pull start(UcpEndpoint ep, MemorySegment desc, DataLayout into, UcxContext ctx) {
        long total = UcxWire.rtsTotal(desc);
        int n = UcxWire.rtsSegments(desc);
        if (n < 0 || total < 0) {
            throw new IllegalArgumentException("descriptor with " + n + " segments of " + total + " bytes");
        }
        long bulkTag = UcxWire.rtsBulkTag(desc);
        if (bulkTag != 0 && (bulkTag & 0xf000_0000_0000_0000L) != UcxWire.KIND_BULK) {
            throw new IllegalArgumentException(String.format("descriptor with BULK tag 0x%016x", bulkTag));
        }
        Pull p = new Pull(total, into.size(), bulkTag);
        long whole = bulkTag != 0 ? wholeRange(into, total) : 0;
        if (whole != 0) {
            p.tagRecv = new RequestSlots(1);
            p.tagRecv.started(0, Ucp.tagRecvBulk(ctx.workerHandle, whole, total, bulkTag, UcxWire.FULL_MASK));
            return p;
        }
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

    /** The address of the one native range of {@code into} that holds {@code total} bytes, else 0. */
    private static long wholeRange(DataLayout into, long total) {
        long found = 0;
        for (long i = 0; i < into.segmentCount(); i++) {
            long len = into.segmentLength(i);
            if (len == 0) {
                continue;
            }
            MemorySegment base = into.segmentBase(i);
            if (found != 0 || len < total || !base.isNative()) {
                return 0;
            }
            found = base.address() + into.segmentOffset(i);
        }
        return found;
    }

    /** Whether the sender waits for a FIN (a rendezvous without BY_TAG). */
    boolean needsFin() {
        return bulkTag == 0;
    }

    /** UCS_OK when every get is done, UCS_INPROGRESS while some run, else the first error. */
    int poll() {
        if (tagRecv != null) {
            return tagRecv.completed(0) ? tagRecv.status(0) : Ucp.INPROGRESS;
        }
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
        if (bulkTag != 0 && tagRecv == null) {
            // pulled by gets: the BULK message is consumed (truncated to nothing), which completes the send
            ctx.orphans.adopt(Ucp.tagRecvBulk(ctx.workerHandle, ctx.scratch.address(), 0, bulkTag, UcxWire.FULL_MASK));
        }
        abandon(ctx);
    }

    void abandon(UcxContext ctx) {
        if (tagRecv != null) {
            tagRecv.cancel(0, ctx.workerHandle);
            ctx.orphans.adopt(tagRecv.take(0));
        }
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
