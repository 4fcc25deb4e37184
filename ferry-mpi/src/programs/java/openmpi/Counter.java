package openmpi;

import mpi.*;

import java.nio.IntBuffer;

/**
 * A shared counter in rank 0's window: every rank takes tickets with fetch-and-op under a shared
 * lock; every ticket is taken exactly once.
 */
public class Counter {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        int each = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        IntBuffer counter = MPI.newIntBuffer(1);
        Win win = new Win(counter, 1, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
        IntBuffer one = MPI.newIntBuffer(1).put(0, 1), ticket = MPI.newIntBuffer(1);
        int[] mine = new int[each];
        for (int i = 0; i < each; i++) {
            win.lock(MPI.LOCK_SHARED, 0, 0);
            win.fetchAndOp(one, ticket, MPI.INT, 0, 0, MPI.SUM);
            win.unlock(0);
            mine[i] = ticket.get(0);
        }
        int[] all = rank == 0 ? new int[each * size] : null;
        MPI.COMM_WORLD.gather(mine, each, MPI.INT, all, each, MPI.INT, 0);
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            boolean[] seen = new boolean[each * size];
            int dup = 0;
            for (int t : all) {
                if (t < 0 || t >= seen.length || seen[t]) {
                    dup++;
                } else {
                    seen[t] = true;
                }
            }
            System.out.println((dup == 0 && counter.get(0) == each * size ? "ok" : "WRONG") + " counter = " + counter.get(0)
                    + " (" + size + " ranks x " + each + "), every ticket taken once");
        }
        win.free();
        MPI.Finalize();
    }
}
