package mpi;

import java.util.ArrayList;
import java.util.List;

/**
 * The neighbourhood collectives, by point-to-point on the topology's private communicator: block i
 * goes to destination i and comes from source i (MPI's order: for a grid, per dimension the lower
 * then the upper neighbour).
 */
final class Neighbors {
    private static final int TAG = 1;

    private Neighbors() {
    }

    private static Topology topo(Comm comm) {
        if (comm.topology == null) {
            throw new MPIException(MPI.ERR_TOPOLOGY, "the communicator has no topology (make one with createCart, createGraph or createDistGraph)");
        }
        return comm.topology;
    }

    private static long ext(Datatype type, String what) {
        return Comm.t(type, what).extent();
    }

    /** The offset Ferry takes for the block {@code elementsBefore} elements of {@code type} into {@code buf}. */
    private static int at(Object buf, long elementsBefore, Datatype type) {
        long bytes = elementsBefore * ext(type, "type");
        if (buf instanceof java.nio.Buffer b) {
            return b.isDirect() ? Math.toIntExact(bytes) : b.arrayOffset() + Math.toIntExact(bytes / Buf.unit(b));
        }
        return Math.toIntExact(bytes / Buf.arrayUnit(buf));
    }

    private static Request run(Comm comm, Object sendbuf, int[] scounts, int[] sdispls, Datatype stype,
                               Object recvbuf, int[] rcounts, int[] rdispls, Datatype rtype) {
        Topology t = topo(comm);
        dev.ferry.Comm c = t.hidden;
        Object s = Buf.target(sendbuf), r = Buf.target(recvbuf);
        dev.ferry.Datatype st = Comm.t(stype, "sendtype"), rt = Comm.t(rtype, "recvtype");
        boolean cart = t.kind == MPI.CART;
        List<dev.ferry.Request> parts = new ArrayList<>();
        for (int i = 0; i < t.sources.length; i++) {
            if (t.sources[i] != MPI.PROC_NULL) {
                parts.add(c.irecv(r, at(recvbuf, rdispls[i], rtype), rcounts[i], rt, t.sources[i], cart ? TAG + i : TAG));
            }
        }
        for (int i = 0; i < t.destinations.length; i++) {
            if (t.destinations[i] != MPI.PROC_NULL) {
                // on a grid the tag names the receiver's slot (a periodic dimension of 2 has one peer twice): lower and upper swap;
                // on a graph blocks between two ranks pair up in order
                parts.add(c.isend(s, at(sendbuf, sdispls[i], stype), scounts[i], st, t.destinations[i], cart ? TAG + (i ^ 1) : TAG));
            }
        }
        return Request.of(parts.toArray(new dev.ferry.Request[0]), comm.errhandler);
    }

    private static int[] uniform(int n, int count) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, count);
        return a;
    }

    private static int[] blocks(int n, int count) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i * count;
        }
        return a;
    }

    static Request allGather(Comm comm, Object sendbuf, int scount, Datatype stype, Object recvbuf, int rcount, Datatype rtype) {
        Topology t = topo(comm);
        int out = t.destinations.length, in = t.sources.length;
        return run(comm, sendbuf, uniform(out, scount), new int[out], stype, recvbuf, uniform(in, rcount), blocks(in, rcount), rtype);
    }

    static Request allGatherv(Comm comm, Object sendbuf, int scount, Datatype stype, Object recvbuf, int[] rcounts, int[] displs, Datatype rtype) {
        Topology t = topo(comm);
        int out = t.destinations.length;
        return run(comm, sendbuf, uniform(out, scount), new int[out], stype, recvbuf, rcounts, displs, rtype);
    }

    static Request allToAll(Comm comm, Object sendbuf, int scount, Datatype stype, Object recvbuf, int rcount, Datatype rtype) {
        Topology t = topo(comm);
        int out = t.destinations.length, in = t.sources.length;
        return run(comm, sendbuf, uniform(out, scount), blocks(out, scount), stype, recvbuf, uniform(in, rcount), blocks(in, rcount), rtype);
    }

    static Request allToAllv(Comm comm, Object sendbuf, int[] scounts, int[] sdispls, Datatype stype,
                             Object recvbuf, int[] rcounts, int[] rdispls, Datatype rtype) {
        return run(comm, sendbuf, scounts, sdispls, stype, recvbuf, rcounts, rdispls, rtype);
    }
}
