package mpi;

/**
 * An MPI error, thrown where the communicator's (or window's) error handler is
 * {@link MPI#ERRORS_RETURN}: it carries the MPI error class ({@link MPI#ERR_RANK}, ...) and a
 * message naming the argument that was wrong.
 *
 * <p>It is unchecked, unlike the Open MPI bindings' checked one, so that programs of both families
 * compile: mpiJava programs do not declare it, Open MPI programs that declare or catch it still
 * compile against an unchecked exception.
 *
 * <pre>{@code
 * MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
 * try {
 *     MPI.COMM_WORLD.send(buf, 1, MPI.INT, 99, 0);
 * } catch (MPIException e) {
 *     assert e.getErrorClass() == MPI.ERR_RANK;
 * }
 * }</pre>
 */
public class MPIException extends RuntimeException {
    private final int errorClass;

    public MPIException() {
        this(MPI.ERR_OTHER, "MPI error");
    }

    public MPIException(String message) {
        this(MPI.ERR_OTHER, message);
    }

    public MPIException(Throwable cause) {
        super(cause.getMessage(), cause);
        this.errorClass = cause instanceof MPIException m ? m.errorClass : MPI.ERR_OTHER;
    }

    /** An exception of MPI error class {@code errorClass}. */
    public MPIException(int errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
    }

    MPIException(int errorClass, String message, Throwable cause) {
        super(message, cause);
        this.errorClass = errorClass;
    }

    /** The error code: Ferry's codes are its classes. */
    public int getErrorCode() {
        return errorClass;
    }

    /** The MPI error class, one of the {@code MPI.ERR_*} constants. */
    public int getErrorClass() {
        return errorClass;
    }
}
