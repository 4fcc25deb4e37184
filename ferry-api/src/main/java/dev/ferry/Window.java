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
 * <p>The calls come in families, each in a file of its own: this class makes, describes and
 * frees windows; its superclasses hold the communication calls ({@link WindowAccess}: put, get,
 * the accumulates and atomics, their request forms) and the synchronization calls
 * ({@link WindowSynchronization}: fences, general active target, locks and flushes).
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
public final class Window extends WindowSynchronization implements AutoCloseable {
    /** A passive-target lock: several SHARED holders at once, or one EXCLUSIVE. */
    public enum LockType { SHARED, EXCLUSIVE }

    private static final byte[] NOTHING = new byte[0];

    private final Comm userComm;
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
    /** The shared lock holders' slots at this rank (one per member; windows of more than 32), and their entry; else null. */
    private final MemorySegment holders;
    private final MeHandle holdersMe;
    /** allocateShared: each member's memory mapped into this process (this rank's own included). */
    private final MemorySegment[] shared;
    /** createDynamic: this rank's attachments, and copies of the targets' tables (null until read); else null. */
    private final Attachments attachments;
    private final MeHandle tableMe;

    private Window(WindowLibrary lib, Comm userComm, Comm comm, int pt, MemorySegment memory, MemorySegment allocated, int dispUnit,
                   boolean share, boolean dynamic) {
        // Every entry is appended before the allgather that builds the operations' tables (so
        // before anyone goes on), and so before the superclass, which holds those tables, is made.
        this.userComm = userComm;
        this.pt = pt;
        this.memory = memory;
        this.allocated = allocated;
        int lockSlot = lib.takeLock();
        this.lockSlot = lockSlot;
        this.dataMe = memory.byteSize() > 0 ? append(lib, pt, memory, WindowOps.DATA_BITS) : null;
        this.lockMe = append(lib, pt, lib.lockWord(lockSlot), WindowLocks.BITS);
        int mutexSlot = lib.takeLock();
        this.mutexSlot = mutexSlot;
        this.mutexMe = append(lib, pt, lib.lockWord(mutexSlot), WindowLocks.MUTEX_BITS);
        // past 32 members the shared holders have slots of their own (else they are bits of the lock word)
        MemorySegment holders = comm.size() > WindowLocks.WORD_MEMBERS ? lib.allocate(WindowLocks.holdersBytes(comm.size())) : null;
        this.holders = holders;
        this.holdersMe = holders != null ? append(lib, pt, holders, WindowLocks.HOLDERS_BITS) : null;
        WindowLocks locks = new WindowLocks(lib, pt, comm);
        Attachments attachments = dynamic ? new Attachments(lib.allocate(Attachments.BYTES)) : null;
        this.attachments = attachments;
        this.tableMe = dynamic ? append(lib, pt, attachments.table, Attachments.TABLE_BITS) : null;
        int n = comm.size();
        WindowEpochs epochs = new WindowEpochs(n);
        long[] mine = {memory.byteSize(), dispUnit};
        long[] all = new long[2 * n];
        comm.allgather(mine, 0, 2, Datatype.LONG, all, 0, 2, Datatype.LONG);
        long[] sizes = new long[n];
        int[] dispUnits = new int[n];
        for (int r = 0; r < n; r++) {
            sizes[r] = all[2 * r];
            dispUnits[r] = (int) all[2 * r + 1];
        }
        super(lib, comm, epochs, locks, new WindowOps(lib, comm, pt, sizes, dispUnits, dynamic, epochs, locks));
        this.shared = share ? mapShared() : null;
    }

    private static MeHandle append(WindowLibrary lib, int pt, MemorySegment m, long bits) {
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
        if (comm.isInter()) {
            throw FerryException.arg(ErrorClass.COMM, "Window." + what + ": " + comm + " is an intercommunicator (MPI makes windows on intracommunicators)");
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
            attachments.add(k, memory, append(lib, pt, memory, Attachments.FIRST_BITS + k));
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
        if (holdersMe != null) {
            lib.ptl.meUnlink(holdersMe);
            lib.release(holders);
        }
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
