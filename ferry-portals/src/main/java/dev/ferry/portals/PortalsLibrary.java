package dev.ferry.portals;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.request.MessageHandler;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;

import static dev.ferry.portals.Arguments.*;
import static dev.ferry.portals.Portals.*;

/**
 * One Portals 4 library: the calls of {@link Portals} on an object of their own, so that several
 * libraries, each with its own configuration, live in one JVM (the ranks of an in-process job, a
 * library per test). Every Portals call is an instance method here with the specification's
 * parameters in its order; handles belong to the library that made them, and a handle given to
 * another library is ARG_INVALID. Once {@link #fini()} (or {@link #close()}) ran, every call
 * answers NO_INIT. {@link Portals} is the C-like view of the process's default instance.
 *
 * <p>Every call checks its arguments, then reaches the library through one dispatch (seed 003's
 * forward -> lib_dispatch), which runs it in the calling thread or, with progress
 * {@code THREAD}, on the engine's progress thread. A process serves its peers (answers their
 * gets, applies their atomics) whenever it is inside a call, in particular while it waits, and
 * with a progress thread at any time. Processes are the job's ranks: a process's pid is its
 * rank, its nid the index of its node.
 *
 * <pre>{@code
 * import static dev.ferry.portals.Arguments.*;
import static dev.ferry.portals.Portals.*;   // the constants
 *
 * InProcessJob.run(4, Duration.ofMinutes(1), boot -> {
 *     try (PortalsLibrary ptl = PortalsLibrary.open(new PortalsConfig().bootstrap(boot))) {
 *         NiHandle ni = ptl.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
 *         int pt = ptl.ptAlloc(ni, 0, EQ_NONE, PT_ANY);
 *         // ... meAppend, put, get, ctWait as with Portals.* ...
 *         ptl.barrier();
 *     }
 * });
 * }</pre>
 */
public final class PortalsLibrary implements AutoCloseable {
    // ---- the library ------------------------------------------------------------------------
    private final Object lifecycle = new Object();
    /** The library while open; null once closed (every call then answers NO_INIT). */
    private volatile Library lib;
    /** Resolves and checks the handles a call is given. */
    private final Handles handles = new Handles(this);
    /** Checks and starts (or prepares, for later or a trigger) the data-movement operations. */
    private final Operations ops = new Operations(handles);
    private long barrierEpoch;

    private PortalsLibrary(Library lib) {
        this.lib = lib;
    }

    /**
     * PtlInit for one library: starts it as {@code config} says (collective: every rank of the
     * configuration's job opens one). A failure to start is a {@link PtlException} (FAIL) saying why.
     */
    public static PortalsLibrary open(PortalsConfig config) {
        try {
            return new PortalsLibrary(new Library(config, new Library.MessageHandlerSlot()));
        } catch (RuntimeException e) {
            throw e instanceof PtlException p ? p : new PtlException(ReturnCode.FAIL, "the engine did not start: " + e.getMessage(), e);
        }
    }

    /**
     * Extension: a library over an engine another layer owns and drives (the application API,
     * whose windows ride this library), sharing its connections, its progress and its thread of
     * control. The host hands {@link #handler()} every message for which
     * {@link #isLibraryMessage} holds, every peer failure and every progress pass. Not
     * collective; the host sees that a peer's library exists before sending it anything. Its
     * {@link #fini()} does not meet the other ranks (the host does, when it closes) and leaves
     * the engine open.
     *
     * <pre>{@code
     * PortalsLibrary ptl = PortalsLibrary.host(engine);   // then: if (isLibraryMessage(m.header())) ptl.handler().onMessage(m)
     * }</pre>
     */
    public static PortalsLibrary host(Engine engine) {
        try {
            return new PortalsLibrary(new Library(engine, null));
        } catch (RuntimeException e) {
            throw e instanceof PtlException p ? p : new PtlException(ReturnCode.FAIL, "the library did not start: " + e.getMessage(), e);
        }
    }

    /** Whether an engine header word is one of a library's messages (see {@link #host}). */
    public static boolean isLibraryMessage(long header) {
        return (header & PtlWire.LIBRARY) != 0;
    }

    /** Where a host routes the library's messages, peer failures and progress passes (see {@link #host}). */
    public MessageHandler handler() {
        return lib();
    }

    /**
     * Extension: the program is active in the library's host (a hosted library's passive-progress
     * thread then keeps out of its way, as it does while the program calls the library itself).
     */
    public void touch() {
        Library l = lib;
        if (l != null) {
            l.dispatch.touch();
        }
    }

    /** The library from the launcher's environment ({@code new PortalsConfig()}). */
    public static PortalsLibrary open() {
        return open(new PortalsConfig());
    }

    Library lib() {
        Library l = lib;
        if (l == null) {
            throw new PtlException(ReturnCode.NO_INIT, "the Portals library is finalized (fini / close)");
        }
        return l;
    }

