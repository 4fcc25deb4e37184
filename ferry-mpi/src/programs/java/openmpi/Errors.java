package openmpi;

import mpi.*;

/**
 * MPI's error handling: with ERRORS_RETURN a bad rank is an MPIException of class ERR_RANK naming
 * the argument; then, under the default ERRORS_ARE_FATAL, rank 0 makes the same mistake and the
 * job ends.
 */
public class Errors {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        Intracomm c = MPI.COMM_WORLD.dup();
        c.setErrhandler(MPI.ERRORS_RETURN);
        try {
            c.send(new int[1], 1, MPI.INT, size + 5, 0);
            System.out.println("WRONG: no error");
        } catch (MPIException e) {
            System.out.println((e.getErrorClass() == MPI.ERR_RANK ? "ok" : "WRONG") + " rank " + rank + ": error class "
                    + e.getErrorClass() + ": " + e.getMessage());
        }
        c.free();
        MPI.COMM_WORLD.barrier();
        if (args.length > 0 && args[0].equals("fatal") && rank == 0) {
            MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, size + 5, 0); // ERRORS_ARE_FATAL: the job ends here
            System.out.println("WRONG: still running");
        }
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }
}
