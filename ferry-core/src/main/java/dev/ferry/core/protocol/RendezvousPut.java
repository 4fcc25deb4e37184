package dev.ferry.core.protocol;

import dev.ferry.core.rail.Rail;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.Request;
import dev.ferry.core.request.SendRequest;
import dev.ferry.core.wire.Cts;
import dev.ferry.core.wire.IdTable;
import dev.ferry.core.wire.PacketWriter;
import dev.ferry.core.wire.WireHeader;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Rendezvous by put: the sender announces the message (RTS); the target, once it is received,
 * decides where each byte goes and how the message is split over the gate's rails (CTS: by each
 * rail's profile bandwidth, from FERRY_MULTIRAIL_MIN, each piece within its rail's largest
 * packet); the sender then announces the chunks of each rail in a DATA packet and posts their raw
 * bytes behind it ({@link RawLane}), which the target receives straight into the destination. The
 * driver moves raw bytes its best way (shm: the target copies them, once).
 *
 * <p>Entries: RTS (the announcement, no pull data), CTS (the target's plan) and DATA (ends its
 * packet: the raw packets on that rail follow in entry order).
 */
public final class RendezvousPut extends Protocol {
    private static final byte[] KINDS = {WireHeader.RTS, WireHeader.CTS, WireHeader.DATA};

    private final ArrayDeque<Cts> ctsQueue = new ArrayDeque<>();
    /** Plans already sent, for reuse. */
    private final ArrayDeque<Cts> ctsSent = new ArrayDeque<>();
    private final IdTable<SendRequest> rdvOut = new IdTable<>();
    private final IdTable<RecvRequest> rdvIn = new IdTable<>();
    /** One per rail of the gate, by rail index. */
    public final RawLane[] lanes;
    private final boolean multirail;
    private final long multirailMin;

    public RendezvousPut(Link gate, boolean multirail, long multirailMin) {
        super(gate);
        this.lanes = new RawLane[gate.rails().length];
        for (int i = 0; i < lanes.length; i++) {
            lanes[i] = new RawLane(this, gate.rails()[i]);
        }
        this.multirail = multirail && gate.rails().length > 1;
        this.multirailMin = multirailMin;
    }

    @Override
    public String name() {
        return "rendezvous-put";
    }

    @Override
    public String describe() {
        Rail r0 = gate.rails()[0];
        return "RTS; the target places it and answers CTS; raw chunks moved by " + r0.ec.driver() + ": " + r0.ec.description()
                + (multirail ? "; from " + multirailMin + " B split over " + gate.rails().length + " rails by bandwidth" : "");
    }

    @Override
    public byte[] kinds() {
        return KINDS;
    }

    /**
     * Queued, not pushed: the sender must make progress to send the data anyway, and a burst of RTS
     * leaves in one packet at the next pass (over tcp, one write instead of one per message, and
     * one CTS packet back).
     */
    @Override
    public void send(SendRequest s) {
        gate.enqueue(s, this);
    }

    @Override
    public int entryBytes(SendRequest s) {
        return WireHeader.RTS_BYTES;
    }

    @Override
    public int pack(Rail rail, PacketWriter w, SendRequest s) {
        s.sourceId = rdvOut.add(s);
        WireHeader.entry(w.packet, w.at, WireHeader.RTS, 0, s.header(), s.length(), s.sourceId);
        w.advance(WireHeader.RTS_BYTES);
        stats.rendezvous();
        return WireHeader.RTS_BYTES;
    }

    // ---- the target's answer -----------------------------------------------------------------

    @Override
    public void receive(Message m, RecvRequest r, long accepted) {
        if (accepted == 0) {
            ctsQueue.add(freeCts().set(m.sourceId(), 0, 0));
            r.complete();
        } else {
            r.targetId = rdvIn.add(r);
            ctsQueue.add(plan(m.sourceId(), r.targetId, accepted));
        }
        if (!gate.parsing()) {
            gate.push(gate.rails()[0]); // while parsing, the packet's other RTS may add theirs: parse pushes them together
        }
    }

    @Override
    public boolean hasAnswers() {
        return !ctsQueue.isEmpty();
    }

    @Override
    public void packAnswers(PacketWriter w) {
        Cts c;
        while ((c = ctsQueue.peek()) != null) {
            int size = WireHeader.ctsBytes(c.chunks());
            if (!w.fits(size)) {
                break;
            }
            WireHeader.entry(w.packet, w.at, WireHeader.CTS, c.chunks(), c.sourceId, c.targetId, c.accepted);
            for (int i = 0; i < c.chunks(); i++) {
                WireHeader.ctsChunk(w.packet, w.at + WireHeader.CTS_FIXED + (long) i * WireHeader.CTS_CHUNK, c.rail[i], c.offset[i], c.length[i]);
            }
            ctsSent.push(ctsQueue.poll());
            w.advance(size);
        }
    }

