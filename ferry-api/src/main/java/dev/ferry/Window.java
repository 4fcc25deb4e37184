package dev.ferry;

import dev.ferry.portals.Me;
import dev.ferry.portals.MeHandle;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import static dev.ferry.portals.Portals.*;

/**
 * A one-sided communication window (MPI's RMA): memory each rank of a communicator exposes, which
 * the others put to, get from and update atomically without the target taking part. The target
 * need not call anything: its Portals library serves the operations (by message, or, for a
 * window in the node's shared arena, the origin copies or applies the atomic itself).
 *
 * <p>Operations happen in epochs: between two {@link #fence()}s; inside {@link #start} ..
 * {@link #complete()} (to targets that opened theirs with {@link #post} .. {@link #waitFor()});
 * or under a {@link #lock} or {@link #lockAll()} (passive target). Issuing an operation returns
 * at once; the origin buffer may be reused at once (its data is staged), except a contiguous
 * off-heap one of 64 KiB or more, which is read in place until the operation completes (as MPI
 * allows for every origin buffer). Gets and fetches fill
 * the result buffer when the operation completes: at the flush, unlock, fence or complete that
 * ends it, or when its request (the {@code r} forms) completes. Accumulates on one location are
 * atomic with respect to each other, whichever path each takes. Displacements count the target's
 * displacement unit.
 *
 * <pre>{@code
 * try (Window w = Window.allocate(world, 8 * n, 8)) {
 *     w.lock(Window.LockType.SHARED, 0);
 *     w.accumulate(new long[] {1}, 0, 1, Datatype.LONG, 0, 0, Op.SUM);   // counter at rank 0 += 1
 *     long[] seen = new long[1];
 *     w.fetchAndOp(new long[] {1}, 0, seen, 0, Datatype.LONG, 0, 1, Op.SUM);
 *     w.unlock(0);                                                      // seen[0] is here now
 * }
 * }</pre>
 */
public final class Window implements AutoCloseable {
    /** A passive-target lock: several SHARED holders at once, or one EXCLUSIVE. */
    public enum LockType { SHARED, EXCLUSIVE }

    /** Point-to-point tags of the general active-target synchronization, on the window's own communicator. */
    private static final int POST_TAG = 1, COMPLETE_TAG = 2;
    private static final byte[] NOTHING = new byte[0];

    private final WindowLibrary lib;
    private final Comm userComm;
    /** The window's own communicator (a duplicate): its synchronization traffic meets nobody else's. */
    private final Comm comm;
    private final int pt;
    /** This rank's window memory. */
    private final MemorySegment memory;
    /** The arena memory behind {@link #memory} when Ferry allocated it, else null. */
    private final MemorySegment allocated;
    private final int lockSlot;
    private final MeHandle dataMe;
    private final MeHandle lockMe;
    /** The accumulate mutex (MINLOC / MAXLOC): a second word of the lock page, and its entry. */
    private final int mutexSlot;
    private final MeHandle mutexMe;
    /** allocateShared: each member's memory mapped into this process (this rank's own included). */
    private final MemorySegment[] shared;
    /** createDynamic: this rank's attachments, and copies of the targets' tables (null until read); else null. */
    private final Attachments attachments;
    private final MeHandle tableMe;
    private final WindowLocks locks;

    /** The open epochs (under the library's lock). */
    private final WindowEpochs epochs;
    /** Issues the operations (under the library's lock). */
    private final WindowOps ops;
    private volatile boolean freed;

