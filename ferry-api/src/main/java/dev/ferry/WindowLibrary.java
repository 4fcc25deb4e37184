package dev.ferry;

import dev.ferry.portals.CtEvent;
import dev.ferry.portals.CtHandle;
import dev.ferry.portals.Md;
import dev.ferry.portals.MdHandle;
import dev.ferry.portals.NiHandle;
import dev.ferry.portals.NiInitResult;
import dev.ferry.portals.PortalsLibrary;
import dev.ferry.portals.ProcessId;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import static dev.ferry.portals.Portals.*;

/**
 * What every window of one Ferry instance shares: the Portals library hosted on the instance's
 * engine (made with the first window), one matching interface with the job's ranks as its logical
 * map, the portal table indices the live windows hold, and the origin side of every operation: a
 * staging area in the node's shared arena, bound once per target as a memory descriptor whose
 * counter counts the completions (acks or replies) of the operations aimed at that target, so
 * that a flush of one target waits for its operations alone. Origin data is packed into the staging area
 * (so the caller's buffer is free at once, as with a buffered send); results land there and are
 * copied to the caller's buffer when the operations complete. The area is reused from its start
 * once every operation in it has completed.
 *
 * <p>All of it is used under this object's monitor: the window calls of one instance run one at a
 * time (the library itself takes the engine's thread of control inside each call).
 */
final class WindowLibrary {
    /** Bytes of the staging area; a larger operation stages in memory of its own. */
    static final long STAGING = 1 << 20;
    /** Memory handed back by freed windows, by size, for the next allocation (the arena is not returned to the driver). */
    private final TreeMap<Long, List<MemorySegment>> pool = new TreeMap<>();

    /** Serializes the window calls of this instance; a request's poll only tries it (it may run in a handler). */
    final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
    final Ferry ferry;
    final PortalsLibrary ptl;
    final NiHandle ni;
    final long maxAtomic;
    /** The target of each job rank, made once (operations name it). */
    final ProcessId[] ids;
    /** Portal table indices held by live windows. */
    private final boolean[] ptTaken;

    final MemorySegment staging;
    /** Per target job rank, made when first aimed at: its operations' counter, and the staging area bound with it. */
    private final CtHandle[] cts;
    private final MdHandle[] mds;
    /** Per target: operations issued, and failures already reported. */
    private final long[] issuedTo, failuresSeenTo;
    /**
     * Per target: the failures its counter showed when last read, and {@link #issuedTo} when all
     * its operations were last known complete with their results copied out (requests read both).
     */
    private final long[] failuresReadTo, doneTo;
    /** The targets that have a counter, in the order they got it. */
    private final int[] touched;
    private int touchedCount;
    /** Bytes of the staging area in use by operations not yet known complete. */
    private long used;
    /** Operations issued so far, to every target. */
    private long issued;
    /** Failures already reported, of every target. */
    private long failuresSeen;
    /** Work to do once the operations in flight have completed: results to copy out, memory to release. */
    private final List<Runnable> onQuiet = new ArrayList<>();
    /** Windows' lock words: 8 bytes each, in one page of shared-arena memory, by slot. */
    private final MemorySegment lockPage;
    private final boolean[] lockTaken = new boolean[512];

