package mpi;

import dev.ferry.Window;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * A one-sided window (Open MPI bindings): put, get, accumulate and atomics on other ranks' memory,
 * with fence, post-start-complete-wait, and lock / flush epochs, on Ferry's windows. Sizes,
 * displacement units and displacements count elements of the base buffer, as the bindings do.
 *
 * <pre>{@code
 * IntBuffer counter = MPI.newIntBuffer(1);
 * Win win = new Win(counter, 1, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
 * IntBuffer one = MPI.newIntBuffer(1).put(0, 1), old = MPI.newIntBuffer(1);
 * win.lock(MPI.LOCK_SHARED, 0, 0);
 * win.fetchAndOp(one, old, MPI.INT, 0, 0, MPI.SUM);
 * win.unlock(0);
 * win.free();
 * }</pre>
 */
public final class Win implements Freeable {
    public static final int WIN_NULL = 0;
    public static final int FLAVOR_PRIVATE = 0;
    public static final int FLAVOR_SHARED = 1;

    private Window window;
    private final Comm comm;
    private Errhandler errhandler;
    private String name = "";
    private Info info;
    private final Attributes attributes = new Attributes();

    /** A window over {@code base}, direct memory of the caller: {@code size} elements, displacements in units of {@code dispUnit} elements (collective). */
    public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) {
        this.comm = comm;
        this.errhandler = comm.errhandler;
        this.info = info;
        try {
            int unit = direct(base, "base");
            window = Window.create(comm.ferry("Win"), Buf.segment(base).asSlice(0, (long) size * unit), dispUnit * unit);
        } catch (RuntimeException e) {
            throw Errors.raise(errhandler, e);
        }
    }

    /**
     * A window of memory Ferry allocates: {@link #FLAVOR_PRIVATE} makes it over {@code base}
     * (which must hold {@code size} elements: the program sees the window's memory there), and
     * {@link #FLAVOR_SHARED} from the node's shared arena, loadable and storable by the node's
     * ranks through {@link #sharedQuery(int)}.
     */
    public Win(int size, int dispUnit, Info info, Comm comm, Buffer base, int flavor) {
        this.comm = comm;
        this.errhandler = comm.errhandler;
        this.info = info;
        try {
            int unit = direct(base, "base");
            if (flavor == FLAVOR_SHARED) {
                window = Window.allocateShared(comm.ferry("Win"), (long) size * unit, dispUnit * unit);
            } else if (flavor == FLAVOR_PRIVATE) {
                window = Window.create(comm.ferry("Win"), Buf.segment(base).asSlice(0, (long) size * unit), dispUnit * unit);
            } else {
                throw new MPIException(MPI.ERR_ARG, "flavor: " + flavor + " is neither FLAVOR_PRIVATE nor FLAVOR_SHARED");
            }
        } catch (RuntimeException e) {
            throw Errors.raise(errhandler, e);
        }
    }

    /**
     * A window over {@code size} bytes of {@code base} from its start, displacements in units of
     * {@code dispUnit} bytes (collective; MPI-4's {@code MPI_Win_create_c}, a Ferry extension): a
     * segment may hold more than the 2 GiB a direct buffer can.
     *
     * <pre>{@code
     * MemorySegment mine = Arena.ofShared().allocate(3L << 30);
     * Win win = new Win(mine, mine.byteSize(), 1, MPI.INFO_NULL, MPI.COMM_WORLD);
     * win.fence(0);
     * win.put(big, big.byteSize(), MPI.BYTE, 1, 0L, big.byteSize(), MPI.BYTE);
     * win.fence(0);
     * }</pre>
     */
    public Win(MemorySegment base, long size, int dispUnit, Info info, Comm comm) {
        this.comm = comm;
        this.errhandler = comm.errhandler;
        this.info = info;
        try {
            if (base == null) {
                throw new MPIException(MPI.ERR_BUFFER, "base is null");
            }
            if (size < 0 || size > base.byteSize()) {
                throw new MPIException(MPI.ERR_SIZE, "size: " + size + " bytes, but base holds " + base.byteSize());
            }
            window = Window.create(comm.ferry("Win"), base.asSlice(0, size), dispUnit);
        } catch (RuntimeException e) {
            throw Errors.raise(errhandler, e);
        }
    }

    /** A dynamic window: memory is {@link #attach}ed later (collective). */
    public Win(Info info, Comm comm) {
        this.comm = comm;
        this.errhandler = comm.errhandler;
        this.info = info;
        try {
            window = Window.createDynamic(comm.ferry("Win"));
        } catch (RuntimeException e) {
            throw Errors.raise(errhandler, e);
        }
    }

    private static int direct(Buffer base, String what) {
        if (base == null || !base.isDirect()) {
            throw new MPIException(MPI.ERR_BUFFER, what + ": a window's memory must be a direct buffer (MPI.newByteBuffer and friends make one)");
        }
        return Buf.unit(base);
    }

    private Window w(String what) {
        Window x = window;
        if (x == null) {
            throw new MPIException(MPI.ERR_WIN, what + ": the window was freed");
        }
        return x;
    }

    private MPIException fail(RuntimeException e) {
        return Errors.raise(errhandler, e);
    }

    /** A node-shared window's memory of rank {@code rank}, to load and store directly (Ferry's extension). */
    public ByteBuffer sharedQuery(int rank) {
        try {
            return w("sharedQuery").sharedQuery(rank).asByteBuffer().order(java.nio.ByteOrder.nativeOrder());
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** Attaches {@code size} elements of direct buffer {@code base}; origins address it by {@link #getAddress(Buffer)}. */
    public void attach(Buffer base, int size) {
        try {
            w("attach").attach(Buf.segment(base).asSlice(0, (long) size * direct(base, "base")));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void detach(Buffer base) {
        try {
            direct(base, "base");
            MemorySegment s = Buf.segment(base);
            w("detach").detach(s);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** The address of a direct buffer, the displacement a dynamic window's origins use (Ferry's extension; MPI_Get_address). */
    public static long getAddress(Buffer base) {
        return Buf.segment(base).address();
    }

    public Group getGroup() {
        return comm.getGroup();
    }

    private static Object o(Buffer b) {
        return Buf.target(b);
    }

    private static int off(Buffer b) {
        return Buf.offset(b, 0);
    }

    public void put(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount, Datatype targetType) {
        put(origin, orgCount, orgType, targetRank, (long) targetDisp, targetCount, targetType);
    }

    /** With a displacement beyond an int: a dynamic window's address (Ferry's extension; see {@link #getAddress(Buffer)}). */
    public void put(Buffer origin, int orgCount, Datatype orgType, int targetRank, long targetDisp, int targetCount, Datatype targetType) {
        try {
            w("put").put(o(origin), off(origin), orgCount, Comm.t(orgType, "orgType"), targetRank, targetDisp, targetCount, Comm.t(targetType, "targetType"));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void get(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount, Datatype targetType) {
        get(origin, orgCount, orgType, targetRank, (long) targetDisp, targetCount, targetType);
    }

    /** With a displacement beyond an int: a dynamic window's address (Ferry's extension; see {@link #getAddress(Buffer)}). */
    public void get(Buffer origin, int orgCount, Datatype orgType, int targetRank, long targetDisp, int targetCount, Datatype targetType) {
        try {
            w("get").get(o(origin), off(origin), orgCount, Comm.t(orgType, "orgType"), targetRank, targetDisp, targetCount, Comm.t(targetType, "targetType"));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void accumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount, Datatype targetType, Op op) {
        accumulate(origin, orgCount, orgType, targetRank, (long) targetDisp, targetCount, targetType, op);
    }

    /** With a displacement beyond an int: a dynamic window's address (Ferry's extension; see {@link #getAddress(Buffer)}). */
    public void accumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, long targetDisp, int targetCount, Datatype targetType, Op op) {
        try {
            w("accumulate").accumulate(o(origin), off(origin), orgCount, Comm.t(orgType, "orgType"), targetRank, targetDisp,
                    targetCount, Comm.t(targetType, "targetType"), op.ferry(orgType));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request rPut(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount, Datatype targetType) {
        return rPut(origin, orgCount, orgType, targetRank, (long) targetDisp, targetCount, targetType);
    }

    /** With a displacement beyond an int: a dynamic window's address (Ferry's extension; see {@link #getAddress(Buffer)}). */
    public final Request rPut(Buffer origin, int orgCount, Datatype orgType, int targetRank, long targetDisp, int targetCount, Datatype targetType) {
        try {
            return new Request(w("rPut").rput(o(origin), off(origin), orgCount, Comm.t(orgType, "orgType"), targetRank, targetDisp,
                    targetCount, Comm.t(targetType, "targetType")), errhandler, null);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount, Datatype targetType) {
        return rGet(origin, orgCount, orgType, targetRank, (long) targetDisp, targetCount, targetType);
    }

    /** With a displacement beyond an int: a dynamic window's address (Ferry's extension; see {@link #getAddress(Buffer)}). */
    public final Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, long targetDisp, int targetCount, Datatype targetType) {
        try {
            return new Request(w("rGet").rget(o(origin), off(origin), orgCount, Comm.t(orgType, "orgType"), targetRank, targetDisp,
                    targetCount, Comm.t(targetType, "targetType")), errhandler, null);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount, Datatype targetType, Op op) {
        return rAccumulate(origin, orgCount, orgType, targetRank, (long) targetDisp, targetCount, targetType, op);
    }

    /** With a displacement beyond an int: a dynamic window's address (Ferry's extension; see {@link #getAddress(Buffer)}). */
    public Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, long targetDisp, int targetCount, Datatype targetType, Op op) {
        try {
            return new Request(w("rAccumulate").raccumulate(o(origin), off(origin), orgCount, Comm.t(orgType, "orgType"), targetRank, targetDisp,
                    targetCount, Comm.t(targetType, "targetType"), op.ferry(orgType)), errhandler, null);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** Fetches the target's elements into {@code resultAddr}, then accumulates {@code origin} into them (atomically per element). */
    public void getAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount, Datatype resultType,
                              int targetRank, int targetDisp, int targetCount, Datatype targetType, Op op) {
        getAccumulate(origin, orgCount, orgType, resultAddr, resultCount, resultType, targetRank, (long) targetDisp, targetCount, targetType, op);
    }

    /** With a displacement beyond an int: a dynamic window's address (Ferry's extension; see {@link #getAddress(Buffer)}). */
    public void getAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount, Datatype resultType,
                              int targetRank, long targetDisp, int targetCount, Datatype targetType, Op op) {
        try {
            w("getAccumulate").getAccumulate(origin == null ? null : o(origin), origin == null ? 0 : off(origin), o(resultAddr), off(resultAddr),
                    resultCount, Comm.t(resultType, "resultType"), targetRank, targetDisp, targetCount, Comm.t(targetType, "targetType"), op.ferry(resultType));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount, Datatype resultType,
                                  int targetRank, int targetDisp, int targetCount, Datatype targetType, Op op) {
        return rGetAccumulate(origin, orgCount, orgType, resultAddr, resultCount, resultType, targetRank, (long) targetDisp, targetCount, targetType, op);
    }

    /** With a displacement beyond an int: a dynamic window's address (Ferry's extension; see {@link #getAddress(Buffer)}). */
    public Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount, Datatype resultType,
                                  int targetRank, long targetDisp, int targetCount, Datatype targetType, Op op) {
        try {
            return new Request(w("rGetAccumulate").rgetAccumulate(origin == null ? null : o(origin), origin == null ? 0 : off(origin), o(resultAddr),
                    off(resultAddr), resultCount, Comm.t(resultType, "resultType"), targetRank, targetDisp, targetCount,
                    Comm.t(targetType, "targetType"), op.ferry(resultType)), errhandler, null);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void compareAndSwap(Buffer origin, Buffer compareAddr, Buffer resultAddr, Datatype dataType, int targetRank, int targetDisp) {
        compareAndSwap(origin, compareAddr, resultAddr, dataType, targetRank, (long) targetDisp);
    }

    /** With a displacement beyond an int: a dynamic window's address (Ferry's extension; see {@link #getAddress(Buffer)}). */
    public void compareAndSwap(Buffer origin, Buffer compareAddr, Buffer resultAddr, Datatype dataType, int targetRank, long targetDisp) {
        try {
            w("compareAndSwap").compareAndSwap(o(origin), off(origin), o(compareAddr), off(compareAddr), o(resultAddr), off(resultAddr),
                    Comm.t(dataType, "dataType"), targetRank, targetDisp);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank, int targetDisp, Op op) {
        fetchAndOp(origin, resultAddr, dataType, targetRank, (long) targetDisp, op);
    }

    /** With a displacement beyond an int: a dynamic window's address (Ferry's extension; see {@link #getAddress(Buffer)}). */
    public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank, long targetDisp, Op op) {
        try {
            w("fetchAndOp").fetchAndOp(origin == null ? null : o(origin), origin == null ? 0 : off(origin), o(resultAddr), off(resultAddr),
                    Comm.t(dataType, "dataType"), targetRank, targetDisp, op.ferry(dataType));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    // --- large counts (MPI-4's MPI_Put_c and the rest): Ferry extensions ----------------------------
    //
    // The origin may be a memory segment (of any length), a primitive array or a direct buffer,
    // from its start; the counts are long, and the target's displacement counts its dispUnits.

    /** {@code put} with {@code long} counts (MPI-4's {@code MPI_Put_c}). */
    public void put(Object origin, long orgCount, Datatype orgType, int targetRank, long targetDisp, long targetCount, Datatype targetType) {
        try {
            w("put").put(LargeCounts.b(origin, orgType, "put"), LargeCounts.o(origin), orgCount, Comm.t(orgType, "orgType"), targetRank, targetDisp,
                    targetCount, Comm.t(targetType, "targetType"));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** {@code get} with {@code long} counts (MPI-4's {@code MPI_Get_c}). */
    public void get(Object origin, long orgCount, Datatype orgType, int targetRank, long targetDisp, long targetCount, Datatype targetType) {
        try {
            w("get").get(LargeCounts.b(origin, orgType, "get"), LargeCounts.o(origin), orgCount, Comm.t(orgType, "orgType"), targetRank, targetDisp,
                    targetCount, Comm.t(targetType, "targetType"));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** {@code accumulate} with {@code long} counts (MPI-4's {@code MPI_Accumulate_c}). */
    public void accumulate(Object origin, long orgCount, Datatype orgType, int targetRank, long targetDisp, long targetCount, Datatype targetType, Op op) {
        try {
            w("accumulate").accumulate(LargeCounts.b(origin, orgType, "accumulate"), LargeCounts.o(origin), orgCount, Comm.t(orgType, "orgType"),
                    targetRank, targetDisp, targetCount, Comm.t(targetType, "targetType"), op.ferry(orgType));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** {@code getAccumulate} with {@code long} counts (MPI-4's {@code MPI_Get_accumulate_c}). */
    public void getAccumulate(Object origin, long orgCount, Datatype orgType, Object resultAddr, long resultCount, Datatype resultType,
                              int targetRank, long targetDisp, long targetCount, Datatype targetType, Op op) {
        try {
            w("getAccumulate").getAccumulate(LargeCounts.b(origin, orgType, "getAccumulate"), LargeCounts.o(origin),
                    LargeCounts.b(resultAddr, resultType, "getAccumulate"), LargeCounts.o(resultAddr), resultCount, Comm.t(resultType, "resultType"),
                    targetRank, targetDisp, targetCount, Comm.t(targetType, "targetType"), op.ferry(resultType));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** {@code rPut} with {@code long} counts (MPI-4's {@code MPI_Rput_c}). */
    public Request rPut(Object origin, long orgCount, Datatype orgType, int targetRank, long targetDisp, long targetCount, Datatype targetType) {
        try {
            return new Request(w("rPut").rput(LargeCounts.b(origin, orgType, "rPut"), LargeCounts.o(origin), orgCount, Comm.t(orgType, "orgType"),
                    targetRank, targetDisp, targetCount, Comm.t(targetType, "targetType")), errhandler, null);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** {@code rGet} with {@code long} counts (MPI-4's {@code MPI_Rget_c}). */
    public Request rGet(Object origin, long orgCount, Datatype orgType, int targetRank, long targetDisp, long targetCount, Datatype targetType) {
        try {
            return new Request(w("rGet").rget(LargeCounts.b(origin, orgType, "rGet"), LargeCounts.o(origin), orgCount, Comm.t(orgType, "orgType"),
                    targetRank, targetDisp, targetCount, Comm.t(targetType, "targetType")), errhandler, null);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** {@code rAccumulate} with {@code long} counts (MPI-4's {@code MPI_Raccumulate_c}). */
    public Request rAccumulate(Object origin, long orgCount, Datatype orgType, int targetRank, long targetDisp, long targetCount, Datatype targetType,
                               Op op) {
        try {
            return new Request(w("rAccumulate").raccumulate(LargeCounts.b(origin, orgType, "rAccumulate"), LargeCounts.o(origin), orgCount,
                    Comm.t(orgType, "orgType"), targetRank, targetDisp, targetCount, Comm.t(targetType, "targetType"), op.ferry(orgType)), errhandler, null);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** {@code rGetAccumulate} with {@code long} counts (MPI-4's {@code MPI_Rget_accumulate_c}). */
    public Request rGetAccumulate(Object origin, long orgCount, Datatype orgType, Object resultAddr, long resultCount, Datatype resultType,
                                  int targetRank, long targetDisp, long targetCount, Datatype targetType, Op op) {
        try {
            return new Request(w("rGetAccumulate").rgetAccumulate(LargeCounts.b(origin, orgType, "rGetAccumulate"), LargeCounts.o(origin),
                    LargeCounts.b(resultAddr, resultType, "rGetAccumulate"), LargeCounts.o(resultAddr), resultCount, Comm.t(resultType, "resultType"),
                    targetRank, targetDisp, targetCount, Comm.t(targetType, "targetType"), op.ferry(resultType)), errhandler, null);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    // --- synchronization ---------------------------------------------------------------------------

    /** Ends one access and exposure epoch and begins the next (collective); {@code assertion} is a hint. */
    public void fence(int assertion) {
        try {
            w("fence").fence();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void start(Group group, int assertion) {
        try {
            w("start").start(group.group);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void complete() {
        try {
            w("complete").complete();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void post(Group group, int assertion) {
        try {
            w("post").post(group.group);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void waitFor() {
        try {
            w("waitFor").waitFor();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public boolean test() {
        try {
            return w("test").test();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** Locks rank {@code rank}'s window, {@link MPI#LOCK_SHARED} or {@link MPI#LOCK_EXCLUSIVE}. */
    public void lock(int lockType, int rank, int assertion) {
        try {
            Window.LockType t = switch (lockType) {
                case MPI.LOCK_SHARED -> Window.LockType.SHARED;
                case MPI.LOCK_EXCLUSIVE -> Window.LockType.EXCLUSIVE;
                default -> throw new MPIException(MPI.ERR_LOCKTYPE, "lockType: " + lockType + " is neither MPI.LOCK_SHARED nor MPI.LOCK_EXCLUSIVE");
            };
            w("lock").lock(t, rank);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void unlock(int rank) {
        try {
            w("unlock").unlock(rank);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void lockAll(int assertion) {
        try {
            w("lockAll").lockAll();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void unlockAll() {
        try {
            w("unlockAll").unlockAll();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void sync() {
        try {
            w("sync").sync();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void flush(int targetRank) {
        try {
            w("flush").flush(targetRank);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void flushAll() {
        try {
            w("flushAll").flushAll();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void flushLocal(int targetRank) {
        try {
            w("flushLocal").flushLocal(targetRank);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void flushLocalAll() {
        try {
            w("flushLocalAll").flushLocalAll();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    // --- errors, attributes, names -----------------------------------------------------------------

    public void setErrhandler(Errhandler errhandler) {
        this.errhandler = java.util.Objects.requireNonNull(errhandler, "errhandler");
    }

    public Errhandler getErrhandler() {
        return errhandler;
    }

    public void callErrhandler(int errorCode) {
        throw fail(new MPIException(errorCode, "error " + MPI.errorName(errorCode) + " raised by the program on a window"));
    }

    public static int createKeyval() {
        return Attributes.createKeyval();
    }

    public static void freeKeyval(int keyval) {
        Attributes.freeKeyval(keyval);
    }

    public void setAttr(int keyval, Object value) {
        attributes.set(keyval, value);
    }

    /** A cached attribute; {@link MPI#WIN_SIZE} and {@link MPI#WIN_DISP_UNIT} give the caller's (in bytes). */
    public Object getAttr(int keyval) {
        if (keyval == MPI.WIN_SIZE) {
            return w("getAttr").size(comm.getRank());
        }
        if (keyval == MPI.WIN_DISP_UNIT) {
            return w("getAttr").dispUnit(comm.getRank());
        }
        return attributes.get(keyval);
    }

    public void deleteAttr(int keyval) {
        attributes.delete(keyval);
    }

    /** Frees the window (collective). */
    @Override
    public void free() {
        try {
            w("free").free();
            window = null;
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public Info getInfo() {
        return info == null || info.isNull() ? new Info() : info.dup();
    }

    public void setInfo(Info info) {
        this.info = info == null ? null : info.dup();
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }
}
