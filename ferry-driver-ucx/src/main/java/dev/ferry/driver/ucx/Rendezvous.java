package dev.ferry.driver.ucx;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The sending side of one rendezvous: the registrations of the packet's memory (pinned until the
 * receiver's FIN, or until the BULK send completes), and the descriptor written into a send
 * buffer. Memory on the Java heap, or a layout with more segments than a descriptor holds, is
 * first packed into registered memory of the driver's own (one copy, then still pulled by the
 * receiver). When the bytes lie in one native range and a BULK tag is offered, the descriptor
 * says BY_TAG and the same range goes out as a BULK message too ({@link UcxWire}).
 */
final class Rendezvous {
    private final RegistrationCache.Registration[] regs;
    private final Arena staging;
    long descriptorLength;
    /** Without BY_TAG: the FIN count that completes it. */
    long seq;
    boolean released;
    /** The BULK message's tag, 0 without BY_TAG. */
    long bulkTag;
    /** Where the BULK message's bytes start (one native range). */
    private long bulkAddress;
    private long total;
    /** The BULK send, once sent. */
    private RequestSlots bulkSend;

    private Rendezvous(RegistrationCache.Registration[] regs, Arena staging) {
        this.regs = regs;
        this.staging = staging;
    }

    /** Registrations made early by sendPrefetch (or recvPrefetch), one per segment (null: empty or heap). */
    static final class Prefetch {
        final DataLayout layout;
        final RegistrationCache.Registration[] regs;

        private Prefetch(DataLayout layout, RegistrationCache.Registration[] regs) {
            this.layout = layout;
            this.regs = regs;
        }

        static Prefetch register(UcxContext ctx, DataLayout layout) {
            long n = layout.segmentCount();
            RegistrationCache.Registration[] regs = new RegistrationCache.Registration[(int) Math.min(n, UcxContext.MAX_IOVEC)];
            try {
                for (int i = 0; i < regs.length; i++) {
                    MemorySegment base = layout.segmentBase(i);
                    long len = layout.segmentLength(i);
                    if (len > 0 && base.isNative()) {
                        regs[i] = ctx.rcache.acquire(base.address() + layout.segmentOffset(i), len);
                    }
                }
            } catch (RuntimeException e) {
                new Prefetch(layout, regs).release(ctx);
                throw e;
            }
            return new Prefetch(layout, regs);
        }

        void release(UcxContext ctx) {
            for (int i = 0; i < regs.length; i++) {
                if (regs[i] != null) {
                    ctx.rcache.release(regs[i]);
                    regs[i] = null;
                }
            }
        }
    }