    /** This process's rank in the library's job. */
    public int rank() {
        return lib().rank;
    }

    /** The number of ranks in the library's job. */
    public int size() {
        return lib().size;
    }

    /**
     * PtlFini for this library: first meets every rank in fini (serving their operations while it
     * waits, so nobody is left without an answer), then closes the engine. A rank that failed does
     * not hold the others up, and a {@link #barrier()} that a rank in fini will never enter fails
     * at once at every rank waiting in it (a rank that threw and finalizes does not leave the
     * others waiting). Every call after it answers NO_INIT.
     */
    public void fini() {
        synchronized (lifecycle) {
            Library l = lib();
            if (l.hosted) {
                try {
                    l.dispatch.call(l.directory::close); // the host met its peers: none works on our memory any more
                    waitFor(l, () -> l.quiet() || l.failure() != null, 30_000);
                } finally {
                    l.dispatch.stop();
                    lib = null;
                }
                return;
            }
            try {
                l.dispatch.call(() -> {
                    l.barriers.enterFini();
                    return null;
                });
                waitFor(l, () -> l.barriers.finiDone() || l.failure() != null, -1);
                l.dispatch.call(l.directory::close); // every rank is here: none serves itself on our memory any more
                waitFor(l, () -> l.quiet() || l.failure() != null, 30_000);
                l.dispatch.stop();
                l.engine.close();
            } finally {
                l.dispatch.stop(); // also when fini failed: nothing of the library's runs on
                lib = null;
            }
        }
    }

    /** {@link #fini()}, unless it was called already. */
    @Override
    public void close() {
        synchronized (lifecycle) {
            if (lib != null) {
                fini();
            }
        }
    }

    /**
     * Extension (not a Portals call; like {@code MPI_Alloc_mem}): {@code length} bytes of zeroed,
     * page-aligned memory for memory descriptors and list entries, valid until the last
     * {@link #fini()}. It comes from the local driver's shared arena where there is one (shm), so:
     * large transfers from and into it are a single memcpy, and a same-node peer reaches an entry
     * on it directly, a load, store or atomic instruction with no message and no help from this
     * process, when the entry asks nothing of this process (persistent, no communication events
     * or counts; see {@code docs/architecture.md}). Elsewhere it is ordinary off-heap memory.
     *
     * <pre>{@code
     * MemorySegment window = memAlloc(1 << 20);
     * Me me = new Me();
     * me.start = window; me.length = window.byteSize();
     * me.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE;   // on a portal entry without EQ
     * meAppend(ni, pt, me, PRIORITY_LIST, null);   // same-node peers now put, get and add here directly
     * }</pre>
     */
    public MemorySegment memAlloc(long length) {
        Library l = lib();
        if (length <= 0) {
            throw Library.invalid("memAlloc: length must be positive, not " + length);
        }
        return l.dispatch.call(() -> l.engine.memory().allocate(length));
    }

    /**
     * Extension (not a Portals call): how many operations this process has done directly on
     * same-node peers' shared memory since init (see {@link #memAlloc}); the rest went by message.
     *
     * <pre>{@code
     * long before = directOps();
     * put(md, 0, 8, ACK_REQ, peer, pt, bits, 0, null, 0);
     * boolean wasDirect = directOps() > before;
     * }</pre>
     */
    public long directOps() {
        Library l = lib();
        return l.dispatch.call(() -> l.direct.done);
    }

    /**
     * Extension (not a Portals call; the reference implementation's tests use their runtime's
     * barrier the same way): waits until every rank called it, serving peers meanwhile.
     */
    public void barrier() {
        barrier(lib());
    }

    private void barrier(Library l) {
        long epoch;
        synchronized (lifecycle) {
            epoch = ++barrierEpoch;
        }
        l.dispatch.call(() -> {
            l.barriers.enterBarrier(epoch);
            return null;
        });
        if (!waitFor(l, () -> l.barriers.barrierDone(epoch) || l.failure() != null, -1) || !l.barriers.barrierDone(epoch)) {
            throw new PtlException(ReturnCode.FAIL, "barrier: " + l.failure());
        }
        String failed = l.barriers.barrierFailure(epoch);
        if (failed != null) {
            throw new PtlException(ReturnCode.FAIL, "barrier: " + failed);
        }
    }

