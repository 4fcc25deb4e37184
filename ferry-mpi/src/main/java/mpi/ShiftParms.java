package mpi;

/**
 * The ranks a shift along a grid dimension receives from and sends to (PROC_NULL off an edge).
 *
 * <pre>{@code
 * ShiftParms s = grid.shift(0, 1);
 * grid.sendRecv(out, 1, MPI.DOUBLE, s.getRankDest(), 0, in, 1, MPI.DOUBLE, s.getRankSource(), 0);
 * }</pre>
 */
public class ShiftParms {
    public int rank_source;
    public int rank_dest;

    ShiftParms(int source, int dest) {
        this.rank_source = source;
        this.rank_dest = dest;
    }

    public int getRankSource() {
        return rank_source;
    }

    public int getRankDest() {
        return rank_dest;
    }
}
