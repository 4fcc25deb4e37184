package dev.ferry.bench;

import dev.ferry.launch.ChildJvm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * UCX's own floor as a latency reference ({@code ref-ucp}): a tagged ping-pong between this JVM
 * and a child made of nothing but UCP calls through FFM ({@code ucp_tag_send_nbx},
 * {@code ucp_tag_recv_nbx}, {@code ucp_worker_progress}, the request test and free), with the
 * transports and protocol settings the ucx driver asks for ({@code FERRY_UCX_TLS}, else
 * {@code UCX_TLS}; {@code PROTO_ENABLE=y} unless {@code UCX_PROTO_ENABLE} is set). No Ferry code
 * is on its path, so against the ucx driver's line it shows what the driver adds, and against
 * the shm driver's what UCX itself costs on the machine at hand. Printed by driver-latency runs
 * that include the ucx driver.
 *
 * <p>Wire protocol: ping messages carry {@link #PING_TAG}, echoes {@link #ECHO_TAG}; one message
 * with {@link #STOP_TAG} ends the child's echo loop.
 */
final class RefUcp {
    static final String NAME = "ref-ucp";
    static final long PING_TAG = 1, ECHO_TAG = 2, STOP_TAG = 3;
    /** Tag mask under which a child's receive takes both PING_TAG and STOP_TAG (they differ in bit 1 only). */
    private static final long PING_OR_STOP_MASK = ~2L;
    private static final long IDLE_BOUND_NANOS = 60_000_000_000L;

    // ucp.h / ucp_def.h values (UCX 1.13 API)
    private static final int API_MAJOR = 1, API_MINOR = 13;
    private static final long PARAM_FIELD_FEATURES = 1, FEATURE_TAG = 1;
    private static final long WORKER_PARAM_FIELD_THREAD_MODE = 1;
    private static final long EP_PARAM_FIELD_REMOTE_ADDRESS = 1;
    private static final int OP_ATTR_FIELD_FLAGS = 1 << 4, EP_CLOSE_FLAG_FORCE = 1;
    private static final byte UCS_OK = 0, UCS_INPROGRESS = 1;
    /** Zeroed room for ucp_params_t, ucp_worker_params_t, ucp_ep_params_t and ucp_request_param_t (each far smaller). */
    private static final long PARAMS_BYTES = 512;
    /** ucp_tag_recv_info_t: sender_tag u64, length size_t. */
    private static final long RECV_INFO_BYTES = 16, RECV_INFO_LENGTH = 8, RECV_INFO_TAG = 0;

    private static final ValueLayout.OfByte STATUS = ValueLayout.JAVA_BYTE; // ucs_status_t is a packed (one-byte) enum
    private static final java.lang.foreign.AddressLayout A = ValueLayout.ADDRESS;
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG;

    private final MethodHandle configRead, configModify, configRelease, init, cleanup, workerCreate, workerDestroy,
            getAddress, releaseAddress, epCreate, epClose, tagSend, tagRecv, progress, check, recvTest, free;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment out = arena.allocate(A);
    private final MemorySegment requestParam = arena.allocate(PARAMS_BYTES, 8);
    private final MemorySegment info = arena.allocate(RECV_INFO_BYTES, 8);
    private MemorySegment context = MemorySegment.NULL;
    private MemorySegment worker = MemorySegment.NULL;
    private MemorySegment ep = MemorySegment.NULL;

    /** Loads libucp and makes a context (the ucx driver's transports) and one worker; throws with the reason when it cannot. */
    private RefUcp() {
        Linker linker = Linker.nativeLinker();
        keepJvmSignals(linker);
        SymbolLookup ucp;
        try {
            ucp = SymbolLookup.libraryLookup("libucp.so.0", Arena.global());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("libucp.so.0 does not load (" + e.getMessage() + ")");
        }
        configRead = h(linker, ucp, "ucp_config_read", FunctionDescriptor.of(STATUS, A, A, A));
        configModify = h(linker, ucp, "ucp_config_modify", FunctionDescriptor.of(STATUS, A, A, A));
        configRelease = h(linker, ucp, "ucp_config_release", FunctionDescriptor.ofVoid(A));
        init = h(linker, ucp, "ucp_init_version", FunctionDescriptor.of(STATUS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, A, A, A));
        cleanup = h(linker, ucp, "ucp_cleanup", FunctionDescriptor.ofVoid(A));
        workerCreate = h(linker, ucp, "ucp_worker_create", FunctionDescriptor.of(STATUS, A, A, A));
        workerDestroy = h(linker, ucp, "ucp_worker_destroy", FunctionDescriptor.ofVoid(A));
        getAddress = h(linker, ucp, "ucp_worker_get_address", FunctionDescriptor.of(STATUS, A, A, A));
        releaseAddress = h(linker, ucp, "ucp_worker_release_address", FunctionDescriptor.ofVoid(A, A));
        epCreate = h(linker, ucp, "ucp_ep_create", FunctionDescriptor.of(STATUS, A, A, A));
        epClose = h(linker, ucp, "ucp_ep_close_nbx", FunctionDescriptor.of(A, A, A));
        tagSend = h(linker, ucp, "ucp_tag_send_nbx", FunctionDescriptor.of(A, A, A, L, L, A));
        tagRecv = h(linker, ucp, "ucp_tag_recv_nbx", FunctionDescriptor.of(A, A, A, L, L, L, A));
        progress = h(linker, ucp, "ucp_worker_progress", FunctionDescriptor.of(ValueLayout.JAVA_INT, A));
        check = h(linker, ucp, "ucp_request_check_status", FunctionDescriptor.of(STATUS, A));
        recvTest = h(linker, ucp, "ucp_tag_recv_request_test", FunctionDescriptor.of(STATUS, A, A));
        free = h(linker, ucp, "ucp_request_free", FunctionDescriptor.ofVoid(A));
        try {
            open();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * UCX's signal handlers (UCX_ERROR_SIGNALS, installed when libucs loads) take the SIGSEGV the
     * JVM raises on purpose (implicit null checks) and the JVM dies of it ("SIGSEGV sent by kill"
     * in a surefire run): set it empty before libucp loads, unless the user set it, as the ucx
     * driver does. A failure only leaves UCX's default.
     */
    private static void keepJvmSignals(Linker linker) {
        try (Arena a = Arena.ofConfined()) {
            MethodHandle setenv = linker.downcallHandle(linker.defaultLookup().find("setenv").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, A, A, ValueLayout.JAVA_INT));
            int rc = (int) setenv.invokeExact(a.allocateFrom("UCX_ERROR_SIGNALS"), a.allocateFrom(""), 0);
            if (rc != 0) {
                throw new IllegalStateException("setenv(UCX_ERROR_SIGNALS) answered " + rc);
            }
        } catch (Throwable e) {
            throw new IllegalStateException("ref-ucp: cannot keep UCX off the JVM's signals: " + e.getMessage(), e);
        }
    }

    private static MethodHandle h(Linker linker, SymbolLookup ucp, String name, FunctionDescriptor d) {
        return linker.downcallHandle(ucp.find(name).orElseThrow(() -> new IllegalStateException("libucp has no " + name)), d);
    }

    private void open() {
        try {
            ok((byte) configRead.invokeExact(MemorySegment.NULL, MemorySegment.NULL, out), "ucp_config_read");
            MemorySegment config = out.get(A, 0);
            try {
                String tls = System.getenv("FERRY_UCX_TLS");
                if (tls != null && !tls.isBlank()) {
                    modify(config, "TLS", tls.strip());
                }
                if (System.getenv("UCX_PROTO_ENABLE") == null) {
                    modify(config, "PROTO_ENABLE", "y"); // as the ucx driver does
                }
                MemorySegment params = arena.allocate(PARAMS_BYTES, 8);
                params.set(L, 0, PARAM_FIELD_FEATURES); // field_mask
                params.set(L, 8, FEATURE_TAG); // features
                ok((byte) init.invokeExact(API_MAJOR, API_MINOR, params, config, out), "ucp_init");
                context = out.get(A, 0);
            } finally {
                configRelease.invokeExact(config);
            }
            MemorySegment wp = arena.allocate(PARAMS_BYTES, 8);
            wp.set(L, 0, WORKER_PARAM_FIELD_THREAD_MODE);
            wp.set(ValueLayout.JAVA_INT, 8, 0); // UCS_THREAD_MODE_SINGLE
            ok((byte) workerCreate.invokeExact(context, wp, out), "ucp_worker_create");
            worker = out.get(A, 0);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("ref-ucp: " + t, t);
        }
    }

    private void modify(MemorySegment config, String name, String value) throws Throwable {
        ok((byte) configModify.invokeExact(config, arena.allocateFrom(name), arena.allocateFrom(value)), "ucp_config_modify " + name + "=" + value);
    }

    private static void ok(byte status, String call) {
        if (status != UCS_OK) {
            throw new IllegalStateException(call + " answered UCS status " + status);
        }
    }

    /** This worker's address, as hex. */
    private String address() throws Throwable {
        MemorySegment len = arena.allocate(L);
        ok((byte) getAddress.invokeExact(worker, out, len), "ucp_worker_get_address");
        MemorySegment a = out.get(A, 0);
        try {
            return HexFormat.of().formatHex(a.reinterpret(len.get(L, 0)).toArray(ValueLayout.JAVA_BYTE));
        } finally {
            releaseAddress.invokeExact(worker, a);
        }
    }

    private void connect(String peerHex) throws Throwable {
        byte[] peer = HexFormat.of().parseHex(peerHex);
        MemorySegment addr = arena.allocate(peer.length, 8);
        MemorySegment.copy(peer, 0, addr, ValueLayout.JAVA_BYTE, 0, peer.length);
        MemorySegment p = arena.allocate(PARAMS_BYTES, 8);
        p.set(L, 0, EP_PARAM_FIELD_REMOTE_ADDRESS);
        p.set(A, 8, addr);
        ok((byte) epCreate.invokeExact(worker, p, out), "ucp_ep_create");
        ep = out.get(A, 0);
    }

    /** Sends {@code n} bytes of {@code buf} with {@code tag} and waits until UCX is done with them. */
    private void send(MemorySegment buf, long n, long tag) throws Throwable {
        MemorySegment r = (MemorySegment) tagSend.invokeExact(ep, buf, n, tag, requestParam);
        if (r.address() == 0) {
            return; // done at once
        }
        if (r.address() >= -255L && r.address() < 0) { // UCS_PTR_IS_ERR
            throw new IllegalStateException("ucp_tag_send_nbx answered UCS status " + r.address());
        }
        byte s;
        long start = 0;
        int spins = 0;
        while ((s = (byte) check.invokeExact(r)) == UCS_INPROGRESS) {
            int ignored = (int) progress.invokeExact(worker);
            start = bound(start, ++spins, "a send");
        }
        free.invokeExact(r);
        ok(s, "the send");
    }

    /** Receives one message matching {@code tag} under {@code mask} into {@code buf}; answers its length, {@link #info} has its tag. */
    private long recv(MemorySegment buf, long tag, long mask) throws Throwable {
        MemorySegment r = (MemorySegment) tagRecv.invokeExact(worker, buf, buf.byteSize(), tag, mask, requestParam);
        if (r.address() >= -255L && r.address() < 0) {
            throw new IllegalStateException("ucp_tag_recv_nbx answered UCS status " + r.address());
        }
        byte s;
        long start = 0;
        int spins = 0;
        while ((s = (byte) recvTest.invokeExact(r, info)) == UCS_INPROGRESS) {
            int ignored = (int) progress.invokeExact(worker);
            start = bound(start, ++spins, "a message");
        }
        free.invokeExact(r);
        ok(s, "the receive");
        return info.get(L, RECV_INFO_LENGTH);
    }

    /** The clock read every 1024 spins: fails once a wait passed {@link #IDLE_BOUND_NANOS}. */
    private static long bound(long start, int spins, String what) {
        if ((spins & 1023) != 0) {
            return start;
        }
        long now = System.nanoTime();
        if (start == 0) {
            return now;
        }
        if (now - start > IDLE_BOUND_NANOS) {
            throw new IllegalStateException("ref-ucp: no end to " + what + " within " + IDLE_BOUND_NANOS / 1_000_000_000 + " s");
        }
        return start;
    }

    private void close() {
        try {
            if (ep.address() != 0) {
                MemorySegment p = arena.allocate(PARAMS_BYTES, 8);
                p.set(ValueLayout.JAVA_INT, 0, OP_ATTR_FIELD_FLAGS);
                p.set(ValueLayout.JAVA_INT, 4, EP_CLOSE_FLAG_FORCE); // the peer may be gone: no flush
                MemorySegment r = (MemorySegment) epClose.invokeExact(ep, p);
                if (r.address() > 0) {
                    long end = System.nanoTime() + 2_000_000_000L;
                    while ((byte) check.invokeExact(r) == UCS_INPROGRESS && System.nanoTime() - end < 0) {
                        int ignored = (int) progress.invokeExact(worker);
                    }
                    free.invokeExact(r);
                }
            }
            if (worker.address() != 0) {
                workerDestroy.invokeExact(worker);
            }
            if (context.address() != 0) {
                cleanup.invokeExact(context);
            }
        } catch (Throwable t) {
            throw new IllegalStateException("ref-ucp: closing: " + t, t);
        } finally {
            arena.close();
        }
    }

    /** The parent's side: one latency line per size, against a child JVM that echoes. */
    static void latency(BenchOptions o, List<Long> sizes, Progress progress, Consumer<Result> out) throws Exception {
        RefUcp u = new RefUcp();
        try (ChildJvm child = ChildJvm.builder(BenchPeer.class.getName()).args(NAME).start()) {
            String peer = child.readAnswer(DriverPeer.TIMEOUT);
            if (peer.startsWith("error ")) {
                throw new IllegalStateException("the ref-ucp peer: " + peer.substring(6));
            }
            u.connect(peer);
            long max = Math.max(1, sizes.stream().mapToLong(Long::longValue).max().orElse(1));
            child.send("connect " + u.address() + " " + max);
            String ok = child.readAnswer(DriverPeer.TIMEOUT);
            if (!ok.equals("ok")) {
                throw new IllegalStateException("the ref-ucp peer said " + ok);
            }
            MemorySegment sendBuf = u.arena.allocate(max, 4096);
            MemorySegment recvBuf = u.arena.allocate(max, 4096);
            for (long size : sizes) {
                out.accept(u.latency(o, size, sendBuf, recvBuf, progress));
            }
            u.send(sendBuf, 0, STOP_TAG);
            child.readAnswer(DriverPeer.TIMEOUT);
            child.waitFor(DriverPeer.TIMEOUT);
        } catch (Exception e) {
            throw e;
        } catch (Throwable t) { // from a downcall
            throw new IllegalStateException("ref-ucp: " + t, t);
        } finally {
            u.close();
        }
    }

    private Result latency(BenchOptions o, long size, MemorySegment sendBuf, MemorySegment recvBuf, Progress progress) {
        Runnable rt = () -> {
            try {
                send(sendBuf, size, PING_TAG);
                long n = recv(recvBuf, ECHO_TAG, -1L);
                if (n != size) {
                    throw new IllegalStateException("ref-ucp: an echo of " + n + " bytes for " + size);
                }
            } catch (RuntimeException e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("ref-ucp: " + t, t);
            }
        };
        o.warmUp(size, rt);
        long iterations = o.iterationsFor(size);
        RoundTrips.Timing t = RoundTrips.time(iterations, rt);
        progress.update(NAME + " latency " + size + " B", 1, 1);
        return new Result(BenchOptions.LATENCY, NAME, size, t.roundTrips(), Stats.median(t.oneWayUs()), Stats.quantile(t.oneWayUs(), 0.99), null, Map.of());
    }

    /** The child's side ({@code BenchPeer ref-ucp}): answers its address, connects, echoes until STOP. */
    static void serve() throws Exception {
        RefUcp u;
        try {
            u = new RefUcp();
        } catch (IllegalStateException e) {
            ChildJvm.answer("error " + e.getMessage());
            return;
        }
        try {
            ChildJvm.answer(u.address());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line = in.readLine();
            if (line == null || !line.startsWith("connect ")) {
                throw new IllegalStateException("ref-ucp peer: expected connect, got " + line);
            }
            String[] w = line.split(" ");
            u.connect(w[1]);
            MemorySegment buf = u.arena.allocate(Long.parseLong(w[2]), 4096);
            ChildJvm.answer("ok");
            while (true) {
                long n = u.recv(buf, PING_TAG, PING_OR_STOP_MASK);
                if (u.info.get(L, RECV_INFO_TAG) == STOP_TAG) {
                    break;
                }
                u.send(buf, n, ECHO_TAG);
            }
            ChildJvm.answer("stopped");
        } catch (Throwable t) {
            throw new IllegalStateException("ref-ucp peer: " + t, t);
        } finally {
            u.close();
        }
    }
}
