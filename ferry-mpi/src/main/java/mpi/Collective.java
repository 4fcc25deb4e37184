package mpi;

import dev.ferry.Ferry;

/**
 * One collective call on a communicator: adapts the two APIs' buffers to Ferry's collectives
 * ({@code boolean[]} through a byte copy written back when the operation completes; MPI.OBJECT by
 * serialization, for the blocking data movers) and returns the non-blocking forms' requests.
 */
final class Collective {
    private final Comm owner;
    final dev.ferry.Comm c;

    Collective(Comm owner, dev.ferry.Comm c) {
        this.owner = owner;
        this.c = c;
    }

    /** The movers of MPI.OBJECT blocks, with the communicator's lane for their large arrays. */
    private ObjectCollectives objects() {
        return new ObjectCollectives(c, owner.objectLane());
    }

    private static Object in(Object buf) {
        if (buf == MPI.IN_PLACE) {
            return Ferry.IN_PLACE;
        }
        return buf == null ? null : Comm.data(buf);
    }

    private static Object out(Object buf) {
        return buf == null ? null : Comm.data(buf);
    }

    private static int off(Object buf, int offset) {
        return buf == null || buf == MPI.IN_PLACE ? offset : Buf.offset(buf, offset);
    }

    private static dev.ferry.Datatype t(Datatype type, String what) {
        return type == null ? null : Comm.t(type, what);
    }

    private boolean objects(Datatype... types) {
        for (Datatype t : types) {
            if (t != null && t.isObject()) {
                if (c.isInter()) {
                    throw new MPIException(MPI.ERR_TYPE, "MPI.OBJECT in a collective on an intercommunicator: not in Ferry (merge it first)");
                }
                return true;
            }
        }
        return false;
    }

    /** A blocking collective on an intercommunicator (whose collectives are blocking only): {@code call}, then the write-back. */
    private static Request blockingInter(Object user, Object staged, Runnable call) {
        call.run();
        Comm.back(user, staged);
        return null;
    }

    /** Completes: blocking, waits and writes back; non-blocking, a request that writes back when it completes. */
    private Request finish(dev.ferry.Request r, boolean nonblocking, Object user, Object staged) {
        if (!nonblocking) {
            r.await();
            Comm.back(user, staged);
            return null;
        }
        Request q = new Request(r, owner.errhandler, null);
        if (user instanceof boolean[]) {
            q.finisher = s -> Comm.back(user, staged);
        }
        return q;
    }

    /** Where a buffer's objects lie for {@code t} (MPI.OBJECT or a type built on it; any other, or none, as MPI.OBJECT). */
    private static ObjectLayout lay(Datatype t) {
        return t == null || t.objects == null ? ObjectLayout.ONE : t.objects;
    }

    private static MPIException noObjects(String what) {
        return new MPIException(MPI.ERR_TYPE, what + ": MPI.OBJECT is supported by the blocking collectives only");
    }

    void bcast(Object buf, int offset, int count, Datatype type, int root) {
        if (objects(type)) {
            objects().bcast(ObjectCodec.array(buf, "buf"), offset, count, lay(type), root);
            return;
        }
        Object d = out(buf);
        c.bcast(d, off(buf, offset), count, t(type, "type"), root);
        Comm.back(buf, d);
    }

    Request ibcast(Object buf, int offset, int count, Datatype type, int root) {
        if (objects(type)) {
            throw noObjects("ibcast");
        }
        Object d = out(buf);
        return finish(c.ibcast(d, off(buf, offset), count, t(type, "type"), root), true, buf, d);
    }

    Request gather(Object sendbuf, int soff, int scount, Datatype stype, Object recvbuf, int roff, int rcount, Datatype rtype, int root, boolean nb) {
        if (objects(stype, rtype)) {
            if (nb) {
                throw noObjects("igather");
            }
            objects().gather(sendbuf, soff, scount, lay(stype), recvbuf, roff, rcount, lay(rtype), root);
            return null;
        }
        Object r = out(recvbuf);
        if (!nb && c.isInter()) {
            return blockingInter(recvbuf, r, () -> c.gather(in(sendbuf), off(sendbuf, soff), scount, t(stype, "sendtype"), r, off(recvbuf, roff), rcount, t(rtype, "recvtype"), root));
        }
        dev.ferry.Request q = c.igather(in(sendbuf), off(sendbuf, soff), scount, t(stype, "sendtype"), r, off(recvbuf, roff), rcount, t(rtype, "recvtype"), root);
        return finish(q, nb, recvbuf, r);
    }