    /**
     * Waits until {@code done} holds, making progress meanwhile (caller mode), up to {@code timeoutMs}
     * (TIME_FOREVER: no limit); false when the time ran out.
     */
    private boolean waitFor(Library l, BooleanSupplier done, long timeoutMs) {
        if (l.dispatch.poll(done)) {
            return true; // no clock read when nothing needs waiting for
        }
        long start = System.nanoTime();
        long deadline = timeoutMs < 0 ? Long.MAX_VALUE : start + timeoutMs * 1_000_000L;
        long idleSince = start;
        long now = start;
        for (int round = 1; ; round++) {
            if (l.dispatch.poll(done)) {
                return true;
            }
            if (dev.ferry.spi.IdleStrategy.DEFAULT.clockDue(round, now - idleSince)) {
                now = System.nanoTime();
                if (timeoutMs >= 0 && now - deadline >= 0) {
                    return false;
                }
            }
            if (l.dispatch.worked) {
                idleSince = now; // serving peers: stay responsive
            }
            l.engine.idle(now - idleSince, timeoutMs < 0 ? Long.MAX_VALUE : deadline - now);
        }
    }

    /** PtlHandleIsEqual: whether two handles name the same object (two NONE handles of one kind are equal). */
    public static boolean handleIsEqual(Handle handle1, Handle handle2) {
        if (handle1 == handle2) {
            return true;
        }
        if (handle1 == null || handle2 == null) {
            return false;
        }
        return handle1.getClass() == handle2.getClass() && handle1.target == handle2.target;
    }

    // ---- network interfaces -----------------------------------------------------------------

    /**
     * PtlNIInit: a network interface: matching or not ({@code NI_MATCHING} / {@code NI_NO_MATCHING}),
     * logical or physical ({@code NI_LOGICAL} / {@code NI_PHYSICAL}). A second call for the same
     * kind answers the same interface (counted). {@code pid}: PID_ANY or this process's pid (its rank).
     */
    public NiInitResult niInit(int iface, int options, int pid, NiLimits desired) {
        Library l = lib();
        if (iface != IFACE_DEFAULT && iface != 0) {
            throw Library.invalid("interface " + Integer.toUnsignedString(iface) + ": there is one interface, 0 (IFACE_DEFAULT)");
        }
        boolean m = (options & NI_MATCHING) != 0, nm = (options & NI_NO_MATCHING) != 0;
        boolean lg = (options & NI_LOGICAL) != 0, ph = (options & NI_PHYSICAL) != 0;
        if (m == nm || lg == ph || (options & ~15) != 0) {
            throw Library.invalid("options " + Integer.toHexString(options) + ": exactly one of NI_MATCHING / NI_NO_MATCHING and one of NI_LOGICAL / NI_PHYSICAL");
        }
        return l.dispatch.call(() -> l.interfaces.niInit(options, pid, desired));
    }

    /** PtlNIFini: releases a network interface (the last of as many calls as niInit had). */
    public void niFini(NiHandle niHandle) {
        Ni ni = handles.ni(niHandle);
        lib().dispatch.call(() -> ni.lib.interfaces.niFini(ni));
    }

    /** PtlNIHandle: the network interface an object belongs to. */
    public NiHandle niHandle(Handle handle) {
        lib();
        if (handle == null || handle.target == null) {
            throw Library.invalid("not a handle of an object: " + handle);
        }
        Object t = handle.target;
        Ni ni = t instanceof Ni n ? n : t instanceof MemDesc d ? d.ni : t instanceof ListEntry e ? e.ni
                : t instanceof EventQueue q ? q.ni : ((Counter) t).ni;
        return handles.ni(ni.handle).handle;
    }

    /** PtlNIStatus: a status register (SR_DROP_COUNT, SR_PERMISSIONS_VIOLATIONS, SR_OPERATION_VIOLATIONS). */
    public int niStatus(NiHandle niHandle, int statusRegister) {
        Ni ni = handles.ni(niHandle);
        if (statusRegister < 0 || statusRegister >= ni.status.length) {
            throw Library.invalid("status register " + statusRegister + " (0.." + (ni.status.length - 1) + ")");
        }
        return lib().dispatch.call(() -> ni.status[statusRegister]);
    }

    /** PtlSetMap: the logical ranks' physical ids (seed 003's gidrid2nidpid); logical interfaces only. */
    public void setMap(NiHandle niHandle, int mapSize, ProcessId[] mapping) {
        Ni ni = handles.ni(niHandle);
        if (mapping == null || mapSize <= 0 || mapSize > mapping.length) {
            throw Library.invalid("map_size " + mapSize + " with a mapping of " + (mapping == null ? "null" : mapping.length + " entries"));
        }
        lib().dispatch.call(() -> ni.lib.interfaces.setMap(ni, mapping, mapSize));
    }

    /** PtlGetMap: up to {@code mapSize} entries of the map and its actual size. */
    public GetMapResult getMap(NiHandle niHandle, int mapSize) {
        Ni ni = handles.ni(niHandle);
        if (mapSize < 0) {
            throw Library.invalid("map_size " + mapSize);
        }
        return lib().dispatch.call(() -> ni.lib.interfaces.getMap(ni, mapSize));
    }

    /** PtlGetUid: the user id of this process. */
    public int getUid(NiHandle niHandle) {
        return handles.ni(niHandle).lib.uid;
    }

