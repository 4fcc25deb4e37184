package mpi;

/**
 * What happens when an operation fails: {@link MPI#ERRORS_ARE_FATAL} (MPI's default on every
 * communicator) ends the job with a message naming the error; {@link MPI#ERRORS_RETURN} throws an
 * {@link MPIException} for the program to handle.
 *
 * <pre>{@code
 * MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
 * }</pre>
 */
public final class Errhandler {
    final boolean fatal;
    private final String name;

    Errhandler(boolean fatal, String name) {
        this.fatal = fatal;
        this.name = name;
    }

    @Override
    public String toString() {
        return name;
    }
}
