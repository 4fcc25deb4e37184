package mpi;

/**
 * A graph's index and edges arrays, as MPI_Graph_create takes them (Open MPI getters, mpiJava public fields).
 *
 * <pre>{@code
 * GraphParms g = graph.getDims();
 * System.out.println(g.getIndexCount() + " nodes, " + g.getEdgeCount() + " edges");
 * }</pre>
 */
public class GraphParms {
    public int[] index;
    public int[] edges;

    public GraphParms() {
    }

    GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }

    public int getIndexCount() {
        return index.length;
    }

    public int getIndex(int i) {
        return index[i];
    }

    public int getEdgeCount() {
        return edges.length;
    }

    public int getEdge(int i) {
        return edges[i];
    }
}