    /** PtlGetId: this process's id on the interface (its rank on a logical one, nid / pid on a physical one). */
    public ProcessId getId(NiHandle niHandle) {
        Ni ni = handles.ni(niHandle);
        return lib().dispatch.call(() -> ni.lib.idOf(ni, ni.lib.rank));
    }

    /** PtlGetPhysId: this process's physical id (nid, pid). */
    public ProcessId getPhysId(NiHandle niHandle) {
        Ni ni = handles.ni(niHandle);
        ProcessId p = ProcessId.ofPhys(ni.lib.nid[ni.lib.rank], ni.lib.rank);
        return p;
    }

    // ---- portal table -----------------------------------------------------------------------

    /** PtlPTAlloc: a portal table entry, {@code ptIndexReq} or the lowest free one (PT_ANY). */
    public int ptAlloc(NiHandle niHandle, int options, EqHandle eqHandle, int ptIndexReq) {
        Ni ni = handles.ni(niHandle);
        if ((options & ~(PT_ONLY_USE_ONCE | PT_ONLY_TRUNCATE | PT_FLOWCTRL)) != 0) {
            throw Library.invalid("portal table options " + Integer.toHexString(options));
        }
        EventQueue q = handles.eq(eqHandle, ni, true);
        return lib().dispatch.call(() -> ni.lib.interfaces.ptAlloc(ni, options, q, ptIndexReq));
    }

    /** PtlPTFree. */
    public void ptFree(NiHandle niHandle, int ptIndex) {
        Ni ni = handles.ni(niHandle);
        lib().dispatch.call(() -> ni.lib.interfaces.ptFree(ni, ptIndex));
    }

    /** PtlPTDisable: messages to the entry are dropped (NI_PT_DISABLED) until it is enabled. */
    public void ptDisable(NiHandle niHandle, int ptIndex) {
        Ni ni = handles.ni(niHandle);
        lib().dispatch.call(() -> ni.lib.interfaces.ptEnable(ni, ptIndex, false));
    }

    /** PtlPTEnable (also after flow control disabled it). */
    public void ptEnable(NiHandle niHandle, int ptIndex) {
        Ni ni = handles.ni(niHandle);
        lib().dispatch.call(() -> ni.lib.interfaces.ptEnable(ni, ptIndex, true));
    }

    // ---- memory descriptors -----------------------------------------------------------------

    /** PtlMDBind: describes initiator memory; it is registered with the drivers that need it (seed 003's validate). */
    public MdHandle mdBind(NiHandle niHandle, Md md) {
        Ni ni = handles.ni(niHandle);
        if (md == null) {
            throw Library.invalid("md is null");
        }
        if ((md.options & ~MD_ALL) != 0) {
            throw Library.invalid("memory descriptor options " + Integer.toHexString(md.options));
        }
        Region r = Region.of("md", md.start, md.length, md.iovecs, (md.options & IOVEC) != 0, ni.limits.maxIovecs);
        EventQueue q = handles.eq(md.eqHandle, ni, true);
        Counter c = handles.ct(md.ctHandle, ni, true);
        int options = md.options;
        return lib().dispatch.call(() -> ni.lib.interfaces.mdBind(ni, r, options, q, c));
    }

    /** PtlMDRelease: IN_USE while operations through it are in flight. */
    public void mdRelease(MdHandle mdHandle) {
        MemDesc d = handles.md(mdHandle);
        lib().dispatch.call(() -> d.ni.lib.interfaces.mdRelease(d));
    }

    // ---- list entries -----------------------------------------------------------------------

    private PtEntry ptOf(Ni ni, int ptIndex) {
        return lib().dispatch.call(() -> ni.lib.interfaces.pt(ni, ptIndex));
    }

    /** PtlMEAppend: a match list entry on a matching interface's priority or overflow list. */
    public MeHandle meAppend(NiHandle niHandle, int ptIndex, Me me, ListKind ptlList, Object userPtr) {
        return (MeHandle) appendEntry(niHandle, ptIndex, me, ptlList, userPtr, false);
    }

    /** PtlLEAppend: a list entry on a non-matching interface's priority or overflow list. */
    public LeHandle leAppend(NiHandle niHandle, int ptIndex, Le le, ListKind ptlList, Object userPtr) {
        return (LeHandle) appendEntry(niHandle, ptIndex, le, ptlList, userPtr, false);
    }

    /** PtlMESearch: looks for unexpected headers matching {@code me}; reports EVENT_SEARCH on the entry's queue. */
    public void meSearch(NiHandle niHandle, int ptIndex, Me me, SearchOp ptlSearchOp, Object userPtr) {
        searchEntry(niHandle, ptIndex, me, ptlSearchOp, userPtr);
    }

    /** PtlLESearch. */
    public void leSearch(NiHandle niHandle, int ptIndex, Le le, SearchOp ptlSearchOp, Object userPtr) {
        searchEntry(niHandle, ptIndex, le, ptlSearchOp, userPtr);
    }

