package dev.ferry.core.protocol;

import dev.ferry.core.agent.MatchOffload;
import dev.ferry.core.rail.Rail;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.Request;
import dev.ferry.core.request.SendRequest;
import dev.ferry.core.wire.PacketWriter;
import dev.ferry.core.wire.SliceLayout;
import dev.ferry.core.wire.WireHeader;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Rendezvous by pull (target-initiated, seed 001), on rail 0 where its driver offers it (shm,
 * ucx): the sender exposes the message's memory and its RTS carries the driver's pull data; the
 * target, once the message is received, pulls the bytes it wants at once, with no CTS, and the
 * sender's send completes when the driver says the pull is done. Memory the driver cannot expose
 * now goes by {@link RendezvousPut} instead, message by message.
 *
 * <p>Entry: the pull RTS ({@link dev.ferry.core.wire.WireHeader#RTS_PULL}), followed by the pull data.
 */
public final class RendezvousPull extends Protocol {
    private static final byte[] KINDS = {WireHeader.RTS_PULL};
    /** Every how many passes the exposures are all asked about, not only the oldest ({@link #pollExposed}). */
    private static final int FULL_SCAN = 16;

    private final RendezvousPut fallback;
    private final Rail rail;
    /** Bytes of pull data this rank's RTS carry (the rail's driver's size). */
    private final int pullDataSize;

    // sending
    /** Sends exposed for the peer to pull, not yet pulled; they may complete in any order. */
    private SendRequest[] exposed = new SendRequest[16];
    private int exposedCount;
    private int exposedPasses;
    /** The engine's progress pass in which the last pull RTS was pushed at once ({@link #send}). */
    private int rtsPass = -1;

    // receiving
    /** Pulls the driver did not finish at once, oldest first. */
    private final ArrayDeque<RecvRequest> pulling = new ArrayDeque<>();
    /**
     * The pulls planned while parsing ({@link PullPlan}), which also keeps each RTS's pull data
     * copied out of the packet (drivers read pull data during {@code pullPost} only).
     */
    private final PullPlan plan;
    private final PullPlan.Puller puller = this::pullNow; // made once: the plan runs on every burst

    public RendezvousPull(Link gate, RendezvousPut fallback) {
        super(gate);
        this.fallback = fallback;
        this.rail = gate.rails()[0];
        this.pullDataSize = rail.pullTakes;
        this.plan = new PullPlan(pullDataSize);
    }

    @Override
    public String name() {
        return "rendezvous-pull";
    }

    @Override
    public String describe() {
        return "RTS with " + rail.ec.driver() + "'s pull data; the target places it and pulls at once, no CTS: " + rail.ec.description()
                + "; memory the driver cannot expose goes by rendezvous-put";
    }

    @Override
    public byte[] kinds() {
        return KINDS;
    }

    /**
     * Queued; the RTS leaves at once if it is the first since the last progress pass, so the
     * target starts copying; the rest of a burst wait for the next pass and leave in one packet.
     * One at a time, the target took each packet as the sender wrote it and ran no copy until the
     * burst ended (shm 64 KiB arena: 1.43 against the driver's 1.35 us per message; with them
     * held, 1.36).
     */
    @Override
    public void send(SendRequest s) {
        if (!gate.enqueue(s, this)) {
            return;
        }
        int pass = gate.passes();
        if (pass == rtsPass) {
            return;
        }
        rtsPass = pass;
        gate.push(rail);
    }

    @Override
    public int entryBytes(SendRequest s) {
        return WireHeader.RTS_BYTES + pullDataSize;
    }

    @Override
    public int pack(Rail r, PacketWriter w, SendRequest s) {
        if (!expose(s, w.packet.asSlice(w.at + WireHeader.RTS_BYTES, pullDataSize))) {
            return fallback.pack(r, w, s); // the driver cannot now, or not this memory: RTS and CTS
        }
        WireHeader.entry(w.packet, w.at, WireHeader.RTS_PULL, pullDataSize, s.header(), s.length(), 0);
        w.advance(WireHeader.RTS_BYTES + pullDataSize);
        stats.rendezvous();
        stats.exposed();
        return WireHeader.RTS_BYTES + pullDataSize;
    }

    /**
     * Exposes {@code s}'s bytes for the peer to pull, writing the driver's pull data at
     * {@code pullData} (in the RTS being packed); false when the driver cannot now or not this
     * memory. A failure of the driver shows on the packet's post.
     */
    private boolean expose(SendRequest s, MemorySegment pullData) {
        Packet p = s.exposure;
        if (p == null) {
            p = s.exposure = new Packet();
        }
        p.reset().useData(s.layout());
        if (rail.out.sendExpose(p, pullData) != Status.DONE) {
            return false;
        }
        if (exposedCount == exposed.length) {
            exposed = java.util.Arrays.copyOf(exposed, exposedCount * 2);
        }
        exposed[exposedCount++] = s;
        return true;
    }

    /**
     * Completes the exposed sends the peer has pulled; false when the gate failed. Targets mostly
     * pull in order, so a pass asks the driver about the oldest ones only, up to the first not yet
     * pulled; every {@link #FULL_SCAN}th pass asks about all, so one pulled out of order completes
     * within that many passes (not a full scan on every pass: asking costs a read of memory the
     * peer writes, on each of up to 64 exposures).
     */
    public boolean pollExposed() {
        if (exposedCount == 0) {
            return true;
        }
        boolean all = (++exposedPasses & (FULL_SCAN - 1)) == 0;
        int kept = 0;
        for (int i = 0; i < exposedCount; i++) {
            SendRequest s = exposed[i];
            Status st = rail.out.sendPoll(s.exposure);
            if (st == Status.NOT_YET) {
                exposed[kept++] = s;
                if (!all) { // keep the rest as they are
                    for (int j = i + 1; j < exposedCount; j++) {
                        exposed[kept++] = exposed[j];
                    }
                    break;
                }
                continue;
            }
            if (st != Status.DONE) {
                gate.fail(st, "waiting for rank " + gate.rank() + " to pull " + s.length() + " bytes on " + rail.ec.name() + ": " + st);
                return false; // the gate's failure failed them all
            }
            stats.rendezvousBytes(rail.ec, s.length());
            s.complete();
        }
        for (int i = kept; i < exposedCount; i++) {
            exposed[i] = null;
        }
        exposedCount = kept;
        return true;
    }

    // ---- the target -------------------------------------------------------------------------

    @Override
    public long parse(Rail r, MemorySegment p, long at, long len, long word) {
        int a = WireHeader.a(word);
        long c = p.get(WireHeader.U64, at + WireHeader.C);
        if (c < 0) {
            gate.malformed(r, "an RTS of negative length");
            return -1;
        }
        // checked against the driver's size, not this rank's FERRY_RNDV_PULL: that setting is for sending
        if (a != pullDataSize || r.index != 0 || at + WireHeader.RTS_BYTES + a > len) {
            gate.malformed(r, "an RTS with " + a + " bytes of pull data (rail " + r.index + " takes " + (r.index == 0 ? pullDataSize : 0) + ")");
            return -1;
        }
        Message view = gate.view();
        view.setRendezvous(gate, this, p.get(WireHeader.U64, at + WireHeader.B), c, p.get(WireHeader.U64, at + WireHeader.D), 0); // an envelope costs no credits
        view.pullData(p, at + WireHeader.RTS_BYTES, a);
        delivery.deliver(view);
        return WireHeader.RTS_BYTES + a;
    }

    /** Pulls what the receive wants now (a size of 0 only releases the sender); no CTS. */
    @Override
    public void receive(Message m, RecvRequest r, long accepted) {
        if (plan.planning) {
            if (plan.full()) {
                runPlanned(); // a packet with more RTS than a plan holds: in order all the same
            }
            plan.add(r, accepted, m.pullBase(), m.pullOffset(), m.pullBytes()); // the parser checked the pull data's size
        } else {
            pullNow(r, accepted, plan.now(m.pullBase(), m.pullOffset(), m.pullBytes()));
        }
        if (!gate.parsing() && gate.owesReturn()) {
            gate.push(rail);
        }
    }

    /** Pulls are planned, not run, while packets are parsed (the gate's parse). */
    public void planning(boolean on) {
        plan.planning = on;
    }

    public boolean planned() {
        return plan.count() > 0;
    }

    public boolean planFull() {
        return plan.full();
    }

    /** Runs the pulls planned while parsing, in order; the first failure fails the gate, which fails the rest. */
    public void runPlanned() {
        stats.pullBatch(plan.count());
        plan.run(puller);
    }

    private void pullNow(RecvRequest r, long accepted, MemorySegment pullData) {
        Packet p = r.pull;
        if (p == null) {
            p = r.pull = new Packet();
        }
        p.reset().useData(accepted == r.layout().size() ? r.layout() : new SliceLayout(r.layout(), 0, accepted));
        Status s = rail.in.pullPost(p, pullData);
        if (s != Status.DONE) {
            gate.fail(s == Status.NOT_YET || s == Status.NOT_IMPLEMENTED || s == Status.INVALID ? Status.BROKEN : s,
                    "pulling " + accepted + " bytes from rank " + gate.rank() + " on " + rail.ec.name() + " answered " + s);
            r.complete(gate.failStatus(), gate.failure()); // not yet in any table the failure drains
            return;
        }
        if (pulling.isEmpty() && rail.in.pullPoll(p) == Status.DONE) {
            pulled(r, p.length()); // the common case, a pull done at once: no queue
            return;
        }
        pulling.add(r);
        pollPulls();
    }

    /** Completes the pulls that are done, oldest first; false when the gate failed. */
    public boolean pollPulls() {
        RecvRequest r;
        while ((r = pulling.peek()) != null) {
            Status s = rail.in.pullPoll(r.pull);
            if (s == Status.NOT_YET) {
                return true;
            }
            if (s != Status.DONE) {
                gate.fail(s, "pulling from rank " + gate.rank() + " on " + rail.ec.name() + " answered " + s);
                return false;
            }
            pulling.poll();
            pulled(r, r.pull.length());
        }
        return true;
    }

    private static void pulled(RecvRequest r, long n) {
        r.addReceived(n);
        r.remaining -= n;
        r.complete();
    }

    /** Whether exposures are in flight (a look the progress pass makes inline, before the call that polls them). */
    public boolean exposing() {
        return exposedCount != 0;
    }

    public boolean pullsInFlight() {
        return !pulling.isEmpty();
    }

    // ---- receives the driver matches (the node agent's offload) -------------------------------

    /** Receives armed in the driver for it to match, in any order of completion. */
    private final java.util.ArrayList<RecvRequest> armed = new java.util.ArrayList<>();

    /**
     * Hands {@code r}, a receive into {@code into} (contiguous or scattered: the driver stages what
     * it cannot place itself) posted for this peer's messages whose header word is {@code bits}
     * outside {@code ignore}, to rail 0's driver to match (a driver that matches:
     * {@link MatchOffload}); false when it does not take it (no such driver, an empty receive, no
     * slot free now). The driver matches immediate messages and announcements alike. The caller
     * keeps matching it too, taking it back first ({@link #reclaim}).
     */
    public boolean offload(RecvRequest r, dev.ferry.spi.DataLayout into, long bits, long ignore, dev.ferry.core.request.Matched onMatch) {
        if (!offloads(into.size())) {
            return false;
        }
        MatchOffload m = (MatchOffload) rail.in;
        if (m.matchPost(r.pullInto(into), bits, ignore) != Status.DONE) {
            return false;
        }
        r.armedBy = gate.rank();
        r.onMatch = onMatch;
        armed.add(r);
        stats.armed();
        return true;
    }

    /** Whether rail 0's driver matches receives, and a receive of {@code bytes} is one it could see matched (one of some bytes). */
    public boolean offloads(long bytes) {
        return rail.in instanceof MatchOffload && bytes > 0;
    }

    /** Takes {@code r} back from the driver: true when it was not matched there (or was never armed); false when it was, and completes by itself. */
    public boolean reclaim(RecvRequest r) {
        if (r.armedBy < 0) {
            return true;
        }
        if (((MatchOffload) rail.in).matchCancel(r.pull) != Status.DONE) {
            return false;
        }
        armed.remove(r);
        r.armedBy = -1;
        return true;
    }

    public boolean armedAny() {
        return !armed.isEmpty();
    }

    /** Completes the armed receives the driver matched and placed; false when the gate failed. */
    public boolean pollArmed() {
        MatchOffload m = (MatchOffload) rail.in;
        for (int i = armed.size() - 1; i >= 0; i--) {
            RecvRequest r = armed.get(i);
            Status s = m.matchPoll(r.pull);
            if (s == Status.NOT_YET) {
                continue;
            }
            armed.remove(i);
            r.armedBy = -1;
            if (s != Status.DONE) {
                r.placingFailed(gate.host(), gate.rank(), s, "the agent matched a message from rank " + gate.rank() + " but could not place it: " + s);
                gate.fail(s, "a receive the agent matched from rank " + gate.rank() + " on " + rail.ec.name() + " answered " + s);
                return false;
            }
            long n = r.pull.length();
            stats.agentMatched();
            if (!m.matchPlacedAtOnce(r.pull)) {
                stats.rendezvousBytes(rail.ec, n); // an eager message the agent wrote was counted as such by its sender
            }
            r.placed(gate.host(), gate.rank(), m.matchHeader(r.pull), n);
            r.onMatch.matched(r);
        }
        return true;
    }

    // ---- state ------------------------------------------------------------------------------

    @Override
    public boolean quiet() {
        return exposedCount == 0 && pulling.isEmpty() && armed.isEmpty(); // an armed receive keeps the gate from closing idle
    }

    @Override
    public void drain(Consumer<Request> failed) {
        for (int i = 0; i < exposedCount; i++) {
            failed.accept(exposed[i]);
            exposed[i] = null;
        }
        exposedCount = 0;
        RecvRequest r;
        while ((r = pulling.poll()) != null) {
            failed.accept(r);
        }
        for (RecvRequest a : armed) { // unmatched, the layer above fails them with the peer; matched, they fail here
            a.armedBy = -1;
            if (((MatchOffload) rail.in).matchCancel(a.pull) != Status.DONE) {
                a.begin(gate.host());
                failed.accept(a);
            }
        }
        armed.clear();
        plan.drain(failed);
    }

    @Override
    public String stateReport() {
        return "exposed " + exposedCount + ", pulling " + pulling.size() + ", armed for the agent " + armed.size();
    }
}
