package mpi;

/**
 * A communicator with a graph topology (Open MPI bindings' names), made by
 * {@link Intracomm#createGraph} or a distributed graph constructor; mpiJava programs see it as
 * {@link Graphcomm}.
 *
 * <pre>{@code
 * GraphComm ring = MPI.COMM_WORLD.createGraph(new int[] {2, 4, 6}, new int[] {1, 2, 0, 2, 0, 1}, false);
 * int[] mine = ring.getNeighbors(ring.getRank());
 * }</pre>
 */
public class GraphComm extends Intracomm {
    GraphComm(dev.ferry.Comm comm) {
        super(comm);
    }

    @Override
    public GraphComm clone() {
        return dup();
    }

    @Override
    public GraphComm dup() {
        try {
            dev.ferry.Comm c = ferry("dup").dup();
            Graphcomm d = new Graphcomm(c);
            d.errhandler = errhandler;
            Topology t = topology;
            d.topology = t.kind == MPI.GRAPH ? Topology.graph(c, t.index, t.edges)
                    : Topology.distGraph(c, t.sources, t.sourceWeights, t.destinations, t.destinationWeights);
            return d;
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    @Override
    public GraphComm iDup() {
        return dup();
    }

    @Override
    public GraphComm dupWithInfo(Info info) {
        return dup();
    }

    public GraphParms getDims() {
        if (topology.index == null) {
            throw fail(new MPIException(MPI.ERR_TOPOLOGY, "getDims: a distributed graph has no index and edges"));
        }
        return new GraphParms(topology.index.clone(), topology.edges.clone());
    }

    public int[] getNeighbors(int rank) {
        try {
            return topology.graphNeighbors(rank);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public DistGraphNeighbors getDistGraphNeighbors() {
        Topology t = topology;
        return new DistGraphNeighbors(t.sources.clone(), t.sourceWeights == null ? null : t.sourceWeights.clone(),
                t.destinations.clone(), t.destinationWeights == null ? null : t.destinationWeights.clone());
    }

    /** The caller's rank in a graph of {@code index.length} nodes: its rank here, or UNDEFINED beyond them. */
    public int map(int[] index, int[] edges) {
        return getRank() < index.length ? getRank() : MPI.UNDEFINED;
    }
}
