package mpi;

import dev.ferry.Datatype;

import java.util.ArrayList;
import java.util.List;

/** Making distributed graph communicators: the general form learns each rank's neighbours by an exchange. */
final class DistGraphs {
    private DistGraphs() {
    }

    static Graphcomm adjacent(Intracomm parent, int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights) {
        dev.ferry.Comm c = parent.ferry("createDistGraphAdjacent").dup();
        Graphcomm g = new Graphcomm(c);
        g.errhandler = parent.errhandler;
        g.topology = Topology.distGraph(c, sources, sourceWeights, destinations, destWeights);
        return g;
    }

    static Graphcomm create(Intracomm parent, int[] sources, int[] degrees, int[] destinations, int[] weights) {
        dev.ferry.Comm p = parent.ferry("createDistGraph");
        int n = p.size();
        if (sources.length != degrees.length) {
            throw new MPIException(MPI.ERR_ARG, "sources has " + sources.length + " entries, degrees " + degrees.length);
        }
        // the edges this rank names, by source: (source, dest, weight) triples sent to both ends
        List<List<int[]>> to = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            to.add(new ArrayList<>());
        }
        for (int i = 0, e = 0; i < sources.length; i++) {
            for (int k = 0; k < degrees[i]; k++, e++) {
                int s = sources[i], d = destinations[e], w = weights == null ? 1 : weights[e];
                if (s < 0 || s >= n || d < 0 || d >= n) {
                    throw new MPIException(MPI.ERR_RANK, "an edge " + s + " -> " + d + " names a rank outside the communicator of " + n);
                }
                to.get(s).add(new int[] {s, d, w});
                if (d != s) {
                    to.get(d).add(new int[] {s, d, w});
                }
            }
        }
        int[] sendCounts = new int[n], recvCounts = new int[n], sd = new int[n], rd = new int[n];
        for (int i = 0; i < n; i++) {
            sendCounts[i] = to.get(i).size() * 3;
        }
        p.alltoall(sendCounts, 0, 1, Datatype.INT, recvCounts, 0, 1, Datatype.INT);
        int st = 0, rt = 0;
        for (int i = 0; i < n; i++) {
            sd[i] = st;
            rd[i] = rt;
            st += sendCounts[i];
            rt += recvCounts[i];
        }
        int[] out = new int[st], in = new int[rt];
        for (int i = 0, at = 0; i < n; i++) {
            for (int[] t : to.get(i)) {
                System.arraycopy(t, 0, out, at, 3);
                at += 3;
            }
        }
        p.alltoallv(out, 0, sendCounts, sd, Datatype.INT, in, 0, recvCounts, rd, Datatype.INT);
        int me = p.rank();
        List<Integer> srcs = new ArrayList<>(), sw = new ArrayList<>(), dsts = new ArrayList<>(), dw = new ArrayList<>();
        for (int i = 0; i < rt; i += 3) {
            if (in[i + 1] == me) {
                srcs.add(in[i]);
                sw.add(in[i + 2]);
            }
            if (in[i] == me) {
                dsts.add(in[i + 1]);
                dw.add(in[i + 2]);
            }
        }
        boolean weighted = weights != null;
        return adjacent(parent, ints(srcs), weighted ? ints(sw) : null, ints(dsts), weighted ? ints(dw) : null);
    }

    private static int[] ints(List<Integer> l) {
        return l.stream().mapToInt(Integer::intValue).toArray();
    }
}
