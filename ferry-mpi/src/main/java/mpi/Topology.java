package mpi;

import java.util.Arrays;

/**
 * The virtual topology of a communicator: a Cartesian grid (dims, periods, row-major ranks) or a
 * graph (MPI's index and edges, or a distributed graph's own in and out neighbours), with the
 * neighbour lists the neighbourhood collectives use and a private communicator for their traffic.
 */
final class Topology {
    final int kind;
    final int[] dims;
    final boolean[] periods;
    final int[] index;
    final int[] edges;
    /** The ranks this one receives from and sends to, in MPI's neighbour order. */
    final int[] sources;
    final int[] destinations;
    final int[] sourceWeights;
    final int[] destinationWeights;
    /** A duplicate of the communicator: neighbourhood collectives never match the program's messages. */
    final dev.ferry.Comm hidden;

    private Topology(int kind, int[] dims, boolean[] periods, int[] index, int[] edges, int[] sources, int[] destinations,
                     int[] sourceWeights, int[] destinationWeights, dev.ferry.Comm hidden) {
        this.kind = kind;
        this.dims = dims;
        this.periods = periods;
        this.index = index;
        this.edges = edges;
        this.sources = sources;
        this.destinations = destinations;
        this.sourceWeights = sourceWeights;
        this.destinationWeights = destinationWeights;
        this.hidden = hidden;
    }

    static Topology cart(dev.ferry.Comm c, int[] dims, boolean[] periods) {
        Topology t = new Topology(MPI.CART, dims.clone(), periods.clone(), null, null, null, null, null, null, null);
        int[] nb = new int[2 * dims.length];
        for (int d = 0; d < dims.length; d++) {
            int[] sh = t.shift(c.rank(), d, 1);
            nb[2 * d] = sh[0];
            nb[2 * d + 1] = sh[1];
        }
        return new Topology(MPI.CART, t.dims, t.periods, null, null, nb, nb, null, null, c.dup());
    }

    static Topology graph(dev.ferry.Comm c, int[] index, int[] edges) {
        int me = c.rank();
        int[] nb = Arrays.copyOfRange(edges, me == 0 ? 0 : index[me - 1], index[me]);
        return new Topology(MPI.GRAPH, null, null, index.clone(), edges.clone(), nb, nb, null, null, c.dup());
    }

    static Topology distGraph(dev.ferry.Comm c, int[] sources, int[] sourceWeights, int[] destinations, int[] destinationWeights) {
        return new Topology(MPI.DIST_GRAPH, null, null, null, null, sources.clone(), destinations.clone(),
                sourceWeights == null ? null : sourceWeights.clone(), destinationWeights == null ? null : destinationWeights.clone(), c.dup());
    }

    int size() {
        int n = 1;
        for (int d : dims) {
            n *= d;
        }
        return n;
    }

    int[] coords(int rank) {
        int[] c = new int[dims.length];
        for (int d = dims.length - 1; d >= 0; d--) {
            c[d] = rank % dims[d];
            rank /= dims[d];
        }
        return c;
    }

    /** The rank at {@code coords} (periodic dimensions wrap), or PROC_NULL off a non-periodic edge. */
    int rank(int[] coords) {
        if (coords.length != dims.length) {
            throw new MPIException(MPI.ERR_DIMS, "coords has " + coords.length + " entries for a grid of " + dims.length + " dimensions");
        }
        int r = 0;
        for (int d = 0; d < dims.length; d++) {
            int x = coords[d];
            if (x < 0 || x >= dims[d]) {
                if (!periods[d]) {
                    return MPI.PROC_NULL;
                }
                x = Math.floorMod(x, dims[d]);
            }
            r = r * dims[d] + x;
        }
        return r;
    }

    /** {source, dest} of a shift by {@code disp} along {@code direction}. */
    int[] shift(int rank, int direction, int disp) {
        if (direction < 0 || direction >= dims.length) {
            throw new MPIException(MPI.ERR_DIMS, "direction: " + direction + " is not a dimension of a grid of " + dims.length);
        }
        int[] c = coords(rank);
        int[] up = c.clone();
        int[] down = c.clone();
        up[direction] += disp;
        down[direction] -= disp;
        return new int[] {rank(down), rank(up)};
    }

    int[] graphNeighbors(int rank) {
        if (index == null) {
            throw new MPIException(MPI.ERR_TOPOLOGY, "the communicator has no graph topology");
        }
        if (rank < 0 || rank >= index.length) {
            throw new MPIException(MPI.ERR_RANK, "rank: " + rank + " is not a node of the graph of " + index.length);
        }
        return Arrays.copyOfRange(edges, rank == 0 ? 0 : index[rank - 1], index[rank]);
    }

    /** MPI_Dims_create: fills the zero entries with a balanced factorization of what remains of {@code nnodes}. */
    static void createDims(int nnodes, int[] dims) {
        int fixed = 1, free = 0;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw new MPIException(MPI.ERR_DIMS, "dims[" + i + "]: " + dims[i] + " is negative");
            }
            if (dims[i] > 0) {
                fixed *= dims[i];
            } else {
                free++;
            }
        }
        if (nnodes <= 0 || nnodes % fixed != 0) {
            throw new MPIException(MPI.ERR_DIMS, "dims: the fixed entries' product " + fixed + " does not divide nnodes " + nnodes);
        }
        if (free == 0) {
            if (fixed != nnodes) {
                throw new MPIException(MPI.ERR_DIMS, "dims: their product " + fixed + " is not nnodes " + nnodes);
            }
            return;
        }
        int rest = nnodes / fixed;
        java.util.List<Integer> primes = new java.util.ArrayList<>();
        for (int p = 2; (long) p * p <= rest; p++) {
            while (rest % p == 0) {
                primes.add(p);
                rest /= p;
            }
        }
        if (rest > 1) {
            primes.add(rest);
        }
        int[] slots = new int[free];
        Arrays.fill(slots, 1);
        for (int i = primes.size() - 1; i >= 0; i--) { // largest prime first, into the smallest slot
            int min = 0;
            for (int k = 1; k < free; k++) {
                if (slots[k] < slots[min]) {
                    min = k;
                }
            }
            slots[min] *= primes.get(i);
        }
        Arrays.sort(slots);
        for (int i = 0, k = free - 1; i < dims.length; i++) {
            if (dims[i] == 0) {
                dims[i] = slots[k--];
            }
        }
    }
}