    Request gatherv(Object sendbuf, int soff, int scount, Datatype stype, Object recvbuf, int roff, int[] rcounts, int[] displs, Datatype rtype, int root, boolean nb) {
        if (objects(stype, rtype)) {
            if (nb) {
                throw noObjects("igatherv");
            }
            objects().gatherv(sendbuf, soff, scount, lay(stype), recvbuf, roff, rcounts, displs, lay(rtype), root);
            return null;
        }
        Object r = out(recvbuf);
        if (!nb && c.isInter()) {
            return blockingInter(recvbuf, r, () -> c.gatherv(in(sendbuf), off(sendbuf, soff), scount, t(stype, "sendtype"), r, off(recvbuf, roff), rcounts, displs, t(rtype, "recvtype"), root));
        }
        dev.ferry.Request q = c.igatherv(in(sendbuf), off(sendbuf, soff), scount, t(stype, "sendtype"), r, off(recvbuf, roff), rcounts, displs, t(rtype, "recvtype"), root);
        return finish(q, nb, recvbuf, r);
    }

    Request scatter(Object sendbuf, int soff, int scount, Datatype stype, Object recvbuf, int roff, int rcount, Datatype rtype, int root, boolean nb) {
        if (objects(stype, rtype)) {
            if (nb) {
                throw noObjects("iscatter");
            }
            objects().scatter(sendbuf, soff, scount, lay(stype), recvbuf, roff, rcount, lay(rtype), root);
            return null;
        }
        Object r = recvbuf == MPI.IN_PLACE ? Ferry.IN_PLACE : out(recvbuf);
        if (!nb && c.isInter()) {
            return blockingInter(recvbuf, r, () -> c.scatter(in(sendbuf), off(sendbuf, soff), scount, t(stype, "sendtype"), r, off(recvbuf, roff), rcount, t(rtype, "recvtype"), root));
        }
        dev.ferry.Request q = c.iscatter(in(sendbuf), off(sendbuf, soff), scount, t(stype, "sendtype"), r, off(recvbuf, roff), rcount, t(rtype, "recvtype"), root);
        return finish(q, nb, recvbuf, r);
    }

    Request scatterv(Object sendbuf, int soff, int[] scounts, int[] displs, Datatype stype, Object recvbuf, int roff, int rcount, Datatype rtype, int root, boolean nb) {
        if (objects(stype, rtype)) {
            if (nb) {
                throw noObjects("iscatterv");
            }
            objects().scatterv(sendbuf, soff, scounts, displs, lay(stype), recvbuf, roff, rcount, lay(rtype), root);
            return null;
        }
        Object r = recvbuf == MPI.IN_PLACE ? Ferry.IN_PLACE : out(recvbuf);
        if (!nb && c.isInter()) {
            return blockingInter(recvbuf, r, () -> c.scatterv(in(sendbuf), off(sendbuf, soff), scounts, displs, t(stype, "sendtype"), r, off(recvbuf, roff), rcount, t(rtype, "recvtype"), root));
        }
        dev.ferry.Request q = c.iscatterv(in(sendbuf), off(sendbuf, soff), scounts, displs, t(stype, "sendtype"), r, off(recvbuf, roff), rcount, t(rtype, "recvtype"), root);
        return finish(q, nb, recvbuf, r);
    }

    Request allgather(Object sendbuf, int soff, int scount, Datatype stype, Object recvbuf, int roff, int rcount, Datatype rtype, boolean nb) {
        if (objects(stype, rtype)) {
            if (nb) {
                throw noObjects("iallgather");
            }
            objects().allgather(sendbuf, soff, scount, lay(stype), recvbuf, roff, rcount, lay(rtype));
            return null;
        }
        Object r = out(recvbuf);
        if (!nb && c.isInter()) {
            return blockingInter(recvbuf, r, () -> c.allgather(in(sendbuf), off(sendbuf, soff), scount, t(stype, "sendtype"), r, off(recvbuf, roff), rcount, t(rtype, "recvtype")));
        }
        dev.ferry.Request q = c.iallgather(in(sendbuf), off(sendbuf, soff), scount, t(stype, "sendtype"), r, off(recvbuf, roff), rcount, t(rtype, "recvtype"));
        return finish(q, nb, recvbuf, r);
    }