    private Window(WindowLibrary lib, Comm userComm, Comm comm, int pt, MemorySegment memory, MemorySegment allocated, int dispUnit,
                   boolean share, boolean dynamic) {
        this.lib = lib;
        this.userComm = userComm;
        this.comm = comm;
        this.pt = pt;
        this.memory = memory;
        this.allocated = allocated;
        this.lockSlot = lib.takeLock();
        this.dataMe = memory.byteSize() > 0 ? append(memory, WindowOps.DATA_BITS) : null;
        this.lockMe = append(lib.lockWord(lockSlot), WindowLocks.BITS);
        this.mutexSlot = lib.takeLock();
        this.mutexMe = append(lib.lockWord(mutexSlot), WindowLocks.MUTEX_BITS);
        this.locks = new WindowLocks(lib, pt);
        this.attachments = dynamic ? new Attachments(lib.allocate(Attachments.BYTES)) : null;
        this.tableMe = dynamic ? append(attachments.table, Attachments.TABLE_BITS) : null;
        int n = comm.size();
        this.epochs = new WindowEpochs(n);
        long[] mine = {memory.byteSize(), dispUnit};
        long[] all = new long[2 * n];
        comm.allgather(mine, 0, 2, Datatype.LONG, all, 0, 2, Datatype.LONG); // also: every entry is appended before anyone goes on
        long[] sizes = new long[n];
        int[] dispUnits = new int[n];
        for (int r = 0; r < n; r++) {
            sizes[r] = all[2 * r];
            dispUnits[r] = (int) all[2 * r + 1];
        }
        this.ops = new WindowOps(lib, comm, pt, sizes, dispUnits, dynamic, epochs, locks);
        this.shared = share ? mapShared() : null;
    }

    private MeHandle append(MemorySegment m, long bits) {
        Me me = new Me();
        me.start = m;
        me.length = m.byteSize();
        me.options = ME_OP_PUT | ME_OP_GET;
        me.matchBits = bits;
        return lib.ptl.meAppend(lib.ni, pt, me, PRIORITY_LIST, null);
    }

    // ---- creation -------------------------------------------------------------------------------

    /**
     * {@code bytes} of zeroed memory at each rank, from the node's shared arena where there is one
     * (same-node origins then reach it directly); collective over {@code comm}. Ranks may ask for
     * different sizes (0 included).
     *
     * <pre>{@code
     * Window w = Window.allocate(world, 1 << 20, 1);
     * MemorySegment mine = w.memory();
     * }</pre>
     */
    public static Window allocate(Comm comm, long bytes, int dispUnit) {
        return make(comm, null, bytes, dispUnit, false, "allocate");
    }

    /**
     * A window over {@code memory}, off-heap memory of the caller's (a {@code MemorySegment} of an
     * {@code Arena}); collective. Operations reach it by message: the target's library applies them.
     */
    public static Window create(Comm comm, MemorySegment memory, int dispUnit) {
        if (memory == null || !memory.isNative()) {
            throw FerryException.arg(ErrorClass.BUFFER, "Window.create: the memory must be off-heap (a MemorySegment from an Arena), not "
                    + (memory == null ? "null" : "a heap segment"));
        }
        if (!sharedAcrossThreads(memory)) {
            throw FerryException.arg(ErrorClass.BUFFER, "Window.create: the memory is confined to one thread; Ferry's progress writes to it "
                    + "from others (use Arena.ofShared(), ofAuto() or global())");
        }
        return make(comm, memory, memory.byteSize(), dispUnit, false, "create");
    }

    /**
     * {@link #allocate}, with every member's memory also loadable and storable directly by the
     * others ({@link #sharedQuery}); every rank of {@code comm} must be on this node and the node
     * must have a shared arena (the shm driver); else an RMA_SHARED error at every rank.
     */
    public static Window allocateShared(Comm comm, long bytes, int dispUnit) {
        return make(comm, null, bytes, dispUnit, true, "allocateShared");
    }

    /**
     * A window with no memory yet (collective): each rank then {@link #attach}es and
     * {@link #detach}es off-heap memory of its own, and origins address it by its address at the
     * target ({@code segment.address()}, passed to them by a message), displacement unit 1.
     *
     * <pre>{@code
     * Window w = Window.createDynamic(world);
     * w.attach(mine);                                   // mine: a MemorySegment from an Arena
     * world.allgather(new long[] {mine.address()}, 0, 1, Datatype.LONG, bases, 0, 1, Datatype.LONG);
     * w.lock(Window.LockType.SHARED, 1);
     * w.put(data, 0, 4, Datatype.INT, 1, bases[1] + 16);   // 16 bytes into rank 1's attachment
     * }</pre>
     */
    public static Window createDynamic(Comm comm) {
        return make(comm, MemorySegment.ofArray(new byte[0]), 0, 1, false, true, "createDynamic");
    }

