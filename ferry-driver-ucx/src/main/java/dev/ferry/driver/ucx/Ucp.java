package dev.ferry.driver.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The small-message hot path of libucp called through FFM rather than through JUCX: tagged send
 * and receive, request test, cancel and release. JUCX stays for everything else (context,
 * worker, progress, endpoints, registration, remote keys, gets, wake-up); handles cross over
 * as JUCX's native ids, which are the {@code ucp_worker_h} and {@code ucp_ep_h} pointers.
 *
 * <p>Why: on this machine one 8-byte tagged send, receive and progress cost about 2.1 us through
 * JUCX 1.12's JNI methods (each call builds a {@code UcpRequest} object from native code) and
 * about 0.37 us through the same UCP calls made here (a two-worker loop in one thread, both
 * measured in one run). Requests made here carry no callback: they are tested with
 * {@code ucp_request_check_status} ({@code ucp_tag_recv_request_test} also gives a receive's
 * tag and length) and released with
 * {@code ucp_request_free}. Progress stays with JUCX ({@code UcpWorker.progress}): UCX calls
 * JUCX's endpoint error handler from progress, and that handler's {@code FindClass} resolves
 * JUCX's classes only from a JNI method's frame; from an FFM downcall it searches the boot
 * loader, fails, and the JVM crashes (seen in the conformance kit's dead-peer tests). A JNI
 * progress call costs about what an FFM one does once the requests are made here.
 *
 * <p>{@code ucs_status_t} is a packed enum, one signed byte: statuses are read as bytes.
 *
 * <p>A request is a {@code long}: 0 means done at once (a receive too, when the message was
 * already waiting), a value in [-{@value #ERR_LAST}, -1]
 * is a UCS error status ({@code UCS_PTR_IS_ERR}), anything else a request to test and free.
 *
 * <p>Layout of {@code ucp_request_param_t} (UCX 1.12 / 1.13, 72 bytes): {@code op_attr_mask}
 * u32 at 0, {@code flags} u32 at 4, {@code request} at 8, {@code cb} at 16, {@code datatype} at
 * 24, {@code user_data} at 32, {@code reply_buffer} at 40, {@code memory_type} at 48,
 * {@code recv_info} at 56, {@code memh} at 64. Only a zeroed one is passed (no attribute
 * fields: contiguous bytes, no callback). {@code ucp_tag_recv_info_t}: {@code sender_tag} u64 at
 * 0, {@code length} u64 at 8.
 */
final class Ucp {
    /** UCS_INPROGRESS. */
    static final int INPROGRESS = 1;
    static final int OK = 0;
    /** UCS_ERR_MESSAGE_TRUNCATED. */
    static final int ERR_MESSAGE_TRUNCATED = -9;
    /** UCS_ERR_CANCELED. */
    static final int ERR_CANCELED = -16;
    /** UCS_ERR_LAST: status pointers from -this to -1 are errors. */
    static final int ERR_LAST = 100;

    static final long PARAM_SIZE = 72;
    static final long INFO_SIZE = 16;
    static final long INFO_OFF_SENDER_TAG = 0;
    static final long INFO_OFF_LENGTH = 8;

    private static final MethodHandle TAG_SEND;
    private static final MethodHandle TAG_SEND_SYNC;
    private static final MethodHandle TAG_RECV;
    private static final MethodHandle TAG_RECV_BULK;
    private static final MethodHandle RECV_TEST;
    private static final MethodHandle CHECK_STATUS;
    private static final MethodHandle FREE;
    private static final MethodHandle CANCEL;

    static {
        SymbolLookup ucp = SymbolLookup.libraryLookup(UcxLibrary.LIBUCP, Arena.global());
        Linker l = Linker.nativeLinker();
        ValueLayout.OfLong j = ValueLayout.JAVA_LONG;
        // ucs_status_t is a packed enum: one signed byte.
        ValueLayout.OfByte status = ValueLayout.JAVA_BYTE;
        // Test, check and free are short, never call back, and are taken often: critical (no thread
        // state transition, about 80 ns off each 8-byte one-way latency over sm here, measured in
        // alternation with the ordinary downcalls). So are the eager send and the ring's receive,
        // which move at most a driver buffer. The bulk receive (it may pull a whole rendezvous
        // inside the call, and a critical call holds off safepoints), the synchronous bulk send
        // and cancel: ordinary downcalls.
        Linker.Option critical = Linker.Option.critical(false);
        TAG_SEND = l.downcallHandle(ucp.find("ucp_tag_send_nbx").orElseThrow(), FunctionDescriptor.of(j, j, j, j, j, ValueLayout.ADDRESS), critical);
        TAG_SEND_SYNC = l.downcallHandle(ucp.find("ucp_tag_send_sync_nbx").orElseThrow(), FunctionDescriptor.of(j, j, j, j, j, ValueLayout.ADDRESS));
        FunctionDescriptor recv = FunctionDescriptor.of(j, j, j, j, j, j, ValueLayout.ADDRESS);
        TAG_RECV = l.downcallHandle(ucp.find("ucp_tag_recv_nbx").orElseThrow(), recv, critical);
        TAG_RECV_BULK = l.downcallHandle(ucp.find("ucp_tag_recv_nbx").orElseThrow(), recv);
        RECV_TEST = l.downcallHandle(ucp.find("ucp_tag_recv_request_test").orElseThrow(), FunctionDescriptor.of(status, j, ValueLayout.ADDRESS), critical);
        CHECK_STATUS = l.downcallHandle(ucp.find("ucp_request_check_status").orElseThrow(), FunctionDescriptor.of(status, j), critical);
        FREE = l.downcallHandle(ucp.find("ucp_request_free").orElseThrow(), FunctionDescriptor.ofVoid(j), critical);
        CANCEL = l.downcallHandle(ucp.find("ucp_request_cancel").orElseThrow(), FunctionDescriptor.ofVoid(j, j));
    }

    /** A zeroed {@code ucp_request_param_t}, shared by every call (UCP reads it during the call only). */
    private static final MemorySegment PARAM = Arena.global().allocate(PARAM_SIZE, 8);

    private Ucp() {
    }

    /** Whether a request value is a UCS error status. */
    static boolean isError(long request) {
        return request < 0 && request >= -ERR_LAST;
    }

    /** {@code ucp_tag_send_nbx} of {@code length} bytes at {@code address}, at most a driver buffer (critical). */
    static long tagSend(long ep, long address, long length, long tag) {
        try {
            return (long) TAG_SEND.invokeExact(ep, address, length, tag, PARAM);
        } catch (Throwable e) {
            throw unexpected("ucp_tag_send_nbx", e);
        }
    }

    /**
     * {@code ucp_tag_send_sync_nbx}: completes only once the receiver has matched the message
     * (a message UCX sends eagerly would otherwise complete as soon as it left).
     */
    static long tagSendSync(long ep, long address, long length, long tag) {
        try {
            return (long) TAG_SEND_SYNC.invokeExact(ep, address, length, tag, PARAM);
        } catch (Throwable e) {
            throw unexpected("ucp_tag_send_sync_nbx", e);
        }
    }

    /** {@code ucp_tag_recv_nbx} into {@code capacity} bytes at {@code address}, at most a driver buffer (critical). */
    static long tagRecv(long worker, long address, long capacity, long tag, long mask) {
        try {
            return (long) TAG_RECV.invokeExact(worker, address, capacity, tag, mask, PARAM);
        } catch (Throwable e) {
            throw unexpected("ucp_tag_recv_nbx", e);
        }
    }

    /** {@code ucp_tag_recv_nbx} of a bulk transfer (a rendezvous may be pulled inside the call): an ordinary downcall. */
    static long tagRecvBulk(long worker, long address, long capacity, long tag, long mask) {
        try {
            return (long) TAG_RECV_BULK.invokeExact(worker, address, capacity, tag, mask, PARAM);
        } catch (Throwable e) {
            throw unexpected("ucp_tag_recv_nbx", e);
        }
    }

    /**
     * {@code ucp_tag_recv_request_test}: {@link #INPROGRESS}, or the receive's status with the
     * sender's tag and the length written to {@code info} (at least {@link #INFO_SIZE} bytes).
     */
    static int recvTest(long request, MemorySegment info) {
        try {
            return (byte) RECV_TEST.invokeExact(request, info);
        } catch (Throwable e) {
            throw unexpected("ucp_tag_recv_request_test", e);
        }
    }

    /** {@code ucp_request_check_status}: {@link #INPROGRESS} or the request's status. */
    static int check(long request) {
        try {
            return (byte) CHECK_STATUS.invokeExact(request);
        } catch (Throwable e) {
            throw unexpected("ucp_request_check_status", e);
        }
    }

    /** {@code ucp_request_free}: a completed request goes back to UCP (an incomplete one once it completes). */
    static void free(long request) {
        try {
            FREE.invokeExact(request);
        } catch (Throwable e) {
            throw unexpected("ucp_request_free", e);
        }
    }

    /** {@code ucp_request_cancel}: the request completes with {@link #ERR_CANCELED} on a later progress, unless done. */
    static void cancel(long worker, long request) {
        try {
            CANCEL.invokeExact(worker, request);
        } catch (Throwable e) {
            throw unexpected("ucp_request_cancel", e);
        }
    }

    private static IllegalStateException unexpected(String call, Throwable e) {
        if (e instanceof RuntimeException r) {
            throw r;
        }
        if (e instanceof Error r) {
            throw r;
        }
        return new IllegalStateException(call + " failed: " + e, e);
    }
}
