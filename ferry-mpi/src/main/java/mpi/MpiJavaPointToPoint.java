package mpi;

import dev.ferry.internal.OutOfBandArrays;

import java.util.ArrayList;
import java.util.List;

/**
 * The point-to-point calls of mpiJava 1.2 (Send, Recv, Isend, Sendrecv, Probe, Send_init, ...,
 * with an offset into the buffer), in one file: {@link Comm} has them all beside the Open MPI
 * bindings' (this class is not part of the API; Comm supplies the communicator and its error
 * handler).
 *
 * <pre>{@code
 * MPI.COMM_WORLD.Send(data, 0, data.length, MPI.INT, 1, 99);
 * }</pre>
 */
abstract class MpiJavaPointToPoint extends LargeCounts {
    MpiJavaPointToPoint() {
    }

    /** The bytes {@code incount} elements of {@code type} take when packed. */
    public abstract int packSize(int incount, Datatype type);

    // --- buffers -------------------------------------------------------------------------------

    static Object data(Object buf) {
        return buf instanceof boolean[] b ? Bools.toBytes(b) : Buf.target(buf);
    }

    static void back(Object user, Object staged) {
        if (user instanceof boolean[] b && staged instanceof byte[] s) {
            Bools.copyBack(s, b);
        }
    }