    /** Whether threads other than the caller may access {@code m} (not a confined arena's). */
    private static boolean sharedAcrossThreads(MemorySegment m) {
        return m.isAccessibleBy(Thread.ofPlatform().unstarted(() -> { }));
    }

    private static Window make(Comm comm, MemorySegment memory, long bytes, int dispUnit, boolean share, String what) {
        return make(comm, memory, bytes, dispUnit, share, false, what);
    }

    private static Window make(Comm comm, MemorySegment memory, long bytes, int dispUnit, boolean share, boolean dynamic, String what) {
        if (comm == null) {
            throw FerryException.arg(ErrorClass.COMM, "Window." + what + ": the communicator is null");
        }
        if (bytes < 0) {
            throw FerryException.arg(ErrorClass.ARG, "Window." + what + ": the size " + bytes + " is negative");
        }
        if (dispUnit <= 0) {
            throw FerryException.arg(ErrorClass.DISP, "Window." + what + ": the displacement unit " + dispUnit + " is not positive");
        }
        Ferry f = comm.ferry();
        WindowLibrary lib = WindowLibrary.of(f);
        Comm own = comm.dup(); // after hosting: no peer's library message reaches this rank before its library exists
        lib.lock.lock();
        try {
            long[] free = lib.freePts();
            long[] common = new long[free.length];
            own.allreduce(free, 0, common, 0, free.length, Datatype.LONG, Op.BAND);
            int pt = -1;
            for (int i = 0; i < common.length && pt < 0; i++) {
                if (common[i] != 0) {
                    pt = 64 * i + Long.numberOfTrailingZeros(common[i]);
                }
            }
            if (pt < 0) {
                throw new FerryException(ErrorClass.NO_SPACE, "Window." + what + ": no portal table index is free at every rank (too many live windows)");
            }
            MemorySegment whole = memory == null ? lib.allocate(bytes) : null;
            lib.takePt(pt);
            return new Window(lib, comm, own, pt, memory != null ? memory : whole.asSlice(0, bytes), whole, dispUnit, share, dynamic);
        } finally {
            lib.lock.unlock();
        }
    }

    private MemorySegment[] mapShared() {
        Ferry f = comm.ferry();
        int n = comm.size();
        byte[] key = f.engine.memory().shareKey(allocated);
        int len = key == null ? -1 : key.length;
        int[] lens = new int[n];
        comm.allgather(new int[] {len}, 0, 1, Datatype.INT, lens, 0, 1, Datatype.INT);
        String why = null;
        int max = 0;
        for (int r = 0; r < n; r++) {
            if (lens[r] < 0) {
                why = "rank " + r + "'s window memory is not in a shared arena (no shm driver there)";
            }
            max = Math.max(max, lens[r]);
        }
        byte[] keys = new byte[max * n];
        byte[] mine = Arrays.copyOf(key == null ? NOTHING : key, max);
        comm.allgather(mine, 0, max, Datatype.BYTE, keys, 0, max, Datatype.BYTE);
        MemorySegment[] out = new MemorySegment[n];
        for (int r = 0; r < n && why == null; r++) {
            if (r == comm.rank()) {
                out[r] = memory;
                continue;
            }
            byte[] k = Arrays.copyOfRange(keys, r * max, r * max + lens[r]);
            int peer = comm.world(r);
            MemorySegment[] m = new MemorySegment[1];
            f.engine.runSerialized(() -> m[0] = f.engine.peerMemory(peer, k));
            if (m[0] == null) {
                why = "rank " + r + "'s window memory cannot be mapped here (another node, or no shared arena between us)";
            } else {
                out[r] = m[0].asSlice(0, ops.sizes[r]);
            }
        }
        int[] ok = {why == null ? 1 : 0};
        int[] all = new int[1];
        comm.allreduce(ok, 0, all, 0, 1, Datatype.INT, Op.MIN);
        if (all[0] == 0) {
            freeResources();
            throw new FerryException(ErrorClass.RMA_SHARED, "Window.allocateShared: "
                    + (why != null ? why : "another rank could not map every member's memory"));
        }
        return out;
    }

    // ---- what the window is ---------------------------------------------------------------------

    /** This rank's window memory (empty when it exposes none). */
    public MemorySegment memory() {
        return memory;
    }