    private WindowLibrary(Ferry ferry) {
        this.ferry = ferry;
        this.ptl = PortalsLibrary.host(ferry.engine);
        ferry.messaging.hostLibrary(ptl);
        try {
            NiInitResult r = ptl.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null);
            this.ni = r.niHandle();
            this.maxAtomic = r.actual().maxAtomicSize;
            this.ptTaken = new boolean[r.actual().maxPtIndex + 1];
            this.ids = new ProcessId[ferry.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = ProcessId.ofRank(i);
            }
            this.staging = ptl.memAlloc(STAGING);
            this.cts = new CtHandle[ids.length];
            this.mds = new MdHandle[ids.length];
            this.issuedTo = new long[ids.length];
            this.failuresSeenTo = new long[ids.length];
            this.failuresReadTo = new long[ids.length];
            this.doneTo = new long[ids.length];
            this.touched = new int[ids.length];
            this.lockPage = ptl.memAlloc(8L * lockTaken.length);
        } catch (RuntimeException e) {
            ptl.close();
            ferry.messaging.hostLibrary(null);
            throw e;
        }
    }

    /** The instance's window library, hosted now if this is its first window. */
    static WindowLibrary of(Ferry f) {
        synchronized (f.creation) {
            if (f.windows == null) {
                f.windows = new WindowLibrary(f);
            }
            return f.windows;
        }
    }

    MdHandle bind(MemorySegment m, CtHandle counter) {
        Md d = new Md();
        d.start = m;
        d.length = m.byteSize();
        d.options = MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY | MD_EVENT_SUCCESS_DISABLE | MD_EVENT_SEND_DISABLE;
        d.ctHandle = counter;
        return ptl.mdBind(ni, d);
    }

    // ---- portal table indices ---------------------------------------------------------------

    /** This rank's free indices as a bit set (a bit set: free), for the creating ranks to agree on one. */
    long[] freePts() {
        long[] bits = new long[(ptTaken.length + 63) / 64];
        for (int i = 0; i < ptTaken.length; i++) {
            if (!ptTaken[i]) {
                bits[i >>> 6] |= 1L << (i & 63);
            }
        }
        return bits;
    }

    int takePt(int index) {
        ptTaken[index] = true;
        return ptl.ptAlloc(ni, 0, EQ_NONE, index);
    }

    void releasePt(int index) {
        ptl.ptFree(ni, index);
        ptTaken[index] = false;
    }

    // ---- memory -------------------------------------------------------------------------------

    /**
     * At least {@code bytes} (and 8) of zeroed memory from the shared arena, reusing a freed
     * window's when one of up to twice the size is there; the caller slices it and hands the
     * whole back to {@link #release}.
     */
    MemorySegment allocate(long bytes) {
        long want = Math.max(bytes, 8);
        var e = pool.ceilingEntry(want);
        if (e != null && e.getKey() <= 2 * want) {
            MemorySegment m = e.getValue().removeLast();
            if (e.getValue().isEmpty()) {
                pool.remove(e.getKey());
            }
            m.fill((byte) 0);
            return m;
        }
        return ptl.memAlloc(want);
    }

    /** Takes back what {@link #allocate} answered. */
    void release(MemorySegment whole) {
        pool.computeIfAbsent(whole.byteSize(), k -> new ArrayList<>()).add(whole);
    }

    /** A free lock word (zero), by slot. */
    int takeLock() {
        for (int i = 0; i < lockTaken.length; i++) {
            if (!lockTaken[i]) {
                lockTaken[i] = true;
                lockPage.set(java.lang.foreign.ValueLayout.JAVA_LONG, 8L * i, 0);
                return i;
            }
        }
        throw new FerryException(ErrorClass.NO_SPACE, "more than " + lockTaken.length / 2 + " windows live at once");
    }

    MemorySegment lockWord(int slot) {
        return lockPage.asSlice(8L * slot, 8);
    }

    void releaseLock(int slot) {
        lockTaken[slot] = false;
    }

    // ---- origin staging and completion -------------------------------------------------------

    /** From this size on, contiguous off-heap origin memory is used in place (bound for the operation) rather than staged. */
    static final long IN_PLACE = 64 * 1024;

    /** Where the operation being issued has its origin side, and its target: set by {@link #stage} or {@link #inPlace}. */
    MdHandle opMd;
    MemorySegment opMem;
    long opOff;
    private int opTarget;

    /** The counter of {@code target}'s operations, made with the staging area's binding on first use. */
    private CtHandle counter(int target) {
        if (cts[target] == null) {
            CtHandle c = ptl.ctAlloc(ni);
            mds[target] = bind(staging, c);
            cts[target] = c;
            touched[touchedCount++] = target;
        }
        return cts[target];
    }

    /**
     * {@code bytes} of staging memory (8-aligned) for one operation to {@code target}:
     * {@link #opMd}, {@link #opMem} and {@link #opOff} say where. Waits for the operations in
     * flight when the area is full; an operation larger than the whole area gets memory of its own.
     */
    void stage(long bytes, ProcessId target) {
        opTarget = target.rank;
        CtHandle ct = counter(opTarget);
        if (bytes > STAGING) {
            java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared();
            MemorySegment m = arena.allocate(bytes, 8);
            MdHandle h = bind(m, ct);
            whenQuiet(() -> {
                ptl.mdRelease(h);
                arena.close();
            });
            opMd = h;
            opMem = m;
            opOff = 0;
            return;
        }
        long need = (bytes + 7) & ~7L;
        if (used + need > STAGING) {
            quiesce();
        }
        opMd = mds[opTarget];
        opMem = staging;
        opOff = used;
        used += need;
    }

    /** The operation to {@code target} works on {@code user}'s memory in place (large, contiguous, off-heap): bound until it completes. */
    void inPlace(MemorySegment user, ProcessId target) {
        opTarget = target.rank;
        MdHandle h = bind(user, counter(opTarget));
        whenQuiet(() -> ptl.mdRelease(h));
        opMd = h;
        opMem = user;
        opOff = 0;
    }

    // results to copy out at the next quiescence, without a lambda per operation
    private MemorySegment[] outFrom = new MemorySegment[16];
    private long[] outAt = new long[16];
    private MemorySegment[] outTo = new MemorySegment[16];
    private long[] outCount = new long[16];
    private Datatype[] outType = new Datatype[16];
    private int[] outTarget = new int[16];
    private int outs;

    /** Copies {@code count} packed elements at {@code from[at..]} into {@code to} as {@code type} lays them out, once complete. */
    void copyOut(MemorySegment from, long at, MemorySegment to, long count, Datatype type) {
        if (outs == outTo.length) {
            int n = 2 * outs;
            outFrom = java.util.Arrays.copyOf(outFrom, n);
            outAt = java.util.Arrays.copyOf(outAt, n);
            outTo = java.util.Arrays.copyOf(outTo, n);
            outCount = java.util.Arrays.copyOf(outCount, n);
            outType = java.util.Arrays.copyOf(outType, n);
            outTarget = java.util.Arrays.copyOf(outTarget, n);
        }
        outFrom[outs] = from;
        outAt[outs] = at;
        outTo[outs] = to;
        outCount[outs] = count;
        outType[outs] = type;
        outTarget[outs] = opTarget;
        outs++;
    }

    /** Copies out the results of the operations to {@code target} (every target: -1), keeping the others' in order. */
    private void copyOuts(int target) {
        int kept = 0;
        for (int i = 0; i < outs; i++) {
            if (target < 0 || outTarget[i] == target) {
                unpack(outFrom[i], outAt[i], outTo[i], outCount[i], outType[i]);
            } else {
                outFrom[kept] = outFrom[i];
                outAt[kept] = outAt[i];
                outTo[kept] = outTo[i];
                outCount[kept] = outCount[i];
                outType[kept] = outType[i];
                outTarget[kept] = outTarget[i];
                kept++;
            }
        }
        for (int i = kept; i < outs; i++) {
            outFrom[i] = null;
            outTo[i] = null;
            outType[i] = null;
        }
        outs = kept;
    }

    /** Packs {@code count} elements of {@code type} from {@code from} into {@code to[at..]}. */
    static void pack(MemorySegment from, long count, Datatype type, MemorySegment to, long at) {
        long bytes = count * type.size;
        if (type.contiguous) {
            MemorySegment.copy(from, 0, to, at, bytes);
        } else {
            CollBuffer.pack(from, count, type, to.asSlice(at, bytes));
        }
    }

    /** Unpacks {@code count} packed elements at {@code from[at..]} into {@code to} as {@code type} lays them out. */
    static void unpack(MemorySegment from, long at, MemorySegment to, long count, Datatype type) {
        long bytes = count * type.size;
        if (type.contiguous) {
            MemorySegment.copy(from, at, to, 0, bytes);
        } else {
            CollBuffer.unpack(from.asSlice(at, bytes), to, count, type);
        }
    }

    /** A swap's operand of {@code size} bytes (1, 2, 4, 8 or 24), reused: the library reads it during the call. */
    MemorySegment operand(int size) {
        return operands[size];
    }

    private final MemorySegment[] operands = new MemorySegment[25];

    {
        MemorySegment all = java.lang.foreign.Arena.ofAuto().allocate(24, 8);
        for (int size : new int[] {1, 2, 4, 8, 24}) {
            operands[size] = all.asSlice(0, size);
        }
    }

    /**
     * Operations completed, successfully or not, to every target (a progress pass for each target
     * whose operations have not all completed); the counters' events do not escape, so it costs
     * no garbage.
     */
    private long completed() {
        long done = 0, failed = 0;
        for (int i = 0; i < touchedCount; i++) {
            CtEvent c = ptl.ctGetToward(cts[touched[i]], issuedTo[touched[i]]);
            failed += c.failure();
            done += c.success() + c.failure();
            failuresReadTo[touched[i]] = c.failure();
        }
        failures = failed;
        return done;
    }

    /**
     * Operations to {@code target} completed, successfully or not; its failures go to
     * {@link #targetFailures}. A progress pass when not all of them have (and now and then anyway).
     */
    private long completed(int target) {
        CtEvent c = ptl.ctGetToward(cts[target], issuedTo[target]);
        targetFailures = c.failure();
        failuresReadTo[target] = targetFailures;
        return c.success() + c.failure();
    }

    /** The counters' failures at their last reading: all of them, one target's. */
    private long failures, targetFailures;

    /** A request for the last operation issued: complete once every operation to its target issued so far is. */
    Request request(String what) {
        return new RmaRequest(ferry.messaging, this, opTarget, issuedTo[opTarget], failuresReadTo[opTarget], what);
    }

    /**
     * Whether the operations to {@code target} up to {@code ticket} (its count of operations
     * issued) have completed, their results copied out; tries to find out (a progress pass) when
     * the lock is free. Null: not yet. Failed when its target's counter shows failures beyond
     * {@code failuresBefore} (read before the request's operation): other targets' failures are
     * not its own.
     */
    Status poll(int target, long ticket, long failuresBefore, String what) {
        if (!lock.tryLock()) {
            return null;
        }
        try {
            if (doneTo[target] < ticket) {
                if (completed(target) < issuedTo[target]) {
                    return null;
                }
                targetDone(target);
            }
            long failed = failuresReadTo[target] - failuresBefore;
            if (failed <= 0) {
                return RmaRequest.DONE;
            }
            String dead = ferry.messaging.failures();
            return Status.failed(Ferry.ANY_SOURCE, Ferry.ANY_TAG, dead == null ? ErrorClass.RMA_ATTACH : ErrorClass.PROC_FAILED,
                    what + ": " + failed + " operation" + (failed == 1 ? "" : "s") + " to it failed" + (dead == null ? "" : ": " + dead));
        } finally {
            lock.unlock();
        }
    }

    /** Every operation issued to {@code target} has completed: its results out, and its requests free to complete. */
    private void targetDone(int target) {
        copyOuts(target);
        doneTo[target] = issuedTo[target];
    }

    /** {@code n} more operations to the target of the last {@link #stage} or {@link #inPlace} are counted. */
    void issued(int n) {
        issued += n;
        issuedTo[opTarget] += n;
    }

    /** Runs {@code r} once every operation issued so far has completed. */
    void whenQuiet(Runnable r) {
        onQuiet.add(r);
    }

    /**
     * Waits until every operation issued has completed (acked, or its reply arrived), then copies
     * results out and resets the staging area. A failed operation (its target died) is an error
     * naming how many failed.
     */
    void quiesce() {
        awaitCompleted(-1);
        settle();
    }

    /**
     * Waits until the operations issued to {@code target} (a job rank; -1: to every target) have
     * completed, reading their counters as {@link #completed(int)} or {@link #completed()} does.
     */
    private void awaitCompleted(int target) {
        if (completedAll(target)) {
            return;
        }
        long start = System.nanoTime(), waited = 0;
        for (int round = 1; !completedAll(target); round++) {
            ferry.engine.idleStrategy().idle(waited);
            if (dev.ferry.spi.IdleStrategy.DEFAULT.clockDue(round, waited)) { // not on every pass: the clock costs as much as one
                waited = System.nanoTime() - start;
            }
        }
    }

    private boolean completedAll(int target) {
        return target < 0 ? completed() >= issued : completed(target) >= issuedTo[target];
    }

    /** Every operation issued has completed ({@link #failures} read): results out, the staging area reset, failures reported. */
    private void settle() {
        used = 0;
        copyOuts(-1);
        for (int i = 0; i < touchedCount; i++) {
            doneTo[touched[i]] = issuedTo[touched[i]];
        }
        if (!onQuiet.isEmpty()) {
            for (Runnable r : onQuiet) {
                r.run();
            }
            onQuiet.clear();
        }
        if (failures > failuresSeen) {
            long n = failures - failuresSeen;
            failuresSeen = failures;
            for (int i = 0; i < touchedCount; i++) { // reported here: not again at a flush of one of them
                failuresSeenTo[touched[i]] = ptl.ctGet(cts[touched[i]]).failure();
            }
            throwFailed(n);
        }
    }

    /**
     * Waits until every operation issued to {@code target} (a job rank) has completed and copies
     * their results out; the operations to other targets go on. A failed one is an error, as in
     * {@link #quiesce}.
     */
    void flush(int target) {
        if (cts[target] == null) {
            return; // nothing was ever aimed at it
        }
        awaitCompleted(target);
        if (touchedCount == 1) { // its operations are all there are
            failures = targetFailures;
            settle();
            return;
        }
        if ((!onQuiet.isEmpty() || used > STAGING / 2) && completed() >= issued) {
            settle(); // nothing else in flight either: let go of what waits for that, reset the staging area
            return;
        }
        targetDone(target);
        if (targetFailures > failuresSeenTo[target]) {
            long n = targetFailures - failuresSeenTo[target];
            failuresSeenTo[target] = targetFailures;
            failuresSeen += n; // reported here: not again at the next quiescence
            throwFailed(n);
        }
    }

    private void throwFailed(long n) {
        String dead = ferry.messaging.failures();
        if (dead == null) { // nobody died: the target had nothing there any more
            throw new FerryException(ErrorClass.RMA_ATTACH, n + " one-sided operation" + (n == 1 ? "" : "s")
                    + " found no memory at the target (detached from a dynamic window, or the window freed there)");
        }
        throw new FerryException(ErrorClass.PROC_FAILED, n + " one-sided operation" + (n == 1 ? "" : "s") + " failed: " + dead);
    }

    /** Ends the hosted library (Ferry's close, after its peers have met). */
    void close() {
        ferry.messaging.hostLibrary(null);
        ptl.close();
    }
}
