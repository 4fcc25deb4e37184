package dev.ferry.core.protocol;

import dev.ferry.core.rail.Rail;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.SendRequest;
import dev.ferry.core.wire.PacketWriter;
import dev.ferry.core.wire.WireHeader;
import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;

import java.lang.foreign.MemorySegment;

/**
 * Eager ("immediate"): the message's bytes travel in the engine packet, behind a 16-byte entry
 * header; several queued messages share one packet (aggregation). Each costs the sender its entry's
 * bytes of the peer's credits, which come back once the receiver has consumed it, so a receiver
 * holds a bounded amount of unexpected data per peer. A message with nothing ahead of it leaves
 * at once in a packet of its own, written straight into a driver buffer where the driver has them:
 * the small-message latency path.
 *
 * <p>Entry: IMMEDIATE (+4 u32 payload length, +8 u64 header word, +16 the payload, padded to 8).
 */
public final class EagerProtocol extends Protocol {
    private static final byte[] KINDS = {WireHeader.IMMEDIATE};

    private final DataCursor cursor = new DataCursor();
    private final long creditsPerPeer;
    private final long pool;

    /** With {@code pool} > 0, a peer's credits are granted from a pool of that many bytes (FERRY_EAGER_POOL). */
    public EagerProtocol(Link gate, long creditsPerPeer, long pool) {
        super(gate);
        this.creditsPerPeer = creditsPerPeer;
        this.pool = pool;
    }

    @Override
    public String name() {
        return "eager";
    }

    @Override
    public String describe() {
        return "in the packet; queued messages aggregated; " + (pool > 0 ? "up to " + creditsPerPeer + " B of credits per peer, granted from a pool of " + pool
                : creditsPerPeer + " B of credits per peer");
    }

    @Override
    public byte[] kinds() {
        return KINDS;
    }

    @Override
    public void send(SendRequest s) {
        Link g = gate;
        if (g.nothingWaits() && (s.handledOnArrival || g.credits() >= WireHeader.immediateBytes(s.length())) && sendAlone(g.rails()[0], s)) {
            return; // the common case: a small message, nothing waiting, out in a packet of its own
        }
        if (g.enqueue(s, this)) {
            g.push(g.rails()[0]);
        }
    }

    /**
     * Sends {@code s} in a packet of its own at once, when the rail is free and the driver has a
     * buffer now; false, with nothing done, otherwise: the message is then queued. Skips the queue
     * and the packing loop.
     */
    private boolean sendAlone(Rail rail, SendRequest s) {
        if (!rail.bufSend || !gate.railClear(rail)) {
            return false;
        }
        MemorySegment p = rail.packetBuffer();
        if (p == null) {
            return false;
        }
        int cost = write(rail, p, WireHeader.PACKET_HEADER, s);
        if (!s.handledOnArrival) {
            gate.spend(cost);
        }
        gate.closePacket(p, 1);
        long n = WireHeader.PACKET_HEADER + cost;
        rail.postPacked(n);
        return true;
    }

    @Override
    public int entryBytes(SendRequest s) {
        return WireHeader.immediateBytes(s.length());
    }

    @Override
    public int pack(Rail rail, PacketWriter w, SendRequest s) {
        int n = write(rail, w.packet, w.at, s);
        w.advance(n);
        return n;
    }

    /** The entry at {@code at}, header and payload, leaving with the rail's packet; answers its size (also its cost in credits, unless handled on arrival). */
    private int write(Rail rail, MemorySegment p, long at, SendRequest s) {
        WireHeader.immediate(p, at, s.handledOnArrival ? WireHeader.FREE : 0, (int) s.length(), s.header());
        if (s.contiguous() != null) { // the common case, without a layout
            MemorySegment.copy(s.contiguous(), 0, p, at + WireHeader.IMMEDIATE_HEADER, s.length());
        } else {
            DataLayout l = s.layout();
            if (l.segmentCount() == 1) {
                MemorySegment.copy(l.segmentBase(0), l.segmentOffset(0), p, at + WireHeader.IMMEDIATE_HEADER, s.length());
            } else {
                cursor.reset(l).copyTo(p, at + WireHeader.IMMEDIATE_HEADER, s.length());
            }
        }
        rail.packed(s);
        stats.immediate(rail.ec, s.length());
        return WireHeader.immediateBytes(s.length());
    }

    @Override
    public long parse(Rail rail, MemorySegment p, long at, long len, long word) {
        long n = WireHeader.a(word) & 0xffffffffL;
        int flags = WireHeader.entryFlags(word);
        if ((flags & WireHeader.TAKEN) != 0) { // delivered by the node's agent: only its credits are left to settle
            // its payload is not here: its length is checked against what credits can be, not the packet
            if (!(rail.in instanceof dev.ferry.core.agent.MatchOffload) || n > WireHeader.MAX_CREDITS) {
                gate.malformed(rail, "an immediate message of " + n + " bytes marked taken by a node agent, on a rail " + (n > WireHeader.MAX_CREDITS ? "no credits cover" : "without one"));
                return -1;
            }
            gate.returnCredits((flags & WireHeader.FREE) != 0 ? 0 : WireHeader.immediateBytes(n));
            return WireHeader.IMMEDIATE_HEADER;
        }
        // n first: up to 4 GiB announced, its cost in an int would wrap negative
        int cost = n > len ? Integer.MAX_VALUE : WireHeader.immediateBytes(n);
        if (at + cost > len) {
            gate.malformed(rail, "an immediate message of " + n + " bytes in a packet of " + len);
            return -1;
        }
        Message view = this.view;
        int credit = (flags & WireHeader.FREE) != 0 ? 0 : cost;
        view.setImmediate(gate, p.get(WireHeader.U64, at + WireHeader.B), p, at + WireHeader.IMMEDIATE_HEADER, n, credit);
        delivery.deliver(view);
        return cost;
    }
}