    /** Splits {@code accepted} bytes over the rails by profile bandwidth (multi-rail), each piece within its rail's maximum packet. */
    private Cts plan(long sourceId, long targetId, long accepted) {
        Rail[] rails = gate.rails();
        int used = multirail && accepted >= multirailMin ? rails.length : 1;
        long[] share = used == 1 ? null : new long[used]; // one rail, the common case: nothing to share out
        if (used > 1) {
            long bw = 0;
            for (int i = 0; i < used; i++) {
                bw += Math.max(1, rails[i].ec.profile().bandwidthMBps());
            }
            long given = 0;
            for (int i = 0; i < used - 1; i++) {
                share[i] = (accepted * Math.max(1, rails[i].ec.profile().bandwidthMBps()) / bw) & ~4095L;
                given += share[i];
            }
            share[used - 1] = accepted - given;
        }
        long n = 0;
        for (int i = 0; i < used; i++) {
            long max = Math.max(4096, rails[i].ec.caps().maxPacketSize());
            n += ((used == 1 ? accepted : share[i]) + max - 1) / max;
        }
        if (n > WireHeader.MAX_CTS_CHUNKS) {
            throw new IllegalArgumentException("a message of " + accepted + " bytes needs more than " + WireHeader.MAX_CTS_CHUNKS + " rendezvous chunks");
        }
        Cts c = freeCts();
        c.set(sourceId, targetId, accepted);
        long off = 0;
        for (int i = 0; i < used; i++) {
            long max = Math.max(4096, rails[i].ec.caps().maxPacketSize());
            for (long left = used == 1 ? accepted : share[i]; left > 0; ) {
                long len = Math.min(left, max);
                c.addChunk(i, off, len);
                off += len;
                left -= len;
            }
        }
        return c;
    }

    private Cts freeCts() {
        Cts c = ctsSent.poll();
        return c != null ? c : new Cts();
    }

    // ---- parsing ----------------------------------------------------------------------------

    @Override
    public long parse(Rail rail, MemorySegment p, long at, long len, long word) {
        int a = WireHeader.a(word);
        long b = p.get(WireHeader.U64, at + WireHeader.B);
        long c = p.get(WireHeader.U64, at + WireHeader.C);
        long d = p.get(WireHeader.U64, at + WireHeader.D);
        switch (WireHeader.kind(word)) {
            case WireHeader.RTS -> {
                if (c < 0) {
                    gate.malformed(rail, "an RTS of negative length");
                    return -1;
                }
                if (a != 0) {
                    gate.malformed(rail, "an RTS with " + a + " bytes of pull data (pull data comes in a pull RTS)");
                    return -1;
                }
                Message view = gate.view();
                view.setRendezvous(gate, this, b, c, d, 0); // an envelope costs no credits
                delivery.deliver(view);
                return WireHeader.RTS_BYTES;
            }
            case WireHeader.CTS -> {
                if (a < 0 || a > WireHeader.MAX_CTS_CHUNKS || at + WireHeader.ctsBytes(a) > len) {
                    gate.malformed(rail, "a CTS of " + a + " chunks");
                    return -1;
                }
                return clearToSend(rail, p, at, a, b, c, d) ? WireHeader.ctsBytes(a) : -1;
            }
            default -> { // DATA
                RecvRequest r = rdvIn.get(b);
                if (r == null || c < 0 || d <= 0 || c + d > r.layout().size() || d > r.remaining) {
                    gate.malformed(rail, "a DATA header for an unknown rendezvous or outside its destination");
                    return -1;
                }
                if (!lanes[rail.index].expectRaw(r, c, d)) {
                    gate.malformed(rail, "more than " + WireHeader.MAX_DATA_ENTRIES + " DATA entries in one packet");
                    return -1;
                }
                return WireHeader.DATA_BYTES;
            }
        }
    }

    private boolean clearToSend(Rail rail, MemorySegment p, long at, int n, long sourceId, long targetId, long accepted) {
        SendRequest s = rdvOut.remove(sourceId);
        if (s == null || accepted < 0 || accepted > s.length()) {
            gate.malformed(rail, "a CTS for an unknown rendezvous " + sourceId);
            return false;
        }
        Rail[] rails = gate.rails();
        long total = 0;
        for (int k = 0; k < n; k++) {
            long e = at + WireHeader.CTS_FIXED + (long) k * WireHeader.CTS_CHUNK;
            int r = p.get(WireHeader.U32, e);
            long off = p.get(WireHeader.U64, e + 8);
            long len = p.get(WireHeader.U64, e + 16);
            if (r < 0 || r >= rails.length || off < 0 || len <= 0 || off + len > accepted) {
                gate.malformed(rail, "a CTS chunk outside its message or on rail " + r);
                return false;
            }
            total += len;
        }
        if (total != accepted) {
            gate.malformed(rail, "a CTS whose chunks cover " + total + " of " + accepted + " bytes");
            return false;
        }
        s.chunksLeft = n;
        if (n == 0) {
            s.complete(); // the target took nothing (a zero-size destination, or dropped)
            return true;
        }
        for (int k = 0; k < n; k++) {
            long e = at + WireHeader.CTS_FIXED + (long) k * WireHeader.CTS_CHUNK;
            lanes[p.get(WireHeader.U32, e)].chunks.add(new Chunk(s, targetId, p.get(WireHeader.U64, e + 8), p.get(WireHeader.U64, e + 16)));
        }
        return true;
    }

    /** A raw chunk of {@code n} bytes is in {@code r}'s destination. */
    void rawArrived(RecvRequest r, long n) {
        r.addReceived(n);
        r.remaining -= n;
        if (r.remaining == 0) {
            rdvIn.remove(r.targetId);
            r.complete();
        }
    }

    // ---- state ------------------------------------------------------------------------------

    @Override
    public boolean quiet() {
        if (!ctsQueue.isEmpty() || !rdvOut.isEmpty()) {
            return false;
        }
        for (RawLane l : lanes) {
            if (!l.idle()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void drain(Consumer<Request> failed) {
        rdvOut.drain(failed);
        rdvIn.drain(failed);
        ctsQueue.clear();
        for (RawLane l : lanes) {
            l.drain(failed);
        }
    }

    @Override
    public String stateReport() {
        return "cts " + ctsQueue.size() + ", rdv out " + rdvOut.size() + ", rdv in " + rdvIn.size();
    }
}
