package dev.ferry.core.wire;

import java.lang.foreign.MemorySegment;

/**
 * A packet being filled: where the next entry goes, how far it may go, and how many entries are
 * in it. The gate starts one per packet and each protocol writes its entries through it, so a
 * protocol needs to know nothing of what else shares the packet. Reused: one per gate.
 *
 * <pre>{@code
 * PacketWriter w = writer.start(buffer, limit);
 * if (w.fits(WireHeader.RTS_BYTES)) { WireHeader.entry(w.packet, w.at, ...); w.advance(WireHeader.RTS_BYTES); }
 * }</pre>
 */
public final class PacketWriter {
    /** The packet's memory. */
    public MemorySegment packet;
    /** Where the next entry starts. */
    public long at;
    /** Bytes the packet may take. */
    long limit;
    /** Entries written so far. */
    public int count;

    public PacketWriter start(MemorySegment packet, long limit) {
        this.packet = packet;
        this.at = WireHeader.PACKET_HEADER;
        this.limit = limit;
        this.count = 0;
        return this;
    }

    public boolean fits(long bytes) {
        return at + bytes <= limit;
    }

    /** One entry of {@code bytes} was written at {@link #at}. */
    public void advance(long bytes) {
        at += bytes;
        count++;
    }
}
