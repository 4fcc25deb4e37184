package dev.ferry.core.gate;

import dev.ferry.core.request.SendRequest;
import dev.ferry.core.wire.PacketWriter;
import dev.ferry.core.wire.WireHeader;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * A gate's idle close (DCT's "connected only while active"): the two ends agree to close a quiet
 * connection, and it reopens on next use, with nothing lost, duplicated or reordered.
 *
 * <p>The end that wants to close, quiet itself (nothing queued, no rendezvous, no packet in flight),
 * sends CLOSE ASK as the last thing on the connection and holds every later send. The other end
 * answers AGREE when it is quiet too, REFUSE otherwise (what it sent meanwhile is on its way, so
 * the asker reopens and sends what it held). Both ends then disconnect once their last packet has
 * left: everything either sent came before the ASK or the AGREE, so the peer read it first. Two
 * ASKs that cross agree at once. Credits are the gate's and outlive the connection: what each end
 * owes rides the ASK and the AGREE. A peer's new connection request that comes while the close is
 * under way is remembered and taken up once it is done.
 *
 * <p>Owned by the thread that makes progress, like its gate.
 */
final class CloseHandshake {
    static final int NONE = 0, ASKED = 1, AGREED = 2;
    /** Why a close was asked for: the gate was idle, or the least recently used past the cap. */
    static final int IDLE = 1, EVICTED = 2;

    int step = NONE;
    /** The CLOSE step to write at the head of the next packet, or 0. */
    int control;
    int reason;
    /** The peer asked to connect again while this close was under way. */
    boolean reconnectWanted;
    /** Sends made while the close was asked for: sent in order on the reopened connection. */
    private ArrayDeque<SendRequest> held;

    /** Used since the last sweep (a plain store on each send and packet received). */
    boolean touched;
    /** When the sweeps first found the gate untouched. */
    long idleSince;
    /** The engine's pass of the last use, for the least recently used. */
    int lastUse;
    /** In the gates' queue of closed ones to look at now and then. */
    boolean dormant;

    boolean under() {
        return step != NONE;
    }

    void ask(int why) {
        step = ASKED;
        control = WireHeader.CLOSE_ASK;
        reason = why;
    }

    void hold(SendRequest s) {
        if (held == null) {
            held = new ArrayDeque<>();
        }
        held.add(s);
    }

    boolean holds() {
        return held != null && !held.isEmpty();
    }

    /** The sends held, in order, and none held any more. */
    ArrayDeque<SendRequest> takeHeld() {
        ArrayDeque<SendRequest> h = held;
        held = null;
        return h;
    }

    /** Writes the pending CLOSE entry at the head of a packet. */
    void pack(PacketWriter w) {
        WireHeader.entry(w.packet, w.at, WireHeader.CLOSE, control, 0, 0, 0);
        w.advance(WireHeader.CLOSE_BYTES);
        control = 0;
    }

    /** The step of a CLOSE entry; 0 when it is none of the three. */
    static int stepOf(MemorySegment p, long at) {
        int a = WireHeader.a(WireHeader.entryWord(p, at));
        return a >= WireHeader.CLOSE_ASK && a <= WireHeader.CLOSE_REFUSE ? a : 0;
    }

    void reset() {
        step = NONE;
        control = 0;
        reason = 0;
        reconnectWanted = false;
    }
}