    Request allgatherv(Object sendbuf, int soff, int scount, Datatype stype, Object recvbuf, int roff, int[] rcounts, int[] displs, Datatype rtype, boolean nb) {
        if (objects(stype, rtype)) {
            if (nb) {
                throw noObjects("iallgatherv");
            }
            objects().allgatherv(sendbuf, soff, scount, lay(stype), recvbuf, roff, rcounts, displs, lay(rtype));
            return null;
        }
        Object r = out(recvbuf);
        if (!nb && c.isInter()) {
            return blockingInter(recvbuf, r, () -> c.allgatherv(in(sendbuf), off(sendbuf, soff), scount, t(stype, "sendtype"), r, off(recvbuf, roff), rcounts, displs, t(rtype, "recvtype")));
        }
        dev.ferry.Request q = c.iallgatherv(in(sendbuf), off(sendbuf, soff), scount, t(stype, "sendtype"), r, off(recvbuf, roff), rcounts, displs, t(rtype, "recvtype"));
        return finish(q, nb, recvbuf, r);
    }

    Request alltoall(Object sendbuf, int soff, int scount, Datatype stype, Object recvbuf, int roff, int rcount, Datatype rtype, boolean nb) {
        if (objects(stype, rtype)) {
            if (nb) {
                throw noObjects("ialltoall");
            }
            objects().alltoall(sendbuf, soff, scount, lay(stype), recvbuf, roff, rcount, lay(rtype));
            return null;
        }
        Object r = out(recvbuf);
        if (!nb && c.isInter()) {
            return blockingInter(recvbuf, r, () -> c.alltoall(in(sendbuf), off(sendbuf, soff), scount, t(stype, "sendtype"), r, off(recvbuf, roff), rcount, t(rtype, "recvtype")));
        }
        dev.ferry.Request q = c.ialltoall(in(sendbuf), off(sendbuf, soff), scount, t(stype, "sendtype"), r, off(recvbuf, roff), rcount, t(rtype, "recvtype"));
        return finish(q, nb, recvbuf, r);
    }

    Request alltoallv(Object sendbuf, int soff, int[] scounts, int[] sdispls, Datatype stype, Object recvbuf, int roff, int[] rcounts, int[] rdispls, Datatype rtype, boolean nb) {
        if (objects(stype, rtype)) {
            if (nb) {
                throw noObjects("ialltoallv");
            }
            objects().alltoallv(sendbuf, soff, scounts, sdispls, lay(stype), recvbuf, roff, rcounts, rdispls, lay(rtype));
            return null;
        }
        Object r = out(recvbuf);
        if (!nb && c.isInter()) {
            return blockingInter(recvbuf, r, () -> c.alltoallv(in(sendbuf), off(sendbuf, soff), scounts, sdispls, t(stype, "sendtype"), r, off(recvbuf, roff), rcounts, rdispls, t(rtype, "recvtype")));
        }
        dev.ferry.Request q = c.ialltoallv(in(sendbuf), off(sendbuf, soff), scounts, sdispls, t(stype, "sendtype"), r, off(recvbuf, roff), rcounts, rdispls, t(rtype, "recvtype"));
        return finish(q, nb, recvbuf, r);
    }

    Request alltoallw(Object sendbuf, int[] scounts, int[] sdispls, Datatype[] stypes, Object recvbuf, int[] rcounts, int[] rdispls, Datatype[] rtypes, boolean nb) {
        dev.ferry.Datatype[] st = new dev.ferry.Datatype[stypes.length];
        dev.ferry.Datatype[] rt = new dev.ferry.Datatype[rtypes.length];
        for (int i = 0; i < st.length; i++) {
            st[i] = t(stypes[i], "sendTypes[" + i + "]");
        }
        for (int i = 0; i < rt.length; i++) {
            rt[i] = t(rtypes[i], "recvTypes[" + i + "]");
        }
        Object r = out(recvbuf);
        dev.ferry.Request q = c.ialltoallw(in(sendbuf), 0, scounts, sdispls, st, r, 0, rcounts, rdispls, rt);
        return finish(q, nb, recvbuf, r);
    }

    private static dev.ferry.Op op(Op op, Datatype type) {
        if (op == null) {
            throw new MPIException(MPI.ERR_OP, "op is null");
        }
        if (type != null && type.isObject()) {
            throw new MPIException(MPI.ERR_TYPE, "type: Ferry reduces MPI.OBJECT data in the blocking reductions only");
        }
        return op.ferry(type);
    }

