package mpijava;

import mpi.*;

import java.util.Arrays;

/**
 * Types derived from MPI.OBJECT (mpiJava 1.2): Contiguous, Vector, Indexed, Hvector and Hindexed
 * of objects in Send/Recv, Irecv, a persistent Ssend_init, Bcast, Gather, Scatter, Allgather,
 * Alltoall, Allgatherv, Gatherv and Scatterv, each run twice, once on Integer objects and once on ints with the same types built on
 * MPI.INT, and the two results compared element by element (and against the layout the
 * specification gives).
 */
public class DerivedObjects {
    public static void main(String[] args) throws Exception {
        args = MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank(), size = MPI.COMM_WORLD.Size();
        int[] ints = run(false, rank, size);
        int[] objects = run(true, rank, size);
        boolean ok = Arrays.equals(ints, objects) && ints.length > 0;
        int[] flag = {ok ? 1 : 0}, all = new int[1];
        MPI.COMM_WORLD.Allreduce(flag, 0, all, 0, 1, MPI.INT, MPI.MIN);
        if (rank == 0) {
            System.out.println(all[0] == 1 ? "ok types derived from MPI.OBJECT match MPI.INT's on " + size + " ranks"
                    : "WRONG types derived from MPI.OBJECT: " + Arrays.toString(objects) + " where MPI.INT gives " + Arrays.toString(ints));
        }
        MPI.Finalize();
    }

    /** A buffer of {@code n} values {@code base + i}: Integers or ints. */
    static Object buffer(boolean objects, int n, int base) {
        if (objects) {
            Object[] a = new Object[n];
            for (int i = 0; i < n; i++) {
                a[i] = base + i;
            }
            return a;
        }
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = base + i;
        }
        return a;
    }

    /** The values of a buffer, null objects as -1. */
    static int[] values(Object buf) {
        if (buf instanceof int[] a) {
            return a.clone();
        }
        Object[] o = (Object[]) buf;
        int[] v = new int[o.length];
        for (int i = 0; i < o.length; i++) {
            v[i] = o[i] == null ? -1 : (Integer) o[i];
        }
        return v;
    }

    static Object empty(boolean objects, int n) {
        if (objects) {
            return new Object[n];
        }
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }

    /** Everything this rank ends up with, as ints, for one kind of element. */
    static int[] run(boolean objects, int rank, int size) throws Exception {
        Datatype base = objects ? MPI.OBJECT : MPI.INT;
        Intracomm w = MPI.COMM_WORLD;
        Datatype every3rd = Datatype.Vector(4, 1, 3, base); // 0, 3, 6, 9
        Datatype pairs = Datatype.Contiguous(2, every3rd);   // and 10, 13, 16, 19
        Datatype picks = Datatype.Indexed(new int[] {2, 1}, new int[] {0, 5}, base); // 0, 1, 5
        Datatype spaced = Datatype.Hvector(2, 2, 5, base);  // 0, 1, 5, 6
        Datatype loose = Datatype.Hindexed(new int[] {1, 1}, new int[] {4, 1}, base); // 4, 1
        boolean good = every3rd.Extent() == 10 && every3rd.Size() == 4 && pairs.Extent() == 20 && picks.Extent() == 6 && picks.Size() == 3
                && spaced.Extent() == 7 && loose.Lb() == 1 && loose.Extent() == 4;
        int[] out = new int[0];
        int peer = rank ^ 1;
        if (peer < size) {
            // point-to-point: a vector from offset 1 to a contiguous receive, and back into the indexed places
            Object src = buffer(objects, 12, 100 * rank);
            Object got = empty(objects, 4);
            Request r = w.Irecv(got, 0, 4, base, peer, 1);
            w.Send(src, 1, 1, every3rd, peer, 1);
            Status s = r.Wait();
            good &= s.Get_count(base) == 4;
            Object placed = empty(objects, 8);
            Status t = w.Sendrecv(buffer(objects, 3, 1000 * rank), 0, 3, base, peer, 2, placed, 1, 1, picks, peer, 2);
            good &= t.Get_count(picks) == 1;
            // a persistent synchronous send of the spaced type, twice
            Object spacedSrc = buffer(objects, 8, 10 * rank);
            Prequest ps = w.Ssend_init(spacedSrc, 0, 1, spaced, peer, 3);
            Object twice = empty(objects, 8);
            for (int k = 0; k < 2; k++) {
                Request rr = w.Irecv(twice, 4 * k, 4, base, peer, 3);
                ps.Start();
                Request.Waitall(new Request[] {ps, rr});
            }
            ps.Free();
            out = concat(out, values(got), values(placed), values(twice));
        }
        // collectives: bcast of two vectors from rank 0, gather of one loose element each, alltoall of spaced blocks
        Object b = rank == 0 ? buffer(objects, 20, 7) : empty(objects, 20);
        w.Bcast(b, 0, 1, pairs, 0);
        Object mine = buffer(objects, 6, 10 * rank);
        Object gathered = empty(objects, 2 * size);
        w.Gather(mine, 0, 1, loose, gathered, 0, 2, base, 0);
        Object all = empty(objects, 2 * size);
        w.Allgather(mine, 0, 1, loose, all, 0, 2, base);
        Object scattered = empty(objects, 8);
        w.Scatter(rank == 0 ? buffer(objects, 7 * size, 500) : empty(objects, 7 * size), 0, 1, spaced, scattered, 1, 1, spaced, 0);
        Object toAll = buffer(objects, 7 * size, 1000 * rank), fromAll = empty(objects, 7 * size);
        w.Alltoall(toAll, 0, 1, spaced, fromAll, 0, 1, spaced);
        // v forms (a collective's type signatures match): rank i's loose element (two) lands as
        // element i of every-other pairs (objects 0 and 2, extent 3; displacements count its extents)
        Datatype pair = Datatype.Vector(2, 1, 2, base);
        int[] ones = new int[size], at = new int[size], twos = new int[size], by3 = new int[size];
        for (int i = 0; i < size; i++) {
            ones[i] = 1;
            at[i] = i;
            twos[i] = 2;
            by3[i] = 3 * i;
        }
        Object vAll = empty(objects, 3 * size + 3);
        w.Allgatherv(mine, 0, 1, loose, vAll, 0, ones, at, pair);
        Object vRoot = empty(objects, 3 * size);
        w.Gatherv(mine, 0, 1, loose, vRoot, 0, twos, by3, base, 0);
        Object vBack = empty(objects, 8);
        w.Scatterv(rank == 0 ? buffer(objects, 6 * size + 6, 300) : empty(objects, 6 * size + 6), 0, ones, at, picks, vBack, 1, 1, picks, 0);
        out = concat(out, new int[] {good ? 1 : 0}, values(b), rank == 0 ? values(gathered) : new int[0], values(all), values(scattered), values(fromAll),
                values(vAll), rank == 0 ? values(vRoot) : new int[0], values(vBack));
        return out;
    }

    static int[] concat(int[]... parts) {
        int n = 0;
        for (int[] p : parts) {
            n += p.length;
        }
        int[] all = new int[n];
        for (int[] p : parts) {
            System.arraycopy(p, 0, all, all.length - n, p.length);
            n -= p.length;
        }
        return all;
    }
}
