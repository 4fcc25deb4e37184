package mpi;

/**
 * What a receive or probe found: source, tag, the amount of data, error and cancellation. mpiJava
 * programs read the public fields {@link #source}, {@link #tag} and {@link #index}; Open MPI
 * programs call {@link #getSource()}, {@link #getTag()}, {@link #getCount(Datatype)}.
 *
 * <pre>{@code
 * Status s = MPI.COMM_WORLD.recv(buf, 10, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
 * int n = s.getCount(MPI.INT);
 * }</pre>
 */
public class Status implements Freeable {
    public int source;
    public int tag;
    /** The position of the completed request in the array given to a wait-any or test-any. */
    public int index = MPI.UNDEFINED;
    /** Elements received, in the datatype of the receive (mpiJava). */
    public int count;
    public int countInBytes;
    public int numEls;
    private long bytes;
    private int error;
    private boolean cancelled;
    /** For MPI.OBJECT receives: the number of objects. */
    int objects = -1;

    public Status() {
        this.source = MPI.ANY_SOURCE;
        this.tag = MPI.ANY_TAG;
    }

    Status(dev.ferry.Status s) {
        set(s);
    }

    Status(int source, int tag, long bytes) {
        this.source = source;
        this.tag = tag;
        this.bytes = bytes;
        this.countInBytes = (int) Math.min(Integer.MAX_VALUE, bytes);
    }

    final void set(dev.ferry.Status s) {
        this.source = s.source();
        this.tag = s.tag();
        this.bytes = s.bytes();
        this.countInBytes = (int) Math.min(Integer.MAX_VALUE, bytes);
        this.error = s.error() == null ? MPI.SUCCESS : Errors.classOf(s.error());
        this.cancelled = s.isCancelled();
    }

    /** Fills mpiJava's {@link #count} and {@link #numEls} for a receive of {@code type}. */
    final Status counted(Datatype type) {
        int n = getCount(type);
        count = n;
        numEls = n;
        return this;
    }

    final Status at(int index) {
        this.index = index;
        return this;
    }

    /** Elements of {@code datatype} received, or {@link MPI#UNDEFINED} when the bytes are not a whole number of them. */
    public int getCount(Datatype datatype) {
        if (objects >= 0) {
            int per = datatype == null || datatype.objects == null ? 1 : datatype.objects.size();
            return per <= 1 ? (per == 0 ? 0 : objects) : objects % per == 0 ? objects / per : MPI.UNDEFINED;
        }
        dev.ferry.Datatype t = datatype.type;
        if (t == null || t.size() == 0) {
            return bytes == 0 ? 0 : MPI.UNDEFINED;
        }
        return t.count(bytes); // no 64-bit division for the primitives: this runs on every receive
    }

    /**
     * {@link #getCount} past 2^31 (MPI-4's {@code MPI_Get_count_c}, a Ferry extension): the
     * elements of {@code datatype} received, {@link MPI#UNDEFINED} when not whole.
     */
    public long getCountLong(Datatype datatype) {
        if (objects >= 0) {
            return getCount(datatype);
        }
        dev.ferry.Datatype t = datatype.type;
        if (t == null || t.size() == 0) {
            return bytes == 0 ? 0 : MPI.UNDEFINED;
        }
        return bytes % t.size() == 0 ? bytes / t.size() : MPI.UNDEFINED;
    }

    /** Base elements received (so partial elements of a derived type count). */
    public int getElements(Datatype datatype) {
        if (objects >= 0) {
            return objects;
        }
        return datatype.baseSize == 0 ? 0 : (int) (bytes / datatype.baseSize);
    }

    public Count getElementsX(Datatype datatype) {
        return new Count(datatype.baseSize == 0 ? 0 : bytes / datatype.baseSize);
    }

    public void setElements(Datatype datatype, int count) {
        this.bytes = (long) count * datatype.baseSize;
        this.countInBytes = (int) Math.min(Integer.MAX_VALUE, bytes);
    }

    public void setElementsX(Datatype datatype, Count count) {
        this.bytes = count.getCount() * datatype.baseSize;
        this.countInBytes = (int) Math.min(Integer.MAX_VALUE, bytes);
    }

    public boolean isCancelled() {
        return cancelled;
    }

    public void setCancelled(boolean flag) {
        this.cancelled = flag;
    }

    public int getSource() {
        return source;
    }

    public int getTag() {
        return tag;
    }

    /** {@link MPI#SUCCESS} or the MPI error class of the operation. */
    public int getError() {
        return error;
    }

    public int getIndex() {
        return index;
    }

    // --- mpiJava 1.2 names ---------------------------------------------------------------------

    public int Get_count(Datatype datatype) {
        return getCount(datatype);
    }

    public int Get_elements(Datatype datatype) {
        return getElements(datatype);
    }

    public boolean Test_cancelled() {
        return cancelled;
    }

    /** Nothing to give back. */
    @Override
    public void free() {
    }

    @Override
    public String toString() {
        return "Status[source " + source + ", tag " + tag + ", " + bytes + " B" + (error != 0 ? ", error " + MPI.errorName(error) : "")
                + (cancelled ? ", cancelled" : "") + "]";
    }
}