    /** The communicator the window was made on. */
    public Comm comm() {
        return userComm;
    }

    /** Bytes of rank {@code rank}'s window. */
    public long size(int rank) {
        ops.checkRank(rank, "size");
        return ops.sizes[rank];
    }

    /** Rank {@code rank}'s displacement unit. */
    public int dispUnit(int rank) {
        ops.checkRank(rank, "dispUnit");
        return ops.dispUnits[rank];
    }

    /**
     * (allocateShared) rank {@code rank}'s window memory, mapped into this process: loads and stores
     * on it reach that rank's memory directly. Order them with the window's synchronization (or
     * {@link #sync()} inside a lock epoch), as with any shared memory.
     *
     * <pre>{@code
     * MemorySegment left = w.sharedQuery((comm.rank() + n - 1) % n);
     * long v = left.get(ValueLayout.JAVA_LONG, 0);
     * }</pre>
     */
    public MemorySegment sharedQuery(int rank) {
        checkOpen("sharedQuery");
        if (shared == null) {
            throw FerryException.arg(ErrorClass.RMA_SHARED, "sharedQuery: the window was not made by allocateShared");
        }
        ops.checkRank(rank, "sharedQuery");
        return shared[rank];
    }

    /**
     * (createDynamic) exposes {@code memory}, off-heap memory of the caller's, to the window's
     * origins from now on (not collective); they address it by {@code memory.address()}.
     */
    public void attach(MemorySegment memory) {
        lib.lock.lock();
        try {
            checkOpen("attach");
            if (attachments == null) {
                throw FerryException.arg(ErrorClass.RMA_ATTACH, "attach: the window was not made by createDynamic");
            }
            if (memory == null || !memory.isNative() || memory.byteSize() == 0 || !sharedAcrossThreads(memory)) {
                throw FerryException.arg(ErrorClass.RMA_ATTACH, "attach: the memory must be off-heap, not empty and not confined to one thread "
                        + "(a MemorySegment from Arena.ofShared(), ofAuto() or global())");
            }
            int k = attachments.freeSlot();
            if (k < 0) {
                throw FerryException.arg(ErrorClass.RMA_ATTACH, "attach: " + Attachments.MAX + " segments are attached already");
            }
            attachments.add(k, memory, append(memory, Attachments.FIRST_BITS + k));
        } finally {
            lib.lock.unlock();
        }
    }

    /** (createDynamic) withdraws what {@link #attach} exposed (the same address and size). */
    public void detach(MemorySegment memory) {
        lib.lock.lock();
        try {
            checkOpen("detach");
            int k = attachments == null || memory == null ? -1 : attachments.slotOf(memory);
            if (k < 0) {
                throw FerryException.arg(ErrorClass.RMA_ATTACH, "detach: " + memory + " is not attached to this window");
            }
            lib.ptl.meUnlink(attachments.remove(k));
        } finally {
            lib.lock.unlock();
        }
    }

    // ---- communication --------------------------------------------------------------------------

    /** Puts {@code count} elements of {@code type} from {@code origin} at displacement {@code disp} of rank {@code target}. */
    public void put(Object origin, int offset, int count, Datatype type, int target, long disp) {
        put(origin, offset, count, type, target, disp, count, type);
    }

    /**
     * Puts {@code count} elements of {@code type} from {@code origin} into {@code targetCount}
     * elements of {@code targetType} at displacement {@code disp} of rank {@code target} (the
     * two must hold the same number of bytes).
     */
    public void put(Object origin, int offset, int count, Datatype type, int target, long disp, int targetCount, Datatype targetType) {
        lib.lock.lock();
        try {
            checkOpen("put");
            ops.transfer(true, origin, offset, count, type, target, disp, targetCount, targetType, "put");
        } finally {
            lib.lock.unlock();
        }
    }

    /** Gets {@code count} elements of {@code type} into {@code result} from displacement {@code disp} of rank {@code target}. */
    public void get(Object result, int offset, int count, Datatype type, int target, long disp) {
        get(result, offset, count, type, target, disp, count, type);
    }

