package dev.ferry.driver.ucx;
import dev.ferry.spi.Capabilities;
import dev.ferry.spi.ContextLifecycle;
import dev.ferry.spi.CpuSet;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverException;
import dev.ferry.spi.DriverProperties;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.Profile;
import dev.ferry.spi.ProgressLock;
import dev.ferry.spi.Transport;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;
import org.openucx.jucx.ucs.UcsConstants;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The worker half of a ucx context: the UCP context and worker and their start-up, the one lock
 * every UCX call runs under, progress and the liveness timer, and the HELLOs that bring endpoints
 * up. {@link UcxContext} adds the SPI's context calls on top: instances, registration, the
 * context-wide receive, close.
 */
abstract sealed class UcxWorker implements DriverContext permits UcxContext {
    static final System.Logger LOG = dev.ferry.spi.LazyLogger.of(UcxContext.class);

    /** Largest packet: rendezvous lengths are 64-bit; this bounds a single registration. */
    static final long MAX_PACKET_SIZE = 1L << 36;

    static final int MAX_IOVEC = 1024;

    /** Largest HELLO this context receives (URLs of workers with many devices run to a few KiB). */
    static final int HELLO_BUFFER = 64 * 1024;

    static final String NO_RDMA = "no RDMA transport here: UCX would only duplicate Ferry's shm and tcp drivers;"
            + " set FERRY_UCX_TLS (or UCX_TLS), e.g. to sm or tcp, to use it anyway";

    /** Elements of a shared-memory receive FIFO (UCX_MM_FIFO_SIZE, unless set). */
    static final int MM_FIFO_SIZE = 1024;

    /** Most worker progress calls one probe makes to take in everything that has arrived. */
    static final int DRAIN_TURNS = 64;

    /** Spin this long in wait-any before sleeping in the kernel. */
    static final long SPIN_NANOS = 50_000;

