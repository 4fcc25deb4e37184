package mpi;

/** A grid's dimensions, periods and the caller's coordinates (Open MPI getters, mpiJava public fields). */
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
