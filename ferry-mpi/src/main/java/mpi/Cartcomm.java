package mpi;

/**
 * A Cartesian communicator in mpiJava 1.2's names ({@link #Coords}, {@link #Shift},
 * {@link #Sub}); the same object is a {@link CartComm} for the Open MPI bindings.
 *
 * <pre>{@code
 * Cartcomm grid = MPI.COMM_WORLD.Create_cart(new int[] {2, 2}, new boolean[] {false, false}, false);
 * ShiftParms up = grid.Shift(0, 1);
 * }</pre>
 */
public class Cartcomm extends CartComm {
    Cartcomm(dev.ferry.Comm comm) {
        super(comm);
    }

    public int Rank(int[] coords) {
        return getRank(coords);
    }

    public int[] Coords(int rank) {
        return getCoords(rank);
    }

    public ShiftParms Shift(int direction, int disp) {
        return shift(direction, disp);
    }

    public Cartcomm Sub(boolean[] remain_dims) {
        return subGrid(remain_dims);
    }

    public int Map(int[] dims, boolean[] periods) {
        return map(dims, periods);
    }

    public CartParms Get() {
        return getTopo();
    }

    public static void Dims_create(int nnodes, int[] dims) {
        createDims(nnodes, dims);
    }
}
