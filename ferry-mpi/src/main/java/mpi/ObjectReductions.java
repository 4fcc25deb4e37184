package mpi;

import java.util.Arrays;

/**
 * Reductions of MPI.OBJECT data with a user operation (mpiJava's {@code User_function}): every
 * rank's objects are gathered (serialized, as {@link ObjectCollectives} moves them) and folded in
 * rank order, {@code x0 op x1 op ... op xn-1}, as MPI applies a user function
 * ({@code inoutvec = invec op inoutvec}), so a non-commutative operation gets MPI's order.
 *
 * <pre>{@code
 * Op concat = new Op((in, io, inoff, iooff, n, t) -> { ... }, false);
 * MPI.COMM_WORLD.Allreduce(mine, 0, all, 0, 1, MPI.OBJECT, concat);
 * }</pre>
 */
final class ObjectReductions {
    private ObjectReductions() {
    }

    /** Reduce: the result at {@code root} only. */
    static void reduce(ObjectCollectives m, Object sendbuf, int soff, Object recvbuf, int roff, int count, Op op, Datatype type, int root) {
        dev.ferry.Comm c = m.comm();
        int n = c.size();
        Object[] all = c.rank() == root ? new Object[n * count] : new Object[0];
        m.gather(contribution(c, sendbuf, soff, recvbuf, roff, count, root), 0, count, ObjectLayout.ONE, all, 0, count,
                ObjectLayout.ONE, root);
        if (c.rank() == root) {
            store(fold(all, count, 0, n - 1, op, type), recvbuf, roff);
        }
    }

    /** Allreduce: every rank folds every rank's objects, in the same order. */
    static void allreduce(ObjectCollectives m, Object sendbuf, int soff, Object recvbuf, int roff, int count, Op op, Datatype type) {
        dev.ferry.Comm c = m.comm();
        Object[] all = everyones(m, sendbuf, soff, recvbuf, roff, count);
        store(fold(all, count, 0, c.size() - 1, op, type), recvbuf, roff);
    }

    /** Scan (inclusive) or Exscan: ranks 0 to this one, or to the one before (rank 0's result left as it was). */
    static void scan(ObjectCollectives m, Object sendbuf, int soff, Object recvbuf, int roff, int count, Op op, Datatype type, boolean exclusive) {
        dev.ferry.Comm c = m.comm();
        Object[] all = everyones(m, sendbuf, soff, recvbuf, roff, count);
        int last = exclusive ? c.rank() - 1 : c.rank();
        if (last >= 0) {
            store(fold(all, count, 0, last, op, type), recvbuf, roff);
        }
    }

    /** Reduce_scatter: the whole reduction, of which each rank keeps its block of {@code counts[rank]}. */
    static void reduceScatter(ObjectCollectives m, Object sendbuf, int soff, Object recvbuf, int roff, int[] counts, Op op, Datatype type) {
        dev.ferry.Comm c = m.comm();
        int total = Arrays.stream(counts).sum(), me = c.rank();
        Object[] mine = sendbuf == MPI.IN_PLACE ? slice(recvbuf, roff, total, "recvbuf") : slice(sendbuf, soff, total, "sendbuf");
        Object[] all = new Object[c.size() * total];
        m.allgather(mine, 0, total, ObjectLayout.ONE, all, 0, total, ObjectLayout.ONE);
        Object[] whole = fold(all, total, 0, c.size() - 1, op, type);
        int from = Arrays.stream(counts, 0, me).sum();
        store(Arrays.copyOfRange(whole, from, from + counts[me]), recvbuf, roff);
    }

    private static Object[] everyones(ObjectCollectives m, Object sendbuf, int soff, Object recvbuf, int roff, int count) {
        dev.ferry.Comm c = m.comm();
        Object[] all = new Object[c.size() * count];
        m.allgather(contribution(c, sendbuf, soff, recvbuf, roff, count, c.rank()), 0, count, ObjectLayout.ONE, all, 0, count,
                ObjectLayout.ONE);
        return all;
    }

    /** This rank's objects: from {@code sendbuf}, or from {@code recvbuf} where it is MPI.IN_PLACE. */
    private static Object[] contribution(dev.ferry.Comm c, Object sendbuf, int soff, Object recvbuf, int roff, int count, int root) {
        return sendbuf == MPI.IN_PLACE && c.rank() == root ? slice(recvbuf, roff, count, "recvbuf") : slice(sendbuf, soff, count, "sendbuf");
    }

    private static Object[] slice(Object buf, int offset, int count, String what) {
        Object[] a = ObjectCodec.array(buf, what);
        ObjectCodec.checkRange(a, offset, count, what);
        return Arrays.copyOfRange(a, offset, offset + count);
    }

    /** x_from op ... op x_to, each rank's block {@code count} long in {@code all}: folded from the right, as MPI's user functions combine. */
    private static Object[] fold(Object[] all, int count, int from, int to, Op op, Datatype type) {
        Object[] acc = Arrays.copyOfRange(all, to * count, to * count + count);
        for (int r = to - 1; r >= from; r--) {
            op.applyToObjects(all, r * count, acc, 0, count, type);
        }
        return acc;
    }

    private static void store(Object[] result, Object recvbuf, int roff) {
        Object[] out = ObjectCodec.array(recvbuf, "recvbuf");
        ObjectCodec.checkRange(out, roff, result.length, "recvbuf");
        System.arraycopy(result, 0, out, roff, result.length);
    }
}
