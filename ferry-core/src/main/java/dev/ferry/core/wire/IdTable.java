package dev.ferry.core.wire;

import java.util.function.Consumer;

/**
 * The rendezvous in flight on a gate, by the id this table gives each one: ids are sequential
 * from 1, so an id's slot is its low bits, and lookups, adds and removes neither box a key nor
 * allocate a node (a HashMap of Long did both for every large message). The table doubles when
 * a new id's slot still holds a live older one. Ids come back from the wire, so a lookup checks
 * that the slot holds that very id: an unknown or stale id finds nothing.
 *
 * <pre>{@code
 * IdTable<SendRequest> out = new IdTable<>();
 * long id = out.add(request);    // sent in the RTS
 * SendRequest r = out.remove(id); // when the CTS names it; null if it names no live one
 * }</pre>
 */
public final class IdTable<T> {
    private long[] ids;
    private Object[] values;
    private int mask;
    private int size;
    private long next = 1;

    public IdTable() {
        this(16);
    }

    IdTable(int capacity) {
        int c = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
        ids = new long[c];
        values = new Object[c];
        mask = c - 1;
    }

    /** Stores {@code value} under the next id, and answers the id. */
    public long add(T value) {
        long id = next++;
        while (ids[(int) (id & mask)] != 0) {
            grow();
        }
        int i = (int) (id & mask);
        ids[i] = id;
        values[i] = value;
        size++;
        return id;
    }

    /** The value stored under {@code id}, or null. */
    @SuppressWarnings("unchecked")
    public T get(long id) {
        int i = (int) (id & mask);
        return id > 0 && ids[i] == id ? (T) values[i] : null;
    }

    /** Removes and answers the value stored under {@code id}, or null when there is none. */
    @SuppressWarnings("unchecked")
    public T remove(long id) {
        int i = (int) (id & mask);
        if (id <= 0 || ids[i] != id) {
            return null;
        }
        T v = (T) values[i];
        ids[i] = 0;
        values[i] = null;
        size--;
        return v;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** Hands every value to {@code to} (in no particular order) and empties the table. */
    @SuppressWarnings("unchecked")
    public void drain(Consumer<? super T> to) {
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] != 0) {
                T v = (T) values[i];
                ids[i] = 0;
                values[i] = null;
                to.accept(v);
            }
        }
        size = 0;
    }

    private void grow() {
        long[] oldIds = ids;
        Object[] oldValues = values;
        int c = oldIds.length << 1;
        if (c <= 0) {
            throw new IllegalStateException("more than 2^30 rendezvous in flight on one gate");
        }
        ids = new long[c];
        values = new Object[c];
        mask = c - 1;
        for (int i = 0; i < oldIds.length; i++) {
            if (oldIds[i] != 0) {
                int j = (int) (oldIds[i] & mask);
                ids[j] = oldIds[i];
                values[j] = oldValues[i];
            }
        }
    }
}