    private void searchEntry(NiHandle niHandle, int ptIndex, Object entry, SearchOp op, Object userPtr) {
        if (op == null) {
            throw Library.invalid("ptl_search_op is null");
        }
        Ni ni = handles.ni(niHandle);
        ListEntry probe = build(ni, ptIndex, entry, ListKind.PRIORITY_LIST, userPtr, true);
        ni.lib.dispatch.call(() -> ni.lib.lists.search(probe, op, userPtr));
    }

    private Handle appendEntry(NiHandle niHandle, int ptIndex, Object entry, ListKind list, Object userPtr, boolean probe) {
        Ni ni = handles.ni(niHandle);
        if (list == null) {
            throw Library.invalid("ptl_list is null");
        }
        ListEntry e = build(ni, ptIndex, entry, list, userPtr, probe);
        return ni.lib.dispatch.call(() -> ni.lib.lists.append(ni, ptIndex, e));
    }

    /** Checks an ME or LE against the interface and the portal table entry, and builds the library's entry. */
    private ListEntry build(Ni ni, int ptIndex, Object entry, ListKind list, Object userPtr, boolean probe) {
        if (entry == null) {
            throw Library.invalid((ni.matching ? "me" : "le") + " is null");
        }
        if (entry instanceof Me && !ni.matching || entry instanceof Le && ni.matching) {
            throw Library.invalid((ni.matching ? "a matching interface takes MEs (meAppend)" : "a non-matching interface takes LEs (leAppend)"));
        }
        PtEntry pt = ptOf(ni, ptIndex);
        ListEntry e;
        if (entry instanceof Me me) {
            if ((me.options & ~ME_ALL) != 0) {
                throw Library.invalid("match list entry options " + Integer.toHexString(me.options));
            }
            Region r = probe ? Region.EMPTY : Region.of("me", me.start, me.length, me.iovecs, (me.options & IOVEC) != 0, ni.limits.maxIovecs);
            if (me.matchId == null) {
                throw Library.invalid("me.matchId is null");
            }
            if (ni.logical && me.matchId.rank != RANK_ANY && (me.matchId.rank < 0 || me.matchId.rank >= ni.map.length)) {
                throw Library.invalid("me.matchId rank " + me.matchId.rank + " is outside the map (size " + ni.map.length + ")");
            }
            if (me.minFree < 0) {
                throw Library.invalid("me.minFree " + me.minFree);
            }
            e = new ListEntry(ni, pt, true, r, handles.ct(me.ctHandle, ni, true), me.uid, me.options, me.matchId.copy(), me.matchBits, me.ignoreBits,
                    me.minFree, userPtr, list);
        } else {
            Le le = (Le) entry;
            if ((le.options & ~LE_ALL) != 0) {
                throw Library.invalid("list entry options " + Integer.toHexString(le.options));
            }
            Region r = probe ? Region.EMPTY : Region.of("le", le.start, le.length, le.iovecs, (le.options & IOVEC) != 0, ni.limits.maxIovecs);
            e = new ListEntry(ni, pt, false, r, handles.ct(le.ctHandle, ni, true), le.uid, le.options, ProcessId.ofRank(RANK_ANY), 0, 0, 0, userPtr, list);
        }
        return e;
    }

    /** PtlMEUnlink: IN_USE while an operation still moves data into or out of it. */
    public void meUnlink(MeHandle meHandle) {
        ListEntry e = handles.entry(meHandle, "match list entry");
        lib().dispatch.call(() -> e.ni.lib.lists.unlink(e));
    }

    /** PtlLEUnlink. */
    public void leUnlink(LeHandle leHandle) {
        ListEntry e = handles.entry(leHandle, "list entry");
        lib().dispatch.call(() -> e.ni.lib.lists.unlink(e));
    }

    // ---- event queues -----------------------------------------------------------------------

    /** PtlEQAlloc: an event queue of {@code count} events. */
    public EqHandle eqAlloc(NiHandle niHandle, long count) {
        Ni ni = handles.ni(niHandle);
        if (count <= 0) {
            throw Library.invalid("event queue count " + count + " (must be positive)");
        }
        return lib().dispatch.call(() -> ni.lib.interfaces.eqAlloc(ni, count));
    }

    /** PtlEQFree: IN_USE while a portal table entry uses it. */
    public void eqFree(EqHandle eqHandle) {
        EventQueue q = handles.eq(eqHandle, null, false);
        lib().dispatch.call(() -> q.ni.lib.interfaces.eqFree(q));
    }

    private EqResult take(EventQueue q, int which) {
        Event e = q.poll();
        if (e == null) {
            return null;
        }
        return new EqResult(q.takeDropped() ? ReturnCode.EQ_DROPPED : ReturnCode.OK, e, which);
    }

