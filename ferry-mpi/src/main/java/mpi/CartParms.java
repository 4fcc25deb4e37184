package mpi;

/**
 * A grid's dimensions, periods and the caller's coordinates (Open MPI getters, mpiJava public fields).
 *
 * <pre>{@code
 * CartComm grid = MPI.COMM_WORLD.createCart(new int[] {2, 2}, new boolean[] {true, false}, false);
 * CartParms p = grid.getTopo();
 * System.out.println("at (" + p.getCoord(0) + ", " + p.getCoord(1) + ") of " + p.getDim(0) + " x " + p.getDim(1));
 * }</pre>
 */
public class CartParms {
    public int[] dims;
    public boolean[] periods;
    public int[] coords;

    CartParms(int[] dims, boolean[] periods, int[] coords) {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }

    public int getDimCount() {
        return dims.length;
    }

    public int getDim(int i) {
        return dims[i];
    }

    public boolean getPeriod(int i) {
        return periods[i];
    }

    public int getCoord(int i) {
        return coords[i];
    }
}
