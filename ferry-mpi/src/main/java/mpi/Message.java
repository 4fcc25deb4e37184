package mpi;

/**
 * A message matched by a probe and taken out of matching (MPI_Mprobe): only {@link #mRecv} receives
 * it, so threads probing the same source and tag never receive each other's message.
 *
 * <pre>{@code
 * Message m = new Message();
 * Status s = m.mProbe(MPI.ANY_SOURCE, 5, MPI.COMM_WORLD);
 * int[] data = new int[s.getCount(MPI.INT)];
 * m.mRecv(data, data.length, MPI.INT);
 * }</pre>
 */
public final class Message {
    private dev.ferry.Message message;
    private Comm comm;
    private boolean noProc;

    public Message() {
    }

    /** Whether it holds no message (none probed, or received already). */
    public boolean isNull() {
        return message == null && !noProc;
    }

    /** Whether it is the message of a probe of PROC_NULL. */
    public boolean isNoProc() {
        return noProc;
    }

    public Status mProbe(int source, int tag, Comm comm) {
        try {
            this.comm = comm;
            if (source == MPI.PROC_NULL) {
                noProc = true;
                return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0);
            }
            message = comm.ferry("mProbe").mprobe(source, tag);
            return new Status(message.source(), message.tag(), message.bytes());
        } catch (RuntimeException e) {
            throw comm.fail(e);
        }
    }

    /** The status of a matched message, or null when none is waiting. */
    public Status imProbe(int source, int tag, Comm comm) {
        try {
            this.comm = comm;
            if (source == MPI.PROC_NULL) {
                noProc = true;
                return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0);
            }
            message = comm.ferry("imProbe").improbe(source, tag);
            return message == null ? null : new Status(message.source(), message.tag(), message.bytes());
        } catch (RuntimeException e) {
            throw comm.fail(e);
        }
    }

    public Status mRecv(Object buf, int count, Datatype type) {
        if (noProc) {
            noProc = false;
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0);
        }
        try {
            Object d = Comm.data(buf);
            Status s = new Status(take().recv(d, Buf.offset(buf, 0), count, Comm.t(type, "type"))).counted(type);
            Comm.back(buf, d);
            return s;
        } catch (RuntimeException e) {
            throw comm.fail(e);
        }
    }

    public Request imRecv(java.nio.Buffer buf, int count, Datatype type) {
        if (noProc) {
            noProc = false;
            return Request.nullRequest();
        }
        try {
            return new Request(take().irecv(Buf.target(buf), Buf.offset(buf, 0), count, Comm.t(type, "type")), comm.errhandler, type);
        } catch (RuntimeException e) {
            throw comm.fail(e);
        }
    }

    private dev.ferry.Message take() {
        dev.ferry.Message m = message;
        if (m == null) {
            throw new MPIException(MPI.ERR_REQUEST, "the message was received already, or none was probed");
        }
        message = null;
        return m;
    }
}