    /** {@link #get} with the target's layout of its own. The result is there once the operation completes. */
    public void get(Object result, int offset, int count, Datatype type, int target, long disp, int targetCount, Datatype targetType) {
        lib.lock.lock();
        try {
            checkOpen("get");
            ops.transfer(false, result, offset, count, type, target, disp, targetCount, targetType, "get");
        } finally {
            lib.lock.unlock();
        }
    }

    /**
     * Combines {@code count} elements of {@code type} from {@code origin} into the target's with
     * {@code op} (a predefined operation, or {@link Op#REPLACE}), element by element, each
     * atomically. MINLOC and MAXLOC (on a pair type) have no atomic in the library: Ferry takes
     * the target window's accumulate mutex, reads, combines and writes back, so they are atomic
     * with respect to each other, and complete when the call returns (up to 256 KiB a call).
     */
    public void accumulate(Object origin, int offset, int count, Datatype type, int target, long disp, Op op) {
        accumulate(origin, offset, count, type, target, disp, count, type, op);
    }

    /** {@link #accumulate} with the target's layout of its own (of the same kind of element). */
    public void accumulate(Object origin, int offset, int count, Datatype type, int target, long disp, int targetCount, Datatype targetType, Op op) {
        lib.lock.lock();
        try {
            checkOpen("accumulate");
            ops.atomics(origin, offset, count, type, null, 0, target, disp, targetCount, targetType, op, "accumulate");
        } finally {
            lib.lock.unlock();
        }
    }

    /**
     * {@link #accumulate}, first fetching the target's elements into {@code result} (as many as
     * the target's, of {@code type}'s kind), each fetch and update atomic; with
     * {@link Op#NO_OP} the target is only read (atomically) and {@code origin} is ignored.
     */
    public void getAccumulate(Object origin, int offset, Object result, int resultOffset, int count, Datatype type, int target, long disp, Op op) {
        getAccumulate(origin, offset, result, resultOffset, count, type, target, disp, count, type, op);
    }

    /** {@link #getAccumulate} with the target's layout of its own. */
    public void getAccumulate(Object origin, int offset, Object result, int resultOffset, int count, Datatype type, int target, long disp,
                              int targetCount, Datatype targetType, Op op) {
        if (result == null) {
            throw FerryException.arg(ErrorClass.BUFFER, "getAccumulate: the result buffer is null");
        }
        lib.lock.lock();
        try {
            checkOpen("getAccumulate");
            ops.atomics(origin, offset, count, type, result, resultOffset, target, disp, targetCount, targetType, op, "getAccumulate");
        } finally {
            lib.lock.unlock();
        }
    }

    /** One element: {@code result = target; target = target op origin} (MPI's fetch-and-op), atomically. */
    public void fetchAndOp(Object origin, int offset, Object result, int resultOffset, Datatype type, int target, long disp, Op op) {
        getAccumulate(origin, offset, result, resultOffset, 1, type, target, disp, 1, type, op);
    }

    /**
     * One element: {@code result = target; if (target == compare) target = origin}, atomically
     * (MPI's compare-and-swap; integer types).
     */
    public void compareAndSwap(Object origin, int offset, Object compare, int compareOffset, Object result, int resultOffset, Datatype type,
                               int target, long disp) {
        lib.lock.lock();
        try {
            checkOpen("compareAndSwap");
            ops.compareAndSwap(origin, offset, compare, compareOffset, result, resultOffset, type, target, disp);
        } finally {
            lib.lock.unlock();
        }
    }

    /**
     * Ferry extension (seed 004's MskCmpSwap) on the 64-bit word at displacement {@code disp} of
     * {@code target}: {@code if (((compare ^ word) & compareMask) == 0) word = (word & ~swapMask)
     * | (swap & swapMask)}, atomically; answers the word's old value (waiting for it, and for every
     * operation of this instance in flight).
     *
     * <pre>{@code
     * long old = w.maskedCompareSwap(0, 0, 0L, 0xffL, 0x42L, 0xffL);   // set the low byte if it was 0
     * }</pre>
     */
    public long maskedCompareSwap(int target, long disp, long compare, long compareMask, long swap, long swapMask) {
        lib.lock.lock();
        try {
            checkOpen("maskedCompareSwap");
            return ops.maskedCompareSwap(target, disp, compare, compareMask, swap, swapMask);
        } finally {
            lib.lock.unlock();
        }
    }

