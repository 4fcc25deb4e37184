package dev.ferry.driver.shm;

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
import dev.ferry.spi.Setting;
import dev.ferry.spi.Status;
import dev.ferry.spi.Transport;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A shm context: its file in /dev/shm (with the doorbell its peers ring), its instances, its
 * shared arena, and the context-wide receive calls. Opening one first reclaims what crashed
 * processes left in /dev/shm.
 */
final class ShmContext implements DriverContext {
    static final Setting SINGLE_COPY = new Setting("FERRY_SHM_SINGLE_COPY", "auto",
            "shm: auto (process_vm_readv where the kernel allows it) or off (large packets through the shared bounce area)",
            Setting.Type.CHOICE, "shm driver");
    static final Setting SPLIT_PULL = new Setting("FERRY_SHM_SPLIT_PULL", "auto",
            "shm: auto (the sender copies part of a large message it exposed while the receiver pulls the rest) or off (the receiver copies it all)",
            Setting.Type.CHOICE, "shm driver");
    static final Setting RINGS = new Setting("FERRY_SHM_RINGS", "auto",
            "shm: how many peers a rank receives from through a ring of their own; the others share one queue per rank. A count, all, or auto (all where a node runs at most "
                    + "16 ranks, else 16)", Setting.Type.NUMBER, "shm driver");
    /** The rings per rank that {@code auto} allows on a node of more ranks than that. */
    static final int AUTO_RINGS = 16;
    static final long MAX_PACKET_SIZE = 1L << 30;
    static final int MAX_IOVEC = 1024;
    static final String URL_PREFIX = "shm1:";
    static final int SPIN_ROUNDS = 2000;
    /** A sleeper wakes at least this often to notice dead peers (nobody rings for a death). */
    static final long SLEEP_NANOS = 10_000_000L;
    /**
     * A wait-any that keeps finding nothing doubles its sleeps up to this: a context idle for long
     * costs nothing, and still notices a dead peer within a second.
     */
    static final long LONGEST_SLEEP_NANOS = 1_000_000_000L;
    private static final AtomicLong SEQ = new AtomicLong();