    /** PtlEQGet: the next event, or EQ_EMPTY (makes progress once). */
    public EqResult eqGet(EqHandle eqHandle) {
        EventQueue q = handles.eq(eqHandle, null, false);
        Library l = lib();
        l.dispatch.poll(() -> !q.isEmpty());
        EqResult r = take(q, 0);
        return r != null ? r : new EqResult(ReturnCode.EQ_EMPTY, null, 0);
    }

    /** PtlEQWait: waits for the next event; INTERRUPTED when the queue is freed or its interface finalized meanwhile. */
    public EqResult eqWait(EqHandle eqHandle) {
        EventQueue q = handles.eq(eqHandle, null, false);
        Library l = lib();
        waitFor(l, () -> !q.isEmpty() || q.freed || q.ni.closed, -1);
        EqResult r = take(q, 0);
        if (r == null) {
            throw new PtlException(ReturnCode.INTERRUPTED, "eqWait: the event queue was freed or its interface finalized");
        }
        return r;
    }

    /**
     * PtlEQPoll: the next event of any of the first {@code size} queues, waiting up to
     * {@code timeout} ms (TIME_FOREVER: no limit; 0: look once); EQ_EMPTY when none came.
     */
    public EqResult eqPoll(EqHandle[] eqHandles, int size, int timeout) {
        lib();
        if (eqHandles == null || size <= 0 || size > eqHandles.length) {
            throw Library.invalid("size " + size + " with " + (eqHandles == null ? "no" : eqHandles.length) + " event queue handles");
        }
        EventQueue[] qs = new EventQueue[size];
        for (int i = 0; i < size; i++) {
            qs[i] = handles.eq(eqHandles[i], null, false);
        }
        Library l = lib();
        waitFor(l, () -> {
            for (EventQueue q : qs) {
                if (!q.isEmpty()) {
                    return true;
                }
            }
            return false;
        }, timeout);
        for (int i = 0; i < size; i++) {
            EqResult r = take(qs[i], i);
            if (r != null) {
                return r;
            }
        }
        return new EqResult(ReturnCode.EQ_EMPTY, null, 0);
    }

    // ---- counting events --------------------------------------------------------------------

    /** PtlCTAlloc: a counting event at {0, 0}. */
    public CtHandle ctAlloc(NiHandle niHandle) {
        Ni ni = handles.ni(niHandle);
        return lib().dispatch.call(() -> ni.lib.interfaces.ctAlloc(ni));
    }

    /** PtlCTFree (its pending triggered operations are dropped). */
    public void ctFree(CtHandle ctHandle) {
        Counter c = handles.ct(ctHandle, null, false);
        lib().dispatch.call(() -> c.ni.lib.interfaces.ctFree(c));
    }

    /** PtlCTCancelTriggered: drops the triggered operations waiting on this counting event. */
    public void ctCancelTriggered(CtHandle ctHandle) {
        Counter c = handles.ct(ctHandle, null, false);
        lib().dispatch.call(() -> c.cancelTriggered());
    }

    /** PtlCTGet (makes progress once). */
    public CtEvent ctGet(CtHandle ctHandle) {
        Counter c = handles.ct(ctHandle, null, false);
        lib().dispatch.poll(() -> false);
        return c.event();
    }

    /**
     * Extension (not a Portals call): {@link #ctGet} for a waiter on {@code total}, the success
     * and failure counts together. It makes a progress pass as a wait's poll does: when the counts
     * fall short of the total, and every 8th call anyway (a process whose operations complete at
     * once still serves its peers); ctGet makes one on every call.
     *
     * <pre>{@code
     * while (ptl.ctGetToward(ct, issued).success() < issued) { ... }   // failures ended it too
     * }</pre>
     */
    public CtEvent ctGetToward(CtHandle ctHandle, long total) {
        Counter c = handles.ct(ctHandle, null, false);
        lib().dispatch.pollTotal(c, total);
        return c.event();
    }

    /**
     * PtlCTWait: waits until the success count reaches {@code test} or the failure count is not
     * zero; INTERRUPTED when the counting event is freed meanwhile.
     */
    public CtEvent ctWait(CtHandle ctHandle, long test) {
        Counter c = handles.ct(ctHandle, null, false);
        CounterReached w = CounterReached.take(c, test);
        try {
            waitFor(lib(), w, -1);
        } finally {
            w.release();
        }
        if (c.freed) {
            throw new PtlException(ReturnCode.INTERRUPTED, "ctWait: the counting event was freed");
        }
        return c.event();
    }