    /**
     * Ferry extension (seed 004's MFetchAdd) on the 64-bit word at displacement {@code disp} of
     * {@code target}: adds {@code addend} field by field, a bit set in {@code boundaries} ending a
     * field (no carry passes from that bit to the next), atomically; answers the word's old value
     * (waiting for it, and for every operation of this instance in flight).
     *
     * <pre>{@code
     * long old = w.maskedFetchAdd(0, 0, 0x0001_0001L, 0x8000_8000L);   // two 16-bit counters += 1
     * }</pre>
     */
    public long maskedFetchAdd(int target, long disp, long addend, long boundaries) {
        lib.lock.lock();
        try {
            checkOpen("maskedFetchAdd");
            return ops.maskedFetchAdd(target, disp, addend, boundaries);
        } finally {
            lib.lock.unlock();
        }
    }

    // ---- request forms --------------------------------------------------------------------------

    /** {@link #put}, with a request that completes when the put has (at the target too). */
    public Request rput(Object origin, int offset, int count, Datatype type, int target, long disp) {
        return rput(origin, offset, count, type, target, disp, count, type);
    }

    /** {@link #get}, with a request that completes when the result is in {@code result}. */
    public Request rget(Object result, int offset, int count, Datatype type, int target, long disp) {
        return rget(result, offset, count, type, target, disp, count, type);
    }

    /** {@link #accumulate}, with a request that completes when it has. */
    public Request raccumulate(Object origin, int offset, int count, Datatype type, int target, long disp, Op op) {
        return raccumulate(origin, offset, count, type, target, disp, count, type, op);
    }

    /** {@link #getAccumulate}, with a request that completes when the result is in {@code result}. */
    public Request rgetAccumulate(Object origin, int offset, Object result, int resultOffset, int count, Datatype type, int target, long disp,
                                  Op op) {
        return rgetAccumulate(origin, offset, result, resultOffset, count, type, target, disp, count, type, op);
    }

    /** {@link #rput} with the target's layout of its own. */
    public Request rput(Object origin, int offset, int count, Datatype type, int target, long disp, int targetCount, Datatype targetType) {
        lib.lock.lock();
        try {
            put(origin, offset, count, type, target, disp, targetCount, targetType);
            return lib.request("rput to rank " + target);
        } finally {
            lib.lock.unlock();
        }
    }

    /** {@link #rget} with the target's layout of its own. */
    public Request rget(Object result, int offset, int count, Datatype type, int target, long disp, int targetCount, Datatype targetType) {
        lib.lock.lock();
        try {
            get(result, offset, count, type, target, disp, targetCount, targetType);
            return lib.request("rget from rank " + target);
        } finally {
            lib.lock.unlock();
        }
    }

    /** {@link #raccumulate} with the target's layout of its own. */
    public Request raccumulate(Object origin, int offset, int count, Datatype type, int target, long disp, int targetCount, Datatype targetType, Op op) {
        lib.lock.lock();
        try {
            accumulate(origin, offset, count, type, target, disp, targetCount, targetType, op);
            return lib.request("raccumulate to rank " + target);
        } finally {
            lib.lock.unlock();
        }
    }

    /** {@link #rgetAccumulate} with the target's layout of its own. */
    public Request rgetAccumulate(Object origin, int offset, Object result, int resultOffset, int count, Datatype type, int target, long disp,
                                  int targetCount, Datatype targetType, Op op) {
        lib.lock.lock();
        try {
            getAccumulate(origin, offset, result, resultOffset, count, type, target, disp, targetCount, targetType, op);
            return lib.request("rgetAccumulate at rank " + target);
        } finally {
            lib.lock.unlock();
        }
    }

    private void checkOpen(String what) {
        if (freed) {
            throw FerryException.arg(ErrorClass.WIN, what + ": the window was freed");
        }
    }

    // ---- synchronization ------------------------------------------------------------------------

