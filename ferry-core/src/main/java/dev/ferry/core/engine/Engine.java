package dev.ferry.core.engine;

import dev.ferry.core.boot.WireUp;
import dev.ferry.core.config.EngineSettings;
import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.core.gate.Gate;
import dev.ferry.core.gate.GateOwner;
import dev.ferry.core.gate.GatePolicy;
import dev.ferry.core.gate.Gates;
import dev.ferry.core.rail.EngineContext;
import dev.ferry.core.rail.EngineStats;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.MessageHandler;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.SendRequest;
import dev.ferry.launch.pmi.Bootstrap;
import dev.ferry.spi.IdleStrategy;
import dev.ferry.spi.Settings;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The engine of one process (seeds 000, 001, 002): a session of {@code size} ranks, a gate per
 * peer, and on each gate the rails its locality calls for. A rank reaches itself through
 * {@code self}; peers on its node through the local driver (shm), which overrides the remote one
 * (seed 001); all others through the remote driver (tcp). Several contexts of one class are
 * several rails (FERRY_RAILS), over which large messages are split by bandwidth. Connections
 * are made on first use.
 *
 * <p>Messages: immediate up to the gate's eager limit (aggregated into one packet when several
 * wait), else rendezvous (the target decides where the data goes, then the driver moves it by
 * its best way). Per-peer credits bound the unexpected immediate data a receiver holds.
 *
 * <p>Progress: by {@link #progress()} and by waiting on a request in the calling thread (caller
 * mode: one thread at a time), or by a background thread ({@code FERRY_PROGRESS=thread}, seed
 * 004's offload), to which other threads hand their requests.
 *
 * <pre>{@code
 * try (Engine e = Engine.init(m -> m.receive(inbox, inboxRequest))) {
 *     SendRequest s = new SendRequest();
 *     e.send(s.to((e.rank() + 1) % e.size(), 42L, data));
 *     s.join(Duration.ofSeconds(10));
 * }
 * }</pre>
 */
public final class Engine implements GateOwner, AutoCloseable {
    /** Where this engine reports (its configuration's logger). */
    final System.Logger log;
    static final Duration CLOSE_FLUSH = Duration.ofSeconds(30);
    /** How long close waits to meet the other ranks before this rank leaves on its own ({@link Shutdown#meet}). */
    static final Duration CLOSE_MEET = Duration.ofSeconds(3);

    final int rank;
    private final int size;
    /** How this engine's waiters idle ({@link #idleStrategy}): spin, yield, nap, then doze in the drivers' waits. */
    private final IdleStrategy idle;
    private final WireUp wire;
    private final boolean ownsBootstrap;
    private final MessageHandler handler;
    private final Gates gates;
    /** {@link #gates}' array, by rank: a send indexes it without a call. */
    private final Gate[] byRank;
    /** Receives of any source handed to the node agent to match. */
    private final AnySourceOffload anySource;
    /** FERRY_STATS=on: the figures are logged at close. */
    private final boolean statsAtClose;
    private final List<EngineContext> contexts;
    private final SharedMemory memory;
    final EngineStats stats;
    private final Settings settings;

    /** Who holds the engine's thread of control (reentrant: a handler may send). */
    private final ControlOwner control = new ControlOwner();
    private int passes;
    /** Passes in a row that found nothing to do. */
    private int idlePasses;
    /** A doze's watcher saw a connection request: look for it on the next pass. */
    private volatile boolean acceptsDue;
    private final Doze doze;
    volatile boolean closing;
    private volatile boolean closed;

    /** The background progress thread (FERRY_PROGRESS=thread), or null in caller mode. */
    private final ProgressThread thread;

    /** Starts an engine from the environment: the launcher's bootstrap, the drivers FERRY_DRIVERS selects. */
    public static Engine init(MessageHandler handler) {
        return init(new EngineConfig(), handler);
    }

    /** Starts an engine on a given bootstrap with the given drivers, in order of preference (collective). */
    public static Engine init(Bootstrap boot, List<DiscoveredDriver> drivers, MessageHandler handler) {
        return init(new EngineConfig().bootstrap(boot).drivers(drivers), handler);
    }

    /**
     * Starts an engine as {@code config} says (collective: every rank of the bootstrap's job calls
     * it). A bootstrap the configuration does not give is made from the environment and closed
     * with the engine; one it gives stays the caller's.
     */
    public static Engine init(EngineConfig config, MessageHandler handler) {
        boolean owns = config.bootstrap() == null;
        Bootstrap boot = config.resolveBootstrap();
        try {
            return new Engine(boot, owns, config, handler);
        } catch (RuntimeException e) {
            if (owns) {
                boot.close();
            }
            throw e;
        }
    }

    private Engine(Bootstrap boot, boolean ownsBootstrap, EngineConfig config, MessageHandler handler) {
        this.handler = java.util.Objects.requireNonNull(handler, "handler");
        this.ownsBootstrap = ownsBootstrap;
        this.log = config.resolveLogger();
        Settings settings = config.settings();
        this.settings = settings;
        GatePolicy policy = GatePolicy.of(settings);
        Map<String, Integer> railCounts = EngineSettings.railCounts(settings.value(EngineSettings.RAILS));
        boolean threadMode = config.resolveProgress() == EngineConfig.Progress.THREAD;
        List<DiscoveredDriver> drivers = config.resolveDrivers();
        this.wire = WireUp.exchange(boot, drivers, railCounts, settings);
        this.rank = wire.rank();
        this.size = wire.size();
        this.contexts = Gates.contexts(wire);
        this.stats = new EngineStats(contexts.stream().map(EngineContext::name).toArray(String[]::new));
        this.memory = new SharedMemory(contexts);
        this.gates = new Gates(this, wire, contexts, policy);
        gates.listen();
        this.byRank = gates.all();
        this.anySource = new AnySourceOffload(this, stats, contexts, (peer, status, why) -> {
            Gate g = byRank[peer];
            if (g != null) {
                g.fail(status, why);
            }
        });
        this.statsAtClose = EngineSettings.stats(settings);
        if (EngineSettings.connectEagerly(settings)) {
            gates.connectAll();
        }
        if (EngineSettings.info(settings)) {
            log.log(System.Logger.Level.INFO, "\n" + describe());
        }
        this.doze = new Doze(contexts, () -> acceptsDue = true, rank);
        this.idle = doze.strategy(config.idleStrategy(),
                // through the agents a message costs two process wake-ups at least: a long spin catches
                // few more of them than a short one, and holds a core the agents may need
                wire.ranksOnNode(wire.node(rank)) > Runtime.getRuntime().availableProcessors() || anySource.present());
        this.thread = threadMode ? new ProgressThread(this, idle) : null;
        if (thread != null) {
            thread.start();
        }
    }

    // ---- the session ------------------------------------------------------------------------

    @Override
    public int rank() {
        return rank;
    }

    /** The logger this engine reports through, for the layer above to report through too. */
    @Override
    public System.Logger logger() {
        return log;
    }

    /** The settings this engine and its drivers were configured with. */
    public Settings settings() {
        return settings;
    }

    public int size() {
        return size;
    }

    /** The node identity of {@code rank} (host and boot id, or FERRY_NODE_ID, or simulated with FERRY_RANKS_PER_NODE). */
    public String node(int rank) {
        return wire.node(rank);
    }

    @Override
    public EngineStats stats() {
        return stats;
    }

    /** The names of the contexts (rails) the gate to {@code peer} uses, in order; rail 0 carries the small messages. */
    public List<String> rails(int peer) {
        checkRank(peer);
        return gates.rails(peer);
    }

    /** The protocol of the bootstrap that wired this job up: pmi-1, pmi-2, pmix, singleton or in-process. */
    public String bootstrapProtocol() {
        return wire.bootstrap().protocol();
    }

    /** Where {@code peer} is, as its gate reaches it: "self", "same process", "same node" or "remote". */
    public String locality(int peer) {
        checkRank(peer);
        return gates.kind(peer);
    }

    /**
     * The bytes this engine and its drivers hold now, by kind, in a stable order: the gates'
     * packet buffers, the gates made and the peer table (heap), unexpected messages kept, and each
     * driver's own (shm channels, queue and arena, tcp buffers). Any thread; a snapshot.
     *
     * <pre>{@code
     * engine.bytesHeld().forEach((kind, bytes) -> System.out.println(kind + ": " + bytes));
     * }</pre>
     */
    public Map<String, Long> bytesHeld() {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        gates.bytesHeld((k, b) -> m.merge(k, b, Long::sum));
        m.put("unexpected messages", stats.heldBytes());
        for (EngineContext c : contexts) {
            c.context().bytesHeld((k, b) -> m.merge(k, b, Long::sum));
        }
        return m;
    }

    /**
     * One line of this rank's figures: {@code ferry stats: rank 3: connections open 2 opened 9
     * closed-idle 6 evicted 1; held 1.1 MiB: engine buffers 65536, ...} (FERRY_STATS=on logs it at close).
     */
    public String statsLine() {
        Map<String, Long> held = bytesHeld();
        long total = held.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder b = new StringBuilder("ferry stats: rank ").append(rank).append(": connections ").append(connections());
        for (EngineContext c : contexts) {
            c.context().connectionsHeld((k, n) -> b.append(", ").append(k).append(' ').append(n));
        }
        b.append("; held ").append(total).append(" bytes:");
        held.forEach((k, v) -> b.append(' ').append(k).append(' ').append(v).append(','));
        b.setLength(b.length() - 1);
        b.append("; unreceived eager data held at most ").append(stats.heldMax()).append(" bytes, messages sent as envelopes ").append(stats.envelopes());
        if (gates.creditsGranted() > 0) {
            b.append(", eager credits granted now ").append(gates.creditsGranted());
        }
        if (stats.armedReceives() > 0) {
            b.append("; receives armed for the agent ").append(stats.armedReceives()).append(", matched by it ").append(stats.agentMatches());
        }
        return b.toString();
    }

    /** Whether a connection to {@code peer} is open now (asking makes nothing). Any thread; a snapshot. */
    public boolean isConnected(int peer) {
        checkRank(peer);
        return gates.isOpen(peer);
    }

    /** The gate to {@code peer} if it was made (contacted, or contacted by it); else null. Any thread (racy). */
    public Gate gateIfMade(int peer) {
        checkRank(peer);
        return byRank[peer];
    }

    /** The gate to {@code peer} (for tests of the gate and its protocols). */
    public Gate gate(int peer) {
        return gates.get(peer);
    }

    /** The largest message sent immediate to {@code peer}; larger ones go by rendezvous. */
    public long eagerLimit(int peer) {
        checkRank(peer);
        return gates.get(peer).eagerLimit;
    }

    /**
     * Memory the drivers can do more with: the local driver's shared arena (one memcpy between two
     * such buffers; a peer on the node maps it), and registrations for zero-copy transfers.
     *
     * <pre>{@code
     * MemorySegment window = engine.memory().allocate(1 << 20);
     * byte[] key = engine.memory().shareKey(window);   // a peer maps it with peerMemory
     * }</pre>
     */
    public SharedMemory memory() {
        return memory;
    }

    /**
     * Maps memory of {@code peer} that its {@link SharedMemory#shareKey} named: loads, stores and atomics on
     * the answer reach the peer's memory without the peer taking part. Null when this process
     * cannot map it (the peer is this rank, on another node, its gate failed, the key names a
     * driver the gate to it does not use, or nothing that driver can map). Connects the gate on
     * first use. Call from the engine's thread (a handler, or a task given to {@link #execute}).
     *
     * <pre>{@code
     * MemorySegment remote = engine.peerMemory(peer, key);
     * if (remote != null) remote.set(ValueLayout.JAVA_LONG, 0, 42);
     * }</pre>
     */
    public MemorySegment peerMemory(int peer, byte[] key) {
        checkRank(peer);
        if (peer == rank || key == null || key.length < 1) {
            return null;
        }
        Gate g = gates.get(peer);
        boolean took = enter();
        try {
            gates.connect(g);
            return g.state == Gate.OPEN ? SharedMemory.map(g, key) : null;
        } finally {
            exit(took);
        }
    }

    /**
     * Runs {@code task} on the engine's thread (seed 003's forward): at once in the calling thread
     * in caller mode, or handed to the progress thread ({@code FERRY_PROGRESS=thread}), which runs
     * it on its next pass; the task then may call {@link #send} like a handler.
     */
    public void execute(Runnable task) {
        if (closed) {
            throw new IllegalStateException("the engine is closed");
        }
        if (onEngineThread()) {
            runHere(task);
        } else {
            thread.forward(task);
        }
    }

    /**
     * This rank's connections: open now, and opened, closed idle and evicted so far (see
     * FERRY_IDLE_CLOSE and FERRY_MAX_CONNECTIONS). Any thread; a snapshot.
     */
    public dev.ferry.core.gate.ConnectionCounts connections() {
        return gates.connectionCounts();
    }

    /** Whether the engine was closed (or crashed): nothing progresses any more. */
    public boolean isClosed() {
        return closed;
    }

    /** Whether a background thread makes progress ({@code FERRY_PROGRESS=thread}) rather than the callers. */
    public boolean progressThreadMode() {
        return thread != null;
    }

    /** Whether the calling thread is the one that runs handlers (in caller mode: any thread). */
    public boolean isEngineThread() {
        return onEngineThread();
    }


    /**
     * Starts a send; it completes when its data has left (immediate) or was moved (rendezvous). A
     * rendezvous the target pulls is announced at once when it is the first to its peer since the
     * last progress pass; those sent after it, before the next pass, are announced together at
     * that pass, in one packet (a burst costs the target one packet to parse, not one each).
     */
    public void send(SendRequest s) {
        checkRank(s.peer());
        if (closed) {
            throw new IllegalStateException("the engine is closed");
        }
        s.begin(this);
        if (onEngineThread()) {
            boolean took = enter();
            try {
                doSend(s);
            } finally {
                exit(took);
            }
        } else {
            String why = thread.unreachable(s.layout());
            if (why != null) {
                s.complete(dev.ferry.spi.Status.INVALID, "a send to rank " + s.peer() + ": " + why);
                return;
            }
            thread.forward(s);
        }
    }

    /**
     * Fails every gate with {@code why} (the engine's thread of control): each pending request of
     * every peer completes with it, and later ones to them fail at once.
     */
    void failAll(String why) {
        for (Gate g : byRank) {
            if (g != null) {
                g.fail(dev.ferry.spi.Status.BROKEN, why);
            }
        }
    }

    /** Hands {@code s} to its gate (on the engine's thread of control). */
    void doSend(SendRequest s) {
        Gate g = byRank[s.peer()];
        if (g == null) {
            g = gates.get(s.peer()); // first contact: the gate is made now
        }
        if (g.state == Gate.NEW) {
            gates.connect(g);
        }
        g.send(s);
    }

    private void checkRank(int peer) {
        if (peer < 0 || peer >= size) {
            throw new IllegalArgumentException("rank " + peer + " outside 0.." + (size - 1));
        }
    }

    // ---- receiving --------------------------------------------------------------------------

    /** From a gate's parse: hands a message to the layer above; what it leaves is dropped. */
    @Override
    public void deliver(Message view) {
        Gate from = byRank[view.source()];
        if (from != null) {
            from.messagesReceived++;
            from.bytesReceived += view.length();
        }
        handler.onMessage(view);
        if (!view.isTaken()) {
            view.drop();
        }
    }

    /** A kept message holds {@code credit} until it is received or dropped. */
    @Override
    public void held(int credit) {
        stats.held(credit);
    }

    /** An immediate message is consumed: its credits go back to the sender. */
    @Override
    public void consumed(Message m) {
        if (!onEngineThread()) {
            thread.forward(m);
            return;
        }
        boolean took = enter();
        try {
            int kept = m.settle();
            if (kept != 0) {
                stats.held(-kept);
            }
        } finally {
            exit(took);
        }
    }

    /**
     * Hands a posted receive to the driver of {@code source}'s gate to match, where that driver
     * matches (the node agent, seed 004's tag-matching offload): a message from {@code source}
     * whose header word is {@code bits} outside {@code ignore} then lands in {@code into} (any
     * layout) with no call from this rank, and {@code onMatch} is told in a later progress pass. False when it was
     * not taken; the caller matches it as ever. The caller must not have posted, before it, a
     * receive that accepts any message this one does, and takes it back ({@link #reclaim}) before
     * matching a message to it itself. The engine's thread of control ({@link #runSerialized}).
     *
     * <pre>{@code
     * if (engine.offload(r, 1, DataLayout.contiguous(buffer), header, ignore, done -> finish(done))) { armed = true; }
     * }</pre>
     */
    public boolean offload(RecvRequest r, int source, dev.ferry.spi.DataLayout into, long bits, long ignore, dev.ferry.core.request.Matched onMatch) {
        checkRank(source);
        Gate g = byRank[source];
        return g != null && g.offload(r, into, bits, ignore, onMatch);
    }

    /** Whether a receive of {@code bytes} from {@code source} could be handed to its gate's driver to match now ({@link #offload}): a cheap look first. */
    public boolean offloads(int source, long bytes) {
        Gate g = byRank[source];
        return g != null && g.offloads(bytes);
    }

    /**
     * {@link #offload} for a receive of any source: handed to the driver context that matches
     * messages from every rank it reaches (the node agent), where there is one. The same rule
     * holds: no receive posted before it accepts any message this one does.
     */
    public boolean offloadAnySource(RecvRequest r, dev.ferry.spi.DataLayout into, long bits, long ignore, dev.ferry.core.request.Matched onMatch) {
        return anySource.offload(r, into, bits, ignore, onMatch);
    }

    /** Whether a receive of any source of {@code bytes} could be handed to a driver to match ({@link #offloadAnySource}): a cheap look first. */
    public boolean offloadsAnySource(long bytes) {
        return anySource.offloads(bytes);
    }

    /**
     * Takes a receive back from the driver it was handed to ({@link #offload},
     * {@link #offloadAnySource}): true when the driver had not matched it (or it was never handed
     * over), so the caller may match it; false when the driver matched it, and its
     * {@code onMatch} will be told.
     */
    public boolean reclaim(RecvRequest r) {
        int source = r.armedBy;
        return source < 0 || (source == RecvRequest.ARMED_ANY_SOURCE ? anySource.reclaim(r) : byRank[source].reclaim(r));
    }

    @Override
    public void receiveRendezvous(Message m, RecvRequest r) {
        if (!onEngineThread()) {
            r.pendingMessage = m;
            thread.forward(r);
            return;
        }
        boolean took = enter();
        try {
            int kept = m.keptCredit();
            if (kept != 0) {
                stats.held(-kept);
            }
            m.origin().receive(m, r);
        } finally {
            exit(took);
        }
    }

    @Override
    public void gateFailed(Gate g) {
        if (!closing) {
            handler.onPeerFailed(g.rank(), g.failStatus(), g.failure());
        }
    }

    // ---- progress ---------------------------------------------------------------------------

    @Override
    public boolean closing() {
        return closing;
    }

    @Override
    public boolean callerProgress() {
        return thread == null;
    }

    private boolean onEngineThread() {
        return thread == null || thread.isCurrent();
    }

    /**
     * Makes progress once (caller mode): sends what waits, receives what arrived, runs the handler.
     * True when anything happened. Does nothing when called from a handler, or from another thread
     * than the progress thread in thread mode. A loop that spins on it should pause after a pass
     * that found nothing, as {@link dev.ferry.core.request.Request#await} does ({@link #idleStrategy}): a spin without
     * {@code Thread.onSpinWait()} pays a pipeline flush when the awaited packet lands (8 B
     * ping-pong over shm: some 8 ns of the engine's overhead over the driver, whose loops pause).
     *
     * <pre>{@code
     * while (!request.isDone()) {
     *     if (!engine.progress()) {
     *         Thread.onSpinWait();
     *     }
     * }
     * }</pre>
     */
    @Override
    public boolean progress() {
        if (thread != null || closed) {
            return false; // thread mode: the progress thread's loop makes progress, not its handlers
        }
        if (!control.tryTake(Thread.currentThread())) {
            return false; // a handler, or another thread makes progress now
        }
        try {
            return progressOnce();
        } finally {
            control.release();
        }
    }

    /**
     * Takes the engine's thread of control in caller mode (waiting while another thread holds it);
     * false when this thread holds it already (a handler). Thread mode: the caller is the progress
     * thread (see {@link #onEngineThread}), which holds it for good.
     */
    private boolean enter() {
        return thread == null && control.take(Thread.currentThread());
    }

    private void exit(boolean took) {
        if (took) {
            control.release();
        }
    }

    /**
     * Caller mode: takes the engine's thread of control for a layer that runs several steps in
     * one hold (a library hosted on this engine, whose state lives in that thread of control and
     * which takes no lock of its own), waiting while another thread holds it. Answers whether it
     * was taken: false when this thread holds it already (a handler) or in thread mode, where only
     * the progress thread holds it. Pair with {@link #releaseControl}.
     *
     * <pre>{@code
     * boolean took = engine.holdControl();
     * try { ... } finally { engine.releaseControl(took); }
     * }</pre>
     */
    public boolean holdControl() {
        return enter();
    }

    /** Ends what {@link #holdControl} began; {@code took} is what it answered. */
    public void releaseControl(boolean took) {
        exit(took);
    }

    /** Whether the calling thread holds the engine's thread of control now. */
    public boolean holdsControl() {
        return control.heldBy(Thread.currentThread());
    }

    /**
     * {@link #runSerialized} followed, in caller mode, by one progress pass in the same hold of the
     * engine's thread of control: what a blocking receive does first (post, then look), for one
     * compare-and-set instead of two. True when the pass did work.
     */
    public boolean runSerializedThenProgress(Runnable task) {
        if (thread != null || control.heldBy(Thread.currentThread()) || closed) {
            runSerialized(task);
            return false;
        }
        boolean took = enter();
        try {
            task.run();
            return progressOnce();
        } finally {
            exit(took);
        }
    }

    /** Runs {@code task} in this thread holding the engine's thread of control (caller mode, or on the progress thread). */
    private void runHere(Runnable task) {
        boolean took = enter();
        try {
            task.run();
        } finally {
            exit(took);
        }
    }

    /**
     * Runs {@code task} in the engine's thread of control and returns once it ran: in the calling
     * thread in caller mode (after any pass another thread is making), on the progress thread in
     * thread mode (the caller waits for it). The layer above keeps its matching state in that one
     * thread of control, so its handler and its callers never race.
     *
     * <pre>{@code
     * engine.runSerialized(() -> posted.add(receive));
     * }</pre>
     */
    public void runSerialized(Runnable task) {
        if (onEngineThread()) {
            runHere(task);
            return;
        }
        if (closed) { // its progress thread has ended: nobody would run it
            throw new IllegalStateException("the engine is closed");
        }
        thread.runAndWait(task, CLOSE_FLUSH);
    }

    /** Dozes begun so far by this engine's waiters. */
    long dozes() {
        return doze.count();
    }

    /**
     * How this engine's waiters idle after a fruitless pass: spin (briefly when this node runs
     * more ranks than it has cores, or a node agent carries this rank's traffic), yield, nap, and
     * after a second doze in the drivers' blocking waits (futex, epoll), woken at once by a packet, a connection request or a peer's death; so
     * a rank that waits long costs no CPU. Any thread may use it.
     *
     * <pre>{@code
     * for (long start = System.nanoTime(); !request.isDone(); ) {
     *     if (!engine.progress()) engine.idleStrategy().idle(System.nanoTime() - start);
     * }
     * }</pre>
     */
    @Override
    public IdleStrategy idleStrategy() {
        return idle;
    }

    /**
     * The state of every connected gate, one per line, for the message of a wait that timed out
     * (read without the thread of control: a snapshot that may be a moment old).
     */
    @Override
    public String stateReport() {
        StringBuilder b = new StringBuilder("rank ").append(rank).append(" after ").append(passes).append(" progress passes:");
        gates.stateReport(b);
        int anyArmed = anySource.armedCount();
        if (anyArmed != 0) {
            b.append("\n  receives of any source armed for the agent: ").append(anyArmed);
        }
        return b.toString();
    }

    /** Progress passes so far (wrapping): a send can tell whether one ran since an earlier send. */
    @Override
    public int passes() {
        return passes;
    }

    /** One progress pass, holding the thread of control: commands handed over, connection requests now and then, every open gate, the handler. */
    boolean progressOnce() {
        boolean work = thread != null && thread.runCommands();
        // Connection requests are rare: not on every pass of a busy loop, but every 16th of an idle
        // one too, whose passes are naps (a peer reconnecting after an idle close waits on this look)
        if ((++passes & 63) == 0 || acceptsDue || (idlePasses & 15) == 15) {
            acceptsDue = false;
            work |= gates.pollAccepts();
            if (gates.closesConnections()) {
                gates.sweep(System.nanoTime());
            }
        }
        for (Gate g : gates.active()) {
            if (g.state == Gate.OPEN) {
                work |= g.progress();
            }
        }
        if (anySource.any()) {
            work |= anySource.poll();
        }
        work |= handler.onProgress();
        if (work) {
            doze.worked();
            idlePasses = 0;
        } else {
            idlePasses++;
        }
        return work;
    }

    /** The progress thread holds the thread of control from now on. */
    void holdControlForGood() {
        control.holdForGood(Thread.currentThread());
    }

    // ---- close ------------------------------------------------------------------------------

    /**
     * Closes the engine, on this rank alone: waits until what it sent has left (at most
     * {@link #CLOSE_FLUSH}; a failed peer is not waited for) and every peer it sent to has taken
     * up the connection (so that nothing waits unread in a channel its peer never opened), meets
     * the other ranks while serving them, but for {@link #CLOSE_MEET} at most, then disconnects.
     * So ranks that end together leave together, and a rank that throws out of its {@code try}
     * block, or whose peers failed or are still at work, leaves within seconds: its peers see its
     * gate CLOSED, their requests involving it fail, and the layer above hears of it
     * ({@link MessageHandler#onPeerFailed}). A rank's work must be complete when it closes, as
     * MPI asks of MPI_Finalize.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (thread != null) {
            thread.stop(CLOSE_FLUSH.toNanos()); // the progress thread owns the gates: it flushes them itself and ends when they are quiet
        } else {
            Shutdown.flush(this, CLOSE_FLUSH.toNanos());
        }
        if (!quiet()) {
            log.log(System.Logger.Level.WARNING, "rank {0}: closing with messages still in flight after {1} s", rank, CLOSE_FLUSH.toSeconds());
        }
        if (statsAtClose) {
            log.log(System.Logger.Level.INFO, statsLine());
        }
        closing = true;
        boolean met = true;
        try {
            gates.awaitTakenUp();
            wire.freeze(); // the fence holds the bootstrap: a peer first met now is not looked up
            met = size == 1 || Shutdown.meet(this, wire.bootstrap(), CLOSE_MEET);
        } finally {
            closed = true;
            anySource.cancelAll(); // a receive still posted at the end: the agent writes nothing into it from now on
            doze.close();
            gates.closeAll();
            wire.close();
            if (ownsBootstrap && met) {
                wire.bootstrap().close(); // an unmet fence still holds the bootstrap: the process's end closes it
            }
        }
    }

    /**
     * Leaves as a killed process would, for fault-injection tests of the layers above: nothing is
     * flushed and nobody met; the drivers' contexts close under the connections, so that the
     * peers see this rank's gate BROKEN and fail what involves it. The engine is closed after.
     */
    public void crash() {
        if (closed) {
            return;
        }
        if (thread != null) {
            thread.stop(0);
        }
        closing = true;
        closed = true;
        doze.close();
        wire.close();
    }

    boolean quiet() {
        return gates.quiet();
    }

    // ---- what was chosen --------------------------------------------------------------------

    /** The rails and protocols for each kind of peer of this rank (FERRY_INFO=1, {@code ferry info} in a job). */
    public String describe() {
        return "ferry: rank " + rank + " of " + size + " on node " + wire.node(rank)
                + "; contexts " + contexts.stream().map(EngineContext::name).toList()
                + "; progress " + (thread == null ? "caller" : "thread") + '\n'
                + gates.byKindOfPeer();
    }


}
