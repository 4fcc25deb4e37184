package dev.ferry.driver.ucx;

import dev.ferry.spi.Capabilities;
import dev.ferry.spi.ConnectRequest;
import dev.ferry.spi.ContextLifecycle;
import dev.ferry.spi.CpuSet;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverException;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverProperties;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.Profile;
import dev.ferry.spi.ProgressLock;
import dev.ferry.spi.Status;
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
 * A ucx driver context: one UCP context and one UCP worker. Its URL is the worker's address;
 * instances are UCP endpoints. Every UCX call runs under one lock, because the worker is shared
 * by all instances and seed 000 lets different instances be driven from different threads; the
 * lock is uncontended in the usual one-thread-per-context use.
 *
 * <p>Connection set-up: {@code connectAsync} creates the endpoint (a local step in UCP) and sends
 * a HELLO carrying the instance's id, its context's URL, the job key and the process identity;
 * the instance is up once the peer's HELLO has arrived, because the peer's id goes into every tag
 * sent to it. A HELLO that no instance here waits for is kept and reported by
 * {@link #acceptProbe}.
 *
 * <p>Failure detection: endpoints use UCX's peer error handling where the transports offer it
 * (tcp, RDMA). UCX 1.13's shared-memory transports do not (endpoint creation is refused with
 * "no peer failure handler"); such endpoints are made without it, and the peer, necessarily on
 * this host then, is checked for being alive by its pid and start time every
 * {@code FERRY_UCX_LIVENESS_MS}.
 *
 * <p>Sleeping: wait-any sleeps in {@code ucp_worker_wait}; a shared timer signals the worker every
 * liveness period while someone sleeps (so a dead peer is still noticed), and a thread that needs
 * the lock while the sleeper holds it signals the worker first.
 */
final class UcxContext implements DriverContext {
    private static final System.Logger LOG = System.getLogger(UcxContext.class.getName());

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
    private static final int DRAIN_TURNS = 64;
    /** Spin this long in wait-any before sleeping in the kernel. */
    private static final long SPIN_NANOS = 50_000;

