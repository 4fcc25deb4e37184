package dev.ferry.core.agent;

import dev.ferry.spi.Capabilities;
import dev.ferry.spi.ConnectRequest;
import dev.ferry.spi.CpuSet;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverException;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverProperties;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.Profile;
import dev.ferry.spi.Status;
import dev.ferry.spi.Transport;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A rank's context of the agent driver: its connection to the node's agent, its two packet rings
 * and its instances by the rank they reach. Arriving records are in one ring for all peers: an
 * instance takes the first record when it is its own, so the engine, polling every gate, takes
 * each in turn; a peer's first record is its greeting (its URL), which {@link #acceptProbe}
 * reports. Used under the engine's progress lock, like every driver.
 */
final class AgentContext implements DriverContext, MatchOffload.AnySource {
    /** Bytes of one record's payload: a buffer-sent packet, or a fragment of a larger one. */
    static final int FRAGMENT = 128 * 1024;
    /** How long a rank waits for the node's agent to answer, starting it if need be. */
    private static final Duration CONNECT_BOUND = Duration.ofSeconds(30);
    /** How long a started agent outlives its last rank. */
    private static final Duration IDLE_EXIT = Duration.ofSeconds(10);
    /** How often (in polls) a rank reads the clock to see whether a look at its agent is due. */
    private static final int LIVENESS_POLLS = 64;

    private static final System.Logger LOG = System.getLogger(AgentContext.class.getName());
    private final Hints hints;
    /** Which of the node's rails this context's channel serves (its driver's context number: FERRY_RAILS=agent:2). */
    private final int rail;
    private AgentClient client;
    ByteRing out, in;
    /** What this rank offers its peers to pull, and what it asked its agent to pull for it. */
    PullSlots exposures, pulls;
    /** The instance each slot in use is for, so a peer that goes gives its slots back. */
    final AgentInstance[] exposureOwner = new AgentInstance[ChannelLayout.PULL_SLOTS], pullOwner = new AgentInstance[ChannelLayout.PULL_SLOTS];
    /**
     * Native memory a pull lands in, per pull slot, when the receive's own is not one native range
     * (a heap array, a scattered layout): the agent reaches only native memory of this process.
     */
    final Staging pullStaging = new Staging(Staging.KEEP_BYTES, this::mappedMemory);
    /** The same for a send's memory, per exposure slot: copied in, then exposed. */
    final Staging exposureStaging = new Staging(Staging.KEEP_BYTES, this::mappedMemory);
    /** Where staging memory the agent maps lies while it is made (tmpfs). */
    private static final Path SHM = Path.of("/dev/shm");
    private DriverUrl url;
    private String agentAddress;
    /** The instance that reaches each rank, or null. */
    final AgentInstance[] peers;
    /** Receives of any source armed in the pull slots. */
    private final AnySourceArms anySource = new AnySourceArms(this);
    private int polls;
    private long lastLiveness = System.nanoTime();
    /** Why the agent no longer serves, once it does not. */
    volatile String agentFailure;
    private boolean closed;

    AgentContext(Hints hints) {
        this.hints = hints;
        this.peers = new AgentInstance[hints.sessionSize()];
        String r = hints.attribute(Hints.RAIL, "0");
        try {
            this.rail = Integer.parseInt(r);
        } catch (NumberFormatException e) {
            throw new DriverException("agent: rail '" + r + "' is not a number");
        }
        if (rail < 0 || rail >= Agent.MAX_RAILS) {
            throw new DriverException("agent: rail " + rail + " is not one of 0.." + (Agent.MAX_RAILS - 1));
        }
    }

    @Override
    public DriverProperties properties() {
        Capabilities caps = Capabilities.builder()
                .supportsData(true)
                .supportsIovec(true)
                .maxIovecSegments(1024)
                .supportsBufSend(true)
                .supportsBufRecv(true)
                .maxBufferSize(FRAGMENT)
                .hasRecvAny(true)
                .supportsWaitAny(true)
                .maxPacketSize(1L << 40)
                .pullDataSize(ChannelLayout.PULL_DATA_BYTES)
                .transport(Transport.REMOTE)
                .build();
        return new DriverProperties(caps, new Profile(9_000, 4_000, CpuSet.all()));
    }

