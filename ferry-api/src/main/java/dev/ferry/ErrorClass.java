package dev.ferry;

/**
 * What went wrong, in MPI's error classes: a {@link FerryException} and a failed request's
 * {@link Status} carry one.
 *
 * <pre>{@code
 * try {
 *     world.recv(buf, 0, 4, Datatype.INT, 1, 0);
 * } catch (FerryException e) {
 *     if (e.errorClass() == ErrorClass.PROC_FAILED) System.err.println("rank 1 is gone: " + e.getMessage());
 *     else throw e;
 * }
 * }</pre>
 */
public enum ErrorClass {
    /** A message was longer than the receive buffer; the status tells its real length. */
    TRUNCATE,
    /** A peer the operation involves failed (died, closed, or broke the protocol): MPI's PROC_FAILED. */
    PROC_FAILED,
    /**
     * A receive from {@link Ferry#ANY_SOURCE} on a communicator with a failed member this rank has
     * not acknowledged ({@link Comm#ackFailed}): the message it waits for may never come. ULFM's
     * MPI_ERR_PROC_FAILED_PENDING.
     */
    PROC_FAILED_PENDING,
    /** The communicator was revoked ({@link Comm#revoke}): only the fault-tolerance calls work on it. ULFM's MPI_ERR_REVOKED. */
    REVOKED,
    /** A rank outside the communicator. */
    RANK,
    /** A tag out of range (negative where a wildcard is not allowed, or above {@link Ferry#TAG_UB}). */
    TAG,
    /** A negative count, or one the buffer cannot hold. */
    COUNT,
    /** A buffer of a kind Ferry cannot use, or too small for the count. */
    BUFFER,
    /** A datatype that does not fit the buffer. */
    TYPE,
    /** A reduction operation not defined on the datatype. */
    OP,
    /** A root outside the communicator. */
    ROOT,
    /** A freed or otherwise unusable communicator. */
    COMM,
    /** A group argument that is not valid (ranks out of range or repeated). */
    GROUP,
    /** A request used wrongly (completed, freed, or of another instance). */
    REQUEST,
    /** Another invalid argument. */
    ARG,
    /** A wait that ran out of time. */
    TIMEOUT,
    /** Resources ran out (communicator contexts, pending synchronous sends). */
    NO_SPACE,
    /** Several requests of one wait failed: see each request's status. */
    IN_STATUS,
    /** A window used wrongly (freed, or of another communicator): MPI's ERR_WIN. */
    WIN,
    /** A one-sided operation or synchronization call outside its epoch, or epochs mixed: MPI's ERR_RMA_SYNC. */
    RMA_SYNC,
    /** A one-sided access outside the target's window: MPI's ERR_RMA_RANGE. */
    RMA_RANGE,
    /** A negative or otherwise invalid displacement or displacement unit: MPI's ERR_DISP. */
    DISP,
    /** Shared window memory that cannot be had (ranks on several nodes, no shared arena): MPI's ERR_RMA_SHARED. */
    RMA_SHARED,
    /** Memory a dynamic window cannot attach or detach (not off-heap, not attached, too many): MPI's ERR_RMA_ATTACH. */
    RMA_ATTACH,
    /** Ferry itself failed (the engine or its drivers). */
    INTERN
}