    private final Hints hints;
    final long pid = ProcessHandle.current().pid();
    final long start = ShmFiles.startTime(pid);
    final String job;
    final String key;
    /** The doorbell when the last wait-any returned: a bump since is news for the next (one waits at a time). */
    private int bellReported;
    private final ContextLifecycle<ShmInstance> life = new ContextLifecycle<>("shm driver context", ShmInstance[]::new);
    final Arena arena = Arena.ofShared();
    /** The rings this context may still give, and its shared receive queue. */
    final ReceiveResources receiving;
    private Path file;
    private MemorySegment map;
    private DriverUrl url;
    private byte[] urlBytes;
    private int requestsSeen;
    /** Connection requests published when wait-any last reported them, or acceptProbe took them all. */
    private volatile int requestsWaitSeen;
    private final List<MemorySegment> arenas = new ArrayList<>();
    private final List<Path> arenaFiles = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Removes this context's files if the JVM ends before close (SIGTERM, System.exit, a launcher's death). */
    private Thread exitHook;
    final boolean singleCopy;
    /** Whether large exposed packets are copied by both sides at once ({@link SplitPull}). */
    final boolean splitPull;
    /** Large packets this context sent by each way (index: ShmLayout.MODE_*), for tests and diagnosis. */
    final java.util.concurrent.atomic.AtomicLongArray sentByMode = new java.util.concurrent.atomic.AtomicLongArray(4);
    /** Chunks of split pulls this context's instances wrote as exposers, for tests and diagnosis. */
    final AtomicLong splitChunksWritten = new AtomicLong();

    ShmContext(Hints hints) {
        this.hints = Objects.requireNonNull(hints, "hints");
        String j = hints.attribute(Hints.JOB_ID, "solo").replaceAll("[^A-Za-z0-9_.]", "_");
        this.job = j.isEmpty() ? "solo" : j;
        this.key = "r" + hints.rank() + "-p" + pid + "-c" + SEQ.incrementAndGet();
        this.singleCopy = autoOrOff(SINGLE_COPY, hints);
        this.splitPull = autoOrOff(SPLIT_PULL, hints);
        this.receiving = new ReceiveResources(ringCap(hints), pid, start, arena, life::instances);
    }

    /**
     * The peers this context receives from through rings at most, from {@link #RINGS}; -1 for
     * all of them. {@code auto} gives every peer a ring where the node runs at most
     * {@link #AUTO_RINGS} + 1 ranks (or nobody said how many), else {@link #AUTO_RINGS}.
     */
    static int ringCap(Hints hints) {
        String v = RINGS.value(hints.settings()).trim();
        if (v.equals("all")) {
            return -1;
        }
        if (v.equals("auto")) {
            int onNode;
            try {
                onNode = Integer.parseInt(hints.attribute(Hints.RANKS_ON_NODE, "0"));
            } catch (NumberFormatException e) {
                onNode = 0;
            }
            return onNode <= AUTO_RINGS + 1 ? -1 : AUTO_RINGS;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new dev.ferry.spi.SettingException(RINGS.name() + " must be a count of peers (0 or more), all or auto, not '" + v + "'");
    }

    /** True for auto, false for off; anything else is refused, naming the setting. */
    private static boolean autoOrOff(Setting setting, Hints hints) {
        String v = setting.value(hints.settings());
        if (!v.equals("auto") && !v.equals("off")) {
            throw new dev.ferry.spi.SettingException(setting.name() + " must be auto or off, not '" + v + "'");
        }
        return v.equals("auto");
    }

    @Override
    public DriverProperties properties() {
        life.beginProperties();
        if (!java.nio.file.Files.isDirectory(ShmFiles.DIR) || !Native.futexAvailable()) {
            throw new DriverException("shm: needs Linux with /dev/shm and futex (os.arch " + System.getProperty("os.arch") + ")");
        }
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
                .maxBufferSize(ShmLayout.SLOT_DATA)
                .transport(Transport.LOCAL)
                .pullDataSize(ShmLayout.PULL_DATA_BYTES)
                .supportsReconnect(true)
                .build();
        // Orders measured with `ferry bench driver-latency|driver-bandwidth --driver shm` on the
        // 2-core development machine (docs/architecture.md).
        return new DriverProperties(caps, new Profile(120, 11_000, CpuSet.all()));
    }

    @Override
    public synchronized DriverUrl init() {
        life.beginInit();
        ShmFiles.reclaim();
        file = ShmFiles.DIR.resolve("ferry-" + job + "-" + key + ".ctx");
        try {
            map = ShmFiles.createFresh(file, ShmLayout.CONTEXT_BYTES, arena);
        } catch (IOException e) {
            throw new DriverException("shm: cannot create " + file + ": " + e.getMessage(), e);
        }
        ShmFiles.writeHeader(map, ShmLayout.KIND_CONTEXT, pid, start);
        map.set(ValueLayout.JAVA_LONG, ShmLayout.CONTEXT_ADDRESS_OFFSET, map.address());
        map.set(ValueLayout.JAVA_INT, ShmLayout.RINGS_ALWAYS_OFFSET, receiving.ringCap < 0 ? 1 : 0);
        ShmFiles.markReady(map);
        exitHook = new Thread(this::removeFiles, "ferry-shm-exit");
        Runtime.getRuntime().addShutdownHook(exitHook);
        url = DriverUrl.single((URL_PREFIX + file.getFileName()).getBytes(StandardCharsets.US_ASCII));
        urlBytes = url.encoded();
        life.initialized();
        return url;
    }

    @Override
    public DriverInstance newInstance() {
        return life.add(() -> new ShmInstance(this));
    }

    byte[] urlBytes() {
        return urlBytes;
    }

    Path file() {
        return file;
    }

    // ---- the shared arena -------------------------------------------------------------------

    /**
     * Memory in a file of its own that peers map: a large packet from it reaches them with one
     * memcpy. Released when the context closes.
     */
    @Override
    public synchronized MemorySegment allocate(long byteSize) {
        life.requireInitialized("allocate()");
        if (byteSize <= 0) {
            throw new IllegalArgumentException("allocate needs a positive size, not " + byteSize);
        }
        int n = arenas.size();
        Path f = arenaFile(file, n);
        MemorySegment m;
        try {
            m = ShmFiles.createFresh(f, ShmLayout.ARENA_DATA + byteSize, arena);
        } catch (IOException e) {
            throw new DriverException("shm: cannot create arena " + f + ": " + e.getMessage(), e);
        }
        ShmFiles.writeHeader(m, ShmLayout.KIND_ARENA, pid, start);
        ShmFiles.markReady(m);
        MemorySegment data = m.asSlice(ShmLayout.ARENA_DATA, byteSize);
        arenas.add(data);
        arenaFiles.add(f);
        return data;
    }

    static Path arenaFile(Path contextFile, long number) {
        String name = contextFile.getFileName().toString();
        return contextFile.resolveSibling(name.substring(0, name.length() - ".ctx".length()) + "-a" + number + ".arena");
    }

    /** The peer's arena files this context mapped, by path: mapped once, unmapped when the context closes. */
    private final java.util.Map<Path, MemorySegment> peerArenas = new java.util.HashMap<>();

    /**
     * A range of our shared arena as a {@link ShmLayout share key}: arena number, offset, length.
     * Null when the range lies in no one arena allocation.
     */
    @Override
    public byte[] shareKey(MemorySegment memory) {
        if (memory == null || !memory.isNative() || memory.byteSize() == 0) {
            return null;
        }
        long[] where;
        synchronized (this) {
            where = arenaOf(memory.address(), memory.byteSize());
        }
        if (where == null) {
            return null;
        }
        MemorySegment k = MemorySegment.ofArray(new byte[ShmLayout.SHARE_KEY_BYTES]);
        k.set(ValueLayout.JAVA_LONG_UNALIGNED, ShmLayout.SHARE_ARENA, where[0]);
        k.set(ValueLayout.JAVA_LONG_UNALIGNED, ShmLayout.SHARE_OFFSET, where[1]);
        k.set(ValueLayout.JAVA_LONG_UNALIGNED, ShmLayout.SHARE_LENGTH, memory.byteSize());
        return k.toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * The memory of arena {@code number} of the peer whose context file is {@code peerContext},
     * mapped into this process (once; kept until this context closes). Null when there is no
     * such arena file or it is not an arena.
     */
    synchronized MemorySegment peerArena(Path peerContext, long number) {
        if (number < 0 || number > Integer.MAX_VALUE) {
            return null;
        }
        Path f = arenaFile(peerContext, number);
        MemorySegment m = peerArenas.get(f);
        if (m == null) {
            try {
                MemorySegment whole = ShmFiles.open(f, arena);
                if (whole == null || ShmFiles.check(whole, ShmLayout.KIND_ARENA, f) != null) {
                    return null;
                }
                m = whole.asSlice(ShmLayout.ARENA_DATA);
            } catch (IOException e) {
                return null;
            }
            peerArenas.put(f, m);
        }
        return m;
    }

    /** Which arena holds [address, address+length), as {arena number, offset}; null when none does. */
    long[] arenaOf(long address, long length) {
        List<MemorySegment> a = arenas;
        for (int i = 0; i < a.size(); i++) {
            MemorySegment m = a.get(i);
            long base = m.address();
            if (address >= base && address + length <= base + m.byteSize()) {
                return new long[] {i, address - base};
            }
        }
        return null;
    }

    // ---- connection requests ----------------------------------------------------------------

    /**
     * What this context holds, as the pages that exist: a channel file is sparse, and a connection
     * that receives through the shared queue never touches its ring's slots. Both ends of a
     * channel count its pages.
     */
    @Override
    public void bytesHeld(java.util.function.ObjLongConsumer<String> into) {
        long channels = 0;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = Native.errnoCapture(a);
            for (ShmInstance i : life.instances()) {
                Channel c = i.ch;
                if (i.state <= ShmConnection.CONNECTED && c != null) {
                    try {
                        channels += Native.resident(errno, c.map, a);
                    } catch (IllegalStateException unmapped) {
                        // it ended meanwhile
                    }
                }
            }
            SharedQueue q = receiving.queue();
            into.accept("shm channels", channels);
            into.accept("shm queue", q == null ? 0 : Native.resident(errno, q.map, a));
        }
        long arena = 0;
        synchronized (this) {
            for (MemorySegment m : arenas) {
                arena += m.byteSize();
            }
        }
        into.accept("shm arena", arena);
        into.accept("shm context", ShmLayout.CONTEXT_BYTES);
    }

    /** A disconnected instance: no longer among the context's instances. */
    void retire(ShmInstance inst) {
        life.remove(inst);
    }

    /** Connections made to each peer context so far, by its key: the generation of the next one's channel. */
    private final java.util.Map<String, Integer> channelsMade = new java.util.HashMap<>();

    /** The generation of a new connection to the context with key {@code peerKey} (0 for the first). */
    synchronized int nextChannel(String peerKey) {
        return channelsMade.merge(peerKey, 1, Integer::sum) - 1;
    }

    /**
     * Publishes a request in the peer's context file that it connect to us (connections are made
     * on first use, so the peer may not know). False when all its slots are taken: try again.
     */
    boolean postRequest(MemorySegment peerCtx) {
        byte[] k = key.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < ShmLayout.REQUEST_SLOTS; i++) {
            long at = ShmLayout.request(i);
            if ((int) Channel.INT.getVolatile(peerCtx, at + ShmLayout.REQUEST_STATE) == ShmLayout.REQUEST_FREE
                    && Channel.INT.compareAndSet(peerCtx, at + ShmLayout.REQUEST_STATE, ShmLayout.REQUEST_FREE, ShmLayout.REQUEST_WRITING)) {
                peerCtx.set(ValueLayout.JAVA_INT, at + ShmLayout.REQUEST_KEY_LENGTH, k.length);
                MemorySegment.copy(k, 0, peerCtx, ValueLayout.JAVA_BYTE, at + ShmLayout.REQUEST_KEY, k.length);
                Channel.INT.setRelease(peerCtx, at + ShmLayout.REQUEST_STATE, ShmLayout.REQUEST_PUBLISHED);
                Channel.INT.getAndAdd(peerCtx, ShmLayout.REQUESTS_PUBLISHED_OFFSET, 1);
                ringDoorbell(peerCtx); // the peer may sleep in wait-any: let it take us up now
                return true;
            }
        }
        return false;
    }

    @Override
    public Status acceptProbe(ConnectRequest request) {
        if (life.isClosed()) {
            return Status.CLOSED;
        }
        if (map == null) {
            return Status.NOT_YET;
        }
        int published = (int) Channel.INT.getVolatile(map, ShmLayout.REQUESTS_PUBLISHED_OFFSET);
        if (published == requestsSeen) {
            return Status.NOT_YET; // the common case: one load
        }
        for (int i = 0; i < ShmLayout.REQUEST_SLOTS; i++) {
            long at = ShmLayout.request(i);
            if ((int) Channel.INT.getAcquire(map, at + ShmLayout.REQUEST_STATE) != ShmLayout.REQUEST_PUBLISHED) {
                continue;
            }
            String name = requestedPeerFile(at);
            Channel.INT.setRelease(map, at + ShmLayout.REQUEST_STATE, ShmLayout.REQUEST_FREE);
            if (name == null || served(name)) {
                continue; // a garbled request (nothing to connect to), or a peer we serve already
            }
            request.url = DriverUrl.single((URL_PREFIX + name).getBytes(StandardCharsets.US_ASCII));
            request.rank = rankOf(name);
            return Status.DONE;
        }
        requestsSeen = published;
        requestsWaitSeen = published; // taken up already: nothing left for a wait to report
        return Status.NOT_YET;
    }

    /** The rank in a context file's name ({@code ferry-JOB-rRANK-pPID-cSEQ.ctx}), or -1. */
    static int rankOf(String contextFile) {
        java.util.regex.Matcher m = ShmConnection.CONTEXT_NAME.matcher(contextFile);
        if (!m.matches()) {
            return -1;
        }
        String key = m.group(2); // rRANK-pPID-cSEQ
        try {
            return Integer.parseInt(key.substring(1, key.indexOf('-')));
        } catch (NumberFormatException e) {
            return -1; // more digits than an int
        }
    }

    /** The context file of the peer whose request is in the slot at {@code at}; null when the request is garbled. */
    private String requestedPeerFile(long at) {
        int n = map.get(ValueLayout.JAVA_INT, at + ShmLayout.REQUEST_KEY_LENGTH);
        if (n <= 0 || n > ShmLayout.REQUEST_KEY_MAX) {
            return null;
        }
        String peerKey = new String(map.asSlice(at + ShmLayout.REQUEST_KEY, n).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII);
        return peerKey.matches("r\\d+-p\\d+-c\\d+") ? "ferry-" + job + "-" + peerKey + ".ctx" : null;
    }

    private boolean served(String peerFileName) {
        for (ShmInstance i : life.instances()) {
            if (i.servesPeer(peerFileName)) {
                return true;
            }
        }
        return false;
    }

    // ---- sleeping and waking ----------------------------------------------------------------

    /**
     * Sleeps until a peer rings this context's doorbell, {@code recheck} says there is work, or
     * {@link #SLEEP_NANOS} pass. The sleeper count is raised before the re-check, and peers read
     * it after publishing (both full fences), so a post is never slept through.
     */
    void sleep(java.util.function.BooleanSupplier recheck, MemorySegment errno, MemorySegment timeout) {
        sleep(false, 0, recheck, errno, timeout);
    }

    /**
     * {@link #sleep(java.util.function.BooleanSupplier, MemorySegment, MemorySegment)}; with
     * {@code given}, it also returns at once when the doorbell no longer holds {@code bell} (read
     * by the caller before it looked for work), else it sleeps on the value read after the
     * sleeper count rose.
     */
    private void sleep(boolean given, int bell, java.util.function.BooleanSupplier recheck, MemorySegment errno, MemorySegment timeout) {
        Channel.INT.getAndAdd(map, ShmLayout.SLEEPERS_OFFSET, 1);
        try {
            if (!given) {
                bell = doorbell();
            }
            if (!recheck.getAsBoolean() && !life.isClosed()) {
                Native.futexWait(errno, map.asSlice(ShmLayout.DOORBELL_OFFSET, 4), bell, timeout);
            }
        } finally {
            Channel.INT.getAndAdd(map, ShmLayout.SLEEPERS_OFFSET, -1);
        }
    }

    /** Wakes every sleeper of this context (cancel, close). */
    private void ringOwnDoorbell() {
        if (map != null) {
            Channel.INT.getAndAdd(map, ShmLayout.DOORBELL_OFFSET, 1);
            try (Arena a = Arena.ofConfined()) {
                Native.futexWake(Native.errnoCapture(a), map.asSlice(ShmLayout.DOORBELL_OFFSET, 4), Integer.MAX_VALUE);
            }
        }
    }

    /** Wakes the sleepers of the context mapped at {@code ctx}, if it has any (after a full fence). */
    private static void ringDoorbell(MemorySegment ctx) {
        if ((int) Channel.INT.getVolatile(ctx, ShmLayout.SLEEPERS_OFFSET) > 0) {
            Channel.INT.getAndAdd(ctx, ShmLayout.DOORBELL_OFFSET, 1);
            try (Arena a = Arena.ofConfined()) {
                Native.futexWake(Native.errnoCapture(a), ctx.asSlice(ShmLayout.DOORBELL_OFFSET, 4), Integer.MAX_VALUE);
            }
        }
    }

    /**
     * Whether a connection request came that wait-any has not reported yet and acceptProbe would
     * report (from a peer no instance serves); marks what came reported.
     */
    private boolean newRequestForWait() {
        int published = (int) Channel.INT.getVolatile(map, ShmLayout.REQUESTS_PUBLISHED_OFFSET);
        if (published == requestsWaitSeen) {
            return false;
        }
        requestsWaitSeen = published;
        for (int i = 0; i < ShmLayout.REQUEST_SLOTS; i++) {
            long at = ShmLayout.request(i);
            if ((int) Channel.INT.getAcquire(map, at + ShmLayout.REQUEST_STATE) != ShmLayout.REQUEST_PUBLISHED) {
                continue;
            }
            String name = requestedPeerFile(at);
            if (name != null && !served(name)) {
                return true;
            }
        }
        return false; // the answers of peers we connected to
    }

    static MemorySegment timespec(Arena a, long nanos) {
        MemorySegment ts = a.allocate(16, 8);
        setTimespec(ts, nanos);
        return ts;
    }

    static void setTimespec(MemorySegment ts, long nanos) {
        ts.set(ValueLayout.JAVA_LONG, 0, nanos / 1_000_000_000L);
        ts.set(ValueLayout.JAVA_LONG, 8, nanos % 1_000_000_000L);
    }

    // ---- probe-any, wait-any ----------------------------------------------------------------

    @Override
    public Status recvProbeAny(InstanceRef ready) {
        return life.probeAny(ready, ShmInstance::hasIncoming);
    }

    @Override
    public Status recvWaitAny(InstanceRef ready) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = Native.errnoCapture(a);
            MemorySegment timeout = timespec(a, SLEEP_NANOS);
            long sleepNanos = SLEEP_NANOS;
            for (int round = 0; ; round++) {
                if (life.takeCancel()) {
                    return Status.CANCELED;
                }
                int bell = doorbell();
                Status s = recvProbeAny(ready);
                if (s != Status.NOT_YET) {
                    bellReported = bell;
                    return s;
                }
                if (map != null && newRequestForWait()) {
                    bellReported = bell;
                    return Status.NOT_YET; // a peer asks to connect: acceptProbe reports it
                }
                if (bell != bellReported) {
                    bellReported = bell;
                    return Status.NOT_YET; // a peer moved a send of ours on (pulled it, freed room), or left: the engine looks
                }
                if (round < SPIN_ROUNDS) {
                    Thread.onSpinWait();
                    continue;
                }
                setTimespec(timeout, sleepNanos);
                sleep(true, bell, () -> life.cancelPending() || anyIncoming() || requestWaiting(), errno, timeout);
                sleepNanos = Math.min(2 * sleepNanos, LONGEST_SLEEP_NANOS);
                for (ShmInstance i : life.instances()) {
                    i.checkPeerAlive(); // a dead peer rings no bell: look after every sleep
                }
            }
        } catch (IllegalStateException e) {
            if (life.isClosed()) {
                return Status.CLOSED; // the mapping went away under a waiter
            }
            throw e;
        }
    }

    /** Whether a thread sleeps on this context's doorbell (tests wait for it). */
    boolean asleep() {
        return map != null && (int) Channel.INT.getVolatile(map, ShmLayout.SLEEPERS_OFFSET) > 0;
    }

    /** This context's doorbell: bumped by peers that signal it ({@link Channel#signalPeer}) or wake its sleepers. */
    private int doorbell() {
        return map == null ? 0 : (int) Channel.INT.getVolatile(map, ShmLayout.DOORBELL_OFFSET);
    }

    private boolean requestWaiting() {
        return map != null && (int) Channel.INT.getVolatile(map, ShmLayout.REQUESTS_PUBLISHED_OFFSET) != requestsWaitSeen;
    }

    private boolean anyIncoming() {
        for (ShmInstance i : life.instances()) {
            if (i.hasIncoming()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Status recvCancelAny() {
        return life.cancelAny(this::ringOwnDoorbell);
    }

    @Override
    public void close() {
        if (!life.closeEach(ShmInstance::contextClosed)) {
            return;
        }
        ringOwnDoorbell();
        if (exitHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(exitHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs or ran
            }
        }
        removeFiles();
        try {
            arena.close();
        } catch (IllegalStateException e) {
            // a thread still inside a call on a mapping: the mappings go with the process then
        }
    }

    /** Deletes the files this context made: its own, its arenas, the channels its instances created. */
    private void removeFiles() {
        if (file != null) {
            ShmFiles.delete(file);
        }
        arenaFiles.forEach(ShmFiles::delete);
        SharedQueue q = receiving.queue();
        if (q != null) {
            ShmFiles.delete(q.file);
        }
        ShmInstance[] all = life.instances();
        if (all != null) {
            for (ShmInstance i : all) {
                i.removeChannelFile();
            }
        }
    }

    @Override
    public String toString() {
        return "shm context " + (file != null ? file.getFileName() : key);
    }
}