    @Override
    public DriverUrl init() {
        String key = hints.attribute(Hints.JOB_KEY, null);
        if (key == null) {
            throw new DriverException("agent: no job key (the launcher gives one)");
        }
        Path socket = AgentSettings.socket(hints.settings(), key, hints.attribute(Hints.NODE, ""));
        try {
            // the node's links follow the ranks' own connection settings: closed when idle, capped
            client = AgentLauncher.connectOrStart(socket, key, Path.of("/dev/shm"), CONNECT_BOUND, IDLE_EXIT, true,
                    Duration.ofNanos(dev.ferry.core.config.EngineSettings.idleCloseNanos(hints.settings())),
                    dev.ferry.core.config.EngineSettings.maxConnections(hints.settings()));
            agentAddress = client.attach(hints.rank(), rail);
        } catch (AgentException e) {
            if (client != null) {
                client.close();
            }
            throw new DriverException("agent: " + e.getMessage(), e);
        }
        out = client.outRing();
        in = client.inRing();
        bellSeen = (int) INT.getVolatile(client.channel(), ChannelLayout.BELL);
        if (out != null) {
            exposures = new PullSlots(client.exposureSlots());
            pulls = new PullSlots(client.pullSlots(), client.matchFields());
        }
        if (out == null || in == null) {
            client.close();
            throw new DriverException("agent: the agent at " + socket + " gives no packet rings (an older agent?)");
        }
        url = DriverUrl.single((hints.rank() + "|" + agentAddress).getBytes(StandardCharsets.UTF_8));
        return url;
    }

    DriverUrl url() {
        return url;
    }

    AgentClient client() {
        return client;
    }

    /**
     * Room for a record of up to {@code n} bytes in the OUT ring ({@link ByteRing#claim}), or -1.
     * Finding none, the rank asks the agent to ring its bell once it has made room, then looks
     * again: either that look finds the room or the agent sees the ask, so a send that sleeps on
     * a full ring is woken as soon as the agent has drained it, not at the end of a doze
     * ({@link #recvWaitAny}).
     */
    long claimOut(long n) {
        long at = out.claim(n);
        if (at >= 0) {
            return at;
        }
        INT.setVolatile(client.channel(), ChannelLayout.OUT_WAITS, 1);
        java.lang.invoke.VarHandle.fullFence(); // the ask before the second look at the consumer's position
        return out.claim(n);
    }

    /** After a record went into the OUT ring: wakes the agent if it sleeps. */
    void posted() {
        client.wakeAgent();
    }

    String agentAddress() {
        return agentAddress;
    }

    /** The rank a URL names. */
    static int rankOf(DriverUrl u) {
        String s = new String(u.first(), StandardCharsets.UTF_8);
        int bar = s.indexOf('|');
        if (bar <= 0) {
            throw new IllegalArgumentException("not an agent URL: '" + s + "'");
        }
        return Integer.parseInt(s.substring(0, bar));
    }

    /** The agent address a URL names. */
    static String agentOf(DriverUrl u) {
        String s = new String(u.first(), StandardCharsets.UTF_8);
        return s.substring(s.indexOf('|') + 1);
    }

    @Override
    public DriverInstance newInstance() {
        if (client == null) {
            throw new IllegalStateException("agent: newInstance before init");
        }
        return new AgentInstance(this);
    }

    /**
     * The last record of a packet received into the engine's memory, released when the engine
     * next asks for a record: until then it is not released, so the agent, which matches only
     * behind released records ({@link ByteRing#matchedAhead}), never matches past a packet the
     * engine has yet to parse.
     */
    long parsedLast = -1;

    /** The engine asks for a record again: it has handled the packet {@link #parsedLast} ended. */
    private void releaseParsed() {
        if (parsedLast >= 0) {
            in.release(parsedLast);
            parsedLast = -1;
        }
    }

    /**
     * The first arriving record when it is {@code i}'s, else -1. Records nobody will take (from a
     * peer disconnected, or a greeting from a peer already connected) are dropped on the way.
     */
    long headFor(AgentInstance i) {
        if (!live()) {
            return -1;
        }
        releaseParsed();
        while (true) {
            long r = in.next();
            if (r < 0) {
                return -1;
            }
            int from = in.origin(r);
            AgentInstance owner = from >= 0 && from < peers.length ? peers[from] : null;
            int kind = in.kind(r);
            if (kind == ChannelLayout.HELLO && owner != null || kind == ChannelLayout.GONE) {
                if (owner != null && kind == ChannelLayout.GONE) {
                    owner.gone(); // its next poll says so; the records behind it go on
                }
                in.release(r); // known already, or gone
                continue;
            }
            return owner == i ? r : -1;
        }
    }

