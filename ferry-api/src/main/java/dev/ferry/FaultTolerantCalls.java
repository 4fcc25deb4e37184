package dev.ferry;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The fault-tolerance calls of a {@link Comm} (MPI's User-Level Failure Mitigation, Open MPI's
 * {@code MPIX_Comm_*}), as Comm offers them: a superclass of Comm so that these calls, and the
 * state they keep (revoked, the agreements started, the failures acknowledged), read as one
 * family. {@link FaultTolerance} carries out revocations and agreements in the engine's thread of
 * control; here is what the calling rank does: the value it contributes (its flags or free context
 * ids, the members it knows failed and those it acknowledged), and for shrink the communicator of
 * the members the agreement did not count failed.
 */
abstract sealed class FaultTolerantCalls extends PersistentCollectiveCalls permits Comm {
    /** Set once, in the engine's thread of control, when a member revoked it ({@link #revoke}). */
    volatile boolean revoked;
    /** Agreements started on it (agree, shrink): the next one's number. */
    private int agreements;
    /** How many of its failed members (in {@link #getFailed()}'s order) this rank acknowledged. */
    private volatile int acknowledged;

    abstract Messaging messaging();

    abstract Ferry ferry();

    /** The job rank of rank {@code r}. */
    abstract int world(int r);

    /** The rank here of job rank {@code worldRank}, or -1. */
    abstract int local(int worldRank);

    /** Whether job rank {@code worldRank} is a member, or of an intercommunicator's remote group. */
    abstract boolean reaches(int worldRank);

    public abstract int size();

    public abstract int rank();

    public abstract boolean isInter();

    public abstract boolean isFreed();

    private Comm comm() {
        return (Comm) this; // the only subclass there is
    }

    final void checkNotFreed() {
        if (isFreed()) {
            throw new FerryException(ErrorClass.COMM, this + " was freed");
        }
    }

    /**
     * Revokes the communicator at every member (ULFM's {@code MPIX_Comm_revoke}; not collective:
     * one member calls it): their pending and later operations on it fail with
     * {@link ErrorClass#REVOKED}, except {@link #agree}, {@link #iagree}, {@link #shrink},
     * {@link #getFailed}, {@link #ackFailed} and {@link Comm#free}. A member that hears of it tells
     * the others too, so a revoker that dies midway still reaches every live member.
     *
     * <pre>{@code
     * try {
     *     comm.allreduce(local, 0, sum, 0, 1, Datatype.DOUBLE, Op.SUM);
     * } catch (FerryException e) {
     *     if (e.errorClass() != ErrorClass.PROC_FAILED && e.errorClass() != ErrorClass.REVOKED) throw e;
     *     comm.revoke();                 // everyone stops what they do on comm
     *     Comm survivors = comm.shrink(); // and goes on without the dead
     * }
     * }</pre>
     */
    public void revoke() {
        checkNotFreed();
        Messaging m = messaging();
        m.engine().runSerialized(() -> m.faults.revoke(comm(), -1));
        m.progress(); // the word goes out now
    }

    /** Whether the communicator was revoked, here or at another member (ULFM's {@code MPIX_Comm_is_revoked}). */
    public boolean isRevoked() {
        return revoked;
    }

    /**
     * A fault-tolerant agreement (ULFM's {@code MPIX_Comm_agree}; collective, and it works on a
     * revoked communicator): returns the bitwise AND of {@code flags} over the members that
     * contributed, the same at every member that returns, even when members fail during it. It
     * throws {@link ErrorClass#PROC_FAILED} (at every survivor alike) when a member failed whose
     * failure not every member had {@linkplain #ackFailed acknowledged} before the call; use
     * {@link #iagree} to have the flags in that case too. Intracommunicators only.
     *
     * <pre>{@code
     * int allOk = comm.agree(myPartOk ? 1 : 0); // 1 only when every live member's part was ok
     * }</pre>
     */
    public int agree(int flags) {
        int[] flag = {flags};
        iagree(flag).await();
        return flag[0];
    }

    /**
     * Starts {@link #agree} (ULFM's {@code MPIX_Comm_iagree}): {@code flag[0]} is the
     * contribution, and holds the agreed flags once the request completes, also when it completes
     * with PROC_FAILED.
     *
     * <pre>{@code
     * int[] flag = {1};
     * Request r = comm.iagree(flag);
     * // ... compute ...
     * r.await(); // flag[0] is the AND of the live members' flags
     * }</pre>
     */
    public Request iagree(int[] flag) {
        if (flag == null || flag.length == 0) {
            throw new FerryException(ErrorClass.ARG, "iagree: flag must be an array of at least one element (flag[0] in, and out)");
        }
        return start("iagree", flag[0], new long[0], flag);
    }

