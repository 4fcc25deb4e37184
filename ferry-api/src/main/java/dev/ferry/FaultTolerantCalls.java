package dev.ferry;

import java.util.stream.IntStream;

/**
 * What {@link Comm#iagree} and {@link Comm#shrink} do at the calling rank: the value it
 * contributes (its flags or free context ids, the members it knows failed and those it
 * acknowledged), the agreement started in the engine's thread of control, and for shrink the new
 * communicator of the members the agreement did not count failed.
 */
final class FaultTolerantCalls {
    private FaultTolerantCalls() {
    }

    static Request agree(Comm c, int[] flag) {
        if (flag == null || flag.length == 0) {
            throw new FerryException(ErrorClass.ARG, "iagree: flag must be an array of at least one element (flag[0] in, and out)");
        }
        return start(c, "iagree", flag[0], new long[0], flag);
    }

    static Comm shrink(Comm c) {
        Ferry f = c.ferry();
        synchronized (f.creation) { // the free context ids contributed stay free until one is taken
            AgreeOp op = start(c, "shrink", -1, f.contexts.freeMask(), null);
            op.await();
            AgreementValue d = op.decision();
            int[] survivors = IntStream.range(0, c.size()).filter(r -> !AgreementValue.isSet(d.failed, r)).map(c::world).toArray();
            if (AgreementValue.isSet(d.failed, c.rank())) {
                throw new FerryException(ErrorClass.PROC_FAILED, "shrink of " + c + ": the survivors counted this rank failed (" + op.failedRanks(d) + ")");
            }
            int id = ContextIds.lowestCommon(d.mask);
            if (id < 0) {
                throw new FerryException(ErrorClass.NO_SPACE, "shrink of " + c + ": no communicator context is free at every survivor ("
                        + ContextIds.MAX + " per instance)");
            }
            f.contexts.take(id);
            return new Comm(f, id, survivors);
        }
    }

    private static AgreeOp start(Comm c, String what, int flags, long[] mask, int[] flagOut) {
        if (c.isFreed()) {
            throw new FerryException(ErrorClass.COMM, what + ": " + c + " was freed");
        }
        if (c.isInter()) {
            throw new FerryException(ErrorClass.COMM, what + ": " + c + " is an intercommunicator (Ferry agrees and shrinks on intracommunicators)");
        }
        int seq = c.nextAgreement();
        AgreementValue v = new AgreementValue(flags, mask, c.size());
        int[] failed = c.failedMembers();
        int acknowledged = c.acknowledgedCount();
        for (int i = 0; i < failed.length; i++) {
            AgreementValue.set(v.failed, c.local(failed[i]));
            if (i < acknowledged) {
                AgreementValue.set(v.acknowledged, c.local(failed[i]));
            }
        }
        AgreeOp[] op = new AgreeOp[1];
        Messaging m = c.messaging();
        m.engine().runSerialized(() -> op[0] = m.faults.enter(c, seq, v, flagOut));
        m.progress();
        return op[0];
    }
}
