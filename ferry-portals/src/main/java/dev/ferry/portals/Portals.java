package dev.ferry.portals;

import dev.ferry.core.engine.Engine;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;

/**
 * The Portals 4 API in Java (the API side of seed 003): one static method per Portals call,
 * named without the {@code Ptl} prefix in lowerCamelCase, with the specification's parameters in
 * its order; handles are objects, output parameters are return values, return codes that are
 * ordinary outcomes ({@code EQ_EMPTY}, {@code EQ_DROPPED}, {@code CT_NONE_REACHED}) are
 * returned and every failure is a {@link PtlException} carrying its {@link ReturnCode}. The
 * constants keep the specification's names without {@code PTL_}; {@code import static
 * dev.ferry.portals.Portals.*} brings calls and constants in, so a C program ports line by line.
 *
 * <p>Every call checks its arguments, then reaches the library through one dispatch (seed 003's
 * forward -> lib_dispatch), which runs it in the calling thread or, with
 * {@code FERRY_PROGRESS=thread}, on the engine's progress thread. In the default caller mode a
 * process serves its peers (answers their gets, applies their atomics) whenever it is inside a
 * Portals call, and in particular while it waits; {@link #fini()} waits for every rank, serving
 * them meanwhile. Processes are the job's ranks: a process's pid is its rank, its nid the index
 * of its node.
 *
 * <pre>{@code
 * import static dev.ferry.portals.Portals.*;
 *
 * init();
 * NiHandle ni = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
 * int pt = ptAlloc(ni, 0, EQ_NONE, PT_ANY);
 * CtHandle ct = ctAlloc(ni);
 * Me me = new Me();
 * me.start = window; me.length = window.byteSize(); me.ctHandle = ct;
 * me.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_CT_COMM; me.matchBits = 42;
 * meAppend(ni, pt, me, PRIORITY_LIST, null);
 * // ... peers put into the window ...
 * ctWait(ct, 3);               // three puts arrived
 * fini();
 * }</pre>
 */
public final class Portals {
    private Portals() {
    }

    // ---- constants --------------------------------------------------------------------------
    /** The structure's start is an array of iovecs (Java: its {@code iovecs} field). */
    public static final int IOVEC = 1;
    public static final int IFACE_DEFAULT = -1;
    public static final int PID_ANY = -1;
    public static final int NID_ANY = -1;
    public static final int RANK_ANY = -1;
    public static final int UID_ANY = -1;
    public static final int PT_ANY = -1;
    /** Wait without a time limit (eqPoll, ctPoll). */
    public static final int TIME_FOREVER = -1;
    public static final EqHandle EQ_NONE = EqHandle.NONE;
    public static final CtHandle CT_NONE = CtHandle.NONE;
    public static final Handle INVALID_HANDLE = new Handle.Invalid();

    public static final int NI_MATCHING = 1;
    public static final int NI_NO_MATCHING = 2;
    public static final int NI_LOGICAL = 4;
    public static final int NI_PHYSICAL = 8;

    /** A hint (portals4.h): the entries will all be use-once. Not checked; the reference's own tests append others. */
    public static final int PT_ONLY_USE_ONCE = 1;
    /** A hint (portals4.h): no priority-list entry will have NO_TRUNCATE. Not checked. */
    public static final int PT_ONLY_TRUNCATE = 2;
    public static final int PT_FLOWCTRL = 4;

    public static final int SR_DROP_COUNT = 0;
    public static final int SR_PERMISSIONS_VIOLATIONS = 1;
    public static final int SR_OPERATION_VIOLATIONS = 2;

    public static final int TARGET_BIND_INACCESSIBLE = 1;
    public static final int TOTAL_DATA_ORDERING = 2;
    public static final int COHERENT_ATOMIC = 4;

    public static final int ME_OP_PUT = 1 << 1;
    public static final int ME_OP_GET = 1 << 2;
    public static final int ME_USE_ONCE = 1 << 3;
    public static final int ME_ACK_DISABLE = 1 << 4;
    public static final int ME_UNEXPECTED_HDR_DISABLE = 1 << 5;
    /** A hint: the memory stays accessible to the program while linked (always so here). */
    public static final int ME_IS_ACCESSIBLE = 1 << 6;
    public static final int ME_EVENT_COMM_DISABLE = 1 << 7;
    public static final int ME_EVENT_FLOWCTRL_DISABLE = 1 << 8;
    public static final int ME_EVENT_SUCCESS_DISABLE = 1 << 9;
    public static final int ME_EVENT_OVER_DISABLE = 1 << 10;
    public static final int ME_EVENT_UNLINK_DISABLE = 1 << 11;
    public static final int ME_EVENT_LINK_DISABLE = 1 << 12;
    public static final int ME_EVENT_CT_COMM = 1 << 13;
    public static final int ME_EVENT_CT_OVERFLOW = 1 << 14;
    public static final int ME_EVENT_CT_BYTES = 1 << 15;
    public static final int ME_MANAGE_LOCAL = 1 << 16;
    public static final int ME_NO_TRUNCATE = 1 << 17;
    /** A hint: the target may align locally managed offsets (it does not here). */
    public static final int ME_MAY_ALIGN = 1 << 18;
    private static final int ME_ALL = (1 << 19) - 1;

