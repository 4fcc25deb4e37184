package openmpi;

import mpi.*;

/**
 * Pi as the integral of 4 / (1 + x^2) over [0, 1], in 64 chunks shared among the ranks, surviving
 * the loss of a rank with ULFM's calls (a Ferry extension; Open MPI's MPIX_ names in C): rank
 * {@code victim} dies (halts, as a killed process) after computing {@code chunksBeforeDeath}
 * chunks. A round's sum that fails, or that the survivors do not all agree went well, is done
 * again on the shrunk communicator, with the chunks dealt among the survivors; the answer is
 * the same bit for bit as the serial one (each chunk's sum is computed by one rank alone, and
 * added in chunk order).
 *
 * <pre>
 *   ferry run -n 4 -cp app openmpi.ResilientPi 2 5     (the job's status is then the dead rank's, 3)
 * </pre>
 */
public class ResilientPi {
    static final int CHUNKS = 64, PER_CHUNK = 20_000;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int victim = args.length > 0 ? Integer.parseInt(args[0]) : -1;
        int chunksBeforeDeath = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        int worldRank = MPI.COMM_WORLD.getRank(), worldSize = MPI.COMM_WORLD.getSize();
        Intracomm comm = MPI.COMM_WORLD;
        comm.setErrhandler(MPI.ERRORS_RETURN);
        double[] sums = null;
        int rounds = 0, computed = 0;
        while (sums == null) {
            rounds++;
            double[] mine = new double[CHUNKS];
            for (int c = comm.getRank(); c < CHUNKS; c += comm.getSize()) {
                if (worldRank == victim && computed == chunksBeforeDeath) {
                    System.out.flush();
                    Runtime.getRuntime().halt(3); // dies as a killed process would: no goodbye
                }
                mine[c] = chunk(c);
                computed++;
            }
            boolean ok = true;
            try {
                comm.allReduce(mine, CHUNKS, MPI.DOUBLE, MPI.SUM);
            } catch (MPIException e) {
                ok = false;
                comm.revoke(); // whoever is still inside the sum stops now
                if (!comm.isRevoked()) {
                    System.out.println("WRONG: revoked, yet not isRevoked");
                }
            }
            int allOk;
            try {
                allOk = comm.agree(ok ? 1 : 0);
            } catch (MPIException e) { // a failure not everyone had acknowledged: raised at every survivor alike
                allOk = 0;
            }
            if (allOk == 1) {
                sums = mine;
            } else {
                comm.ackFailed(comm.getFailed().getSize());
                Intracomm survivors = comm.shrink();
                survivors.setErrhandler(MPI.ERRORS_RETURN);
                comm = survivors;
            }
        }
        int[] last = {comm.getRank() == 0 ? 1 : 3};
        comm.iAgree(last).waitFor(); // the nonblocking form, once everyone is done: 1 & 3 & ...
        if (last[0] != 1) {
            System.out.println("WRONG: iAgree gave " + last[0]);
        }
        if (comm.getRank() == 0) {
            double pi = 0, serial = 0;
            for (int c = 0; c < CHUNKS; c++) {
                pi += sums[c];
                serial += chunk(c);
            }
            boolean right = pi == serial && Math.abs(pi - Math.PI) < 1e-9;
            System.out.printf("%s pi is %.12f after %d round%s, on %d survivors of %d ranks%n", right ? "ok" : "WRONG", pi, rounds,
                    rounds == 1 ? "" : "s", comm.getSize(), worldSize);
        }
        MPI.Finalize();
    }

    /** The midpoint sum of chunk {@code c}: the same whichever rank computes it. */
    static double chunk(int c) {
        double h = 1.0 / (CHUNKS * PER_CHUNK), s = 0;
        for (int i = c * PER_CHUNK; i < (c + 1) * PER_CHUNK; i++) {
            double x = h * (i + 0.5);
            s += 4.0 / (1.0 + x * x);
        }
        return s * h;
    }
}
