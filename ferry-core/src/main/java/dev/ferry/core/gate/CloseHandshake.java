package dev.ferry.core.gate;

import dev.ferry.core.rail.Rail;
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
    private final Gate gate;

    CloseHandshake(Gate gate) {
        this.gate = gate;
    }

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
    /** Open: when the sweeps first found the gate untouched. Closed and dormant: when it closed. */
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

    /** A CLOSE entry of {@code step} came on {@code rail}; its length, or -1 when it broke the gate. */
    long onEntry(Rail rail, int step) {
        Gate g = gate;
        if (rail.index != 0 || step == 0) {
            g.malformed(rail, "a CLOSE entry of step " + step + " on rail " + rail.index);
            return -1;
        }
        g.engine.logger().log(System.Logger.Level.DEBUG, "rank {0}: gate to rank {1}: CLOSE step {2} came in step {3}", g.engine.rank(), g.rank, step, this.step);
        switch (step) {
            case WireHeader.CLOSE_ASK -> {
                if (this.step == ASKED) {
                    this.step = AGREED; // both asked: each read the other's last packet
                } else if (this.step == NONE && g.reconnects && g.outQueue.isEmpty() && g.quietBesidesParsing()) {
                    this.step = AGREED;
                    control = WireHeader.CLOSE_AGREE;
                } else {
                    control = WireHeader.CLOSE_REFUSE;
                }
            }
            case WireHeader.CLOSE_AGREE -> {
                if (this.step != ASKED) {
                    g.malformed(rail, "CLOSE AGREE without an ASK");
                    return -1;
                }
                this.step = AGREED;
            }
            default -> {
                if (this.step != ASKED) {
                    g.malformed(rail, "CLOSE REFUSE without an ASK");
                    return -1;
                }
                reopen();
            }
        }
        return WireHeader.CLOSE_BYTES;
    }

    /** The peer refused: the connection stays, and what was held leaves now, in order. */
    private void reopen() {
        reset();
        sendHeld(takeHeld());
    }

    /** Sends {@code held} in order, through the gate as it is now (open, or failed). */
    private void sendHeld(ArrayDeque<SendRequest> held) {
        if (held != null) {
            for (SendRequest s : held) {
                gate.send(s);
            }
        }
    }

    /**
     * The gate's pass while a close is under way: rail 0 alone (the other rails carry raw chunks,
     * and none are in flight), receiving only until both ends agreed; the rails disconnect once
     * the last packet has left.
     */
    boolean progress() {
        Gate g = gate;
        Rail r0 = g.rails[0];
        g.push(r0, g.lanes[0]);
        boolean work = false;
        if (g.state == Gate.OPEN && step == ASKED) {
            work = g.receive(r0, g.lanes[0]);
        }
        if (g.state != Gate.OPEN || step != AGREED || control != 0) {
            return work;
        }
        for (Rail r : g.rails) {
            if (!r.free()) {
                return work;
            }
        }
        finish();
        return true;
    }

    /** Both ends agreed and our last packet left: the rails disconnect, and the gate is new again. */
    private void finish() {
        Gate g = gate;
        for (Rail r : g.rails) {
            g.lanes[r.index].cancel();
            r.disconnect();
            r.reset();
        }
        g.state = Gate.NEW;
        g.engine.logger().log(System.Logger.Level.DEBUG, "rank {0}: gate to rank {1}: closed (reconnect wanted {2})", g.engine.rank(), g.rank, reconnectWanted);
        int why = reason;
        boolean again = reconnectWanted;
        ArrayDeque<SendRequest> h = takeHeld();
        reset();
        g.home.closed(g, why, again || h != null && !h.isEmpty());
        sendHeld(h); // on the new connection (or failed with the gate, if it could not reconnect)
    }

    void reset() {
        step = NONE;
        control = 0;
        reason = 0;
        reconnectWanted = false;
    }
}