    public static final int LE_OP_PUT = ME_OP_PUT;
    public static final int LE_OP_GET = ME_OP_GET;
    public static final int LE_USE_ONCE = ME_USE_ONCE;
    public static final int LE_ACK_DISABLE = ME_ACK_DISABLE;
    public static final int LE_UNEXPECTED_HDR_DISABLE = ME_UNEXPECTED_HDR_DISABLE;
    public static final int LE_IS_ACCESSIBLE = ME_IS_ACCESSIBLE;
    public static final int LE_EVENT_COMM_DISABLE = ME_EVENT_COMM_DISABLE;
    public static final int LE_EVENT_FLOWCTRL_DISABLE = ME_EVENT_FLOWCTRL_DISABLE;
    public static final int LE_EVENT_SUCCESS_DISABLE = ME_EVENT_SUCCESS_DISABLE;
    public static final int LE_EVENT_OVER_DISABLE = ME_EVENT_OVER_DISABLE;
    public static final int LE_EVENT_UNLINK_DISABLE = ME_EVENT_UNLINK_DISABLE;
    public static final int LE_EVENT_LINK_DISABLE = ME_EVENT_LINK_DISABLE;
    public static final int LE_EVENT_CT_COMM = ME_EVENT_CT_COMM;
    public static final int LE_EVENT_CT_OVERFLOW = ME_EVENT_CT_OVERFLOW;
    public static final int LE_EVENT_CT_BYTES = ME_EVENT_CT_BYTES;
    private static final int LE_ALL = ME_ALL & ~(ME_MANAGE_LOCAL | ME_NO_TRUNCATE | ME_MAY_ALIGN);

    public static final int MD_EVENT_SUCCESS_DISABLE = 1 << 1;
    public static final int MD_EVENT_SEND_DISABLE = 1 << 2;
    public static final int MD_EVENT_CT_SEND = 1 << 3;
    public static final int MD_EVENT_CT_REPLY = 1 << 4;
    public static final int MD_EVENT_CT_ACK = 1 << 5;
    public static final int MD_EVENT_CT_BYTES = 1 << 6;
    /** A hint: operations through this MD need not be ordered (they are anyway). */
    public static final int MD_UNORDERED = 1 << 7;
    /** The MD's memory may change as soon as a call returns: the data is copied at the call (up to max_volatile_size). */
    public static final int MD_VOLATILE = 1 << 8;
    private static final int MD_ALL = (1 << 9) - 1;

    // ListKind
    public static final ListKind PRIORITY_LIST = ListKind.PRIORITY_LIST;
    public static final ListKind OVERFLOW_LIST = ListKind.OVERFLOW_LIST;
    // SearchOp
    public static final SearchOp SEARCH_ONLY = SearchOp.SEARCH_ONLY;
    public static final SearchOp SEARCH_DELETE = SearchOp.SEARCH_DELETE;
    // AckReq
    public static final AckReq ACK_REQ = AckReq.ACK_REQ;
    public static final AckReq NO_ACK_REQ = AckReq.NO_ACK_REQ;
    public static final AckReq CT_ACK_REQ = AckReq.CT_ACK_REQ;
    public static final AckReq OC_ACK_REQ = AckReq.OC_ACK_REQ;
    // EventKind
    public static final EventKind EVENT_GET = EventKind.EVENT_GET;
    public static final EventKind EVENT_GET_OVERFLOW = EventKind.EVENT_GET_OVERFLOW;
    public static final EventKind EVENT_PUT = EventKind.EVENT_PUT;
    public static final EventKind EVENT_PUT_OVERFLOW = EventKind.EVENT_PUT_OVERFLOW;
    public static final EventKind EVENT_ATOMIC = EventKind.EVENT_ATOMIC;
    public static final EventKind EVENT_ATOMIC_OVERFLOW = EventKind.EVENT_ATOMIC_OVERFLOW;
    public static final EventKind EVENT_FETCH_ATOMIC = EventKind.EVENT_FETCH_ATOMIC;
    public static final EventKind EVENT_FETCH_ATOMIC_OVERFLOW = EventKind.EVENT_FETCH_ATOMIC_OVERFLOW;
    public static final EventKind EVENT_REPLY = EventKind.EVENT_REPLY;
    public static final EventKind EVENT_SEND = EventKind.EVENT_SEND;
    public static final EventKind EVENT_ACK = EventKind.EVENT_ACK;
    public static final EventKind EVENT_PT_DISABLED = EventKind.EVENT_PT_DISABLED;
    public static final EventKind EVENT_LINK = EventKind.EVENT_LINK;
    public static final EventKind EVENT_AUTO_UNLINK = EventKind.EVENT_AUTO_UNLINK;
    public static final EventKind EVENT_AUTO_FREE = EventKind.EVENT_AUTO_FREE;
    public static final EventKind EVENT_SEARCH = EventKind.EVENT_SEARCH;
    // NiFail
    public static final NiFail NI_OK = NiFail.NI_OK;
    public static final NiFail NI_UNDELIVERABLE = NiFail.NI_UNDELIVERABLE;
    public static final NiFail NI_PT_DISABLED = NiFail.NI_PT_DISABLED;
    public static final NiFail NI_DROPPED = NiFail.NI_DROPPED;
    public static final NiFail NI_PERM_VIOLATION = NiFail.NI_PERM_VIOLATION;
    public static final NiFail NI_OP_VIOLATION = NiFail.NI_OP_VIOLATION;
    public static final NiFail NI_SEGV = NiFail.NI_SEGV;
    public static final NiFail NI_NO_MATCH = NiFail.NI_NO_MATCH;
    // Op
    public static final Op MIN = Op.MIN;
    public static final Op MAX = Op.MAX;
    public static final Op SUM = Op.SUM;
    public static final Op PROD = Op.PROD;
    public static final Op LOR = Op.LOR;
    public static final Op LAND = Op.LAND;
    public static final Op BOR = Op.BOR;
    public static final Op BAND = Op.BAND;
    public static final Op LXOR = Op.LXOR;
    public static final Op BXOR = Op.BXOR;
    public static final Op SWAP = Op.SWAP;
    public static final Op CSWAP = Op.CSWAP;
    public static final Op CSWAP_NE = Op.CSWAP_NE;
    public static final Op CSWAP_LE = Op.CSWAP_LE;
    public static final Op CSWAP_LT = Op.CSWAP_LT;
    public static final Op CSWAP_GE = Op.CSWAP_GE;
    public static final Op CSWAP_GT = Op.CSWAP_GT;
    public static final Op MSWAP = Op.MSWAP;
    public static final Op MSK_CSWAP = Op.MSK_CSWAP;
    public static final Op MFETCH_ADD = Op.MFETCH_ADD;
    // Datatype
    public static final Datatype INT8_T = Datatype.INT8_T;
    public static final Datatype UINT8_T = Datatype.UINT8_T;
    public static final Datatype INT16_T = Datatype.INT16_T;
    public static final Datatype UINT16_T = Datatype.UINT16_T;
    public static final Datatype INT32_T = Datatype.INT32_T;
    public static final Datatype UINT32_T = Datatype.UINT32_T;
    public static final Datatype INT64_T = Datatype.INT64_T;
    public static final Datatype UINT64_T = Datatype.UINT64_T;
    public static final Datatype FLOAT = Datatype.FLOAT;
    public static final Datatype FLOAT_COMPLEX = Datatype.FLOAT_COMPLEX;
    public static final Datatype DOUBLE = Datatype.DOUBLE;
    public static final Datatype DOUBLE_COMPLEX = Datatype.DOUBLE_COMPLEX;
    public static final Datatype LONG_DOUBLE = Datatype.LONG_DOUBLE;
    public static final Datatype LONG_DOUBLE_COMPLEX = Datatype.LONG_DOUBLE_COMPLEX;