    /**
     * A new communicator of the members that are alive (ULFM's {@code MPIX_Comm_shrink};
     * collective over the survivors, and it works on a revoked communicator): they agree on who
     * failed, even when more members fail during the call, and the result is usable at once,
     * ranked in this communicator's order. Intracommunicators only.
     *
     * <pre>{@code
     * Comm survivors = comm.shrink();
     * int share = work.length / survivors.size(); // redistribute the lost ranks' part
     * }</pre>
     */
    public Comm shrink() {
        Ferry f = ferry();
        synchronized (f.creation) { // the free context ids contributed stay free until one is taken
            AgreeOp op = start("shrink", -1, f.contexts.freeMask(), null);
            op.await();
            AgreementValue d = op.decision();
            int[] survivors = IntStream.range(0, size()).filter(r -> !AgreementValue.isSet(d.failed, r)).map(this::world).toArray();
            if (AgreementValue.isSet(d.failed, rank())) {
                throw new FerryException(ErrorClass.PROC_FAILED, "shrink of " + this + ": the survivors counted this rank failed (" + op.failedRanks(d) + ")");
            }
            int id = ContextIds.lowestCommon(d.mask);
            if (id < 0) {
                throw new FerryException(ErrorClass.NO_SPACE, "shrink of " + this + ": no communicator context is free at every survivor ("
                        + ContextIds.MAX + " per instance)");
            }
            f.contexts.take(id);
            return new Comm(f, id, survivors);
        }
    }

    /**
     * The members known here to have failed, in the order this rank heard of them (ULFM's
     * {@code MPI_Comm_get_failed}); local, and it grows as failures are found.
     *
     * <pre>{@code
     * int lost = comm.getFailed().size();
     * }</pre>
     */
    public Group getFailed() {
        return new Group(failedMembers(), messaging().engine().rank());
    }

    /**
     * Acknowledges the first {@code n} failures of {@link #getFailed()} (ULFM's
     * {@code MPI_Comm_ack_failed}; local): receives from {@link Ferry#ANY_SOURCE}, which fail with
     * {@link ErrorClass#PROC_FAILED_PENDING} while a failed member is not acknowledged, work again,
     * and {@link #agree} no longer raises PROC_FAILED for them. Returns how many are acknowledged
     * now (pass 0 to ask).
     *
     * <pre>{@code
     * comm.ackFailed(comm.getFailed().size()); // every failure known here
     * }</pre>
     */
    public int ackFailed(int n) {
        checkNotFreed();
        if (n < 0) {
            throw new FerryException(ErrorClass.ARG, "ackFailed: n is " + n + ", not 0 or more");
        }
        synchronized (this) {
            int k = Math.max(acknowledged, Math.min(n, failedMembers().length));
            acknowledged = k;
            return k;
        }
    }

    /** The failed members' job ranks, in the order this rank heard of them. */
    int[] failedMembers() {
        return Arrays.stream(messaging().failedInOrder()).filter(this::reaches).toArray();
    }

    /** Why a failed member is not acknowledged, or null when all are (engine's thread of control; called when some peer failed). */
    String unacknowledgedFailure() {
        int[] f = failedMembers();
        int k = acknowledged;
        return f.length > k ? messaging().failure(f[k]) : null;
    }

    /** Marks it revoked (engine's thread of control). */
    void markRevoked() {
        revoked = true;
    }

    /** Starts this rank's part in the next agreement on this communicator. */
    private AgreeOp start(String what, int flags, long[] mask, int[] flagOut) {
        if (isFreed()) {
            throw new FerryException(ErrorClass.COMM, what + ": " + this + " was freed");
        }
        if (isInter()) {
            throw new FerryException(ErrorClass.COMM, what + ": " + this + " is an intercommunicator (Ferry agrees and shrinks on intracommunicators)");
        }
        int seq;
        synchronized (this) {
            seq = agreements++; // every member starts them in the same order
        }
        AgreementValue v = new AgreementValue(flags, mask, size());
        int[] failed = failedMembers();
        int acked = acknowledged;
        for (int i = 0; i < failed.length; i++) {
            AgreementValue.set(v.failed, local(failed[i]));
            if (i < acked) {
                AgreementValue.set(v.acknowledged, local(failed[i]));
            }
        }
        AgreeOp[] op = new AgreeOp[1];
        Messaging m = messaging();
        Comm c = comm();
        m.engine().runSerialized(() -> op[0] = m.faults.enter(c, seq, v, flagOut));
        m.progress();
        return op[0];
    }
}
