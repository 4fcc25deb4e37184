package mpijava;

import mpi.*;

import java.io.Serializable;

/**
 * MPI.OBJECT past 2 GiB: rank 0 sends rank 1 one object holding 2.24 GB of longs and a name by
 * Send; rank 1 receives it by Recv and checks every long.
 */
public class LargeObject {
    record Block(String name, long[] values) implements Serializable {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int n = 280_000_000;
        if (rank == 0) {
            long[] v = new long[n];
            for (int i = 0; i < n; i++) {
                v[i] = i * 31L + 7;
            }
            MPI.COMM_WORLD.Send(new Object[] {new Block("block", v)}, 0, 1, MPI.OBJECT, 1, 0);
        } else if (rank == 1) {
            Object[] got = new Object[1];
            Status s = MPI.COMM_WORLD.Recv(got, 0, 1, MPI.OBJECT, 0, 0);
            Block b = (Block) got[0];
            boolean ok = b.name().equals("block") && b.values().length == n && s.Get_count(MPI.OBJECT) == 1;
            for (int i = 0; ok && i < n; i++) {
                ok = b.values()[i] == i * 31L + 7;
            }
            System.out.println((ok ? "ok" : "WRONG") + " an object of " + 8L * n + " bytes of longs by MPI.OBJECT");
        }
        MPI.Finalize();
    }
}