    static dev.ferry.Datatype t(Datatype type, String what) {
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, what + " is null");
        }
        return type.ferry(what);
    }

    static boolean special(Object buf, Datatype type) {
        return type == null || type.type == null || buf instanceof boolean[];
    }

    // --- point-to-point (mpiJava 1.2) ----------------------------------------------------------

    /** Send modes: standard (a ready send is one too), synchronous, buffered. */
    static final int STANDARD = 0, SYNCHRONOUS = 1, BUFFERED = 2;

    public void Send(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        send(buf, offset, count, datatype, dest, tag, STANDARD, "send");
    }

    public void Ssend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        send(buf, offset, count, datatype, dest, tag, SYNCHRONOUS, "ssend");
    }

    /** Copies the message into the buffer attached with {@link MPI#Buffer_attach} and returns. */
    public void Bsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        send(buf, offset, count, datatype, dest, tag, BUFFERED, "bsend");
    }

    /** A ready send: the receive is posted already, so a standard send is one. */
    public void Rsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        Send(buf, offset, count, datatype, dest, tag);
    }

    private void send(Object buf, int offset, int count, Datatype datatype, int dest, int tag, int mode, String what) {
        try {
            dev.ferry.Comm c = ferry(what);
            if (datatype != null && datatype.isObject()) {
                List<Object> arrays = mode == BUFFERED ? null : new ArrayList<>(); // a buffered send copies all into the buffer
                byte[] bytes = ObjectCodec.write(ObjectCodec.array(buf, "buf"), offset, count, datatype.objects, "buf", arrays);
                send(c, bytes, 0, bytes.length, dev.ferry.Datatype.BYTE, dest, tag, mode);
                if (arrays != null) { // copied and sent detached: the receiver may take them only when it waits for its receive
                    OutOfBandArrays.sendDetached(c, arrays, dest, tag);
                }
            } else if (special(buf, datatype)) {
                send(c, data(buf), Buf.offset(buf, offset), count, t(datatype, "datatype"), dest, tag, mode);
            } else {
                send(c, Buf.target(buf), Buf.offset(buf, offset), count, datatype.type, dest, tag, mode);
            }
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    private static void send(dev.ferry.Comm c, Object buf, int offset, int count, dev.ferry.Datatype t, int dest, int tag, int mode) {
        switch (mode) {
            case SYNCHRONOUS -> c.ssend(buf, offset, count, t, dest, tag);
            case BUFFERED -> c.bsend(buf, offset, count, t, dest, tag);
            default -> c.send(buf, offset, count, t, dest, tag);
        }
    }

    public Request Isend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return isend(buf, offset, count, datatype, dest, tag, STANDARD);
    }

    public Request Ibsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return isend(buf, offset, count, datatype, dest, tag, BUFFERED);
    }

    public Request Issend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return isend(buf, offset, count, datatype, dest, tag, SYNCHRONOUS);
    }

    public Request Irsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return isend(buf, offset, count, datatype, dest, tag, STANDARD);
    }

    final Request isend(Object buf, int offset, int count, Datatype datatype, int dest, int tag, int mode) {
        try {
            dev.ferry.Comm c = ferry("isend");
            Object target;
            int off;
            dev.ferry.Datatype t;
            List<Object> arrays = null;
            if (datatype != null && datatype.isObject()) {
                arrays = mode == BUFFERED ? null : new ArrayList<>();
                byte[] bytes = ObjectCodec.write(ObjectCodec.array(buf, "buf"), offset, count, datatype.objects, "buf", arrays);
                target = bytes;
                off = 0;
                count = bytes.length;
                t = dev.ferry.Datatype.BYTE;
            } else {
                target = special(buf, datatype) ? data(buf) : Buf.target(buf);
                off = Buf.offset(buf, offset);
                t = t(datatype, "datatype");
            }
            dev.ferry.Request r = switch (mode) {
                case SYNCHRONOUS -> c.issend(target, off, count, t, dest, tag);
                case BUFFERED -> c.ibsend(target, off, count, t, dest, tag);
                default -> c.isend(target, off, count, t, dest, tag);
            };
            if (arrays != null) { // the large arrays follow, copied and sent detached
                OutOfBandArrays.sendDetached(c, arrays, dest, tag);
            }
            return new Request(r, errhandler(), null);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public Status Recv(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        try {
            if (special(buf, datatype)) {
                return recvSpecial(buf, offset, count, datatype, source, tag);
            }
            return new Status(ferry("recv").recv(Buf.target(buf), Buf.offset(buf, offset), count, datatype.type, source, tag)).counted(datatype);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    private Status recvSpecial(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        dev.ferry.Comm c = ferry("recv");
        if (datatype != null && datatype.isObject()) {
            Object[] a = ObjectCodec.array(buf, "buf");
            datatype.objects.check(a, offset, count, "buf");
            if (source == MPI.PROC_NULL) {
                return procNull();
            }
            dev.ferry.Message m = c.mprobe(source, tag);
            byte[] bytes = new byte[Math.toIntExact(m.bytes())];
            Status s = new Status(m.recv(bytes, 0, bytes.length, dev.ferry.Datatype.BYTE));
            try (OutOfBandArrays.Receiver arrays = new OutOfBandArrays.Receiver(c, m.source(), m.tag())) {
                s.objects = ObjectCodec.read(bytes, a, offset, count, datatype.objects, "buf", arrays);
            }
            return s.counted(datatype);
        }
        dev.ferry.Datatype t = t(datatype, "datatype");
        Object staged = data(buf);
        Status s = new Status(c.recv(staged, Buf.offset(buf, offset), count, t, source, tag)).counted(datatype);
        back(buf, staged);
        return s;
    }

    private static Status procNull() {
        Status s = new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0);
        s.objects = 0;
        return s;
    }

    public Request Irecv(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        try {
            dev.ferry.Comm c = ferry("irecv");
            if (datatype != null && datatype.isObject()) {
                return objectIrecv(c, buf, offset, count, datatype, source, tag);
            }
            dev.ferry.Datatype t = t(datatype, "datatype");
            if (buf instanceof boolean[]) {
                Object staged = data(buf);
                Request r = new Request(c.irecv(staged, Buf.offset(buf, offset), count, t, source, tag), errhandler(), datatype);
                r.finisher = s -> back(buf, staged);
                return r;
            }
            return new Request(c.irecv(Buf.target(buf), Buf.offset(buf, offset), count, t, source, tag), errhandler(), datatype);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** An MPI.OBJECT receive is matched first (its size is unknown), then received and read. */
    private Request objectIrecv(dev.ferry.Comm c, Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        Object[] a = ObjectCodec.array(buf, "buf");
        datatype.objects.check(a, offset, count, "buf");
        return Request.deferred((block, owner) -> {
            dev.ferry.Message m = block ? c.mprobe(source, tag) : c.improbe(source, tag);
            if (m == null) {
                return null;
            }
            byte[] bytes = new byte[Math.toIntExact(m.bytes())];
            int from = m.source(), t = m.tag();
            owner.finisher = s -> { // the arrays left out of the message follow it: received here, as their places come
                try (OutOfBandArrays.Receiver arrays = new OutOfBandArrays.Receiver(c, from, t)) {
                    s.objects = ObjectCodec.read(bytes, a, offset, count, datatype.objects, "buf", arrays);
                }
            };
            return m.irecv(bytes, 0, bytes.length, dev.ferry.Datatype.BYTE);
        }, errhandler(), datatype);
    }

    public Status Sendrecv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, int dest, int sendtag,
                           Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int source, int recvtag) {
        try {
            if (special(sendbuf, sendtype) || special(recvbuf, recvtype)) {
                Request r = Irecv(recvbuf, recvoffset, recvcount, recvtype, source, recvtag);
                Send(sendbuf, sendoffset, sendcount, sendtype, dest, sendtag);
                return r.Wait();
            }
            return new Status(ferry("sendrecv").sendrecv(Buf.target(sendbuf), Buf.offset(sendbuf, sendoffset), sendcount, sendtype.type, dest, sendtag,
                    Buf.target(recvbuf), Buf.offset(recvbuf, recvoffset), recvcount, recvtype.type, source, recvtag)).counted(recvtype);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public Status Sendrecv_replace(Object buf, int offset, int count, Datatype datatype, int dest, int sendtag, int source, int recvtag) {
        try {
            if (special(buf, datatype)) {
                Object copy = buf instanceof Object[] a ? a.clone() : buf instanceof boolean[] b ? b.clone() : buf;
                return Sendrecv(copy, offset, count, datatype, dest, sendtag, buf, offset, count, datatype, source, recvtag);
            }
            return new Status(ferry("sendrecvReplace").sendrecvReplace(Buf.target(buf), Buf.offset(buf, offset), count, datatype.type,
                    dest, sendtag, source, recvtag)).counted(datatype);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** The status of a waiting message, or null when none is there. */
    public Status Iprobe(int source, int tag) {
        try {
            dev.ferry.Status s = ferry("iprobe").iprobe(source, tag);
            return s == null ? null : new Status(s);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public Status Probe(int source, int tag) {
        try {
            return new Status(ferry("probe").probe(source, tag));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public int Pack_size(int incount, Datatype datatype) {
        return packSize(incount, datatype);
    }

    public Prequest Send_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        ferryChecked("sendInit");
        return new Prequest(() -> isend(buf, offset, count, datatype, dest, tag, STANDARD), errhandler());
    }

    /** A persistent buffered send: each start copies the buffer's current contents into the attached buffer. */
    public Prequest Bsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        ferryChecked("bsendInit");
        return new Prequest(() -> isend(buf, offset, count, datatype, dest, tag, BUFFERED), errhandler());
    }

    public Prequest Rsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return Send_init(buf, offset, count, datatype, dest, tag);
    }

    public Prequest Ssend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        ferryChecked("ssendInit");
        return new Prequest(() -> isend(buf, offset, count, datatype, dest, tag, SYNCHRONOUS), errhandler());
    }

    public Prequest Recv_init(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        ferryChecked("recvInit");
        return new Prequest(() -> Irecv(buf, offset, count, datatype, source, tag), errhandler());
    }

    private void ferryChecked(String what) {
        try {
            ferry(what);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }
}
