package mpi;

/**
 * A rank's in and out neighbours in a distributed graph, with their weights when it has some.
 *
 * <pre>{@code
 * DistGraphNeighbors nb = graph.getDistGraphNeighbors();
 * for (int i = 0; i < nb.getOutDegree(); i++) System.out.println("sends to " + nb.getDestination(i));
 * }</pre>
 */
public final class DistGraphNeighbors {
    private final int[] sources, sourceWeights, destinations, destWeights;

    DistGraphNeighbors(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights) {
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destWeights = destWeights;
    }

    public int getInDegree() {
        return sources.length;
    }

    public int getOutDegree() {
        return destinations.length;
    }

    public boolean isWeighted() {
        return sourceWeights != null;
    }

    public int getSource(int i) {
        return sources[i];
    }

    public int getSourceWeight(int i) {
        return sourceWeights[i];
    }

    public int getDestination(int i) {
        return destinations[i];
    }

    public int getDestinationWeight(int i) {
        return destWeights[i];
    }
}
