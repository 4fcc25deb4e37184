package dev.ferry;

/**
 * What a completed receive (or probe) found: the sender's rank in the communicator, the tag, the
 * message's length, and whether it failed or was cancelled. A truncated receive's status still
 * tells the message's real length.
 *
 * <pre>{@code
 * Status s = comm.recv(buf, 0, buf.length, Datatype.INT, Ferry.ANY_SOURCE, Ferry.ANY_TAG);
 * System.out.println(s.count() + " ints from rank " + s.source() + ", tag " + s.tag());
 * }</pre>
 */
public final class Status {
    private final int source;
    private final int tag;
    private final long bytes;
    private final long receivedBytes;
    private final long typeSize;
    private final ErrorClass error;
    private final String failure;
    private final boolean cancelled;

    Status(int source, int tag, long bytes, long receivedBytes, long typeSize, ErrorClass error, String failure, boolean cancelled) {
        this.source = source;
        this.tag = tag;
        this.bytes = bytes;
        this.receivedBytes = receivedBytes;
        this.typeSize = typeSize;
        this.error = error;
        this.failure = failure;
        this.cancelled = cancelled;
    }

    /** A completed send's: a send's status tells nothing about the message (as in MPI). */
    static final Status SENT = new Status(Ferry.ANY_SOURCE, Ferry.ANY_TAG, 0, 0, 1, null, null, false);

    static Status ok(int source, int tag, long bytes, long typeSize) {
        return new Status(source, tag, bytes, bytes, typeSize, null, null, false);
    }

    /** Whether this is a successful status of exactly these values ({@link #ok}'s). */
    boolean is(int source, int tag, long bytes, long typeSize) {
        return this.source == source && this.tag == tag && this.bytes == bytes && receivedBytes == bytes
                && this.typeSize == typeSize && error == null && !cancelled;
    }

    static Status failed(int source, int tag, ErrorClass error, String failure) {
        return new Status(source, tag, 0, 0, 1, error, failure, false);
    }

    static Status cancelled(long typeSize) {
        return new Status(Ferry.ANY_SOURCE, Ferry.ANY_TAG, 0, 0, typeSize, null, null, true);
    }

    /** The sender's rank in the communicator ({@link Ferry#PROC_NULL} for a receive from it). */
    public int source() {
        return source;
    }

    public int tag() {
        return tag;
    }

    /**
     * The message's length in elements of the receive's (or probe's) datatype: what was sent, also
     * when it was longer than the buffer; {@link Ferry#UNDEFINED} when not a whole number of them.
     */
    public int count() {
        return elements(bytes, typeSize);
    }

    /**
     * {@link #count()} past 2^31 (MPI's {@code MPI_Get_count_c}): the message's length in elements
     * of the receive's datatype, {@link Ferry#UNDEFINED} when not a whole number of them.
     */
    public long countLong() {
        return elementsLong(bytes, typeSize);
    }

    /** The message's length in elements of {@code type}. */
    public int count(Datatype type) {
        return type.count(bytes);
    }

    /**
     * Whole elements of {@code size} bytes in {@code bytes}. The primitives' sizes are powers of two:
     * a shift and a mask, not a 64-bit division (tens of cycles, on the path of a receiver that
     * answers with what it got).
     */
    static int elements(long bytes, long size) {
        return (int) Math.min(Integer.MAX_VALUE, elementsLong(bytes, size));
    }

    /** {@link #elements} without the cap at 2^31 - 1. */
    static long elementsLong(long bytes, long size) {
        if (size == 0) {
            return 0;
        }
        long whole;
        if ((size & (size - 1)) == 0) {
            if ((bytes & (size - 1)) != 0) {
                return Ferry.UNDEFINED;
            }
            whole = bytes >>> Long.numberOfTrailingZeros(size);
        } else {
            if (bytes % size != 0) {
                return Ferry.UNDEFINED;
            }
            whole = bytes / size;
        }
        return whole;
    }

    /** The message's length in bytes. */
    public long bytes() {
        return bytes;
    }

    /** Bytes placed in the receive buffer (fewer than {@link #bytes} when truncated). */
    public long receivedBytes() {
        return receivedBytes;
    }

    /** Why the operation failed, or null when it did not. */
    public ErrorClass error() {
        return error;
    }

    /** What went wrong, naming the peer or argument; null when nothing did. */
    public String failure() {
        return failure;
    }

    public boolean isCancelled() {
        return cancelled;
    }

    @Override
    public String toString() {
        return cancelled ? "cancelled" : "source " + source + ", tag " + tag + ", " + bytes + " bytes"
                + (error == null ? "" : ", " + error + ": " + failure);
    }
}
