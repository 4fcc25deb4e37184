package dev.ferry;


/**
 * A message taken by a matched probe ({@link Comm#mprobe}, {@link Comm#improbe}): no other
 * receive can match it any more, and this object receives it, once, into a buffer sized for it.
 *
 * <pre>{@code
 * Message m = comm.mprobe(Ferry.ANY_SOURCE, 5);
 * double[] buf = new double[m.count(Datatype.DOUBLE)];
 * m.recv(buf, 0, buf.length, Datatype.DOUBLE);
 * }</pre>
 */
public final class Message {
    private final Comm comm;
    private dev.ferry.core.request.Message message;
    private final int source;
    private final int tag;
    private final long bytes;

    Message(Comm comm, dev.ferry.core.request.Message message, int source, int tag) {
        this.comm = comm;
        this.message = message;
        this.source = source;
        this.tag = tag;
        this.bytes = message == null ? 0 : message.length();
    }

    /** The sender's rank in the communicator ({@link Ferry#PROC_NULL} for a probe of it). */
    public int source() {
        return source;
    }

    public int tag() {
        return tag;
    }

    /** The message's length in bytes. */
    public long bytes() {
        return bytes;
    }

    /** The message's length in elements of {@code type} ({@link Ferry#UNDEFINED} when not whole). */
    public int count(Datatype type) {
        return Status.ok(source, tag, bytes, type.size()).count();
    }

    /** The message's length in elements of {@code type}, past 2^31 too ({@link Ferry#UNDEFINED} when not whole). */
    public long countLong(Datatype type) {
        return Status.ok(source, tag, bytes, type.size()).countLong();
    }

    /** Receives the message into {@code buf}; see {@link Comm#recv(Object, int, int, Datatype, int, int)}. */
    public Status recv(Object buf, int offset, int count, Datatype type) {
        return irecv(buf, (long) offset, count, type).await();
    }

    /** Starts receiving the message into {@code buf}. */
    public Request irecv(Object buf, int offset, int count, Datatype type) {
        return irecv(buf, (long) offset, count, type);
    }

    /** {@link #recv(Object, int, int, Datatype)} with a long offset and count (MPI's {@code MPI_Mrecv_c}). */
    public Status recv(Object buf, long offset, long count, Datatype type) {
        return irecv(buf, offset, count, type).await();
    }

    /** {@link #irecv(Object, int, int, Datatype)} with a long offset and count. */
    public synchronized Request irecv(Object buf, long offset, long count, Datatype type) {
        if (source == Ferry.PROC_NULL) {
            return Request.completed(comm.messaging(), Status.ok(Ferry.PROC_NULL, Ferry.ANY_TAG, 0, type.size()));
        }
        if (message == null) {
            throw new FerryException(ErrorClass.REQUEST, "the message from rank " + source + ", tag " + tag + " was received already");
        }
        Request r = comm.receiveMatched(message, buf, offset, count, type);
        message = null;
        return r;
    }

    @Override
    public String toString() {
        return "message of " + bytes + " bytes from rank " + source + ", tag " + tag;
    }
}
