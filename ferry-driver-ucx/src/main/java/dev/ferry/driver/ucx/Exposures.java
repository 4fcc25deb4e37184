package dev.ferry.driver.ucx;

import dev.ferry.spi.DataLayout;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.openucx.jucx.ucp.UcpEndpoint;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * One instance's target-initiated pulls for the upper layer ({@code sendExpose} /
 * {@code pullPost}). The pull data is a rendezvous descriptor ({@link Rendezvous}, {@link UcxWire})
 * that always says BY_TAG, and the exposed bytes go as a synchronous BULK message, held back until
 * the packet that carries the pull data has gone ({@link #startDue}). So the target's {@link Pull}
 * either takes the BULK message whole into its memory (UCX's tagged rendezvous: a cma read over
 * shared memory, an RDMA read where there is one) or pulls a prefix with gets and consumes the BULK
 * message with an empty receive; either way the BULK send's end tells the source that the target
 * is done, in whatever order the target pulls, with no FIN. A descriptor larger than
 * {@link #PULL_DATA_BYTES} (a layout of several ranges, or a long remote key) is not exposed: the
 * caller sends the packet instead. Every method runs with the context's lock held.
 *
 * <pre>{@code
 * Rendezvous rdv = exposures.expose(ctx, layout, prefetch, tag, pullData);  // null: send it instead
 * ... the packet with the pull data goes ...
 * exposures.startDue(epHandle);                                          // then the BULK messages
 * }</pre>
 */
final class Exposures {
    /** The pull data's size (Capabilities.pullDataSize): a header, one segment and its remote key. */
    static final int PULL_DATA_BYTES = 256;
    /** Room for a descriptor while it is written, before it is known to fit the pull data. */
    private static final long SCRATCH_BYTES = 4096;
    /** A pulled packet's driver data: its pull completed. */
    private static final Object PULLED = new Object();

    private final UcxContext ctx;
    /** Exposures whose BULK message waits for the next packet to go first. */
    private final List<Rendezvous> due = new ArrayList<>();
    /** A pull's descriptor, copied into native memory (remote keys are unpacked from its address). */
    private final MemorySegment descriptor = Arena.ofAuto().allocate(PULL_DATA_BYTES, 8);

    Exposures(UcxContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Registers the layout's memory (or packs it into registered memory) and writes its BY_TAG
     * descriptor, with {@code bulkTag}, into the first {@link #PULL_DATA_BYTES} of {@code pullData}
     * (the rest zeroed); its BULK message goes at the next {@link #startDue}. Null, with nothing
     * kept, when the descriptor would not say BY_TAG or not fit.
     */
    Rendezvous expose(DataLayout layout, Object prefetched, long bulkTag, MemorySegment pullData) {
        Rendezvous rdv;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment desc = a.allocate(SCRATCH_BYTES, 8);
            rdv = Rendezvous.prepare(ctx, layout, desc, prefetched, bulkTag);
            if (rdv.bulkTag == 0 || rdv.descriptorLength > PULL_DATA_BYTES) {
                rdv.release(ctx);
                return null;
            }
            MemorySegment.copy(desc, 0, pullData, 0, rdv.descriptorLength);
        }
        pullData.asSlice(rdv.descriptorLength, PULL_DATA_BYTES - rdv.descriptorLength).fill((byte) 0);
        due.add(rdv);
        return rdv;
    }

    /**
     * Sends the BULK messages of the exposures made since the last packet, after that packet: the
     * peer has then usually posted its receive when UCX's rendezvous request arrives. Sent first,
     * and so unexpected, they cost about 4 us more per 64 KiB message over shared memory
     * (engine-latency over ucx, sm).
     */
    void startDue(long epHandle) {
        if (due.isEmpty()) {
            return;
        }
        for (Rendezvous rdv : due) {
            rdv.sendBulk(ctx, epHandle);
        }
        due.clear();
        ctx.backlog = true; // a BULK send moves on only when this worker progresses
    }

    /** The instance is over before their BULK messages went: they never will (each is released by its sendPoll). */
    void dropDue() {
        due.clear();
    }

    /**
     * Starts pulling the peer's exposure described by {@code pullData} into the packet's layout
     * (a size of 0 only releases it). INVALID when the pull data is no exposure's; throws what
     * {@link Pull#start} throws.
     */
    Status pull(UcpEndpoint ep, Packet packet, MemorySegment pullData) {
        if (pullData.byteSize() < PULL_DATA_BYTES) {
            return Status.INVALID;
        }
        MemorySegment.copy(pullData, 0, descriptor, 0, PULL_DATA_BYTES);
        long tag = UcxWire.rtsBulkTag(descriptor);
        if (tag == 0 || (tag & 0xf000_0000_0000_0000L) != UcxWire.KIND_BULK) {
            return Status.INVALID;
        }
        packet.driverData = Pull.start(ep, descriptor, packet.layout(), ctx);
        packet.length(0);
        return Status.DONE;
    }

    /** Whether the packet's pull has completed already (its pullPoll answers DONE again). */
    static boolean pulled(Packet packet) {
        return packet.driverData == PULLED;
    }

    /**
     * The pull's completion, with the worker progressed: NOT_YET while it runs, DONE with the
     * packet's length set to the bytes pulled, or a UCS status of failure (abandoned).
     */
    int poll(Packet packet) {
        Pull p = (Pull) packet.driverData;
        int s = p.poll();
        if (s == Ucp.INPROGRESS) {
            return s;
        }
        if (s != Ucp.OK) {
            p.abandon(ctx);
            packet.driverData = null;
            return s;
        }
        p.finish(ctx);
        packet.length(Math.min(p.total, p.room));
        packet.driverData = PULLED;
        return s;
    }

    /** The instance is over: the packet's pull is given up. */
    void abandon(Packet packet) {
        if (packet.driverData instanceof Pull p) {
            p.abandon(ctx);
        }
        packet.driverData = null;
    }
}
