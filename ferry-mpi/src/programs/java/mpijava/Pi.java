package mpijava;

import mpi.*;

/** Pi by the midpoint rule, each rank a share, summed by Reduce and Allreduce (mpiJava 1.2). */
public class Pi {
    public static void main(String[] args) throws Exception {
        args = MPI.Init(args); // MPJ Express passes arguments of its own and strips them here
        int rank = MPI.COMM_WORLD.Rank(), size = MPI.COMM_WORLD.Size();
        int[] n = {args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000};
        MPI.COMM_WORLD.Bcast(n, 0, 1, MPI.INT, 0);
        double h = 1.0 / n[0];
        double[] mine = {0}, pi = {0}, all = {0};
        for (int i = rank; i < n[0]; i += size) {
            double x = h * (i + 0.5);
            mine[0] += 4.0 / (1.0 + x * x);
        }
        mine[0] *= h;
        MPI.COMM_WORLD.Reduce(mine, 0, pi, 0, 1, MPI.DOUBLE, MPI.SUM, 0);
        MPI.COMM_WORLD.Allreduce(mine, 0, all, 0, 1, MPI.DOUBLE, MPI.SUM);
        if (rank == 0) {
            boolean ok = Math.abs(pi[0] - Math.PI) < 1e-9 && Math.abs(all[0] - pi[0]) < 1e-12;
            System.out.printf("%s pi is about %.10f on %d ranks%n", ok ? "ok" : "WRONG", pi[0], size);
        }
        MPI.Finalize();
    }
}
