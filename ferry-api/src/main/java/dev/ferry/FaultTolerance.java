package dev.ferry;

import dev.ferry.core.request.Message;
import dev.ferry.core.request.SendRequest;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * ULFM's machinery for one Ferry instance (MPI's User-Level Failure Mitigation): revocations
 * flooded to every member of a communicator, and the fault-tolerant agreements ({@link AgreeOp})
 * that {@link Comm#agree} and {@link Comm#shrink} run. Its messages are the engine's FAULT kind
 * ({@link Envelope}), which no revocation stops. All its state lives in the engine's thread of
 * control, as {@link Messaging}'s does.
 */
final class FaultTolerance {
    /** The steps a FAULT message's tag names. */
    static final int REVOKE = 1, SOLICIT = 2, CONTRIBUTE = 3, PROPOSE = 4, ACCEPT = 5, COMMIT = 6, LEFT = 7;
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private final Messaging messaging;
    /** Agreements under way (or heard of before this rank entered them), by (context, sequence). */
    private final Long2ObjectHashMap<AgreeOp> underWay = new Long2ObjectHashMap<>();
    /** The last agreement decided on each context: members that ask later are answered from it. */
    private final Int2ObjectHashMap<Decided> decided = new Int2ObjectHashMap<>();
    /** Communicators revoked, by their (user) context; kept until the communicator is freed. */
    private final BitSet revoked = new BitSet();
    /** How many are revoked: while none, an arriving message needs no look at {@link #revoked}. */
    private int revocations;

    /** For fault-injection tests: asked before each FAULT message goes out; true keeps it back (the rank is dying). */
    interface SendHook {
        boolean withhold(int step, int world);
    }

    volatile SendHook sendHook;

    private record Decided(int seq, AgreementValue value, Comm comm, int coordinator) {
    }

    FaultTolerance(Messaging messaging) {
        this.messaging = messaging;
    }

    String isFailed(int world) {
        return messaging.failure(world);
    }

    /** Whether messages of header context {@code context} (a communicator's user or internal one) are to be dropped. */
    boolean dropsContext(int context) {
        return revocations != 0 && revoked.get(context & ~1);
    }

    boolean isRevoked(int userContext) {
        return revoked.get(userContext);
    }

    // ---- revoke ---------------------------------------------------------------------------------

    /**
     * Revokes {@code c} here, unless it is already: its pending operations fail with REVOKED, and
     * every other member hears of it (each tells the others in turn, so a revoker that dies midway
     * still reaches all). {@code from}: the job rank that told this one, or -1.
     */
    void revoke(Comm c, int from) {
        if (revoked.get(c.context)) {
            return;
        }
        revoked.set(c.context);
        revocations++;
        c.markRevoked();
        messaging.failRevoked(c);
        int me = messaging.engine().rank();
        for (int world : c.everyone()) {
            if (world != me && world != from && isFailed(world) == null) {
                send(world, REVOKE, c.context, 0, null);
            }
        }
    }

    // ---- agreements -----------------------------------------------------------------------------

    /**
     * Starts this rank's part in agreement {@code seq} on {@code c} with {@code value} (engine's
     * thread of control); the op it runs on, which messages may have made before this rank entered.
     */
    AgreeOp enter(Comm c, int seq, AgreementValue value, int[] flagOut) {
        long key = key(c.context, seq);
        AgreeOp op = underWay.get(key);
        if (op == null) {
            op = new AgreeOp(messaging, this, c.context, seq);
            underWay.put(key, op);
        }
        op.enter(c, value, flagOut);
        return op;
    }

    /** An agreement decided here: it leaves the ones under way, and is kept to answer late askers. */
    void decided(AgreeOp op, AgreementValue value, int coordinator) {
        underWay.remove(key(op.context, op.seq));
        decided.put(op.context, new Decided(op.seq, value, op.comm(), coordinator));
    }

    // ---- the engine's side ----------------------------------------------------------------------

    /** A FAULT message came (engine's thread of control). */
    void onMessage(Message m) {
        long h = m.header();
        int step = Envelope.faultStep(h), context = Envelope.context(h), seq = Envelope.faultSeq(h), from = m.source();
        if (m.isRendezvous()) { // never sent so large: a peer that does breaks the protocol
            messaging.engine().logger().log(System.Logger.Level.WARNING, "rank {0}: a fault-tolerance message of {1} bytes from rank {2}: dropped",
                    messaging.engine().rank(), m.length(), from);
            m.drop();
            return;
        }
        if (step == REVOKE) {
            Comm c = messaging.comm(context);
            if (c != null) {
                revoke(c, from);
            } else if (!revoked.get(context)) { // not made here yet: it is born revoked
                revoked.set(context);
                revocations++;
            }
            return;
        }
        if (step == SOLICIT) {
            return; // its only use is that its sender learns of a dead member by trying it
        }
        if (step == LEFT) {
            String cause = m.length() == 0 ? null : new String(m.payload().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                    java.nio.charset.StandardCharsets.UTF_8);
            messaging.peerLeft(from, cause);
            return;
        }
        Decided d = decided.get(context);
        if (d != null && seq - d.seq <= 0) {
            if (seq == d.seq && (step == CONTRIBUTE || step == PROPOSE)) {
                send(from, COMMIT, context, seq, d.value.encode()); // decided here: the asker learns it
            }
            return;
        }
        AgreeOp op = underWay.get(key(context, seq));
        if (op == null) {
            op = new AgreeOp(messaging, this, context, seq);
            underWay.put(key(context, seq), op);
        }
        MemorySegment buf = m.buffer();
        long at = m.offset();
        switch (step) {
            case CONTRIBUTE -> op.contributed(from, buf, at);
            case PROPOSE -> op.proposed(from, AgreementValue.read(buf, at));
            case ACCEPT -> op.acceptedBy(from);
            case COMMIT -> op.committed(AgreementValue.read(buf, at));
            default -> messaging.engine().logger().log(System.Logger.Level.WARNING, "rank {0}: an unknown fault-tolerance step {1} from rank {2}: dropped",
                    messaging.engine().rank(), step, from);
        }
    }

    /** Job rank {@code world} failed: agreements waiting for it move on; a decision its coordinator made goes to the next one. */
    void peerFailed(int world) {
        if (!underWay.isEmpty()) {
            List<AgreeOp> ops = new ArrayList<>(underWay.values());
            for (AgreeOp op : ops) {
                op.peerFailed(world);
            }
        }
        int me = messaging.engine().rank();
        decided.forEach((context, d) -> {
            Comm c = d.comm;
            if (c == null || c.local(world) != d.coordinator) {
                return;
            }
            // members that had not heard the decision when its coordinator died ask the next one: make sure it knows
            for (int r = 0; r < c.size(); r++) {
                int w = c.world(r);
                if (isFailed(w) == null) {
                    if (w == me) { // the next coordinator is this rank: tell everyone
                        for (int k = 0; k < c.size(); k++) {
                            if (c.world(k) != me && isFailed(c.world(k)) == null) {
                                send(c.world(k), COMMIT, context, d.seq, d.value.encode());
                            }
                        }
                    } else {
                        send(w, COMMIT, context, d.seq, d.value.encode());
                    }
                    return;
                }
            }
        });
    }

    /**
     * This rank closes: every peer it has a connection to hears it (LEFT, after everything this
     * rank sent it), so that their receives from this rank, which nothing can match any more, fail
     * now rather than when the connection goes. The word carries the first failure this rank knew
     * of, so that a peer that fails on it names the rank that failed first.
     */
    void announceLeaving() {
        Messaging m = messaging;
        m.engine().runSerialized(() -> {
            String first = m.firstFailure();
            byte[] cause = first == null ? null : first.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            int me = m.engine().rank();
            for (int peer = 0; peer < m.engine().size(); peer++) {
                if (peer != me && isFailed(peer) == null && m.engine().isConnected(peer)) {
                    send(peer, LEFT, 0, 0, cause);
                }
            }
        });
        m.progress();
    }

    /** The communicator of {@code context} is freed: what this rank knew of its agreements and revocation goes. */
    void forget(int context) {
        decided.remove(context);
        underWay.keySet().removeIf(k -> (int) (k >>> 32) == context);
        if (revoked.get(context)) {
            revoked.clear(context);
            revocations--;
        }
    }

    void send(int world, int step, int context, int seq, byte[] body) {
        SendHook hook = sendHook;
        if (hook != null && hook.withhold(step, world)) {
            return;
        }
        MemorySegment data = body == null ? EMPTY : MemorySegment.ofArray(body);
        messaging.engine().send(new SendRequest().to(world, Envelope.faultHeader(context, step, seq), data).handledOnArrival());
    }

    private static long key(int context, int seq) {
        return (long) context << 32 | seq & 0xffff_ffffL;
    }
}
