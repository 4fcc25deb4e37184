package mpi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hints as key-value pairs (MPI_Info). Ferry keeps them and gives them back; no hint changes what
 * an operation does.
 *
 * <pre>{@code
 * Info info = new Info();
 * info.set("no_locks", "true");
 * }</pre>
 */
public final class Info implements Freeable, Cloneable {
    private final Map<String, String> entries;
    private final boolean isNull;

    public Info() {
        this(false);
    }

    private Info(boolean isNull) {
        this.entries = new LinkedHashMap<>();
        this.isNull = isNull;
    }

    static Info nullInfo() {
        return new Info(true);
    }

    static Info environment() {
        Info info = new Info();
        info.entries.put("command", "java");
        info.entries.put("wdir", System.getProperty("user.dir"));
        info.entries.put("host", MPI.hostName());
        return info;
    }

    public synchronized void set(String key, String value) {
        if (isNull) {
            throw new MPIException(MPI.ERR_INFO, "info: MPI.INFO_NULL cannot hold keys");
        }
        if (key == null || key.isEmpty() || key.length() > MPI.MAX_INFO_KEY) {
            throw new MPIException(MPI.ERR_INFO_KEY, "key: " + key + " is empty, null or longer than " + MPI.MAX_INFO_KEY);
        }
        if (value == null || value.length() > MPI.MAX_INFO_VAL) {
            throw new MPIException(MPI.ERR_INFO_VALUE, "value of " + key + " is null or longer than " + MPI.MAX_INFO_VAL);
        }
        entries.put(key, value);
    }

    /** The value of {@code key}, or null when it is not set. */
    public synchronized String get(String key) {
        return entries.get(key);
    }

    public synchronized void delete(String key) {
        if (entries.remove(key) == null) {
            throw new MPIException(MPI.ERR_INFO_NOKEY, "key: " + key + " is not set");
        }
    }

    public synchronized int size() {
        return entries.size();
    }

    public synchronized String getKey(int i) {
        List<String> keys = new ArrayList<>(entries.keySet());
        if (i < 0 || i >= keys.size()) {
            throw new MPIException(MPI.ERR_ARG, "i: " + i + " is not below the number of keys, " + keys.size());
        }
        return keys.get(i);
    }

    @Override
    public synchronized Info clone() {
        Info copy = new Info();
        copy.entries.putAll(entries);
        return copy;
    }

    public Info dup() {
        return clone();
    }

    @Override
    public synchronized void free() {
        entries.clear();
    }

    public boolean isNull() {
        return isNull;
    }
}