    /**
     * Registers (or takes the prefetched registrations of) the layout's memory and writes the
     * descriptor into {@code desc}. Lock held.
     */
    static Rendezvous prepare(UcxContext ctx, DataLayout layout, MemorySegment desc, Object prefetched, long offeredBulkTag) {
        long n = layout.segmentCount();
        long total = layout.size();
        RegistrationCache.Registration[] regs = null;
        if (prefetched instanceof Prefetch p) {
            if (p.layout == layout && p.regs.length == n && allRegistered(layout, p.regs)) {
                regs = p.regs;
            } else {
                p.release(ctx);
            }
        }
        if (regs == null && n <= UcxContext.MAX_IOVEC && allNative(layout)) {
            regs = Prefetch.register(ctx, layout).regs;
        }
        if (regs != null) {
            long size = UcxWire.RTS_HEADER;
            int count = 0;
            for (RegistrationCache.Registration r : regs) {
                if (r != null) {
                    size += UcxWire.RTS_SEGMENT_HEADER + r.rkey.byteSize();
                    count++;
                }
            }
            if (size <= desc.byteSize()) {
                long bulkTag = count == 1 ? offeredBulkTag : 0; // one range: it can go as one BULK message
                long off = UcxWire.RTS_HEADER;
                long first = 0;
                for (int i = 0; i < regs.length; i++) {
                    if (regs[i] != null) {
                        long addr = layout.segmentBase(i).address() + layout.segmentOffset(i);
                        first = first == 0 ? addr : first;
                        off = UcxWire.writeRtsSegment(desc, off, addr, layout.segmentLength(i), regs[i].rkey);
                    }
                }
                UcxWire.writeRtsHeader(desc, total, count, bulkTag);
                Rendezvous rdv = new Rendezvous(regs, null);
                rdv.descriptorLength = off;
                rdv.bulk(bulkTag, first, total);
                return rdv;
            }
            for (RegistrationCache.Registration r : regs) {
                if (r != null) {
                    ctx.rcache.release(r);
                }
            }
        }
        // packed into registered memory of our own: heap memory, or too many segments to describe
        Arena staging = Arena.ofShared();
        MemorySegment packed = staging.allocate(Math.max(1, total), 64).asSlice(0, total);
        new DataCursor().reset(layout).copyTo(packed, 0, total);
        RegistrationCache.Registration r;
        try {
            r = ctx.rcache.acquireUncached(packed.address(), Math.max(1, total));
        } catch (RuntimeException e) {
            staging.close();
            throw e;
        }
        UcxWire.writeRtsHeader(desc, total, 1, offeredBulkTag);
        Rendezvous rdv = new Rendezvous(new RegistrationCache.Registration[] {r}, staging);
        rdv.descriptorLength = UcxWire.writeRtsSegment(desc, UcxWire.RTS_HEADER, packed.address(), total, r.rkey);
        rdv.bulk(offeredBulkTag, packed.address(), total);
        return rdv;
    }

    private void bulk(long tag, long address, long length) {
        bulkTag = tag;
        bulkAddress = address;
        total = length;
    }

    /**
     * With BY_TAG: sends the BULK message (after the descriptor, on the same endpoint). A
     * synchronous send: one small enough for UCX to send eagerly must still not complete before
     * the receiver has matched it, which a receiver pulling with gets does only after its gets.
     */
    void sendBulk(UcxContext ctx, long ep) {
        bulkSend = new RequestSlots(1);
        bulkSend.started(0, Ucp.tagSendSync(ep, bulkAddress, total, bulkTag));
        if (!bulkSend.completed(0)) {
            ctx.bulks.add(this);
        }
    }

    /** With BY_TAG: UCX no longer holds the BULK send (or there is none). */
    boolean bulkEnded() {
        return bulkSend == null || bulkSend.completed(0);
    }

    /**
     * With BY_TAG: {@link Ucp#INPROGRESS} while the BULK send runs, else how it ended (a receiver
     * that pulled with gets consumes it with an empty receive: MESSAGE_TRUNCATED, also a success).
     */
    int bulkStatus() {
        if (bulkSend == null) {
            return Ucp.INPROGRESS;
        }
        return bulkSend.completed(0) ? bulkSend.status(0) : Ucp.INPROGRESS;
    }

    private static boolean allNative(DataLayout layout) {
        for (long i = 0; i < layout.segmentCount(); i++) {
            if (layout.segmentLength(i) > 0 && !layout.segmentBase(i).isNative()) {
                return false;
            }
        }
        return true;
    }

    private static boolean allRegistered(DataLayout layout, RegistrationCache.Registration[] regs) {
        for (int i = 0; i < regs.length; i++) {
            if (layout.segmentLength(i) > 0 && regs[i] == null) {
                return false;
            }
        }
        return true;
    }

    /**
     * After the FIN or the BULK send's end (or when the peer is gone): unpins the registrations,
     * frees the staging. False, and nothing done, while the BULK send still runs: UCX may still
     * read that memory (tcp sends from it), so the caller keeps it and tries again later.
     */
    boolean release(UcxContext ctx) {
        if (released) {
            return true;
        }
        if (bulkSend != null && !bulkSend.completed(0)) {
            return false;
        }
        released = true;
        if (bulkSend != null) {
            ctx.bulks.remove(this);
        }
        for (RegistrationCache.Registration r : regs) {
            if (r != null) {
                ctx.rcache.release(r);
            }
        }
        if (staging != null) {
            staging.close();
        }
        return true;
    }
}
