package mpi;

/**
 * A communicator with a Cartesian grid (Open MPI bindings' names): coordinates, shifts for halo
 * exchange, sub-grids. Made by {@link Intracomm#createCart}; mpiJava programs see it as
 * {@link Cartcomm}.
 *
 * <pre>{@code
 * int[] dims = {0, 0};
 * CartComm.createDims(MPI.COMM_WORLD.getSize(), dims);
 * CartComm grid = MPI.COMM_WORLD.createCart(dims, new boolean[] {true, true}, false);
 * ShiftParms lr = grid.shift(1, 1);
 * grid.sendRecv(right, n, MPI.DOUBLE, lr.getRankDest(), 0, left, n, MPI.DOUBLE, lr.getRankSource(), 0);
 * }</pre>
 */
public class CartComm extends Intracomm {
    CartComm(dev.ferry.Comm comm) {
        super(comm);
    }

    private Topology topo() {
        return topology;
    }

    @Override
    public CartComm clone() {
        return dup();
    }

    @Override
    public CartComm dup() {
        try {
            dev.ferry.Comm c = ferry("dup").dup();
            Cartcomm d = new Cartcomm(c);
            d.errhandler = errhandler;
            d.topology = Topology.cart(c, topo().dims, topo().periods);
            return d;
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    @Override
    public CartComm iDup() {
        return dup();
    }

    @Override
    public CartComm dupWithInfo(Info info) {
        return dup();
    }

    public CartParms getTopo() {
        return new CartParms(topo().dims.clone(), topo().periods.clone(), topo().coords(getRank()));
    }

    /** The rank at {@code coords} (periodic dimensions wrap). */
    public int getRank(int[] coords) {
        try {
            return topo().rank(coords);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public int[] getCoords(int rank) {
        if (rank < 0 || rank >= getSize()) {
            throw fail(new MPIException(MPI.ERR_RANK, "rank: " + rank + " is not in the grid of " + getSize()));
        }
        return topo().coords(rank);
    }

    /** The source and destination of a shift by {@code disp} along dimension {@code direction}. */
    public ShiftParms shift(int direction, int disp) {
        try {
            int[] sd = topo().shift(getRank(), direction, disp);
            return new ShiftParms(sd[0], sd[1]);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** The sub-grid of the dimensions {@code remainDims} keeps, through the caller (collective). */
    public CartComm sub(boolean[] remainDims) {
        return subGrid(remainDims);
    }

    final Cartcomm subGrid(boolean[] remain) {
        try {
            Topology t = topo();
            if (remain.length != t.dims.length) {
                throw new MPIException(MPI.ERR_DIMS, "remainDims has " + remain.length + " entries for a grid of " + t.dims.length);
            }
            int[] me = t.coords(getRank());
            int color = 0, key = 0;
            java.util.List<Integer> kd = new java.util.ArrayList<>();
            java.util.List<Boolean> kp = new java.util.ArrayList<>();
            for (int d = 0; d < remain.length; d++) {
                if (remain[d]) {
                    key = key * t.dims[d] + me[d];
                    kd.add(t.dims[d]);
                    kp.add(t.periods[d]);
                } else {
                    color = color * t.dims[d] + me[d];
                }
            }
            dev.ferry.Comm c = ferry("sub").split(color, key);
            int[] dims = kd.stream().mapToInt(Integer::intValue).toArray();
            boolean[] periods = new boolean[kp.size()];
            for (int i = 0; i < periods.length; i++) {
                periods[i] = kp.get(i);
            }
            if (dims.length == 0) {
                dims = new int[0];
            }
            Cartcomm s = new Cartcomm(c);
            s.errhandler = errhandler;
            s.topology = Topology.cart(c, dims, periods);
            return s;
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** The caller's rank in a grid of {@code dims} (no reordering): its rank here, or UNDEFINED beyond the grid. */
    public int map(int[] dims, boolean[] periods) {
        long n = 1;
        for (int d : dims) {
            n *= d;
        }
        return getRank() < n ? getRank() : MPI.UNDEFINED;
    }

    /** Fills the zero entries of {@code dims} with a balanced grid of {@code nnodes} ranks (MPI_Dims_create). */
    public static void createDims(int nnodes, int[] dims) {
        try {
            Topology.createDims(nnodes, dims);
        } catch (RuntimeException e) {
            throw Errors.raise(MPI.COMM_WORLD.errhandler(), e);
        }
    }
}