    // ---- the library ------------------------------------------------------------------------
    private static final Object INIT = new Object();
    private static volatile Library lib;
    private static int initCount;
    private static long barrierEpoch;

    static Library lib() {
        Library l = lib;
        if (l == null) {
            throw new PtlException(ReturnCode.NO_INIT, "Portals is not initialized: call init() first");
        }
        return l;
    }

    /**
     * PtlInit: starts the library (the engine, from the launcher's environment) on the first
     * call; later calls count. Collective on the first call: every rank of the job calls it.
     */
    public static void init() {
        synchronized (INIT) {
            if (initCount++ == 0) {
                try {
                    lib = new Library(new Library.MessageHandlerSlot());
                } catch (RuntimeException e) {
                    initCount = 0;
                    throw e instanceof PtlException p ? p : new PtlException(ReturnCode.FAIL, "the engine did not start: " + e.getMessage());
                }
            }
        }
    }

    /**
     * PtlFini: the last of as many calls as {@link #init()} had closes the library. It first meets
     * every rank in fini (serving their operations while it waits, so nobody is left without an
     * answer), then closes the engine. A rank that failed does not hold the others up, and a
     * {@link #barrier()} that a rank in fini will never enter fails at once at every rank waiting
     * in it (a rank that threw and finalizes does not leave the others waiting).
     */
    public static void fini() {
        synchronized (INIT) {
            Library l = lib();
            if (--initCount > 0) {
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
                l.engine.close();
            } finally {
                lib = null;
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
    public static MemorySegment memAlloc(long length) {
        if (length <= 0) {
            throw Library.invalid("memAlloc: length must be positive, not " + length);
        }
        Library l = lib();
        return l.dispatch.call(() -> l.engine.allocate(length));
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
    public static long directOps() {
        Library l = lib();
        return l.dispatch.call(() -> l.direct.done);
    }

    /**
     * Extension (not a Portals call; the reference implementation's tests use their runtime's
     * barrier the same way): waits until every rank called it, serving peers meanwhile.
     */
    public static void barrier() {
        barrier(lib());
    }

    private static void barrier(Library l) {
        long epoch;
        synchronized (INIT) {
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
    private static boolean waitFor(Library l, BooleanSupplier done, long timeoutMs) {
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
            if (Engine.clockDue(round, now - idleSince)) {
                now = System.nanoTime();
                if (timeoutMs >= 0 && now - deadline >= 0) {
                    return false;
                }
            }
            if (l.dispatch.worked) {
                idleSince = now; // serving peers: stay responsive
            }
            Engine.backoff(now - idleSince);
        }
    }

    // ---- handles ----------------------------------------------------------------------------

    private static Ni ni(NiHandle h) {
        if (h == null || h.target == null) {
            throw Library.invalid("the network interface handle is " + (h == null ? "null" : "not a network interface"));
        }
        Ni ni = (Ni) h.target;
        if (ni.closed || ni.lib != lib()) {
            throw Library.invalid("the network interface was finalized (niFini)");
        }
        return ni;
    }

    private static MemDesc md(MdHandle h) {
        if (h == null || h.target == null) {
            throw Library.invalid("the memory descriptor handle is null");
        }
        MemDesc d = (MemDesc) h.target;
        if (d.freed || d.ni.closed) {
            throw Library.invalid("the memory descriptor was released");
        }
        return d;
    }

    private static ListEntry entry(Handle h, String what) {
        if (h == null || h.target == null) {
            throw Library.invalid("the " + what + " handle is null");
        }
        ListEntry e = (ListEntry) h.target;
        if (e.ni.closed) {
            throw Library.invalid("the " + what + "'s network interface was finalized");
        }
        return e;
    }

    /** An event queue handle, or null for EQ_NONE; must belong to {@code ni} when given. */
    private static EventQueue eq(EqHandle h, Ni ni, boolean noneAllowed) {
        if (h == null) {
            throw Library.invalid("the event queue handle is null (use EQ_NONE)");
        }
        if (h.target == null) {
            if (!noneAllowed) {
                throw Library.invalid("EQ_NONE is not an event queue");
            }
            return null;
        }
        EventQueue q = (EventQueue) h.target;
        if (q.freed) {
            throw Library.invalid("the event queue was freed");
        }
        if (ni != null && q.ni != ni) {
            throw Library.invalid("the event queue belongs to the " + q.ni + ", not to the " + ni);
        }
        return q;
    }

    private static Counter ct(CtHandle h, Ni ni, boolean noneAllowed) {
        if (h == null) {
            throw Library.invalid("the counting event handle is null (use CT_NONE)");
        }
        if (h.target == null) {
            if (!noneAllowed) {
                throw Library.invalid("CT_NONE is not a counting event");
            }
            return null;
        }
        Counter c = (Counter) h.target;
        if (c.freed) {
            throw Library.invalid("the counting event was freed");
        }
        if (ni != null && c.ni != ni) {
            throw Library.invalid("the counting event belongs to the " + c.ni + ", not to the " + ni);
        }
        return c;
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
    public static NiInitResult niInit(int iface, int options, int pid, NiLimits desired) {
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
    public static void niFini(NiHandle niHandle) {
        Ni ni = ni(niHandle);
        lib().dispatch.call(() -> ni.lib.interfaces.niFini(ni));
    }

    /** PtlNIHandle: the network interface an object belongs to. */
    public static NiHandle niHandle(Handle handle) {
        if (handle == null || handle.target == null) {
            throw Library.invalid("not a handle of an object: " + handle);
        }
        Object t = handle.target;
        Ni ni = t instanceof Ni n ? n : t instanceof MemDesc d ? d.ni : t instanceof ListEntry e ? e.ni
                : t instanceof EventQueue q ? q.ni : ((Counter) t).ni;
        return ni(ni.handle).handle;
    }

    /** PtlNIStatus: a status register (SR_DROP_COUNT, SR_PERMISSIONS_VIOLATIONS, SR_OPERATION_VIOLATIONS). */
    public static int niStatus(NiHandle niHandle, int statusRegister) {
        Ni ni = ni(niHandle);
        if (statusRegister < 0 || statusRegister >= ni.status.length) {
            throw Library.invalid("status register " + statusRegister + " (0.." + (ni.status.length - 1) + ")");
        }
        return lib().dispatch.call(() -> ni.status[statusRegister]);
    }

    /** PtlSetMap: the logical ranks' physical ids (seed 003's gidrid2nidpid); logical interfaces only. */
    public static void setMap(NiHandle niHandle, int mapSize, ProcessId[] mapping) {
        Ni ni = ni(niHandle);
        if (mapping == null || mapSize <= 0 || mapSize > mapping.length) {
            throw Library.invalid("map_size " + mapSize + " with a mapping of " + (mapping == null ? "null" : mapping.length + " entries"));
        }
        lib().dispatch.call(() -> ni.lib.interfaces.setMap(ni, mapping, mapSize));
    }

    /** PtlGetMap: up to {@code mapSize} entries of the map and its actual size. */
    public static GetMapResult getMap(NiHandle niHandle, int mapSize) {
        Ni ni = ni(niHandle);
        if (mapSize < 0) {
            throw Library.invalid("map_size " + mapSize);
        }
        return lib().dispatch.call(() -> ni.lib.interfaces.getMap(ni, mapSize));
    }

    /** PtlGetUid: the user id of this process. */
    public static int getUid(NiHandle niHandle) {
        return ni(niHandle).lib.uid;
    }

    /** PtlGetId: this process's id on the interface (its rank on a logical one, nid / pid on a physical one). */
    public static ProcessId getId(NiHandle niHandle) {
        Ni ni = ni(niHandle);
        return lib().dispatch.call(() -> ni.lib.idOf(ni, ni.lib.rank));
    }

    /** PtlGetPhysId: this process's physical id (nid, pid). */
    public static ProcessId getPhysId(NiHandle niHandle) {
        Ni ni = ni(niHandle);
        ProcessId p = ProcessId.ofPhys(ni.lib.nid[ni.lib.rank], ni.lib.rank);
        return p;
    }

    // ---- portal table -----------------------------------------------------------------------

    /** PtlPTAlloc: a portal table entry, {@code ptIndexReq} or the lowest free one (PT_ANY). */
    public static int ptAlloc(NiHandle niHandle, int options, EqHandle eqHandle, int ptIndexReq) {
        Ni ni = ni(niHandle);
        if ((options & ~(PT_ONLY_USE_ONCE | PT_ONLY_TRUNCATE | PT_FLOWCTRL)) != 0) {
            throw Library.invalid("portal table options " + Integer.toHexString(options));
        }
        EventQueue q = eq(eqHandle, ni, true);
        return lib().dispatch.call(() -> ni.lib.interfaces.ptAlloc(ni, options, q, ptIndexReq));
    }

    /** PtlPTFree. */
    public static void ptFree(NiHandle niHandle, int ptIndex) {
        Ni ni = ni(niHandle);
        lib().dispatch.call(() -> ni.lib.interfaces.ptFree(ni, ptIndex));
    }

    /** PtlPTDisable: messages to the entry are dropped (NI_PT_DISABLED) until it is enabled. */
    public static void ptDisable(NiHandle niHandle, int ptIndex) {
        Ni ni = ni(niHandle);
        lib().dispatch.call(() -> ni.lib.interfaces.ptEnable(ni, ptIndex, false));
    }

    /** PtlPTEnable (also after flow control disabled it). */
    public static void ptEnable(NiHandle niHandle, int ptIndex) {
        Ni ni = ni(niHandle);
        lib().dispatch.call(() -> ni.lib.interfaces.ptEnable(ni, ptIndex, true));
    }

    // ---- memory descriptors -----------------------------------------------------------------

    /** PtlMDBind: describes initiator memory; it is registered with the drivers that need it (seed 003's validate). */
    public static MdHandle mdBind(NiHandle niHandle, Md md) {
        Ni ni = ni(niHandle);
        if (md == null) {
            throw Library.invalid("md is null");
        }
        if ((md.options & ~MD_ALL) != 0) {
            throw Library.invalid("memory descriptor options " + Integer.toHexString(md.options));
        }
        Region r = Region.of("md", md.start, md.length, md.iovecs, (md.options & IOVEC) != 0, ni.limits.maxIovecs);
        EventQueue q = eq(md.eqHandle, ni, true);
        Counter c = ct(md.ctHandle, ni, true);
        int options = md.options;
        return lib().dispatch.call(() -> ni.lib.interfaces.mdBind(ni, r, options, q, c));
    }

    /** PtlMDRelease: IN_USE while operations through it are in flight. */
    public static void mdRelease(MdHandle mdHandle) {
        MemDesc d = md(mdHandle);
        lib().dispatch.call(() -> d.ni.lib.interfaces.mdRelease(d));
    }

    // ---- list entries -----------------------------------------------------------------------

    private static PtEntry ptOf(Ni ni, int ptIndex) {
        return lib().dispatch.call(() -> ni.lib.interfaces.pt(ni, ptIndex));
    }

    /** PtlMEAppend: a match list entry on a matching interface's priority or overflow list. */
    public static MeHandle meAppend(NiHandle niHandle, int ptIndex, Me me, ListKind ptlList, Object userPtr) {
        return (MeHandle) appendEntry(niHandle, ptIndex, me, ptlList, userPtr, false);
    }

    /** PtlLEAppend: a list entry on a non-matching interface's priority or overflow list. */
    public static LeHandle leAppend(NiHandle niHandle, int ptIndex, Le le, ListKind ptlList, Object userPtr) {
        return (LeHandle) appendEntry(niHandle, ptIndex, le, ptlList, userPtr, false);
    }

    /** PtlMESearch: looks for unexpected headers matching {@code me}; reports EVENT_SEARCH on the entry's queue. */
    public static void meSearch(NiHandle niHandle, int ptIndex, Me me, SearchOp ptlSearchOp, Object userPtr) {
        searchEntry(niHandle, ptIndex, me, ptlSearchOp, userPtr);
    }

    /** PtlLESearch. */
    public static void leSearch(NiHandle niHandle, int ptIndex, Le le, SearchOp ptlSearchOp, Object userPtr) {
        searchEntry(niHandle, ptIndex, le, ptlSearchOp, userPtr);
    }

    private static void searchEntry(NiHandle niHandle, int ptIndex, Object entry, SearchOp op, Object userPtr) {
        if (op == null) {
            throw Library.invalid("ptl_search_op is null");
        }
        Ni ni = ni(niHandle);
        ListEntry probe = build(ni, ptIndex, entry, ListKind.PRIORITY_LIST, userPtr, true);
        ni.lib.dispatch.call(() -> ni.lib.lists.search(probe, op, userPtr));
    }

    private static Handle appendEntry(NiHandle niHandle, int ptIndex, Object entry, ListKind list, Object userPtr, boolean probe) {
        Ni ni = ni(niHandle);
        if (list == null) {
            throw Library.invalid("ptl_list is null");
        }
        ListEntry e = build(ni, ptIndex, entry, list, userPtr, probe);
        return ni.lib.dispatch.call(() -> ni.lib.lists.append(ni, ptIndex, e));
    }

    /** Checks an ME or LE against the interface and the portal table entry, and builds the library's entry. */
    private static ListEntry build(Ni ni, int ptIndex, Object entry, ListKind list, Object userPtr, boolean probe) {
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
            e = new ListEntry(ni, pt, true, r, ct(me.ctHandle, ni, true), me.uid, me.options, me.matchId.copy(), me.matchBits, me.ignoreBits,
                    me.minFree, userPtr, list);
        } else {
            Le le = (Le) entry;
            if ((le.options & ~LE_ALL) != 0) {
                throw Library.invalid("list entry options " + Integer.toHexString(le.options));
            }
            Region r = probe ? Region.EMPTY : Region.of("le", le.start, le.length, le.iovecs, (le.options & IOVEC) != 0, ni.limits.maxIovecs);
            e = new ListEntry(ni, pt, false, r, ct(le.ctHandle, ni, true), le.uid, le.options, ProcessId.ofRank(RANK_ANY), 0, 0, 0, userPtr, list);
        }
        return e;
    }

    /** PtlMEUnlink: IN_USE while an operation still moves data into or out of it. */
    public static void meUnlink(MeHandle meHandle) {
        ListEntry e = entry(meHandle, "match list entry");
        lib().dispatch.call(() -> e.ni.lib.lists.unlink(e));
    }

    /** PtlLEUnlink. */
    public static void leUnlink(LeHandle leHandle) {
        ListEntry e = entry(leHandle, "list entry");
        lib().dispatch.call(() -> e.ni.lib.lists.unlink(e));
    }

    // ---- event queues -----------------------------------------------------------------------

    /** PtlEQAlloc: an event queue of {@code count} events. */
    public static EqHandle eqAlloc(NiHandle niHandle, long count) {
        Ni ni = ni(niHandle);
        if (count <= 0) {
            throw Library.invalid("event queue count " + count + " (must be positive)");
        }
        return lib().dispatch.call(() -> ni.lib.interfaces.eqAlloc(ni, count));
    }

    /** PtlEQFree: IN_USE while a portal table entry uses it. */
    public static void eqFree(EqHandle eqHandle) {
        EventQueue q = eq(eqHandle, null, false);
        lib().dispatch.call(() -> q.ni.lib.interfaces.eqFree(q));
    }

    private static EqResult take(EventQueue q, int which) {
        Event e = q.poll();
        if (e == null) {
            return null;
        }
        return new EqResult(q.takeDropped() ? ReturnCode.EQ_DROPPED : ReturnCode.OK, e, which);
    }

    /** PtlEQGet: the next event, or EQ_EMPTY (makes progress once). */
    public static EqResult eqGet(EqHandle eqHandle) {
        EventQueue q = eq(eqHandle, null, false);
        Library l = lib();
        l.dispatch.poll(() -> !q.isEmpty());
        EqResult r = take(q, 0);
        return r != null ? r : new EqResult(ReturnCode.EQ_EMPTY, null, 0);
    }

    /** PtlEQWait: waits for the next event; INTERRUPTED when the queue is freed or its interface finalized meanwhile. */
    public static EqResult eqWait(EqHandle eqHandle) {
        EventQueue q = eq(eqHandle, null, false);
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
    public static EqResult eqPoll(EqHandle[] eqHandles, int size, int timeout) {
        if (eqHandles == null || size <= 0 || size > eqHandles.length) {
            throw Library.invalid("size " + size + " with " + (eqHandles == null ? "no" : eqHandles.length) + " event queue handles");
        }
        EventQueue[] qs = new EventQueue[size];
        for (int i = 0; i < size; i++) {
            qs[i] = eq(eqHandles[i], null, false);
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
    public static CtHandle ctAlloc(NiHandle niHandle) {
        Ni ni = ni(niHandle);
        return lib().dispatch.call(() -> ni.lib.interfaces.ctAlloc(ni));
    }

    /** PtlCTFree (its pending triggered operations are dropped). */
    public static void ctFree(CtHandle ctHandle) {
        Counter c = ct(ctHandle, null, false);
        lib().dispatch.call(() -> c.ni.lib.interfaces.ctFree(c));
    }

    /** PtlCTCancelTriggered: drops the triggered operations waiting on this counting event. */
    public static void ctCancelTriggered(CtHandle ctHandle) {
        Counter c = ct(ctHandle, null, false);
        lib().dispatch.call(() -> c.cancelTriggered());
    }

    /** PtlCTGet (makes progress once). */
    public static CtEvent ctGet(CtHandle ctHandle) {
        Counter c = ct(ctHandle, null, false);
        lib().dispatch.poll(() -> false);
        return c.event();
    }

    /**
     * PtlCTWait: waits until the success count reaches {@code test} or the failure count is not
     * zero; INTERRUPTED when the counting event is freed meanwhile.
     */
    public static CtEvent ctWait(CtHandle ctHandle, long test) {
        Counter c = ct(ctHandle, null, false);
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
    public static CtResult ctPoll(CtHandle[] ctHandles, long[] tests, int size, int timeout) {
        if (ctHandles == null || tests == null || size <= 0 || size > ctHandles.length || size > tests.length) {
            throw Library.invalid("size " + size + " with " + (ctHandles == null ? "no" : ctHandles.length) + " handles and "
                    + (tests == null ? "no" : tests.length) + " tests");
        }
        Counter[] cs = new Counter[size];
        for (int i = 0; i < size; i++) {
            cs[i] = ct(ctHandles[i], null, false);
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
    public static void ctSet(CtHandle ctHandle, CtEvent newCt) {
        Counter c = ct(ctHandle, null, false);
        checkCt(newCt);
        lib().dispatch.call(() -> {
            c.set(newCt.success(), newCt.failure());
            return null;
        });
    }

    /** PtlCTInc (fires the triggered operations it reaches). */
    public static void ctInc(CtHandle ctHandle, CtEvent increment) {
        Counter c = ct(ctHandle, null, false);
        checkCt(increment);
        if (increment.success() != 0 && increment.failure() != 0) {
            throw Library.invalid("ctInc: increment success or failure, not both (" + increment + ")");
        }
        lib().dispatch.call(() -> {
            c.add(increment.success(), increment.failure());
            return null;
        });
    }

    private static void checkCt(CtEvent e) {
        if (e == null || e.success() < 0 || e.failure() < 0) {
            throw Library.invalid("counting event value " + e);
        }
    }

    // ---- data movement ----------------------------------------------------------------------

    private static void checkRange(String what, MemDesc d, long offset, long length) {
        if (offset < 0 || length < 0 || offset > d.region.length() || length > d.region.length() - offset) {
            throw Library.invalid(what + ": offset " + offset + " + length " + length + " is outside the " + d.region.length() + "-byte memory descriptor");
        }
    }

    private static void checkPt(Ni ni, int ptIndex) {
        if (ptIndex < 0 || ptIndex > ni.limits.maxPtIndex) {
            throw Library.invalid("pt_index " + Integer.toUnsignedString(ptIndex) + " is beyond max_pt_index " + ni.limits.maxPtIndex);
        }
    }

    private static Op checkAtomic(Ni ni, String call, long length, long limit, Op op, Datatype dt, boolean swapFamily) {
        if (op == null || dt == null) {
            throw Library.invalid(call + ": operation and datatype must be given");
        }
        if (swapFamily == op.isArithmetic()) {
            throw Library.invalid(call + ": " + op + (swapFamily ? " is not a swap operation (SWAP, CSWAP.., MSWAP, MSK_CSWAP, MFETCH_ADD)" : " is a swap operation: use swap"));
        }
        String why = Atomics.check(op, dt);
        if (why != null) {
            throw Library.invalid(call + ": " + why);
        }
        if (length > limit) {
            throw Library.invalid(call + ": length " + length + " is beyond the interface's limit of " + limit + " bytes");
        }
        if (length % dt.size() != 0) {
            throw Library.invalid(call + ": length " + length + " is not a whole number of " + dt + " (" + dt.size() + " bytes)");
        }
        if (swapFamily && op != Op.SWAP && length != dt.size()) {
            throw Library.invalid(call + ": " + op + " works on one element: length must be " + dt.size() + ", not " + length);
        }
        return op;
    }

    private static AckReq checkAck(AckReq a) {
        if (a == null) {
            throw Library.invalid("ack_req is null");
        }
        return a;
    }

    /** PtlPut. */
    public static void put(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                           long remoteOffset, Object userPtr, long hdrData) {
        awaitRoom();
        Dispatch d = enter(); // in this thread when it may, no lambda made: see enter()
        try { later(putOp(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, d != null)); } finally { leave(d); }
    }

    /**
     * The dispatch, when this thread may run a data operation in the library itself now (caller
     * mode: the lock is then held; thread mode: this is the progress thread), else null;
     * {@link #leave} after. Then the operation is started straight from its *Op method, and no
     * lambda is made: a lambda handed to {@link Dispatch#call} is only elided when the JIT inlines
     * everything between, and one call site shared by every API call sees too many kinds to inline
     * any (about 100 B per put once puts, gets and atomics are mixed).
     */
    private static Dispatch enter() {
        Dispatch d = lib().dispatch;
        return d.enter() ? d : null;
    }

    /**
     * Back-pressure: while too much waits to leave (a target that takes nothing), a new operation
     * waits, making progress, for room: the initiator's memory stays bounded instead of
     * queueing without end (and so does the target's: the engine's credits). A dead target's
     * operations fail and make room.
     */
    private static void awaitRoom() {
        Library l = lib();
        if (l.sender.crowded()) {
            waitFor(l, () -> !l.sender.crowded(), -1);
        }
    }

    /**
     * Extension (not a Portals call): the most inline messages that ever waited to leave at once,
     * and the bound past which operations wait for room.
     */
    public static int[] inflightPeakAndBound() {
        Library l = lib();
        return l.dispatch.call(() -> new int[] {l.sender.inflightPeak(), l.sender.maxInflight()});
    }

    /** Ends what {@link #enter} began (nothing when it answered null). */
    private static void leave(Dispatch entered) {
        if (entered != null) {
            entered.leave();
        }
    }

    /** Runs {@code r} through the dispatch, unless the operation was done at once (null). */
    private static void later(Runnable r) {
        if (r != null) {
            run(r);
        }
    }

    private static void run(Runnable r) {
        lib().dispatch.call(() -> {
            r.run();
            return null;
        });
    }

    private static Runnable putOp(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                                  long remoteOffset, Object userPtr, long hdrData, boolean now) {
        MemDesc d = md(mdHandle);
        checkRange("put", d, localOffset, length);
        checkAck(ackReq);
        checkPt(d.ni, ptIndex);
        int target = d.ni.lib.engineRank(d.ni, targetId);
        if (now) {
            d.ni.lib.initiator.start(PtlWire.PUT, d.ni, d, localOffset, null, 0, length, ackReq, target, ptIndex, matchBits, remoteOffset, userPtr, hdrData, null, null, null);
            return null;
        }
        return () -> d.ni.lib.initiator.start(PtlWire.PUT, d.ni, d, localOffset, null, 0, length, ackReq, target, ptIndex, matchBits, remoteOffset, userPtr, hdrData, null, null, null);
    }

    /** PtlGet. */
    public static void get(MdHandle mdHandle, long localOffset, long length, ProcessId targetId, int ptIndex, long matchBits,
                           long remoteOffset, Object userPtr) {
        awaitRoom();
        Dispatch d = enter();
        try { later(getOp(mdHandle, localOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, d != null)); } finally { leave(d); }
    }

    private static Runnable getOp(MdHandle mdHandle, long localOffset, long length, ProcessId targetId, int ptIndex, long matchBits,
                                  long remoteOffset, Object userPtr, boolean now) {
        MemDesc d = md(mdHandle);
        checkRange("get", d, localOffset, length);
        checkPt(d.ni, ptIndex);
        int target = d.ni.lib.engineRank(d.ni, targetId);
        if (now) {
            d.ni.lib.initiator.start(PtlWire.GET, d.ni, null, 0, d, localOffset, length, null, target, ptIndex, matchBits, remoteOffset, userPtr, 0, null, null, null);
            return null;
        }
        return () -> d.ni.lib.initiator.start(PtlWire.GET, d.ni, null, 0, d, localOffset, length, null, target, ptIndex, matchBits, remoteOffset, userPtr, 0, null, null, null);
    }

    /** PtlAtomic: {@code operation} (MIN .. BXOR) of the MD's elements into the target's. */
    public static void atomic(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                              long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype) {
        awaitRoom();
        Dispatch d = enter();
        try { later(atomicOp(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype, d != null)); } finally { leave(d); }
    }

    private static Runnable atomicOp(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                                     long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype, boolean now) {
        MemDesc d = md(mdHandle);
        checkRange("atomic", d, localOffset, length);
        checkAck(ackReq);
        checkPt(d.ni, ptIndex);
        checkAtomic(d.ni, "atomic", length, d.ni.limits.maxAtomicSize, operation, datatype, false);
        int target = d.ni.lib.engineRank(d.ni, targetId);
        if (now) {
            d.ni.lib.initiator.start(PtlWire.ATOMIC, d.ni, d, localOffset, null, 0, length, ackReq, target, ptIndex, matchBits, remoteOffset, userPtr, hdrData, null, operation, datatype);
            return null;
        }
        return () -> d.ni.lib.initiator.start(PtlWire.ATOMIC, d.ni, d, localOffset, null, 0, length, ackReq, target, ptIndex, matchBits, remoteOffset, userPtr, hdrData, null, operation, datatype);
    }

    /** PtlFetchAtomic: like atomic, and the target's old values come back into the get MD. */
    public static void fetchAtomic(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length, ProcessId targetId,
                                   int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype) {
        awaitRoom();
        Dispatch d = enter();
        try { later(fetchOp(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype, d != null)); } finally { leave(d); }
    }

    private static Runnable fetchOp(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length, ProcessId targetId,
                                    int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype, boolean now) {
        MemDesc g = md(getMdHandle), p = md(putMdHandle);
        if (g.ni != p.ni) {
            throw Library.invalid("fetchAtomic: the get and put MDs belong to different interfaces");
        }
        checkRange("fetchAtomic (get md)", g, localGetOffset, length);
        checkRange("fetchAtomic (put md)", p, localPutOffset, length);
        checkPt(p.ni, ptIndex);
        checkAtomic(p.ni, "fetchAtomic", length, p.ni.limits.maxFetchAtomicSize, operation, datatype, false);
        int target = p.ni.lib.engineRank(p.ni, targetId);
        if (now) {
            p.ni.lib.initiator.start(PtlWire.FETCH, p.ni, p, localPutOffset, g, localGetOffset, length, AckReq.NO_ACK_REQ, target, ptIndex, matchBits,
                    remoteOffset, userPtr, hdrData, null, operation, datatype);
            return null;
        }
        return () -> p.ni.lib.initiator.start(PtlWire.FETCH, p.ni, p, localPutOffset, g, localGetOffset, length, AckReq.NO_ACK_REQ, target, ptIndex, matchBits,
                remoteOffset, userPtr, hdrData, null, operation, datatype);
    }

    /**
     * PtlSwap: SWAP, the CSWAPs and MSWAP with {@code operand} (one element: the compare value, or
     * MSWAP's mask), and the extensions MSK_CSWAP (operand: compare, compare mask, swap mask) and
     * MFETCH_ADD (operand: field boundaries); the old values come back into the get MD.
     */
    public static void swap(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length, ProcessId targetId,
                            int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, MemorySegment operand, Op operation, Datatype datatype) {
        awaitRoom();
        Dispatch d = enter();
        try { later(swapOp(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operand, operation, datatype, d != null)); } finally { leave(d); }
    }

    private static Runnable swapOp(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length, ProcessId targetId,
                                   int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, MemorySegment operand, Op operation, Datatype datatype,
                                   boolean now) {
        MemDesc g = md(getMdHandle), p = md(putMdHandle);
        if (g.ni != p.ni) {
            throw Library.invalid("swap: the get and put MDs belong to different interfaces");
        }
        checkRange("swap (get md)", g, localGetOffset, length);
        checkRange("swap (put md)", p, localPutOffset, length);
        checkPt(p.ni, ptIndex);
        checkAtomic(p.ni, "swap", length, p.ni.limits.maxFetchAtomicSize, operation, datatype, true);
        MemorySegment op = swapOperand(operand, operation, datatype, !now); // read later or elsewhere: a copy
        int target = p.ni.lib.engineRank(p.ni, targetId);
        if (now) {
            p.ni.lib.initiator.start(PtlWire.SWAP, p.ni, p, localPutOffset, g, localGetOffset, length, AckReq.NO_ACK_REQ, target, ptIndex, matchBits,
                    remoteOffset, userPtr, hdrData, op, operation, datatype);
            return null;
        }
        return () -> p.ni.lib.initiator.start(PtlWire.SWAP, p.ni, p, localPutOffset, g, localGetOffset, length, AckReq.NO_ACK_REQ, target, ptIndex, matchBits,
                remoteOffset, userPtr, hdrData, op, operation, datatype);
    }

    /**
     * The operand {@code operation} needs, exactly its size (the operation reads its size), or
     * null when it needs none; a copy when {@code copy}: it is read later (triggered) or in another
     * thread (thread mode), and the caller may reuse its own at once.
     */
    private static MemorySegment swapOperand(MemorySegment operand, Op operation, Datatype datatype, boolean copy) {
        int need = Atomics.operandSize(operation, datatype);
        if (need == 0) {
            return null;
        }
        if (operand == null || operand.byteSize() < need) {
            throw Library.invalid("swap: " + operation + " needs an operand of " + need + " bytes, got " + (operand == null ? "none" : operand.byteSize()));
        }
        if (copy) {
            MemorySegment c = MemorySegment.ofArray(new byte[need]);
            MemorySegment.copy(operand, 0, c, 0, need);
            return c;
        }
        return operand.byteSize() == need ? operand : operand.asSlice(0, need);
    }

    /** PtlAtomicSync: atomics here are applied by the library, coherent with the host once their events are seen; nothing to flush. */
    public static void atomicSync() {
        lib();
    }

    // ---- triggered operations ---------------------------------------------------------------

    private static void trigger(CtHandle trigCtHandle, long threshold, Ni ni, Runnable action) {
        Counter c = ct(trigCtHandle, ni, false);
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
    public static void triggeredPut(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                                    long remoteOffset, Object userPtr, long hdrData, CtHandle trigCtHandle, long threshold) {
        Runnable r = putOp(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, false);
        trigger(trigCtHandle, threshold, md(mdHandle).ni, r);
    }

    /** PtlTriggeredGet. */
    public static void triggeredGet(MdHandle mdHandle, long localOffset, long length, ProcessId targetId, int ptIndex, long matchBits,
                                    long remoteOffset, Object userPtr, CtHandle trigCtHandle, long threshold) {
        Runnable r = getOp(mdHandle, localOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, false);
        trigger(trigCtHandle, threshold, md(mdHandle).ni, r);
    }

    /** PtlTriggeredAtomic. */
    public static void triggeredAtomic(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits,
                                       long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype, CtHandle trigCtHandle, long threshold) {
        Runnable r = atomicOp(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype, false);
        trigger(trigCtHandle, threshold, md(mdHandle).ni, r);
    }

    /** PtlTriggeredFetchAtomic. */
    public static void triggeredFetchAtomic(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length,
                                            ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData,
                                            Op operation, Datatype datatype, CtHandle trigCtHandle, long threshold) {
        Runnable r = fetchOp(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype, false);
        trigger(trigCtHandle, threshold, md(putMdHandle).ni, r);
    }

    /** PtlTriggeredSwap. */
    public static void triggeredSwap(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length,
                                     ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData,
                                     MemorySegment operand, Op operation, Datatype datatype, CtHandle trigCtHandle, long threshold) {
        Runnable r = swapOp(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operand, operation, datatype, false);
        trigger(trigCtHandle, threshold, md(putMdHandle).ni, r);
    }

    /** PtlTriggeredCTInc: increments {@code ctHandle} when {@code trigCtHandle} reaches {@code threshold}. */
    public static void triggeredCtInc(CtHandle ctHandle, CtEvent increment, CtHandle trigCtHandle, long threshold) {
        Counter c = ct(ctHandle, null, false);
        checkCt(increment);
        trigger(trigCtHandle, threshold, c.ni, () -> {
            if (!c.freed) {
                c.add(increment.success(), increment.failure());
            }
        });
    }

    /** PtlTriggeredCTSet. */
    public static void triggeredCtSet(CtHandle ctHandle, CtEvent newCt, CtHandle trigCtHandle, long threshold) {
        Counter c = ct(ctHandle, null, false);
        checkCt(newCt);
        trigger(trigCtHandle, threshold, c.ni, () -> {
            if (!c.freed) {
                c.set(newCt.success(), newCt.failure());
            }
        });
    }

    // ---- bundles ----------------------------------------------------------------------------

    /** PtlStartBundle: a hint that several operations follow (the engine aggregates queued small messages anyway). */
    public static void startBundle(NiHandle niHandle) {
        Ni ni = ni(niHandle);
        lib().dispatch.call(() -> ni.bundles++);
    }

    /** PtlEndBundle: ARG_INVALID without a matching startBundle. */
    public static void endBundle(NiHandle niHandle) {
        Ni ni = ni(niHandle);
        lib().dispatch.call(() -> {
            if (ni.bundles == 0) {
                throw Library.invalid("endBundle without startBundle");
            }
            return ni.bundles--;
        });
    }
}
