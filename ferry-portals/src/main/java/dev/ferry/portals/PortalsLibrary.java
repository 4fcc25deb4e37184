package dev.ferry.portals;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.request.MessageHandler;

import java.lang.foreign.MemorySegment;

import static dev.ferry.portals.Arguments.*;
import static dev.ferry.portals.Portals.*;

/**
 * One Portals 4 library: the calls of {@link Portals} on an object of their own, so that several
 * libraries, each with its own configuration, live in one JVM (the ranks of an in-process job, a
 * library per test). Every Portals call is an instance method here with the specification's
 * parameters in its order; handles belong to the library that made them, and a handle given to
 * another library is ARG_INVALID. Once {@link #fini()} (or {@link #close()}) ran, every call
 * answers NO_INIT. {@link Portals} is the C-like view of the process's default instance.
 * The calls come in families, each in a file of its own: this class holds the library's life,
 * network interfaces, portal table entries, memory descriptors, list entries and bundles; its
 * superclasses {@link EventCalls} (event queues, counting events) and {@link MovementCalls} (data
 * movement, triggered operations).
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
public final class PortalsLibrary extends MovementCalls implements AutoCloseable {
    // ---- the library ------------------------------------------------------------------------
    private final Object lifecycle = new Object();
    private long barrierEpoch;

    private PortalsLibrary(Library lib) {
        super(lib);
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
