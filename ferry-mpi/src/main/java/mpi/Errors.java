package mpi;

import dev.ferry.ErrorClass;
import dev.ferry.FerryException;

/**
 * Turns a failure into what the error handler asks for: an {@link MPIException} with the MPI error
 * class (ERRORS_RETURN), or the end of the job with a message naming the error (ERRORS_ARE_FATAL).
 */
final class Errors {
    private Errors() {
    }

    /** The MPI error class of Ferry's {@code c}. */
    static int classOf(ErrorClass c) {
        return switch (c) {
            case TRUNCATE -> MPI.ERR_TRUNCATE;
            case PROC_FAILED -> MPI.ERR_PROC_FAILED;
            case PROC_FAILED_PENDING -> MPI.ERR_PROC_FAILED_PENDING;
            case REVOKED -> MPI.ERR_REVOKED;
            case RANK -> MPI.ERR_RANK;
            case TAG -> MPI.ERR_TAG;
            case COUNT -> MPI.ERR_COUNT;
            case BUFFER -> MPI.ERR_BUFFER;
            case TYPE -> MPI.ERR_TYPE;
            case OP -> MPI.ERR_OP;
            case ROOT -> MPI.ERR_ROOT;
            case COMM -> MPI.ERR_COMM;
            case GROUP -> MPI.ERR_GROUP;
            case REQUEST -> MPI.ERR_REQUEST;
            case ARG -> MPI.ERR_ARG;
            case TIMEOUT -> MPI.ERR_OTHER;
            case NO_SPACE -> MPI.ERR_NO_SPACE;
            case IN_STATUS -> MPI.ERR_IN_STATUS;
            case WIN -> MPI.ERR_WIN;
            case RMA_SYNC -> MPI.ERR_RMA_SYNC;
            case RMA_RANGE -> MPI.ERR_RMA_RANGE;
            case DISP -> MPI.ERR_DISP;
            case RMA_SHARED -> MPI.ERR_RMA_SHARED;
            case RMA_ATTACH -> MPI.ERR_RMA_ATTACH;
            case INTERN -> MPI.ERR_INTERN;
        };
    }

    /** The exception to throw for {@code e} under {@code handler}; does not return when it is fatal. */
    static MPIException raise(Errhandler handler, RuntimeException e) {
        MPIException m = translate(e);
        if (handler != null && handler.fatal) {
            fatal(handler, m);
        }
        return m;
    }

    /** Raises error class {@code errorClass} with {@code message} under {@code handler}. */
    static MPIException raise(Errhandler handler, int errorClass, String message) {
        return raise(handler, new MPIException(errorClass, message));
    }

    static MPIException translate(RuntimeException e) {
        return switch (e) {
            case MPIException m -> m;
            case FerryException f -> new MPIException(classOf(f.errorClass()), f.getMessage(), f);
            case NullPointerException n -> new MPIException(MPI.ERR_ARG, "a null argument: " + n.getMessage(), n);
            case ClassCastException c -> new MPIException(MPI.ERR_BUFFER, "a buffer of the wrong kind: " + c.getMessage(), c);
            case IllegalArgumentException i -> new MPIException(MPI.ERR_ARG, i.getMessage(), i);
            default -> new MPIException(MPI.ERR_OTHER, e.toString(), e);
        };
    }

    /**
     * MPI_ERRORS_ARE_FATAL: the job ends, its exit status the error class (or 1). MPI_ERRORS_ABORT
     * (MPI-4: the communicator's processes end) ends the whole job too, there being no process
     * outside it that could go on without them.
     */
    private static void fatal(Errhandler handler, MPIException m) {
        String text = "MPI error (" + handler + ") of class " + MPI.errorName(m.getErrorClass()) + ": " + m.getMessage();
        MPI.abortJob(m.getErrorClass() > 0 && m.getErrorClass() < 256 ? m.getErrorClass() : 1, text, m);
    }
}
