package mpi;

/**
 * A count that may exceed an int (MPI_Count), as {@link Status#getElementsX} gives it.
 *
 * <pre>{@code
 * Status s = MPI.COMM_WORLD.recv(buf, 1 << 20, MPI.DOUBLE, 0, 0);
 * long got = s.getElementsX(MPI.DOUBLE).getCount();
 * }</pre>
 */
public final class Count implements Comparable<Object> {
    private long count;

    public Count(long count) {
        this.count = count;
    }

    public long getCount() {
        return count;
    }

    public void setCount(long count) {
        this.count = count;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Count c && c.count == count;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count);
    }

    @Override
    public int compareTo(Object other) {
        return Long.compare(count, ((Count) other).count);
    }

    @Override
    public String toString() {
        return Long.toString(count);
    }
}
