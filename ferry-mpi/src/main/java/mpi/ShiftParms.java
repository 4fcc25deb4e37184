package mpi;

/** The ranks a shift along a grid dimension receives from and sends to (PROC_NULL off an edge). */
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
