package mpijava;

import mpi.*;

import java.io.Serializable;

/**
 * MPI.OBJECT past 2 GiB: rank 0 sends rank 1 one object holding 2.24 GB of longs and a name by
 * Send; rank 1 receives it by Recv and checks every long. Then the collectives: rank 0 Bcasts
 * the object again, and a Gather brings rank 1's copy back to rank 0, each checked whole.
 */
public class LargeObject {
    record Block(String name, long[] values) implements Serializable {
    }

    /** Whether {@code o} is the block of {@code n} longs rank 0 made. */
    static boolean whole(Object o, int n) {
        if (!(o instanceof Block b) || !b.name().equals("block") || b.values().length != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (b.values()[i] != i * 31L + 7) {
                return false;
            }
        }
        return true;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int n = 280_000_000;
        Object[] one = new Object[1];
        if (rank == 0) {
            long[] v = new long[n];
            for (int i = 0; i < n; i++) {
                v[i] = i * 31L + 7;
            }
            one[0] = new Block("block", v);
            MPI.COMM_WORLD.Send(one, 0, 1, MPI.OBJECT, 1, 0);
        } else if (rank == 1) {
            Status s = MPI.COMM_WORLD.Recv(one, 0, 1, MPI.OBJECT, 0, 0);
            System.out.println((whole(one[0], n) && s.Get_count(MPI.OBJECT) == 1 ? "ok" : "WRONG") + " an object of " + 8L * n
                    + " bytes of longs by MPI.OBJECT");
            one[0] = null; // room for the next
        }
        MPI.COMM_WORLD.Bcast(one, 0, 1, MPI.OBJECT, 0);
        if (rank == 1) {
            System.out.println((whole(one[0], n) ? "ok" : "WRONG") + " the same object by Bcast");
        }
        if (rank == 0) {
            one[0] = new Block("small", new long[0]); // the root's own block is small: its heap holds the one coming back
        }
        Object[] all = rank == 0 ? new Object[MPI.COMM_WORLD.Size()] : null;
        MPI.COMM_WORLD.Gather(one, 0, 1, MPI.OBJECT, all, 0, 1, MPI.OBJECT, 0);
        if (rank == 0) {
            System.out.println((whole(all[1], n) ? "ok" : "WRONG") + " rank 1's copy back by Gather");
        }
        MPI.Finalize();
    }
}