    /**
     * PtlCTPoll: waits up to {@code timeout} ms until one of the first {@code size} counting
     * events reaches its test (or fails); CT_NONE_REACHED when none did.
     */
    public CtResult ctPoll(CtHandle[] ctHandles, long[] tests, int size, int timeout) {
        lib();
        if (ctHandles == null || tests == null || size <= 0 || size > ctHandles.length || size > tests.length) {
            throw Library.invalid("size " + size + " with " + (ctHandles == null ? "no" : ctHandles.length) + " handles and "
                    + (tests == null ? "no" : tests.length) + " tests");
        }
        Counter[] cs = new Counter[size];
        for (int i = 0; i < size; i++) {
            cs[i] = handles.ct(ctHandles[i], null, false);
        }
        int[] which = {-1};
        waitFor(lib(), () -> {
            for (int i = 0; i < size; i++) {
                if (cs[i].success >= tests[i] || cs[i].failure != 0) {
                    which[0] = i;
                    return true;
                }
            }
            return false;
        }, timeout);
        if (which[0] < 0) {
            return new CtResult(ReturnCode.CT_NONE_REACHED, null, 0);
        }
        return new CtResult(ReturnCode.OK, cs[which[0]].event(), which[0]);
    }

    /** PtlCTSet (fires the triggered operations it reaches). */
    public void ctSet(CtHandle ctHandle, CtEvent newCt) {
        Counter c = handles.ct(ctHandle, null, false);
        checkCt(newCt);
        lib().dispatch.call(() -> {
            c.set(newCt.success(), newCt.failure());
            return null;
        });
    }

    /** PtlCTInc (fires the triggered operations it reaches). */
    public void ctInc(CtHandle ctHandle, CtEvent increment) {
        Counter c = handles.ct(ctHandle, null, false);
        checkCt(increment);
        if (increment.success() != 0 && increment.failure() != 0) {
            throw Library.invalid("ctInc: increment success or failure, not both (" + increment + ")");
        }
        lib().dispatch.call(() -> {
            c.add(increment.success(), increment.failure());
            return null;
        });
    }

    // ---- data movement ----------------------------------------------------------------------

    /** PtlPut. */
    public void put(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                           long remoteOffset, Object userPtr, long hdrData) {
        awaitRoom();
        Dispatch d = enter(); // in this thread when it may, no lambda made: see enter()
        try { later(ops.put(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, d != null)); } finally { leave(d); }
    }

    /**
     * The dispatch, when this thread may run a data operation in the library itself now (caller
     * mode: the lock is then held; thread mode: this is the progress thread), else null;
     * {@link #leave} after. Then the operation is started straight from its *Op method, and no
     * lambda is made: a lambda handed to {@link Dispatch#call} is only elided when the JIT inlines
     * everything between, and one call site shared by every API call sees too many kinds to inline
     * any (about 100 B per put once puts, gets and atomics are mixed).
     */
    private Dispatch enter() {
        Dispatch d = lib().dispatch;
        return d.enter() ? d : null;
    }

    /**
     * Back-pressure: while too much waits to leave (a target that takes nothing), a new operation
     * waits, making progress, for room: the initiator's memory stays bounded instead of
     * queueing without end (and so does the target's: the engine's credits). A dead target's
     * operations fail and make room.
     */
    private void awaitRoom() {
        Library l = lib();
        if (l.sender.crowded()) {
            waitFor(l, () -> !l.sender.crowded(), -1);
        }
    }

    /**
     * Extension (not a Portals call): the most inline messages that ever waited to leave at once,
     * and the bound past which operations wait for room.
     */
    public int[] inflightPeakAndBound() {
        Library l = lib();
        return l.dispatch.call(() -> new int[] {l.sender.inflightPeak(), l.sender.maxInflight()});
    }

    /** Ends what {@link #enter} began (nothing when it answered null). */
    private void leave(Dispatch entered) {
        if (entered != null) {
            entered.leave();
        }
    }

    /** Runs {@code r} through the dispatch, unless the operation was done at once (null). */
    private void later(Runnable r) {
        if (r != null) {
            run(r);
        }
    }

    private void run(Runnable r) {
        lib().dispatch.call(() -> {
            r.run();
            return null;
        });
    }


    /** PtlGet. */
    public void get(MdHandle mdHandle, long localOffset, long length, ProcessId targetId, int ptIndex, long matchBits,
                           long remoteOffset, Object userPtr) {
        awaitRoom();
        Dispatch d = enter();
        try { later(ops.get(mdHandle, localOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, d != null)); } finally { leave(d); }
    }


    /** PtlAtomic: {@code operation} (MIN .. BXOR) of the MD's elements into the target's. */
    public void atomic(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                              long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype) {
        awaitRoom();
        Dispatch d = enter();
        try { later(ops.atomic(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype, d != null)); } finally { leave(d); }
    }


    /** PtlFetchAtomic: like atomic, and the target's old values come back into the get MD. */
    public void fetchAtomic(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length, ProcessId targetId,
                                   int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype) {
        awaitRoom();
        Dispatch d = enter();
        try { later(ops.fetch(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype, d != null)); } finally { leave(d); }
    }