    /** Whether a reduction takes the MPI.OBJECT path (blocking, a user operation): checked as its arguments. */
    private boolean objectReduction(Op op, Datatype type, boolean nb) {
        if (type == null || !type.isObject() || nb) {
            return false;
        }
        if (c.isInter()) {
            throw new MPIException(MPI.ERR_TYPE, "MPI.OBJECT in a reduction on an intercommunicator: not in Ferry (merge it first)");
        }
        if (!type.objects.isOne()) {
            throw new MPIException(MPI.ERR_TYPE, "type: " + type + ": reductions of objects take MPI.OBJECT itself, not a type built on it");
        }
        if (op == null) {
            throw new MPIException(MPI.ERR_OP, "op is null");
        }
        return true;
    }

    Request reduce(Object sendbuf, int soff, Object recvbuf, int roff, int count, Datatype type, Op op, int root, boolean nb) {
        if (objectReduction(op, type, nb)) {
            ObjectReductions.reduce(objects(), sendbuf, soff, recvbuf, roff, count, op, type, root);
            return null;
        }
        dev.ferry.Op o = op(op, type);
        Object r = out(recvbuf);
        if (!nb && c.isInter()) {
            return blockingInter(recvbuf, r, () -> c.reduce(in(sendbuf), off(sendbuf, soff), r, off(recvbuf, roff), count, t(type, "type"), o, root));
        }
        return finish(c.ireduce(in(sendbuf), off(sendbuf, soff), r, off(recvbuf, roff), count, t(type, "type"), o, root), nb, recvbuf, r);
    }

    Request allreduce(Object sendbuf, int soff, Object recvbuf, int roff, int count, Datatype type, Op op, boolean nb) {
        if (objectReduction(op, type, nb)) {
            ObjectReductions.allreduce(objects(), sendbuf, soff, recvbuf, roff, count, op, type);
            return null;
        }
        dev.ferry.Op o = op(op, type);
        if (!nb && !(recvbuf instanceof boolean[])) {
            // the blocking form: Ferry's small blocking path runs in the caller's thread
            c.allreduce(in(sendbuf), off(sendbuf, soff), Buf.target(recvbuf), off(recvbuf, roff), count, t(type, "type"), o);
            return null;
        }
        Object r = out(recvbuf);
        if (!nb && c.isInter()) {
            return blockingInter(recvbuf, r, () -> c.allreduce(in(sendbuf), off(sendbuf, soff), r, off(recvbuf, roff), count, t(type, "type"), o));
        }
        return finish(c.iallreduce(in(sendbuf), off(sendbuf, soff), r, off(recvbuf, roff), count, t(type, "type"), o), nb, recvbuf, r);
    }

    Request reduceScatter(Object sendbuf, int soff, Object recvbuf, int roff, int[] counts, Datatype type, Op op, boolean nb) {
        if (objectReduction(op, type, nb)) {
            ObjectReductions.reduceScatter(objects(), sendbuf, soff, recvbuf, roff, counts, op, type);
            return null;
        }
        dev.ferry.Op o = op(op, type);
        Object r = out(recvbuf);
        return finish(c.ireduceScatter(in(sendbuf), off(sendbuf, soff), r, off(recvbuf, roff), counts, t(type, "type"), o), nb, recvbuf, r);
    }

    Request reduceScatterBlock(Object sendbuf, int soff, Object recvbuf, int roff, int count, Datatype type, Op op, boolean nb) {
        dev.ferry.Op o = op(op, type);
        Object r = out(recvbuf);
        return finish(c.ireduceScatterBlock(in(sendbuf), off(sendbuf, soff), r, off(recvbuf, roff), count, t(type, "type"), o), nb, recvbuf, r);
    }

    Request scan(Object sendbuf, int soff, Object recvbuf, int roff, int count, Datatype type, Op op, boolean exclusive, boolean nb) {
        if (objectReduction(op, type, nb)) {
            ObjectReductions.scan(objects(), sendbuf, soff, recvbuf, roff, count, op, type, exclusive);
            return null;
        }
        dev.ferry.Op o = op(op, type);
        Object r = out(recvbuf);
        dev.ferry.Request q = exclusive ? c.iexscan(in(sendbuf), off(sendbuf, soff), r, off(recvbuf, roff), count, t(type, "type"), o)
                : c.iscan(in(sendbuf), off(sendbuf, soff), r, off(recvbuf, roff), count, t(type, "type"), o);
        return finish(q, nb, recvbuf, r);
    }

    static void reduceLocal(Object inbuf, Object inoutbuf, int count, Datatype type, Op op) {
        Object io = Comm.data(inoutbuf);
        op(op, type).reduceLocal(Comm.data(inbuf), Buf.offset(inbuf, 0), io, Buf.offset(inoutbuf, 0), count, Comm.t(type, "datatype"));
        Comm.back(inoutbuf, io);
    }
}
