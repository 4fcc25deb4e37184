package mpi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

/** MPI.OBJECT (mpiJava): objects travel serialized, as one message of bytes per send. */
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
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeInt(n);
            for (int i = 0; i < n; i++) {
                out.writeObject(from[at + i]);
            }
        } catch (IOException e) {
            throw new MPIException(MPI.ERR_TYPE, what + ": an object cannot be serialized: " + e, e);
        }
        return bytes.toByteArray();
    }

    /** Reads the objects of {@code data} into {@code a} from {@code offset}; how many there were. */
    static int read(byte[] data, Object[] a, int offset, int count, String what) {
        return read(data, a, offset, count, ObjectLayout.ONE, what);
    }

    /** Reads the objects of {@code data} into {@code count} elements of a type laid out as {@code l}; how many objects there were. */
    static int read(byte[] data, Object[] a, int offset, int count, ObjectLayout l, String what) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(data))) {
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
