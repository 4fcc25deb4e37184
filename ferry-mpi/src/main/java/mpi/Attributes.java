package mpi;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Cached attributes of one object (MPI's keyvals): values by key, set and read by the program. */
final class Attributes {
    private static final AtomicInteger NEXT_KEY = new AtomicInteger(1000);
    private final Map<Integer, Object> values = new HashMap<>();

    static int createKeyval() {
        return NEXT_KEY.getAndIncrement();
    }

    static void freeKeyval(int keyval) {
        if (keyval < 1000) {
            throw new MPIException(MPI.ERR_KEYVAL, "keyval: " + keyval + " is predefined or was never created");
        }
    }

    synchronized void set(int keyval, Object value) {
        values.put(keyval, value);
    }

    synchronized Object get(int keyval) {
        return values.get(keyval);
    }

    synchronized void delete(int keyval) {
        values.remove(keyval);
    }
}
