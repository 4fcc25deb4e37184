package openmpi;

import mpi.*;

/** Pi as the integral of 4 / (1 + x^2) over [0, 1], each rank a share of the intervals, summed by reduce. */
public class Pi {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        int[] n = {rank == 0 ? (args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000) : 0};
        MPI.COMM_WORLD.bcast(n, 1, MPI.INT, 0);
        double h = 1.0 / n[0];
        double[] mine = {0}, pi = {0};
        for (int i = rank; i < n[0]; i += size) {
            double x = h * (i + 0.5);
            mine[0] += 4.0 / (1.0 + x * x);
        }
        mine[0] *= h;
        MPI.COMM_WORLD.reduce(mine, pi, 1, MPI.DOUBLE, MPI.SUM, 0);
        double[] everywhere = {mine[0]};
        MPI.COMM_WORLD.allReduce(everywhere, 1, MPI.DOUBLE, MPI.SUM);
        if (rank == 0) {
            boolean ok = Math.abs(pi[0] - Math.PI) < 1e-9 && Math.abs(everywhere[0] - pi[0]) < 1e-12;
            System.out.printf("%s pi is about %.10f on %d ranks%n", ok ? "ok" : "WRONG", pi[0], size);
        }
        MPI.Finalize();
    }
}
