package dev.ferry;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One fault-tolerant agreement at this rank ({@link Comm#agree}, {@link Comm#shrink}), run in the
 * engine's thread of control by {@link FaultTolerance}. The coordinator is the lowest-ranked member
 * this rank believes alive. Three steps, so that the decision is uniform (a member that returned
 * and died afterwards saw the same as the survivors):
 * <ol>
 *   <li>every member sends its value to the coordinator (CONTRIBUTE); the coordinator, once it has
 *       the value of every member it believes alive, combines them into a decision, or adopts the
 *       proposal of the highest-ranked earlier coordinator that a contributor holds;</li>
 *   <li>it proposes the decision to the members alive (PROPOSE), which keep it and answer (ACCEPT);</li>
 *   <li>once every member alive has accepted, it commits it (COMMIT): each member decides.</li>
 * </ol>
 * When the coordinator dies, each member sends its value, and the proposal it holds, to the next
 * lowest it believes alive; a member that had decided sends the decision instead (COMMIT). A
 * member failing meanwhile is no longer waited for. A dead peer is found by trying it: the
 * coordinator writes to every member at the start (SOLICIT), and a member to its coordinator.
 */
final class AgreeOp extends Request {
    private final FaultTolerance ft;
    final int context;
    final int seq;
    /** Null until this rank enters the agreement (messages may come first). */
    private Comm comm;
    private AgreementValue mine;
    /** The proposal held, and the rank of the coordinator that made it; null for none. */
    private AgreementValue proposal;
    private int proposer = -1;
    private int coordinator = -1;
    /** As coordinator: the contributions by rank (with the proposals they hold), and who accepted. */
    private AgreementValue[] contributions;
    private AgreementValue[] heldProposals;
    private int[] heldProposers;
    private long[] accepted;
    private boolean proposing;
    /** The decision, once made; set before the request completes. */
    private volatile AgreementValue decision;
    private volatile Status finished;
    /** Where {@link Comm#iagree} wants the agreed flags. */
    private int[] flagOut;

    AgreeOp(Messaging messaging, FaultTolerance ft, int context, int seq) {
        super(messaging);
        this.ft = ft;
        this.context = context;
        this.seq = seq;
    }

    @Override
    Status poll() {
        return finished;
    }

    AgreementValue decision() {
        return decision;
    }

    boolean entered() {
        return comm != null;
    }

    /** This rank enters with its value (engine's thread of control). */
    void enter(Comm c, AgreementValue value, int[] flagOut) {
        this.flagOut = flagOut;
        this.comm = c;
        this.mine = value;
        allocate(c.size());
        fileEarly();
        AgreementValue committedBefore = decision;
        if (committedBefore != null) { // a COMMIT came before this rank entered
            complete(committedBefore);
            return;
        }
        coordinator = lowestLive();
        if (coordinator == c.rank()) {
            becomeCoordinator();
        } else {
            sendContribution();
        }
    }

    private void allocate(int n) {
        contributions = new AgreementValue[n];
        heldProposals = new AgreementValue[n];
        heldProposers = new int[n];
        accepted = new long[AgreementValue.words(n)];
    }

    private int lowestLive() {
        for (int r = 0; r < comm.size(); r++) {
            if (ft.isFailed(comm.world(r)) == null) {
                return r;
            }
        }
        return comm.rank();
    }

    private void sendContribution() {
        ft.send(comm.world(coordinator), FaultTolerance.CONTRIBUTE, context, seq, mine.encodeContribution(proposer, proposal));
    }

    private void becomeCoordinator() {
        proposing = false;
        Arrays.fill(accepted, 0);
        contributions[comm.rank()] = mine;
        heldProposals[comm.rank()] = proposal;
        heldProposers[comm.rank()] = proposer;
        for (int r = 0; r < comm.size(); r++) {
            if (r != comm.rank() && ft.isFailed(comm.world(r)) == null) {
                ft.send(comm.world(r), FaultTolerance.SOLICIT, context, seq, null); // a dead member is found by trying it
            }
        }
        step();
    }

    /** A member's contribution reached this rank (as coordinator now or later). */
    void contributed(int from, MemorySegment buf, long at) {
        if (decision != null) {
            ft.send(from, FaultTolerance.COMMIT, context, seq, decision.encode()); // it asks late: answer with what was decided
            return;
        }
        int p = buf.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, at + AgreementValue.CONTRIBUTION_PROPOSER) - 1;
        AgreementValue v = AgreementValue.read(buf, at + AgreementValue.CONTRIBUTION_VALUE);
        AgreementValue held = p < 0 ? null : AgreementValue.read(buf, at + AgreementValue.CONTRIBUTION_VALUE + v.bytes());
        if (comm == null) {
            pending(from, v, held, p);
            return;
        }
        int r = comm.local(from);
        if (r < 0 || ft.isFailed(from) != null) {
            return;
        }
        contributions[r] = v;
        heldProposals[r] = held;
        heldProposers[r] = p;
        if (coordinator == comm.rank()) {
            step();
        }
    }

    /** A contribution that came before this rank entered: from job rank {@code from}, with the proposal it holds. */
    private record Early(int from, AgreementValue value, AgreementValue held, int proposer) {
    }

    /** Contributions that came before this rank entered, kept until it does. */
    private java.util.List<Early> early;

    private void pending(int from, AgreementValue v, AgreementValue held, int p) {
        if (early == null) {
            early = new java.util.ArrayList<>();
        }
        early.add(new Early(from, v, held, p));
    }

    /** Files the contributions that came before this rank entered. */
    private void fileEarly() {
        if (early == null) {
            return;
        }
        for (Early e : early) {
            int r = comm.local(e.from());
            if (r >= 0 && ft.isFailed(e.from()) == null) {
                contributions[r] = e.value();
                heldProposals[r] = e.held();
                heldProposers[r] = e.proposer();
            }
        }
        early = null;
    }

    /** A coordinator proposes a decision. */
    void proposed(int from, AgreementValue v) {
        if (decision != null) {
            ft.send(from, FaultTolerance.COMMIT, context, seq, decision.encode());
            return;
        }
        int r = comm == null ? -1 : comm.local(from);
        if (r < 0) {
            return; // a proposal needs this rank's contribution: none comes before it entered
        }
        if (r >= proposer) {
            proposal = v;
            proposer = r;
        }
        ft.send(from, FaultTolerance.ACCEPT, context, seq, null);
    }

    void acceptedBy(int from) {
        if (comm == null || decision != null) {
            return;
        }
        int r = comm.local(from);
        if (r >= 0 && proposing) {
            AgreementValue.set(accepted, r);
            step();
        }
    }

    /** A decision committed by some coordinator: this rank decides, and as coordinator tells every member alive. */
    void committed(AgreementValue v) {
        if (decision != null) {
            return;
        }
        if (comm == null) {
            decision = v; // before entering: completed on entry
            return;
        }
        if (coordinator == comm.rank()) {
            broadcast(FaultTolerance.COMMIT, v.encode());
        }
        complete(v);
    }

    /** Job rank {@code world} failed. */
    void peerFailed(int world) {
        if (comm == null || decision != null) {
            return;
        }
        int r = comm.local(world);
        if (r < 0) {
            return;
        }
        contributions[r] = null;
        if (r == coordinator) {
            coordinator = lowestLive();
            if (coordinator == comm.rank()) {
                becomeCoordinator();
            } else {
                sendContribution();
            }
        } else if (coordinator == comm.rank()) {
            step();
        }
    }

    /** As coordinator: decides to propose once every live member contributed, and to commit once every live member accepted. */
    private void step() {
        if (decision != null) {
            return;
        }
        int n = comm.size();
        if (!proposing) {
            for (int r = 0; r < n; r++) {
                if (contributions[r] == null && ft.isFailed(comm.world(r)) == null) {
                    return;
                }
            }
            AgreementValue d = null;
            int best = -1;
            for (int r = 0; r < n; r++) {
                if (contributions[r] != null && heldProposals[r] != null && heldProposers[r] > best) {
                    best = heldProposers[r];
                    d = heldProposals[r];
                }
            }
            if (d == null) { // nobody holds a proposal: decide afresh from the contributions
                d = mine.copy();
                long[] dead = new long[AgreementValue.words(n)];
                for (int r = 0; r < n; r++) {
                    if (contributions[r] != null && r != comm.rank()) {
                        d.combine(contributions[r]);
                    }
                    if (contributions[r] == null || ft.isFailed(comm.world(r)) != null) {
                        AgreementValue.set(dead, r);
                    }
                }
                d.decide(dead);
            }
            proposal = d;
            proposer = comm.rank();
            proposing = true;
            AgreementValue.set(accepted, comm.rank());
            broadcast(FaultTolerance.PROPOSE, d.encode());
        }
        for (int r = 0; r < n; r++) {
            if (!AgreementValue.isSet(accepted, r) && ft.isFailed(comm.world(r)) == null) {
                return;
            }
        }
        broadcast(FaultTolerance.COMMIT, proposal.encode());
        complete(proposal);
    }

    private void broadcast(int step, byte[] body) {
        for (int r = 0; r < comm.size(); r++) {
            if (r != comm.rank() && ft.isFailed(comm.world(r)) == null) {
                ft.send(comm.world(r), step, context, seq, body);
            }
        }
    }

    private void complete(AgreementValue d) {
        decision = d;
        ft.decided(this, d, coordinator);
        if (flagOut != null) {
            flagOut[0] = d.flags;
        }
        finished = d.error && flagOut != null
                ? Status.failed(Ferry.ANY_SOURCE, Ferry.ANY_TAG, ErrorClass.PROC_FAILED, "agree on " + comm + ": members failed whose failure "
                        + "not every member had acknowledged: " + failedRanks(d))
                : Status.ok(Ferry.ANY_SOURCE, Ferry.ANY_TAG, 0, 1);
        wake();
    }

    /** The ranks of the communicator a decision says failed, as text. */
    String failedRanks(AgreementValue d) {
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < comm.size(); r++) {
            if (AgreementValue.isSet(d.failed, r)) {
                b.append(b.isEmpty() ? "rank " : ", ").append(r);
            }
        }
        return b.isEmpty() ? "none" : b.toString();
    }

    Comm comm() {
        return comm;
    }

    @Override
    public String toString() {
        return "agreement " + seq + " on " + comm;
    }
}
