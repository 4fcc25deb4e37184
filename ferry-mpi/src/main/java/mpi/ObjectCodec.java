package mpi;

import dev.ferry.internal.OutOfBand;
import dev.ferry.internal.OutOfBandArrays;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;

/**
 * MPI.OBJECT (mpiJava): objects travel serialized, as one message of bytes per send. Point-to-point
 * standard and synchronous sends leave the graph's primitive arrays of 64 KiB and more out of that
 * message ({@link OutOfBand}): they follow it from the same sender with the same tag, copied and
 * sent detached ({@link OutOfBandArrays#sendDetached}: an Irecv takes them only when it is waited
 * for, which an exchange of sends must not wait on), so an object past 2 GiB goes whole; a receive
 * takes them as their places come; the collectives do likewise ({@link ObjectCollectives}).
 * Buffered sends keep everything in the one message: it is copied into the attached buffer, a
 * {@code byte[]} of at most 2 GiB.
 */
final class ObjectCodec {
    private ObjectCodec() {
    }

    static Object[] array(Object buf, String what) {
        if (buf instanceof Object[] a) {
            return a;
        }
        throw new MPIException(MPI.ERR_BUFFER, what + ": MPI.OBJECT takes an Object[] buffer, not "
                + (buf == null ? "null" : "a " + buf.getClass().getSimpleName()));
    }

    static void checkRange(Object[] a, int offset, int count, String what) {
        if (offset < 0 || count < 0 || (long) offset + count > a.length) {
            throw new MPIException(MPI.ERR_COUNT, what + ": offset " + offset + " and count " + count + " do not fit its " + a.length + " elements");
        }
    }

    static byte[] write(Object[] a, int offset, int count, String what) {
        return write(a, offset, count, ObjectLayout.ONE, what);
    }

    /** The objects of {@code count} elements of a type laid out as {@code l}, from {@code offset}, serialized in type-map order. */
    static byte[] write(Object[] a, int offset, int count, ObjectLayout l, String what) {
        return write(a, offset, count, l, what, null);
    }

    /**
     * {@link #write(Object[], int, int, ObjectLayout, String)}; with {@code outOfBand} not null, the
     * large primitive arrays are left out of the bytes and added to it, to be sent after them.
     */
    static byte[] write(Object[] a, int offset, int count, ObjectLayout l, String what, List<Object> outOfBand) {
        Object[] from = a;
        int at = offset, n = count;
        if (l.isOne()) {
            checkRange(a, offset, count, what);
        } else {
            from = l.gather(a, offset, count, what);
            at = 0;
            n = from.length;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = outOfBand == null ? new ObjectOutputStream(bytes) : new OutOfBand.Output(bytes)) {
            out.writeInt(n);
            for (int i = 0; i < n; i++) {
                out.writeObject(from[at + i]);
            }
            if (out instanceof OutOfBand.Output o) {
                outOfBand.addAll(o.arrays());
            }
        } catch (IOException e) {
            throw new MPIException(MPI.ERR_TYPE, what + ": an object cannot be serialized: " + e, e);
        } catch (OutOfMemoryError e) {
            throw new MPIException(MPI.ERR_COUNT, what + ": the objects serialized are more than a byte array holds (2 GiB)"
                    + (outOfBand == null ? "" : " without their primitive arrays of " + OutOfBand.MIN_BYTES + " bytes and more") + ": " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    /** Reads the objects of {@code data} into {@code a} from {@code offset}; how many there were. */
    static int read(byte[] data, Object[] a, int offset, int count, String what) {
        return read(data, a, offset, count, ObjectLayout.ONE, what);
    }

    /** Reads the objects of {@code data} into {@code count} elements of a type laid out as {@code l}; how many objects there were. */
    static int read(byte[] data, Object[] a, int offset, int count, ObjectLayout l, String what) {
        return read(data, a, offset, count, l, what, null);
    }

    /**
     * {@link #read(byte[], Object[], int, int, ObjectLayout, String)}; {@code arrays}, when not
     * null, receives the arrays a point-to-point send left out, as their places come.
     */
    static int read(byte[] data, Object[] a, int offset, int count, ObjectLayout l, String what, OutOfBand.Receiver arrays) {
        try (ObjectInputStream in = arrays == null ? new ObjectInputStream(new ByteArrayInputStream(data))
                : new OutOfBand.Input(new ByteArrayInputStream(data), arrays)) {
            int n = in.readInt();
            long room = (long) count * l.size();
            if (n > room) {
                throw new MPIException(MPI.ERR_TRUNCATE, what + ": " + n + " objects arrived for " + count + " elements of " + room + " objects");
            }
            if (l.isOne()) {
                checkRange(a, offset, n, what);
                for (int i = 0; i < n; i++) {
                    a[offset + i] = in.readObject();
                }
                return n;
            }
            Object[] got = new Object[n];
            for (int i = 0; i < n; i++) {
                got[i] = in.readObject();
            }
            l.scatter(got, n, a, offset, count, what);
            return n;
        } catch (IOException | ClassNotFoundException e) {
            throw new MPIException(MPI.ERR_TYPE, what + ": the message is not MPI.OBJECT data that this program can read: " + e, e);
        }
    }
}