    static final ScheduledExecutorService WAKER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ferry-ucx-waker");
        t.setDaemon(true);
        return t;
    });

    final Hints hints;

    final byte[] jobKey;

    final int bufferSize;

    final long rcacheBytes;

    final long livenessNanos;

    final String pull;

    /** Large packets also go as BULK messages, taken by tagged receives (see {@link UcxWire}). */
    boolean pullByTag;

    final ContextLifecycle<UcxInstance> life = new ContextLifecycle<>("ucx driver context", UcxInstance[]::new);

    final ProgressLock lock = new ProgressLock(); // taken on every driver call: a release store gives it back, not a fence
    volatile boolean sleeping;

    /** Worker progress calls that moved something (lock held). */
    int progressed;

    /** Some send is still held by UCX (see {@link #tick}). */
    volatile boolean backlog;

    long nextWake;

    /** The timer's period: how soon a held send moves on when nobody calls the driver. */
    static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    UcpContext ucp;

    UcpWorker worker;

    /** The worker's {@code ucp_worker_h}, for {@link Ucp}'s calls. */
    long workerHandle;

    RegistrationCache rcache;

    /** Requests UCX still holds that nobody waits for. */
    final Orphans orphans = new Orphans();

    /** Rendezvous whose BULK send UCX may still hold (each leaves when released). */
    final java.util.ArrayList<Rendezvous> bulks = new java.util.ArrayList<>();

    final Arena arena = Arena.ofShared();

    /** A valid address for empty receives. */
    final MemorySegment scratch = arena.allocate(8, 8);

    DriverUrl url;

    byte[] urlBytes;

    final String hostId = HostId.current();

    final long pid = ProcessHandle.current().pid();

    final long startMillis = ProcessHandle.current().info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);

    /** Endpoints are made with UCX's peer error handling (a network transport is there). */
    boolean peerFailureDetection;

    ScheduledFuture<?> waker;

    MemorySegment helloIn;

    UcpRequest helloReq;

    int nextId = 1;

    /** Instances connected to a peer whose HELLO has not come yet, by the peer's URL. */
    final Map<ByteBuffer, ArrayDeque<UcxInstance>> awaiting = new HashMap<>();

    /** HELLOs no instance has claimed yet, by the sender's URL. */
    final Map<ByteBuffer, ArrayDeque<UcxWire.Hello>> unclaimed = new HashMap<>();

    /** Peers that asked to be connected (acceptProbe), oldest first. */
    final ArrayDeque<byte[]> requests = new ArrayDeque<>();

    /** Connection requests that came, and how many of them wait-any has reported (each once); lock held. */
    long requestsArrived;

    long requestsWaitSeen;

    int progressCalls;

    long nextLivenessCheck;

    /** The endpoints this rank will hold at once: the peers the engine expects (the job, or its connection cap), else the job's size. */
    static long estimatedEndpoints(Hints hints) {
        String expected = hints.attribute(Hints.PEERS_EXPECTED, null);
        try {
            return expected != null ? Math.max(1, Long.parseLong(expected)) : hints.sessionSize();
        } catch (NumberFormatException e) {
            return hints.sessionSize();
        }
    }

    UcxWorker(Hints hints) {
        this.hints = Objects.requireNonNull(hints, "hints");
        String key = hints.attribute(Hints.JOB_KEY, UcxSettings.JOB_KEY.value(hints.settings()));
        this.jobKey = key == null ? new byte[0] : key.getBytes(StandardCharsets.UTF_8);
        if (jobKey.length > 4096) {
            throw new DriverException("job key longer than 4096 bytes");
        }
        long buf = UcxSettings.BUFFER.longValue(hints.settings());
        if (buf < 256 || buf > (1 << 20)) {
            throw new dev.ferry.spi.SettingException("FERRY_UCX_BUFFER must be 256 to 1048576 bytes, not " + buf);
        }
        this.bufferSize = (int) buf;
        this.rcacheBytes = UcxSettings.RCACHE_BYTES.longValue(hints.settings());
        if (rcacheBytes < 0) {
            throw new dev.ferry.spi.SettingException("FERRY_UCX_RCACHE_BYTES must not be negative: " + rcacheBytes);
        }
        long live = UcxSettings.LIVENESS_MS.longValue(hints.settings());
        if (live < 1) {
            throw new dev.ferry.spi.SettingException("FERRY_UCX_LIVENESS_MS must be at least 1: " + live);
        }
        this.livenessNanos = TimeUnit.MILLISECONDS.toNanos(live);
        this.pull = UcxSettings.PULL.value(hints.settings()).strip();
        if (!List.of("auto", "get", "tag").contains(pull)) {
            throw new dev.ferry.spi.SettingException("FERRY_UCX_PULL must be auto, get or tag, not '" + pull + "'");
        }
    }

    // ---- properties, init -----------------------------------------------------------------------

    @Override
    public DriverProperties properties() {
        life.beginProperties();
        String tls = UcxSettings.TLS.value(hints.settings());
        String asked = tls != null && !tls.isBlank() ? tls : System.getenv("UCX_TLS");
        if ((asked == null || asked.isBlank()) && !TransportProfile.rdmaDevicePresent()) {
            // like Open MPI's pml_ucx, which stands aside without an RDMA device; before loading
            // UCX, whose libraries and JUCX's would cost every rank's start ~40 ms for nothing
            throw new DriverException(NO_RDMA);
        }
        String problem = UcxLibrary.problem();
        if (problem != null) {
            throw new DriverException(problem);
        }
        try {
            UcpParams params = new UcpParams().requestTagFeature().requestRmaFeature().requestWakeupFeature()
                    .setEstimatedNumEps(estimatedEndpoints(hints)).setMtWorkersShared(false);
            String perNode = hints.attribute(Hints.RANKS_ON_NODE, null);
            if (perNode != null && System.getenv("UCX_NUM_PPN") == null) {
                params.setConfig("NUM_PPN", perNode); // with the endpoints, UCX's choice of DC or RC where the hardware has both
            }
            if (tls != null && !tls.isBlank()) {
                params.setConfig("TLS", tls.strip());
            }
            if (System.getenv("UCX_PROTO_ENABLE") == null) {
                // UCX 1.13's protocol framework: with it the tagged rendezvous over shared memory
                // reads the sender's memory with cma (process_vm_readv); without it the bytes are
                // copied through the mm FIFO (both counted with strace on the bandwidth benchmark)
                params.setConfig("PROTO_ENABLE", "y");
            }
            if (System.getenv("UCX_MM_FIFO_SIZE") == null && TransportProfile.mayUseSharedMemory(tls)) {
                // a shared-memory receiver's FIFO, shared by all its senders: UCX's 64 elements fill
                // as soon as 8 peers send 8 packets each to a receiver that is busy elsewhere
                params.setConfig("MM_FIFO_SIZE", String.valueOf(MM_FIFO_SIZE));
            }
            ucp = new UcpContext(params);
            worker = ucp.newWorker(new UcpWorkerParams().requestWakeupRX().requestWakeupTagRecv().requestWakeupRMA());
            workerHandle = worker.getNativeId();
        } catch (UcxException | IllegalArgumentException e) {
            closeUcx();
            throw new DriverException("UCX " + UcxLibrary.version() + " could not start"
                    + (tls != null ? " with FERRY_UCX_TLS=" + tls : "") + ": " + e.getMessage(), e);
        }
        List<String> transports = TransportProfile.transports(UcxLibrary.printInfo("ucp_context_print_info", ucp.getNativeId()));
        if (transports.isEmpty()) {
            closeUcx();
            throw new DriverException("UCX " + UcxLibrary.version() + " found no usable transport"
                    + (tls != null ? " among FERRY_UCX_TLS=" + tls : ""));
        }
        TransportProfile tp = TransportProfile.of(transports);
        if ((asked == null || asked.isBlank()) && !tp.rdma()) {
            closeUcx();
            throw new DriverException(NO_RDMA + " (UCX offers " + transports + ")");
        }
        // UCX 1.13's shared-memory transports refuse the peer error handling mode
        peerFailureDetection = tp.transport() == Transport.REMOTE;
        // Without RDMA (or xpmem) UCX 1.13 emulates ucp_get with active messages: the sender's
        // worker copies the bytes through the transport's buffers, and no process_vm_readv is made
        // (counted with strace). Its tagged rendezvous reads the sender's memory with cma instead.
        pullByTag = pull.equals("tag") || (pull.equals("auto") && !tp.oneSidedGets());
        Capabilities caps = Capabilities.builder()
                .supportsData(true)
                .supportsBufSend(true)
                .supportsBufRecv(true)
                .supportsIovec(true)
                .maxIovecSegments(MAX_IOVEC)
                .hasRecvAny(true)
                .supportsWaitAny(true)
                .supportsPrefetch(true)
                .maxPacketSize(MAX_PACKET_SIZE)
                .maxBufferSize(bufferSize)
                .pullDataSize(Exposures.PULL_DATA_BYTES)
                .transport(tp.transport())
                .build();
        return new DriverProperties(caps, new Profile(tp.latencyNs(), tp.bandwidthMBps(), CpuSet.all()));
    }

    @Override
    public DriverUrl init() {
        life.beginInit();
        lock.lock();
        try {
            ByteBuffer a = worker.getAddress();
            byte[] address = new byte[a.remaining()];
            a.get(address);
            url = DriverUrl.single(UcxWire.encodeUrl(address));
            urlBytes = url.encoded();
            rcache = new RegistrationCache(ucp, rcacheBytes);
            helloIn = arena.allocate(HELLO_BUFFER, 64);
            postHello();
            life.initialized();
        } catch (UcxException e) {
            throw new DriverException("UCX worker could not start: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
        waker = WAKER.scheduleWithFixedDelay(this::tick, TICK_NANOS, TICK_NANOS, TimeUnit.NANOSECONDS);
        return url;
    }

    void postHello() {
        helloReq = worker.recvTaggedNonBlocking(helloIn.address(), HELLO_BUFFER, UcxWire.KIND_HELLO, UcxWire.FULL_MASK, null);
    }

    /**
     * The timer's turn: wakes a sleeper once per liveness period (so a dead peer is noticed), and
     * moves on sends UCX still holds when nobody calls the driver. UCX sends only progress when
     * the sender's worker does; a receiver whose FIFO was full would otherwise wait for a sender
     * that has gone quiet.
     */
    void tick() {
        if (life.isClosed()) {
            return;
        }
        long now = System.nanoTime();
        if (sleeping) {
            if (now - nextWake >= 0) {
                nextWake = now + livenessNanos;
                try {
                    worker.signal();
                } catch (RuntimeException e) {
                    // closing: the next wait returns anyway
                }
            }
            return;
        }
        if (backlog && lock.tryLock()) {
            try {
                if (!life.isClosed()) {
                    progress();
                    boolean any = false;
                    for (UcxInstance inst : life.instances()) {
                        any |= inst.backlog();
                    }
                    backlog = any;
                }
            } finally {
                lock.unlock();
            }
        }
    }

    // ---- lock, progress -------------------------------------------------------------------------

    /** Whether a wait-any sleeps in the worker's wait (tests wait for it). */
    boolean asleep() {
        return sleeping;
    }

    /** Takes the lock; a sleeper in wait-any holding it is woken first. */
    void acquire() {
        if (lock.tryLock()) {
            return;
        }
        while (true) {
            if (sleeping) {
                worker.signal();
            }
            if (lock.tryLock(TimeUnit.MICROSECONDS.toNanos(20))) {
                return;
            }
        }
    }

    /** Takes the lock unless the context is closed: false means answer CLOSED, no lock held. */
    boolean enter() {
        if (life.isClosed()) {
            return false;
        }
        acquire();
        if (life.isClosed()) {
            lock.unlock();
            return false;
        }
        return true;
    }

    boolean closed() {
        return life.isClosed();
    }

    /** One turn of the worker, HELLOs and the liveness check; the lock is held. */
    void progress() {
        turn();
        if (helloReq.isCompleted()) {
            takeHellos();
        }
        if (orphans.any()) {
            orphans.sweep();
        }
        if ((++progressCalls & 63) == 0) {
            long now = System.nanoTime();
            if (now - nextLivenessCheck >= 0) {
                nextLivenessCheck = now + livenessNanos;
                checkLiveness();
            }
        }
    }

    /** One {@code ucp_worker_progress}; lock held. Answers the number of events it handled. */
    int turn() {
        try {
            // Through JUCX, not Ucp: UCX calls JUCX's endpoint error handler from progress, and
            // its FindClass only finds JUCX's classes from a JNI method's frame (from an FFM
            // downcall it looks in the boot loader, fails, and the JVM crashes).
            int n = worker.progress();
            if (n > 0) {
                progressed++;
            }
            return n;
        } catch (Exception e) {
            // JUCX declares Exception; ucp_worker_progress itself does not fail
            throw new IllegalStateException("ucp_worker_progress failed: " + e.getMessage(), e);
        }
    }

    void checkLiveness() {
        for (UcxInstance inst : life.instances()) {
            inst.checkLiveness();
        }
    }

    void takeHellos() {
        while (helloReq.isCompleted()) {
            int status = helloReq.getStatus();
            if (status == UcsConstants.STATUS.UCS_OK) {
                try {
                    accept(UcxWire.readHello(helloIn, HELLO_BUFFER));
                } catch (IllegalArgumentException e) {
                    LOG.log(System.Logger.Level.WARNING, "ucx: ignored a malformed HELLO: " + e.getMessage());
                }
            } else if (status == UcsConstants.STATUS.UCS_ERR_CANCELED) {
                return;
            } else {
                LOG.log(System.Logger.Level.WARNING, "ucx: HELLO receive failed with UCS status " + status + " (a HELLO over "
                        + HELLO_BUFFER + " bytes is truncated)");
            }
            postHello();
        }
    }

    void accept(UcxWire.Hello h) {
        if (!Arrays.equals(h.jobKey(), jobKey)) {
            LOG.log(System.Logger.Level.WARNING, "ucx: ignored a HELLO from pid " + h.pid() + " with another job key");
            return;
        }
        ByteBuffer key = ByteBuffer.wrap(h.url());
        ArrayDeque<UcxInstance> q = awaiting.get(key);
        if (q != null) {
            for (UcxInstance inst : q) {
                // a context connected to itself: the HELLO of one instance belongs to the other
                if (inst.id != h.senderId() || !Arrays.equals(h.url(), urlBytes)) {
                    q.remove(inst);
                    if (q.isEmpty()) {
                        awaiting.remove(key);
                    }
                    inst.peerUp(h);
                    return;
                }
            }
        }
        unclaimed.computeIfAbsent(key, k -> new ArrayDeque<>()).add(h);
        requests.add(h.url());
        requestsArrived++;
    }

    /** An instance has sent its HELLO to {@code peerUrl}: claim a waiting HELLO or wait for one. */
    void connecting(UcxInstance inst, byte[] peerUrl) {
        ByteBuffer key = ByteBuffer.wrap(peerUrl);
        ArrayDeque<UcxWire.Hello> q = unclaimed.get(key);
        if (q != null) {
            for (UcxWire.Hello h : q) {
                if (inst.id != h.senderId() || !Arrays.equals(peerUrl, urlBytes)) {
                    q.remove(h);
                    if (q.isEmpty()) {
                        unclaimed.remove(key);
                    }
                    inst.peerUp(h);
                    return;
                }
            }
        }
        awaiting.computeIfAbsent(key, k -> new ArrayDeque<>()).add(inst);
    }

    void forget(UcxInstance inst) {
        if (inst.remoteUrl != null) {
            ByteBuffer key = ByteBuffer.wrap(inst.remoteUrl);
            ArrayDeque<UcxInstance> q = awaiting.get(key);
            if (q != null && q.remove(inst) && q.isEmpty()) {
                awaiting.remove(key);
            }
        }
    }

    void closeUcx() {
        try {
            if (worker != null) {
                worker.close();
            }
        } finally {
            worker = null;
            workerHandle = 0;
            if (ucp != null) {
                ucp.close();
                ucp = null;
            }
        }
    }
}