    /**
     * Ends the current fence epoch and opens the next (collective): every operation issued by
     * any rank before it is complete, at origin and target, when it returns.
     */
    public void fence() {
        lib.lock.lock();
        try {
            checkOpen("fence");
            epochs.checkFence();
            lib.quiesce();
        } finally {
            lib.lock.unlock();
        }
        comm.barrier();
        lib.lock.lock();
        try {
            epochs.fenced();
        } finally {
            lib.lock.unlock();
        }
    }

    /**
     * Opens an exposure epoch for the origins in {@code group} (ranks of the window's
     * communicator's group): they may access this rank's window after their {@link #start};
     * {@link #waitFor()} ends it.
     */
    public void post(Group group) {
        int[] ranks = ranksOf(group, "post");
        lib.lock.lock();
        try {
            checkOpen("post");
            epochs.post(ranks);
        } finally {
            lib.lock.unlock();
        }
        for (int r : ranks) {
            comm.send(NOTHING, 0, 0, Datatype.BYTE, r, POST_TAG);
        }
    }

    /** Opens an access epoch to the targets in {@code group}, once each has posted. */
    public void start(Group group) {
        int[] ranks = ranksOf(group, "start");
        lib.lock.lock();
        try {
            checkOpen("start");
            epochs.checkAccess("start");
        } finally {
            lib.lock.unlock();
        }
        for (int r : ranks) {
            comm.recv(NOTHING, 0, 0, Datatype.BYTE, r, POST_TAG);
        }
        lib.lock.lock();
        try {
            epochs.started(ranks);
        } finally {
            lib.lock.unlock();
        }
    }

    /** Ends the access epoch {@link #start} opened: the operations are complete at the targets, which learn so. */
    public void complete() {
        int[] ranks;
        lib.lock.lock();
        try {
            checkOpen("complete");
            ranks = epochs.complete();
            lib.quiesce();
        } finally {
            lib.lock.unlock();
        }
        for (int r : ranks) {
            comm.send(NOTHING, 0, 0, Datatype.BYTE, r, COMPLETE_TAG);
        }
    }

    /** Ends the exposure epoch {@link #post} opened, once every origin in its group has completed (MPI's MPI_Win_wait). */
    public void waitFor() {
        int[] ranks = exposure("waitFor");
        for (int r : ranks) {
            comm.recv(NOTHING, 0, 0, Datatype.BYTE, r, COMPLETE_TAG);
        }
        endExposure();
    }

    /** {@link #waitFor()} without waiting: true (and the epoch ended) when every origin has completed. */
    public boolean test() {
        int[] ranks = exposure("test");
        for (int r : ranks) {
            if (comm.iprobe(r, COMPLETE_TAG) == null) {
                return false;
            }
        }
        for (int r : ranks) {
            comm.recv(NOTHING, 0, 0, Datatype.BYTE, r, COMPLETE_TAG);
        }
        endExposure();
        return true;
    }

    private int[] exposure(String what) {
        lib.lock.lock();
        try {
            checkOpen(what);
            return epochs.exposure(what);
        } finally {
            lib.lock.unlock();
        }
    }

    private void endExposure() {
        lib.lock.lock();
        try {
            epochs.exposed();
        } finally {
            lib.lock.unlock();
        }
    }

    private int[] ranksOf(Group group, String what) {
        if (group == null) {
            throw FerryException.arg(ErrorClass.GROUP, what + ": the group is null");
        }
        int[] out = new int[group.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = comm.local(group.members[i]);
            if (out[i] < 0) {
                throw FerryException.arg(ErrorClass.GROUP, what + ": the group's rank " + i + " (job rank " + group.members[i]
                        + ") is not in the window's communicator");
            }
        }
        return out;
    }

    /**
     * Opens a passive-target access epoch to {@code target}: waits until the lock is had
     * (EXCLUSIVE: nobody else holds it; SHARED: no exclusive holder). The target takes no part.
     */
    public void lock(LockType type, int target) {
        lib.lock.lock();
        try {
            checkOpen("lock");
            ops.checkRank(target, "lock");
            if (type == null) {
                throw FerryException.arg(ErrorClass.ARG, "lock: the lock type is null");
            }
            epochs.checkLock(target);
            locks.acquire(type, ops.id(target));
            epochs.locked(target, type == LockType.EXCLUSIVE);
        } finally {
            lib.lock.unlock();
        }
    }