    private static final ScheduledExecutorService WAKER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ferry-ucx-waker");
        t.setDaemon(true);
        return t;
    });

    final Hints hints;
    final byte[] jobKey;
    final int bufferSize;
    final long rcacheBytes;
    final long livenessNanos;
    private final String pull;
    /** Large packets also go as BULK messages, taken by tagged receives (see {@link UcxWire}). */
    boolean pullByTag;
    private final ContextLifecycle<UcxInstance> life = new ContextLifecycle<>("ucx driver context", UcxInstance[]::new);
    final ProgressLock lock = new ProgressLock(); // taken on every driver call: a release store gives it back, not a fence
    private volatile boolean sleeping;
    /** Worker progress calls that moved something (lock held). */
    private int progressed;
    /** Some send is still held by UCX (see {@link #tick}). */
    volatile boolean backlog;
    private long nextWake;
    /** The timer's period: how soon a held send moves on when nobody calls the driver. */
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

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
    private DriverUrl url;
    byte[] urlBytes;
    final String hostId = HostId.current();
    final long pid = ProcessHandle.current().pid();
    final long startMillis = ProcessHandle.current().info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
    /** Endpoints are made with UCX's peer error handling (a network transport is there). */
    boolean peerFailureDetection;
    private ScheduledFuture<?> waker;

    private MemorySegment helloIn;
    private UcpRequest helloReq;
    private int nextId = 1;
    /** Instances connected to a peer whose HELLO has not come yet, by the peer's URL. */
    private final Map<ByteBuffer, ArrayDeque<UcxInstance>> awaiting = new HashMap<>();
    /** HELLOs no instance has claimed yet, by the sender's URL. */
    private final Map<ByteBuffer, ArrayDeque<UcxWire.Hello>> unclaimed = new HashMap<>();
    /** Peers that asked to be connected (acceptProbe), oldest first. */
    private final ArrayDeque<byte[]> requests = new ArrayDeque<>();
    /** Connection requests that came, and how many of them wait-any has reported (each once); lock held. */
    private long requestsArrived;
    private long requestsWaitSeen;
    private int progressCalls;
    private long nextLivenessCheck;

    UcxContext(Hints hints) {
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
        String problem = UcxLibrary.problem();
        if (problem != null) {
            throw new DriverException(problem);
        }
        String tls = UcxSettings.TLS.value(hints.settings());
        String asked = tls != null && !tls.isBlank() ? tls : System.getenv("UCX_TLS");
        if ((asked == null || asked.isBlank()) && !TransportProfile.rdmaDevicePresent()) {
            // like Open MPI's pml_ucx, which stands aside without an RDMA device
            throw new DriverException(NO_RDMA);
        }
        try {
            UcpParams params = new UcpParams().requestTagFeature().requestRmaFeature().requestWakeupFeature()
                    .setEstimatedNumEps(hints.sessionSize()).setMtWorkersShared(false);
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

    private void postHello() {
        helloReq = worker.recvTaggedNonBlocking(helloIn.address(), HELLO_BUFFER, UcxWire.KIND_HELLO, UcxWire.FULL_MASK, null);
    }

    /**
     * The timer's turn: wakes a sleeper once per liveness period (so a dead peer is noticed), and
     * moves on sends UCX still holds when nobody calls the driver. UCX sends only progress when
     * the sender's worker does; a receiver whose FIFO was full would otherwise wait for a sender
     * that has gone quiet.
     */
    private void tick() {
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

    @Override
    public DriverInstance newInstance() {
        acquire();
        try {
            return life.add(() -> {
                return new UcxInstance(this, nextId++);
            });
        } finally {
            lock.unlock();
        }
    }

    // ---- registration (seed 003's validate / invalidate) ---------------------------------------

    /** Pins {@code memory} in the registration cache, so rendezvous from or into it skips ucp_mem_map. */
    @Override
    public Object register(MemorySegment memory) {
        if (memory == null || !memory.isNative() || memory.byteSize() == 0 || !enter()) {
            return null;
        }
        try {
            return rcache.acquire(memory.address(), memory.byteSize());
        } catch (UcxException e) {
            LOG.log(System.Logger.Level.DEBUG, "ucx: could not register {0} bytes: {1}", memory.byteSize(), e.getMessage());
            return null;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void deregister(Object registration) {
        if (registration instanceof RegistrationCache.Registration r && enter()) {
            try {
                rcache.release(r);
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
    private boolean enter() {
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

    private void checkLiveness() {
        for (UcxInstance inst : life.instances()) {
            inst.checkLiveness();
        }
    }

    private void takeHellos() {
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

    private void accept(UcxWire.Hello h) {
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

    // ---- context-wide receive -------------------------------------------------------------------

    @Override
    public Status acceptProbe(ConnectRequest request) {
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            progress();
            byte[] u = requests.poll();
            if (u == null) {
                return Status.NOT_YET;
            }
            request.url = DriverUrl.decode(u);
            return Status.DONE;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Status recvProbeAny(InstanceRef ready) {
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            drain();
            return probe(ready);
        } finally {
            lock.unlock();
        }
    }

    /** Progress until nothing more arrives (bounded), so a fair scan sees every instance with data. */
    /** Progresses the worker until it is idle (a bounded number of turns); answers whether anything moved. */
    private boolean drain() {
        int before = progressed;
        progress();
        for (int i = 0; i < DRAIN_TURNS && turn() > 0; i++) {
            // each turn takes in a bounded number of FIFO elements
        }
        return progressed != before;
    }

    /** Fair scan from where the last one stopped; lock held. */
    private Status probe(InstanceRef ready) {
        return life.probeAny(ready, UcxInstance::hasData);
    }

    @Override
    public Status recvWaitAny(InstanceRef ready) {
        long spinEnd = System.nanoTime() + SPIN_NANOS;
        while (true) {
            if (life.isClosed()) {
                return Status.CLOSED;
            }
            if (life.takeCancel()) {
                return Status.CANCELED;
            }
            acquire();
            try {
                if (life.isClosed()) {
                    return Status.CLOSED;
                }
                boolean moved = drain();
                if (probe(ready) == Status.DONE) {
                    return Status.DONE;
                }
                if (requestsArrived != requestsWaitSeen) {
                    requestsWaitSeen = requestsArrived;
                    return Status.NOT_YET; // a peer asks to connect: acceptProbe reports it
                }
                if (moved) {
                    return Status.NOT_YET; // the worker moved something on (a send's completion, a peer's FIN): the engine looks
                }
                if (System.nanoTime() - spinEnd > 0 && !life.cancelPending()) {
                    sleeping = true;
                    try {
                        worker.waitForEvents(); // returns at once when events are pending (ucp_worker_wait arms first)
                    } finally {
                        sleeping = false;
                    }
                }
            } finally {
                lock.unlock();
            }
            if (System.nanoTime() - spinEnd <= 0) {
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public Status recvCancelAny() {
        return life.cancelAny(this::signalWorker);
    }

    /** Wakes a wait-any blocked in the worker. */
    private void signalWorker() {
        UcpWorker w = worker;
        if (w != null) {
            try {
                w.signal();
            } catch (RuntimeException e) {
                // closed meanwhile
            }
        }
    }

    // ---- close ----------------------------------------------------------------------------------

    @Override
    public void close() {
        UcxInstance[] all = life.close();
        if (all == null) {
            return;
        }
        if (waker != null) {
            waker.cancel(false);
        }
        if (worker != null) {
            worker.signal();
        }
        int held = 0;
        lock.lock();
        try {
            if (worker == null || helloReq == null) {
                return; // never initialised (or properties failed): nothing of ours runs in UCX
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            for (UcxInstance inst : all) {
                inst.closeWithContext(deadline);
            }
            if (helloReq != null && !helloReq.isCompleted()) {
                worker.cancelRequest(helloReq);
            }
            drain(all);
            discardUnexpected();
            held = held();
            if (rcache != null && held == 0) {
                rcache.clear();
            }
        } finally {
            if (held == 0) {
                closeUcx();
            } else {
                LOG.log(System.Logger.Level.WARNING, "ucx: " + held + " request(s) to a peer that is gone are still held by UCX,"
                        + " which cannot end them without peer error handling (not offered by its shared-memory transports):"
                        + " the UCX worker is left open, as destroying it under them aborts the process");
            }
            lock.unlock();
            if (held == 0) {
                arena.close();
            }
        }
    }

    /**
     * Lock held, at close: the requests UCX still runs. With peer error handling a forced close
     * of their endpoints has ended them; without it, one aimed at a dead peer never ends.
     */
    private int held() {
        if (peerFailureDetection) {
            return 0;
        }
        orphans.sweep();
        return sweepBulks() + orphans.size();
    }

    /** Forgets the BULK sends that have ended; answers how many still run. */
    private int sweepBulks() {
        bulks.removeIf(Rendezvous::bulkEnded);
        return bulks.size();
    }

    /** Progresses until the cancelled requests and closing endpoints are done, at most 2 s. */
    private void drain(UcxInstance[] all) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() - end < 0) {
            turn();
            boolean busy = (helloReq != null && !helloReq.isCompleted()) | orphans.sweep() | sweepBulks() > 0;
            for (UcxInstance inst : all) {
                busy |= inst.busyClosing();
            }
            if (!busy) {
                return;
            }
        }
        LOG.log(System.Logger.Level.DEBUG, "ucx: context closed with requests still in progress after 2 s");
    }

    /**
     * Takes the messages that arrived for instances already closed (a BYE, data after a
     * disconnect), so that UCX does not warn about each at worker destruction; counted in the log.
     */
    private void discardUnexpected() {
        int n = 0;
        MemorySegment scratch = null;
        for (; n < 100_000; n++) {
            org.openucx.jucx.ucp.UcpTagMessage m = worker.tagProbeNonBlocking(0, 0, true);
            if (m == null) {
                break;
            }
            long len = Math.max(1, m.getRecvLength());
            if (scratch == null || scratch.byteSize() < len) {
                scratch = arena.allocate(len, 8);
            }
            UcpRequest r = worker.recvTaggedMessageNonBlocking(scratch.address(), len, m, null);
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
            while (!r.isCompleted() && System.nanoTime() - end < 0) {
                turn();
            }
        }
        if (n > 0) {
            LOG.log(System.Logger.Level.DEBUG, "ucx: " + n + " message(s) for closed instances discarded at close");
        }
    }

    private void closeUcx() {
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
