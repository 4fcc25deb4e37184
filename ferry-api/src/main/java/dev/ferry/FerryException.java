package dev.ferry;

/**
 * An operation failed: its {@link ErrorClass}, a message that names the argument or peer at
 * fault, and for a receive or a wait, the {@link Status} of the request that failed.
 *
 * <pre>{@code
 * try {
 *     comm.recv(buf, 0, 4, Datatype.INT, 0, 7);
 * } catch (FerryException e) {
 *     if (e.errorClass() == ErrorClass.TRUNCATE) System.err.println("sent " + e.status().count() + " ints");
 * }
 * }</pre>
 */
public final class FerryException extends RuntimeException {
    private final ErrorClass errorClass;
    private final transient Status status;

    public FerryException(ErrorClass errorClass, String message) {
        this(errorClass, message, null);
    }

    public FerryException(ErrorClass errorClass, String message, Status status) {
        super(message);
        this.errorClass = errorClass;
        this.status = status;
    }

    public ErrorClass errorClass() {
        return errorClass;
    }

    /** The status of the request that failed, or null when the failure was in the arguments. */
    public Status status() {
        return status;
    }

    static FerryException arg(ErrorClass c, String message) {
        return new FerryException(c, message);
    }
}