    /** Ends the epoch {@link #lock} opened: every operation to {@code target} is complete there, then the lock is let go. */
    public void unlock(int target) {
        lib.lock.lock();
        try {
            checkOpen("unlock");
            ops.checkRank(target, "unlock");
            boolean exclusive = epochs.checkUnlock(target);
            epochs.unlocked(target);
            try {
                lib.flush(ops.id(target).rank);
            } finally {
                locks.release(exclusive, ops.id(target)); // let go even when an operation failed
            }
        } finally {
            lib.lock.unlock();
        }
    }

    /** A shared lock on every rank (MPI's lockAll). */
    public void lockAll() {
        lib.lock.lock();
        try {
            checkOpen("lockAll");
            epochs.checkLockAll();
            for (int r = 0; r < comm.size(); r++) {
                locks.acquire(LockType.SHARED, ops.id(r));
            }
            epochs.lockedAll();
        } finally {
            lib.lock.unlock();
        }
    }

    /** Ends {@link #lockAll()}'s epoch. */
    public void unlockAll() {
        lib.lock.lock();
        try {
            checkOpen("unlockAll");
            epochs.checkUnlockAll();
            epochs.unlockedAll();
            try {
                lib.quiesce();
            } finally {
                for (int r = 0; r < comm.size(); r++) {
                    locks.release(false, ops.id(r));
                }
            }
        } finally {
            lib.lock.unlock();
        }
    }

    /**
     * Completes every operation issued to {@code target}, at the target too, inside a passive
     * epoch; operations to other targets go on (their failures are not this flush's).
     */
    public void flush(int target) {
        lib.lock.lock();
        try {
            checkOpen("flush");
            ops.checkRank(target, "flush");
            epochs.checkFlush();
            lib.flush(ops.id(target).rank);
        } finally {
            lib.lock.unlock();
        }
    }

    /** {@link #flush} for every target. */
    public void flushAll() {
        lib.lock.lock();
        try {
            checkOpen("flushAll");
            epochs.checkFlush();
            lib.quiesce();
        } finally {
            lib.lock.unlock();
        }
    }

    /**
     * Completes the operations to {@code target} at this rank: origin buffers reusable, results
     * here. (Origin data is staged at issue, so this is when the results are in: the same wait as
     * {@link #flush}.)
     */
    public void flushLocal(int target) {
        flush(target);
    }

    /** {@link #flushLocal} for every target. */
    public void flushLocalAll() {
        flushAll();
    }

    /** Orders this rank's loads and stores on the window memory (and shared windows' peers') with the window's other accesses: a full fence. */
    public void sync() {
        checkOpen("sync");
        java.lang.invoke.VarHandle.fullFence();
    }

    // ---- the end ----------------------------------------------------------------------------------

    /**
     * Frees the window (collective): every epoch must be closed; waits for every rank's
     * operations to complete, then withdraws the memory. Calls after it are WIN errors.
     */
    public void free() {
        lib.lock.lock();
        try {
            checkOpen("free");
            epochs.checkFree();
            lib.quiesce();
        } finally {
            lib.lock.unlock();
        }
        comm.barrier(); // every rank's operations on this window are complete
        lib.lock.lock();
        try {
            freeResources();
        } finally {
            lib.lock.unlock();
        }
        comm.free();
    }

    private void freeResources() {
        freed = true;
        if (dataMe != null) {
            lib.ptl.meUnlink(dataMe);
        }
        lib.ptl.meUnlink(lockMe);
        lib.ptl.meUnlink(mutexMe);
        lib.releaseLock(mutexSlot);
        if (attachments != null) {
            for (MeHandle h : attachments.all()) {
                if (h != null) {
                    lib.ptl.meUnlink(h);
                }
            }
            lib.ptl.meUnlink(tableMe);
            lib.release(attachments.whole);
        }
        lib.releasePt(pt);
        lib.releaseLock(lockSlot);
        if (allocated != null) {
            lib.release(allocated);
        }
    }

    /** {@link #free()}, unless it was freed already. */
    @Override
    public void close() {
        if (!freed) {
            free();
        }
    }

    @Override
    public String toString() {
        return "window on " + userComm + " (" + memory.byteSize() + " bytes here)";
    }
}