    /** Whether the agent serves; checked every few thousand polls. */
    boolean live() {
        if (agentFailure != null) {
            return false;
        }
        if (++polls >= LIVENESS_POLLS) { // a clock read every few polls, a look at the agent every millisecond
            polls = 0;
            long now = System.nanoTime();
            if (now - lastLiveness > 1_000_000L) {
                lastLiveness = now;
                if (agentFailed()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Looks at the agent (its closed word, its process, its beat); once it fails, says so once and keeps why. */
    private boolean agentFailed() {
        String f = client.failure();
        if (f != null && agentFailure == null) {
            agentFailure = f;
            LOG.log(System.Logger.Level.WARNING, "rank {0}: {1}: every peer on another node is unreachable", hints.rank(), f);
        }
        return f != null;
    }

    @Override
    public Status acceptProbe(ConnectRequest request) {
        if (closed) {
            return Status.CLOSED;
        }
        if (!live()) {
            return Status.NOT_YET;
        }
        releaseParsed();
        while (true) {
            long r = in.next();
            if (r < 0) {
                return Status.NOT_YET;
            }
            int from = in.origin(r), kind = in.kind(r);
            AgentInstance owner = from >= 0 && from < peers.length ? peers[from] : null;
            if (kind == ChannelLayout.GONE || kind != ChannelLayout.HELLO && owner == null) {
                // nobody takes these (a rank of this node gone, a record of no instance): a rank with no
                // instance yet only ever asks here, and they would hold every greeting behind them
                if (owner != null) {
                    owner.gone();
                }
                in.release(r);
                continue;
            }
            if (kind != ChannelLayout.HELLO) {
                return Status.NOT_YET; // an instance's, which takes it
            }
            if (from < 0 || from >= peers.length || owner != null) {
                in.release(r);
                continue;
            }
            byte[] u = in.memory().asSlice(ByteRing.payload(r), in.length(r)).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            in.release(r);
            request.url = DriverUrl.decode(u);
            request.rank = from;
            return Status.DONE;
        }
    }

    @Override
    public Status recvProbeAny(InstanceRef ready) {
        if (closed) {
            return Status.CLOSED;
        }
        if (!live()) {
            return Status.BROKEN;
        }
        releaseParsed();
        while (true) {
            long r = in.next();
            if (r < 0) {
                return Status.NOT_YET;
            }
            int from = in.origin(r);
            AgentInstance owner = from >= 0 && from < peers.length ? peers[from] : null;
            if (owner == null) {
                if (in.kind(r) == ChannelLayout.HELLO) {
                    return Status.NOT_YET; // acceptProbe's
                }
                in.release(r);
                continue;
            }
            if (in.kind(r) == ChannelLayout.HELLO) {
                in.release(r);
                continue;
            }
            if (in.kind(r) == ChannelLayout.GONE) {
                owner.gone();
                in.release(r);
            }
            ready.instance = owner;
            return Status.DONE;
        }
    }

    private static final java.lang.invoke.VarHandle INT = java.lang.foreign.ValueLayout.JAVA_INT.varHandle();
    /**
     * The bell as the last wait on it left it (the waiting thread's alone): the next wait sleeps
     * only while the bell still reads that, so a ring that came after the rank's progress pass
     * began, before the wait, ends the wait at once.
     */
    private int bellSeen;
    /** How long one sleep on the bell lasts at most: the agent's liveness is looked at between two. */
    private static final long SLEEP_NANOS = 100_000_000L;
    private final java.util.concurrent.atomic.AtomicBoolean cancel = new java.util.concurrent.atomic.AtomicBoolean();
    private java.lang.foreign.Arena waitArena;
    private MemorySegment errno, timeout;

    /**
     * Sleeps until records come into the IN ring (the agent rings the bell and wakes this rank
     * with a futex), the agent fails, or a cancel; answers NOT_YET for the engine to look. It
     * only looks at the ring, never takes from it: the engine's thread does that.
     */
    @Override
    public Status recvWaitAny(InstanceRef ready) {
        synchronized (this) {
            if (waitArena == null) {
                waitArena = java.lang.foreign.Arena.ofAuto(); // the watcher thread may outlive close() by a moment
                errno = dev.ferry.spi.Syscall.errnoCapture(waitArena);
                timeout = waitArena.allocate(16, 8);
                timeout.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, 0);
                timeout.set(java.lang.foreign.ValueLayout.JAVA_LONG, 8, SLEEP_NANOS);
            }
        }
        MemorySegment ch = client.channel();
        while (true) {
            if (cancel.getAndSet(false)) {
                return Status.CANCELED;
            }
            if (closed) {
                return Status.CLOSED;
            }
            if (agentFailure != null) {
                return Status.BROKEN;
            }
            // the agent rings after every answer (a slot, a count, room in the OUT ring), not only
            // after records: one rung since the last wait may be for something the pass before this
            // wait did not see, so the wait ends (an extra pass at most)
            int bell = bellSeen, now = (int) INT.getVolatile(ch, ChannelLayout.BELL);
            if (now != bell || !in.isEmpty()) {
                bellSeen = now;
                return Status.NOT_YET;
            }
            INT.setVolatile(ch, ChannelLayout.RANK_SLEEPS, 1);
            try {
                if (!in.isEmpty() || (int) INT.getVolatile(ch, ChannelLayout.BELL) != bell) {
                    bellSeen = (int) INT.getVolatile(ch, ChannelLayout.BELL);
                    return Status.NOT_YET;
                }
                dev.ferry.spi.Syscall.call(errno, dev.ferry.spi.Syscall.number(dev.ferry.spi.Syscall.Call.FUTEX), ch.address() + ChannelLayout.BELL,
                        0 /* FUTEX_WAIT */, bell, timeout.address(), 0, 0);
            } finally {
                INT.setVolatile(ch, ChannelLayout.RANK_SLEEPS, 0);
            }
            now = (int) INT.getVolatile(ch, ChannelLayout.BELL);
            if (now != bell) {
                bellSeen = now;
                return Status.NOT_YET;
            }
            agentFailed(); // ten milliseconds asleep: a look at the agent costs nothing here
        }
    }

    @Override
    public Status recvCancelAny() {
        cancel.set(true);
        if (client != null) {
            MemorySegment ch = client.channel();
            INT.getAndAdd(ch, ChannelLayout.BELL, 1);
            synchronized (this) {
                if (errno != null) {
                    dev.ferry.spi.Syscall.call(errno, dev.ferry.spi.Syscall.number(dev.ferry.spi.Syscall.Call.FUTEX), ch.address() + ChannelLayout.BELL,
                            1 /* FUTEX_WAKE */, Integer.MAX_VALUE, 0, 0, 0);
                }
            }
        }
        return Status.DONE;
    }

    /**
     * Arena memory of this rank (kept until it leaves): the agent maps it too, so that pulls from
     * and into it move between its links and this memory with no copy in the agent's own.
     * Memory the agent cannot map is reached as any other.
     */
    @Override
    public void prepareShared(MemorySegment memory) {
        if (client == null || closed || agentFailure != null || !memory.isNative() || memory.byteSize() == 0) {
            return;
        }
        try {
            boolean m = client.map(memory.address(), memory.byteSize());
            LOG.log(System.Logger.Level.DEBUG, "agent: {0} bytes of arena memory {1}", memory.byteSize(), m ? "mapped by the agent" : "not mappable by the agent");
        } catch (AgentException e) {
            LOG.log(System.Logger.Level.DEBUG, "agent: could not map arena memory: {0}", e.getMessage());
        }
    }

    /**
     * A table of the layer above in arena memory ({@link #prepareShared} gave it to the agent):
     * the agent's offload of its kind reads it there ({@link AgentOffload}), and serves some of
     * this rank's arriving messages by itself. Every rail's channel publishes it.
     */
    @Override
    public boolean offloadTable(int kind, MemorySegment table) {
        if (client == null || closed || agentFailure != null || !table.isNative() || table.byteSize() == 0) {
            return false;
        }
        try {
            return client.table(kind, table.address(), table.byteSize());
        } catch (AgentException e) {
            LOG.log(System.Logger.Level.DEBUG, "agent: could not publish a table of kind {0}: {1}", kind, e.getMessage());
            return false;
        }
    }

    /**
     * {@code bytes} of a file in /dev/shm that this rank maps and its agent maps too (staging the
     * agent moves pulls in and out of with no copy of its own), or null where that cannot be. The
     * file is named only until the agent mapped it (as the job's, for the launcher to remove were
     * this rank to die meanwhile); the pages live while either maps them.
     */
    private MemorySegment mappedMemory(long bytes, java.lang.foreign.Arena arena) {
        if (client == null || closed || agentFailure != null || !java.nio.file.Files.isDirectory(SHM)) {
            return null;
        }
        Path f = null;
        try {
            String job = hints.attribute(Hints.JOB_ID, "solo").replaceAll("[^A-Za-z0-9_.]", "_");
            f = java.nio.file.Files.createTempFile(SHM, "ferry-" + job + "-r" + hints.rank() + "-p" + ProcessHandle.current().pid() + "-staging-", "",
                    java.nio.file.attribute.PosixFilePermissions.asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            MemorySegment m;
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(f, java.nio.file.StandardOpenOption.READ,
                    java.nio.file.StandardOpenOption.WRITE)) {
                m = ch.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
            }
            return populated(m) && client.map(m.address(), bytes) ? m : null;
        } catch (java.io.IOException | AgentException | UnsupportedOperationException e) {
            LOG.log(System.Logger.Level.DEBUG, "agent: staging the agent maps could not be made: {0}", e.toString());
            return null;
        } finally {
            if (f != null) {
                try {
                    java.nio.file.Files.deleteIfExists(f);
                } catch (java.io.IOException ignored) {
                    // the launcher removes the job's files
                }
            }
        }
    }

    private static final int MADV_POPULATE_WRITE = 23;

    /**
     * Gives {@code m} (a file mapping in tmpfs) its pages now: a /dev/shm too full for them is then
     * an error here, and the memory not used, rather than a SIGBUS at some later write. False when
     * they could not all be had, or the kernel cannot do it (before Linux 5.14).
     */
    private static boolean populated(MemorySegment m) {
        if (!dev.ferry.spi.Syscall.available()) {
            return false;
        }
        try (java.lang.foreign.Arena call = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment errno = dev.ferry.spi.Syscall.errnoCapture(call);
            return dev.ferry.spi.Syscall.call(errno, dev.ferry.spi.Syscall.number(dev.ferry.spi.Syscall.Call.MADVISE), m.address(), m.byteSize(),
                    MADV_POPULATE_WRITE, 0, 0, 0) == 0;
        }
    }

    /**
     * The node's agent (its process) and its links to other nodes (one per node pair and rail,
     * shared by the node's ranks): said by the first rail's context alone, for all rails.
     */
    @Override
    public void connectionsHeld(java.util.function.ObjLongConsumer<String> into) {
        if (client != null && !closed && agentFailure == null && rail == 0) {
            try {
                long[] links = client.linkCounts();
                into.accept("agent process", client.agentPid()); // which agent: one a launcher started, say
                into.accept("agent links to other nodes", links[0]);
                if (links[3] > 1) {
                    into.accept("agent rails", links[3]);
                }
                if (links[1] + links[2] > 0) {
                    into.accept("agent links closed-idle", links[1]);
                    into.accept("agent links evicted", links[2]);
                }
                if (links[4] > 0) {
                    into.accept("agent pulled bytes, mapped", links[4]);
                }
                if (links[5] > 0) {
                    into.accept("agent offloaded messages", links[5]);
                }
            } catch (AgentException e) {
                // the agent is gone: no links to count
            }
        }
    }

    /** The rank's two packet rings, in the memory it shares with its agent. */
    @Override
    public void bytesHeld(java.util.function.ObjLongConsumer<String> into) {
        if (out != null) {
            into.accept("agent rings", 2 * (ChannelLayout.RING_DATA + out.capacity()));
        }
        long staged = pullStaging.bytesHeld() + exposureStaging.bytesHeld();
        if (staged > 0) {
            into.accept("agent staging", staged);
        }
    }

    @Override
    public MatchOffload anySourceMatcher() {
        return pulls == null ? null : anySource;
    }

    /**
     * Gives back pull slot {@code slot} once its agent answered it (or the rank took it back
     * before the agent claimed it): the agent writes there no more, so its staging may go too.
     * Not for a slot given back while the agent may still write ({@link #freeSlots}).
     */
    void pullEnded(int slot) {
        pulls.free(slot);
        pullStaging.done(slot);
    }

    /** Gives back the slots {@code i} holds (its peer is gone or it disconnected): the agent's late answers to them change nothing. */
    void freeSlots(AgentInstance i) {
        for (int s = 0; s < ChannelLayout.PULL_SLOTS; s++) {
            if (exposureOwner[s] == i) {
                exposureOwner[s] = null;
                exposures.free(s);
            }
            if (pullOwner[s] == i) {
                pullOwner[s] = null;
                pulls.free(s);
            }
        }
    }

    void forget(AgentInstance i, int rank) {
        if (rank >= 0 && rank < peers.length && peers[rank] == i) {
            peers[rank] = null;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (client != null) {
            recvCancelAny();
            client.close();
        }
        pullStaging.close();
        exposureStaging.close();
    }

    @Override
    public String toString() {
        return "agent context of rank " + hints.rank() + (agentAddress != null ? " via " + agentAddress : "");
    }
}
