package dev.ferry.portals;

import java.lang.foreign.MemorySegment;

/**
 * The Portals 4 API in Java (the API side of seed 003): one static method per Portals call,
 * named without the {@code Ptl} prefix in lowerCamelCase, with the specification's parameters in
 * its order; handles are objects, output parameters are return values, return codes that are
 * ordinary outcomes ({@code EQ_EMPTY}, {@code EQ_DROPPED}, {@code CT_NONE_REACHED}) are
 * returned and every failure is a {@link PtlException} carrying its {@link ReturnCode}. The
 * constants keep the specification's names without {@code PTL_}; {@code import static
 * dev.ferry.portals.Portals.*} brings calls and constants in, so a C program ports line by line.
 *
 * <p>This is the C-like view of the process's default library, which {@link #init()} starts from
 * the launcher's environment: each call here is the same call on that {@link PortalsLibrary}
 * (see there for what each does). Programs that want several libraries in one JVM, or one with an
 * explicit configuration (the ranks of an in-process job), use {@link PortalsLibrary} directly,
 * with these constants. Before {@link #init()} and after the last {@link #fini()} every call
 * answers NO_INIT, whatever its arguments.
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
    static final int ME_ALL = (1 << 19) - 1;

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
    static final int LE_ALL = ME_ALL & ~(ME_MANAGE_LOCAL | ME_NO_TRUNCATE | ME_MAY_ALIGN);

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
    static final int MD_ALL = (1 << 9) - 1;

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

    // ---- the process's default instance ------------------------------------------------------
    private static final Object INIT = new Object();
    private static volatile PortalsLibrary instance;
    private static int initCount;

    /** The default instance; NO_INIT before {@link #init()} and after the last {@link #fini()}, whatever the call's arguments. */
    static PortalsLibrary instance() {
        PortalsLibrary p = instance;
        if (p == null) {
            throw new PtlException(ReturnCode.NO_INIT, "Portals is not initialized: call init() first");
        }
        return p;
    }

    static Library lib() {
        return instance().lib();
    }

    /**
     * PtlInit: starts the process's default library (from the launcher's environment:
     * {@code new PortalsConfig()}) on the first call; later calls count. Collective on the first
     * call: every rank of the job calls it.
     */
    public static void init() {
        synchronized (INIT) {
            if (initCount == 0) {
                instance = PortalsLibrary.open(new PortalsConfig());
            }
            initCount++;
        }
    }

    /** PtlFini: the last of as many calls as {@link #init()} had finalizes the default library ({@link PortalsLibrary#fini()}). */
    public static void fini() {
        synchronized (INIT) {
            PortalsLibrary p = instance();
            if (--initCount > 0) {
                return;
            }
            try {
                p.fini();
            } finally {
                instance = null;
            }
        }
    }

    /** PtlHandleIsEqual: whether two handles name the same object (two NONE handles of one kind are equal). */
    public static boolean handleIsEqual(Handle handle1, Handle handle2) {
        return PortalsLibrary.handleIsEqual(handle1, handle2);
    }

    /** {@link PortalsLibrary#memAlloc} on the default instance. */
    public static MemorySegment memAlloc(long length) {
        return instance().memAlloc(length);
    }

    /** {@link PortalsLibrary#directOps} on the default instance. */
    public static long directOps() {
        return instance().directOps();
    }

    /** {@link PortalsLibrary#barrier} on the default instance. */
    public static void barrier() {
        instance().barrier();
    }

    /** {@link PortalsLibrary#niInit} on the default instance. */
    public static NiInitResult niInit(int iface, int options, int pid, NiLimits desired) {
        return instance().niInit(iface, options, pid, desired);
    }

    /** {@link PortalsLibrary#niFini} on the default instance. */
    public static void niFini(NiHandle niHandle) {
        instance().niFini(niHandle);
    }

    /** {@link PortalsLibrary#niHandle} on the default instance. */
    public static NiHandle niHandle(Handle handle) {
        return instance().niHandle(handle);
    }

    /** {@link PortalsLibrary#niStatus} on the default instance. */
    public static int niStatus(NiHandle niHandle, int statusRegister) {
        return instance().niStatus(niHandle, statusRegister);
    }

    /** {@link PortalsLibrary#setMap} on the default instance. */
    public static void setMap(NiHandle niHandle, int mapSize, ProcessId[] mapping) {
        instance().setMap(niHandle, mapSize, mapping);
    }

    /** {@link PortalsLibrary#getMap} on the default instance. */
    public static GetMapResult getMap(NiHandle niHandle, int mapSize) {
        return instance().getMap(niHandle, mapSize);
    }

    /** {@link PortalsLibrary#getUid} on the default instance. */
    public static int getUid(NiHandle niHandle) {
        return instance().getUid(niHandle);
    }

    /** {@link PortalsLibrary#getId} on the default instance. */
    public static ProcessId getId(NiHandle niHandle) {
        return instance().getId(niHandle);
    }

    /** {@link PortalsLibrary#getPhysId} on the default instance. */
    public static ProcessId getPhysId(NiHandle niHandle) {
        return instance().getPhysId(niHandle);
    }

    /** {@link PortalsLibrary#ptAlloc} on the default instance. */
    public static int ptAlloc(NiHandle niHandle, int options, EqHandle eqHandle, int ptIndexReq) {
        return instance().ptAlloc(niHandle, options, eqHandle, ptIndexReq);
    }

    /** {@link PortalsLibrary#ptFree} on the default instance. */
    public static void ptFree(NiHandle niHandle, int ptIndex) {
        instance().ptFree(niHandle, ptIndex);
    }

    /** {@link PortalsLibrary#ptDisable} on the default instance. */
    public static void ptDisable(NiHandle niHandle, int ptIndex) {
        instance().ptDisable(niHandle, ptIndex);
    }

    /** {@link PortalsLibrary#ptEnable} on the default instance. */
    public static void ptEnable(NiHandle niHandle, int ptIndex) {
        instance().ptEnable(niHandle, ptIndex);
    }

    /** {@link PortalsLibrary#mdBind} on the default instance. */
    public static MdHandle mdBind(NiHandle niHandle, Md md) {
        return instance().mdBind(niHandle, md);
    }

    /** {@link PortalsLibrary#mdRelease} on the default instance. */
    public static void mdRelease(MdHandle mdHandle) {
        instance().mdRelease(mdHandle);
    }

    /** {@link PortalsLibrary#meAppend} on the default instance. */
    public static MeHandle meAppend(NiHandle niHandle, int ptIndex, Me me, ListKind ptlList, Object userPtr) {
        return instance().meAppend(niHandle, ptIndex, me, ptlList, userPtr);
    }

    /** {@link PortalsLibrary#leAppend} on the default instance. */
    public static LeHandle leAppend(NiHandle niHandle, int ptIndex, Le le, ListKind ptlList, Object userPtr) {
        return instance().leAppend(niHandle, ptIndex, le, ptlList, userPtr);
    }

    /** {@link PortalsLibrary#meSearch} on the default instance. */
    public static void meSearch(NiHandle niHandle, int ptIndex, Me me, SearchOp ptlSearchOp, Object userPtr) {
        instance().meSearch(niHandle, ptIndex, me, ptlSearchOp, userPtr);
    }

    /** {@link PortalsLibrary#leSearch} on the default instance. */
    public static void leSearch(NiHandle niHandle, int ptIndex, Le le, SearchOp ptlSearchOp, Object userPtr) {
        instance().leSearch(niHandle, ptIndex, le, ptlSearchOp, userPtr);
    }

    /** {@link PortalsLibrary#meUnlink} on the default instance. */
    public static void meUnlink(MeHandle meHandle) {
        instance().meUnlink(meHandle);
    }

    /** {@link PortalsLibrary#leUnlink} on the default instance. */
    public static void leUnlink(LeHandle leHandle) {
        instance().leUnlink(leHandle);
    }

    /** {@link PortalsLibrary#eqAlloc} on the default instance. */
    public static EqHandle eqAlloc(NiHandle niHandle, long count) {
        return instance().eqAlloc(niHandle, count);
    }

    /** {@link PortalsLibrary#eqFree} on the default instance. */
    public static void eqFree(EqHandle eqHandle) {
        instance().eqFree(eqHandle);
    }

    /** {@link PortalsLibrary#eqGet} on the default instance. */
    public static EqResult eqGet(EqHandle eqHandle) {
        return instance().eqGet(eqHandle);
    }

    /** {@link PortalsLibrary#eqWait} on the default instance. */
    public static EqResult eqWait(EqHandle eqHandle) {
        return instance().eqWait(eqHandle);
    }

    /** {@link PortalsLibrary#eqPoll} on the default instance. */
    public static EqResult eqPoll(EqHandle[] eqHandles, int size, int timeout) {
        return instance().eqPoll(eqHandles, size, timeout);
    }

    /** {@link PortalsLibrary#ctAlloc} on the default instance. */
    public static CtHandle ctAlloc(NiHandle niHandle) {
        return instance().ctAlloc(niHandle);
    }

    /** {@link PortalsLibrary#ctFree} on the default instance. */
    public static void ctFree(CtHandle ctHandle) {
        instance().ctFree(ctHandle);
    }

    /** {@link PortalsLibrary#ctCancelTriggered} on the default instance. */
    public static void ctCancelTriggered(CtHandle ctHandle) {
        instance().ctCancelTriggered(ctHandle);
    }

    /** {@link PortalsLibrary#ctGet} on the default instance. */
    public static CtEvent ctGet(CtHandle ctHandle) {
        return instance().ctGet(ctHandle);
    }

    /** {@link PortalsLibrary#ctWait} on the default instance. */
    public static CtEvent ctWait(CtHandle ctHandle, long test) {
        return instance().ctWait(ctHandle, test);
    }

    /** {@link PortalsLibrary#ctPoll} on the default instance. */
    public static CtResult ctPoll(CtHandle[] ctHandles, long[] tests, int size, int timeout) {
        return instance().ctPoll(ctHandles, tests, size, timeout);
    }

    /** {@link PortalsLibrary#ctSet} on the default instance. */
    public static void ctSet(CtHandle ctHandle, CtEvent newCt) {
        instance().ctSet(ctHandle, newCt);
    }

    /** {@link PortalsLibrary#ctInc} on the default instance. */
    public static void ctInc(CtHandle ctHandle, CtEvent increment) {
        instance().ctInc(ctHandle, increment);
    }

    /** {@link PortalsLibrary#put} on the default instance. */
    public static void put(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData) {
        instance().put(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData);
    }

    /** {@link PortalsLibrary#inflightPeakAndBound} on the default instance. */
    public static int[] inflightPeakAndBound() {
        return instance().inflightPeakAndBound();
    }

    /** {@link PortalsLibrary#get} on the default instance. */
    public static void get(MdHandle mdHandle, long localOffset, long length, ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr) {
        instance().get(mdHandle, localOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr);
    }

    /** {@link PortalsLibrary#atomic} on the default instance. */
    public static void atomic(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype) {
        instance().atomic(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype);
    }

    /** {@link PortalsLibrary#fetchAtomic} on the default instance. */
    public static void fetchAtomic(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length, ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype) {
        instance().fetchAtomic(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype);
    }

    /** {@link PortalsLibrary#swap} on the default instance. */
    public static void swap(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length, ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, MemorySegment operand, Op operation, Datatype datatype) {
        instance().swap(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operand, operation, datatype);
    }

    /** {@link PortalsLibrary#atomicSync} on the default instance. */
    public static void atomicSync() {
        instance().atomicSync();
    }

    /** {@link PortalsLibrary#triggeredPut} on the default instance. */
    public static void triggeredPut(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, CtHandle trigCtHandle, long threshold) {
        instance().triggeredPut(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, trigCtHandle, threshold);
    }

    /** {@link PortalsLibrary#triggeredGet} on the default instance. */
    public static void triggeredGet(MdHandle mdHandle, long localOffset, long length, ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, CtHandle trigCtHandle, long threshold) {
        instance().triggeredGet(mdHandle, localOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, trigCtHandle, threshold);
    }

    /** {@link PortalsLibrary#triggeredAtomic} on the default instance. */
    public static void triggeredAtomic(MdHandle mdHandle, long localOffset, long length, AckReq ackReq, ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype, CtHandle trigCtHandle, long threshold) {
        instance().triggeredAtomic(mdHandle, localOffset, length, ackReq, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype, trigCtHandle, threshold);
    }

    /** {@link PortalsLibrary#triggeredFetchAtomic} on the default instance. */
    public static void triggeredFetchAtomic(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length, ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, Op operation, Datatype datatype, CtHandle trigCtHandle, long threshold) {
        instance().triggeredFetchAtomic(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operation, datatype, trigCtHandle, threshold);
    }

    /** {@link PortalsLibrary#triggeredSwap} on the default instance. */
    public static void triggeredSwap(MdHandle getMdHandle, long localGetOffset, MdHandle putMdHandle, long localPutOffset, long length, ProcessId targetId, int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, MemorySegment operand, Op operation, Datatype datatype, CtHandle trigCtHandle, long threshold) {
        instance().triggeredSwap(getMdHandle, localGetOffset, putMdHandle, localPutOffset, length, targetId, ptIndex, matchBits, remoteOffset, userPtr, hdrData, operand, operation, datatype, trigCtHandle, threshold);
    }

    /** {@link PortalsLibrary#triggeredCtInc} on the default instance. */
    public static void triggeredCtInc(CtHandle ctHandle, CtEvent increment, CtHandle trigCtHandle, long threshold) {
        instance().triggeredCtInc(ctHandle, increment, trigCtHandle, threshold);
    }

    /** {@link PortalsLibrary#triggeredCtSet} on the default instance. */
    public static void triggeredCtSet(CtHandle ctHandle, CtEvent newCt, CtHandle trigCtHandle, long threshold) {
        instance().triggeredCtSet(ctHandle, newCt, trigCtHandle, threshold);
    }

    /** {@link PortalsLibrary#startBundle} on the default instance. */
    public static void startBundle(NiHandle niHandle) {
        instance().startBundle(niHandle);
    }

    /** {@link PortalsLibrary#endBundle} on the default instance. */
    public static void endBundle(NiHandle niHandle) {
        instance().endBundle(niHandle);
    }
}
