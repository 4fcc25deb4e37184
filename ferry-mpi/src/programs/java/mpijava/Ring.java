package mpijava;

import mpi.*;

/** Every rank passes its value around the ring with Isend / Irecv / Waitall until it has all of them (mpiJava 1.2). */
public class Ring {
    public static void main(String[] args) throws Exception {
        args = MPI.Init(args); // MPJ Express passes arguments of its own and strips them here
        int rank = MPI.COMM_WORLD.Rank(), size = MPI.COMM_WORLD.Size();
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        long[] pass = {rank * 10L}, got = new long[1];
        long total = pass[0];
        for (int step = 1; step < size; step++) {
            Request[] r = {
                    MPI.COMM_WORLD.Irecv(got, 0, 1, MPI.LONG, prev, step),
                    MPI.COMM_WORLD.Isend(pass, 0, 1, MPI.LONG, next, step)};
            Status[] s = Request.Waitall(r);
            if (s[0].source != prev) {
                throw new IllegalStateException("from " + s[0].source);
            }
            total += got[0];
            pass[0] = got[0];
        }
        long expected = 10L * size * (size - 1) / 2;
        System.out.println((total == expected ? "ok" : "WRONG") + " ring rank " + rank + ": total " + total + " (expected " + expected + ")");
        MPI.Finalize();
    }
}