    /**
     * PtlSwap: SWAP, the CSWAPs and MSWAP with {@code operand} (one element: the compare value, or
     * MSWAP's mask), and the extensions MSK_CSWAP (operand: compare, compare mask, swap mask) and
     * MFETCH_ADD (operand: field boundaries); the old values come back into the get MD.
     */
    public void swap(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length, ProcessId targetId,
                            int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, MemorySegment operand, Op operation, Datatype datatype) {
        awaitRoom();
        Dispatch d = enter();
        try { later(ops.swap(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operand, operation, datatype, d != null)); } finally { leave(d); }
    }


    /** PtlAtomicSync: atomics here are applied by the library, coherent with the host once their events are seen; nothing to flush. */
    public void atomicSync() {
        lib();
    }

    // ---- triggered operations ---------------------------------------------------------------

    private void trigger(CtHandle trigCtHandle, long threshold, Ni ni, Runnable action) {
        Counter c = handles.ct(trigCtHandle, ni, false);
        if (threshold < 0) {
            throw Library.invalid("threshold " + threshold);
        }
        Runnable guarded = () -> {
            try {
                action.run();
            } catch (PtlException e) {
                System.getLogger(Portals.class.getName()).log(System.Logger.Level.WARNING, "a triggered operation failed when it fired: " + e.getMessage());
            }
        };
        lib().dispatch.call(() -> c.ni.lib.interfaces.trigger(c, threshold, guarded));
    }

    /** PtlTriggeredPut: the put runs when {@code trigCtHandle}'s success count reaches {@code threshold}. */
    public void triggeredPut(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                                    long remoteOffset, Object userPtr, long hdrData, CtHandle trigCtHandle, long threshold) {
        Runnable r = ops.put(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, false);
        trigger(trigCtHandle, threshold, handles.md(mdHandle).ni, r);
    }

    /** PtlTriggeredGet. */
    public void triggeredGet(MdHandle mdHandle, long localOffset, long length, ProcessId targetId, int ptIndex, long matchBits,
                                    long remoteOffset, Object userPtr, CtHandle trigCtHandle, long threshold) {
        Runnable r = ops.get(mdHandle, localOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, false);
        trigger(trigCtHandle, threshold, handles.md(mdHandle).ni, r);
    }

    /** PtlTriggeredAtomic. */
    public void triggeredAtomic(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                                       long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype, CtHandle trigCtHandle, long threshold) {
        Runnable r = ops.atomic(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype, false);
        trigger(trigCtHandle, threshold, handles.md(mdHandle).ni, r);
    }

    /** PtlTriggeredFetchAtomic. */
    public void triggeredFetchAtomic(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length,
                                            ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData,
                                            Op operation, Datatype datatype, CtHandle trigCtHandle, long threshold) {
        Runnable r = ops.fetch(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype, false);
        trigger(trigCtHandle, threshold, handles.md(putMdHandle).ni, r);
    }

    /** PtlTriggeredSwap. */
    public void triggeredSwap(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length,
                                     ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData,
                                     MemorySegment operand, Op operation, Datatype datatype, CtHandle trigCtHandle, long threshold) {
        Runnable r = ops.swap(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operand, operation, datatype, false);
        trigger(trigCtHandle, threshold, handles.md(putMdHandle).ni, r);
    }

    /** PtlTriggeredCTInc: increments {@code ctHandle} when {@code trigCtHandle} reaches {@code threshold}. */
    public void triggeredCtInc(CtHandle ctHandle, CtEvent increment, CtHandle trigCtHandle, long threshold) {
        Counter c = handles.ct(ctHandle, null, false);
        checkCt(increment);
        trigger(trigCtHandle, threshold, c.ni, () -> {
            if (!c.freed) {
                c.add(increment.success(), increment.failure());
            }
        });
    }

    /** PtlTriggeredCTSet. */
    public void triggeredCtSet(CtHandle ctHandle, CtEvent newCt, CtHandle trigCtHandle, long threshold) {
        Counter c = handles.ct(ctHandle, null, false);
        checkCt(newCt);
        trigger(trigCtHandle, threshold, c.ni, () -> {
            if (!c.freed) {
                c.set(newCt.success(), newCt.failure());
            }
        });
    }

    // ---- bundles ----------------------------------------------------------------------------

    /** PtlStartBundle: a hint that several operations follow (the engine aggregates queued small messages anyway). */
    public void startBundle(NiHandle niHandle) {
        Ni ni = handles.ni(niHandle);
        lib().dispatch.call(() -> ni.bundles++);
    }

    /** PtlEndBundle: ARG_INVALID without a matching startBundle. */
    public void endBundle(NiHandle niHandle) {
        Ni ni = handles.ni(niHandle);
        lib().dispatch.call(() -> {
            if (ni.bundles == 0) {
                throw Library.invalid("endBundle without startBundle");
            }
            return ni.bundles--;
        });
    }
}
