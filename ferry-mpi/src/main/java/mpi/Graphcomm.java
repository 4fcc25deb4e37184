package mpi;

/**
 * A graph communicator in mpiJava 1.2's names ({@link #Get}, {@link #Neighbours}); the same
 * object is a {@link GraphComm} for the Open MPI bindings.
 *
 * <pre>{@code
 * Graphcomm g = MPI.COMM_WORLD.Create_graph(index, edges, false);
 * int[] next = g.Neighbours(g.Rank());
 * }</pre>
 */
public class Graphcomm extends GraphComm {
    Graphcomm(dev.ferry.Comm comm) {
        super(comm);
    }

    public GraphParms Get() {
        return getDims();
    }

    public int[] Neighbours(int rank) {
        return getNeighbors(rank);
    }

    public int Map(int[] index, int[] edges) {
        return map(index, edges);
    }
}
