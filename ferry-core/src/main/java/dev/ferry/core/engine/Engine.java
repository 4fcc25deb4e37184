package dev.ferry.core.engine;

import dev.ferry.core.boot.WireUp;
import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.launch.pmi.Bootstrap;
import dev.ferry.spi.ConnectRequest;
import dev.ferry.spi.DriverProperties;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.IdleStrategy;
import dev.ferry.spi.Status;
import dev.ferry.spi.Settings;
import dev.ferry.spi.Transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

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
public final class Engine implements AutoCloseable {
    /** Where this engine reports (its configuration's logger). */
    final System.Logger log;
    static final Duration CLOSE_FLUSH = Duration.ofSeconds(30);
    /** How long close waits to meet the other ranks before this rank leaves on its own. */
    static final Duration CLOSE_MEET = Duration.ofSeconds(3);

    final int rank;
    private final int size;
    /** How this engine's waiters idle ({@link #idle}): spin, yield, nap, then doze in the drivers' waits. */
    private final IdleStrategy idle;
    private final WireUp wire;
    private final boolean ownsBootstrap;
    private final MessageHandler handler;
    private final Gate[] gates;
    private final List<EngineContext> contexts;
    private final Map<String, Map<ByteBuffer, Integer>> rankByUrl = new HashMap<>();
    private final List<EngineContext> accepting = new ArrayList<>();
    private final ConnectRequest request = new ConnectRequest();
    private volatile Gate[] active = new Gate[0];
    final EngineStats stats;
    final boolean multirail;
    final long multirailMin;
    /** Rendezvous by target-initiated pull where the rail's driver offers it (FERRY_RNDV_PULL). */
    final boolean rendezvousPull;
    private final long eagerSetting;
    private final long creditLimit;
    private final Settings settings;
    private final boolean sameProcessBySelf;

    /** Who holds the engine's thread of control (reentrant: a handler may send). */
    private final ControlOwner control = new ControlOwner();
    private int passes;
    /** Progress passes that did work (opaque: read by the doze's watchers). */
    @SuppressWarnings("unused")
    private long workPasses;
    /** A doze's watcher saw a connection request: look for it on the next pass. */
    private volatile boolean acceptsDue;
    private final Doze doze;
    volatile boolean closing;
    private volatile boolean closed;

    private final Thread progressThread;
    private final CommandQueue commands;
    /** Set by close: the progress thread flushes, then ends (by {@link #threadStopBy} at the latest). */
    private volatile boolean threadStop;
    private volatile long threadStopBy;
    private volatile boolean threadParked;

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
        this.multirail = EngineSettings.multirail(settings);
        this.multirailMin = EngineSettings.multirailMin(settings);
        this.rendezvousPull = EngineSettings.rendezvousPull(settings);
        this.eagerSetting = EngineSettings.eagerLimit(settings);
        this.creditLimit = EngineSettings.credits(settings);
        this.sameProcessBySelf = EngineSettings.sameProcessBySelf(settings);
        EngineSettings.check(settings, eagerSetting, creditLimit);
        Map<String, Integer> railCounts = EngineSettings.railCounts(settings.value(EngineSettings.RAILS));
        boolean thread = config.resolveProgress() == EngineConfig.Progress.THREAD;
        List<DiscoveredDriver> drivers = config.resolveDrivers();
        this.wire = WireUp.exchange(boot, drivers, railCounts, settings);
        this.rank = wire.rank();
        this.size = wire.size();
        int local = 0;
        for (int r = 0; r < size; r++) {
            if (wire.node(r).equals(wire.node(rank))) {
                local++;
            }
        }
        long spinNanos = local > Runtime.getRuntime().availableProcessors() ? OVERSUBSCRIBED_SPIN_NANOS : SPIN_NANOS;
        this.contexts = new ArrayList<>();
        for (String name : wire.contextNames()) {
            DiscoveredDriver d = wire.driver(name);
            DriverProperties p = wire.properties(name);
            contexts.add(new EngineContext(contexts.size(), name, d.name(), d.driver().description(), wire.context(name), p.capabilities(), p.profile()));
        }
        this.stats = new EngineStats(contexts.stream().map(EngineContext::name).toArray(String[]::new));
        this.gates = new Gate[size];
        for (int r = 0; r < size; r++) {
            gates[r] = newGate(r);
        }
        for (EngineContext c : contexts) {
            Map<ByteBuffer, Integer> m = new HashMap<>();
            for (int r = 0; r < size; r++) {
                DriverUrl u = wire.url(r, c.name());
                if (u != null && r != rank) {
                    m.put(ByteBuffer.wrap(u.encoded()), r);
                }
            }
            rankByUrl.put(c.name(), m);
            Status s = c.context().acceptProbe(request);
            if (s == Status.NOT_IMPLEMENTED) {
                // The driver cannot tell us that a peer connects: connect its gates up front.
                for (Gate g : gates) {
                    if (g.rank != rank && uses(g, c)) {
                        connect(g);
                    }
                }
            } else {
                accepting.add(c);
                if (s == Status.DONE) {
                    accepted(c, request.url);
                }
            }
        }
        if (EngineSettings.info(settings)) {
            log.log(System.Logger.Level.INFO, "\n" + describe());
        }
        this.doze = new Doze(contexts, this::workPasses, () -> acceptsDue = true, rank);
        this.idle = config.idleStrategy().withSpin(spinNanos).withSleep(doze::sleep, Doze.AFTER_NANOS);
        if (thread) {
            commands = new CommandQueue(4096);
            progressThread = Thread.ofPlatform().daemon().name("ferry-progress-" + rank).unstarted(this::progressLoop);
            progressThread.start();
        } else {
            commands = null;
            progressThread = null;
        }
    }

    private static boolean uses(Gate g, EngineContext c) {
        for (Rail r : g.rails) {
            if (r.ec == c) {
                return true;
            }
        }
        return false;
    }

    /** Which contexts reach {@code peer}, by locality (seed 001: local overrides remote). */
    private Gate newGate(int peer) {
        String kind;
        List<EngineContext> chosen = new ArrayList<>();
        List<DriverUrl> urls = new ArrayList<>();
        boolean sameNode = wire.node(peer).equals(wire.node(rank));
        if (peer == rank) {
            kind = "self";
            pick(peer, Transport.SELF, chosen, urls);
        } else {
            kind = sameNode ? "same node" : "remote";
            if (sameNode && sameProcessBySelf && wire.sameProcess(peer)) {
                // a rank of an in-process job: the self driver joins two contexts of one JVM (with
                // FERRY_SAME_PROCESS=node, or without self, the node's drivers serve these peers)
                pick(peer, Transport.SELF, chosen, urls);
                kind = chosen.isEmpty() ? kind : "same process";
            }
            if (chosen.isEmpty() && sameNode) {
                pick(peer, Transport.LOCAL, chosen, urls);
            }
            if (chosen.isEmpty()) {
                pick(peer, Transport.REMOTE, chosen, urls);
            }
        }
        if (!multirail && chosen.size() > 1) {
            chosen.subList(1, chosen.size()).clear();
            urls.subList(1, urls.size()).clear();
        }
        return new Gate(this, peer, kind, chosen, urls, eagerSetting, creditLimit);
    }

    private void pick(int peer, Transport t, List<EngineContext> chosen, List<DriverUrl> urls) {
        for (EngineContext c : contexts) {
            DriverUrl u = wire.url(peer, c.name());
            if (c.caps().transport() == t && u != null) {
                chosen.add(c);
                urls.add(u);
            }
        }
    }

    // ---- the session ------------------------------------------------------------------------

    public int rank() {
        return rank;
    }

    /** The logger this engine reports through, for the layer above to report through too. */
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

    public EngineStats stats() {
        return stats;
    }

    /** The names of the contexts (rails) the gate to {@code peer} uses, in order; rail 0 carries the small messages. */
    public List<String> rails(int peer) {
        checkRank(peer);
        List<String> l = new ArrayList<>();
        for (Rail r : gates[peer].rails) {
            l.add(r.ec.name());
        }
        return l;
    }

    /** The gate to {@code peer} (tests of the packet parser). */
    Gate gate(int peer) {
        return gates[peer];
    }

    /** The largest message sent immediate to {@code peer}; larger ones go by rendezvous. */
    public long eagerLimit(int peer) {
        checkRank(peer);
        return gates[peer].eagerLimit;
    }

    /**
     * Memory for large transfers: in the local driver's shared arena where it has one (a transfer
     * between two such buffers is one memcpy), else ordinary off-heap memory. Page aligned.
     */
    public MemorySegment allocate(long bytes) {
        for (EngineContext c : contexts) {
            if (c.caps().transport() == Transport.LOCAL) {
                MemorySegment m = c.context().allocate(bytes);
                if (m != null) {
                    return m;
                }
            }
        }
        return Arena.ofAuto().allocate(bytes, 4096);
    }

    /**
     * A key by which a peer on this node maps {@code memory} (from {@link #allocate}) into its own
     * address space ({@link #peerMemory}): the name of the local driver's context that shares it,
     * then that driver's key ({@code DriverContext.shareKey}). Null when no driver can share this
     * memory (ordinary memory, or no local driver with a shared arena).
     *
     * <pre>{@code
     * MemorySegment window = engine.allocate(1 << 20);
     * byte[] key = engine.shareKey(window);   // hand it to a peer
     * }</pre>
     */
    public byte[] shareKey(MemorySegment memory) {
        for (EngineContext c : contexts) {
            if (c.caps().transport() == Transport.LOCAL) {
                byte[] k = c.context().shareKey(memory);
                if (k != null) {
                    byte[] name = c.name().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    byte[] all = new byte[1 + name.length + k.length];
                    all[0] = (byte) name.length;
                    System.arraycopy(name, 0, all, 1, name.length);
                    System.arraycopy(k, 0, all, 1 + name.length, k.length);
                    return all;
                }
            }
        }
        return null;
    }

    /**
     * Maps memory of {@code peer} that its {@link #shareKey} named: loads, stores and atomics on
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
        if (peer == rank || key == null || key.length < 1 || key.length < 1 + (key[0] & 0xff)) {
            return null;
        }
        String name = new String(key, 1, key[0] & 0xff, java.nio.charset.StandardCharsets.UTF_8);
        Gate g = gates[peer];
        boolean took = enter();
        try {
            connect(g);
            if (g.state != Gate.OPEN) {
                return null;
            }
            for (Rail r : g.rails) {
                if (r.ec.name().equals(name) && r.ec.caps().transport() == Transport.LOCAL && r.out != null) {
                    return r.out.mapShared(java.util.Arrays.copyOfRange(key, 1 + (key[0] & 0xff), key.length));
                }
            }
            return null;
        } finally {
            exit(took);
        }
    }

    // ---- sending ----------------------------------------------------------------------------
    /**
     * Registers memory with every driver that needs registration for zero-copy transfers (seed
     * 003's validate); hand the answer to {@link #deregister} when the memory is unbound (seed
     * 003's invalidate). Drivers that read any memory as it is (shm, tcp) keep nothing.
     *
     * <pre>{@code
     * Object reg = engine.register(buffer);
     * ...
     * engine.deregister(reg);
     * }</pre>
     */
    public Object register(MemorySegment memory) {
        Object[] regs = null;
        for (int i = 0; i < contexts.size(); i++) {
            Object r = contexts.get(i).context().register(memory);
            if (r != null) {
                if (regs == null) {
                    regs = new Object[contexts.size()];
                }
                regs[i] = r;
            }
        }
        return regs;
    }

    /** Releases what {@link #register} answered (null: nothing was registered). */
    public void deregister(Object registration) {
        if (registration instanceof Object[] regs) {
            for (int i = 0; i < regs.length; i++) {
                if (regs[i] != null) {
                    contexts.get(i).context().deregister(regs[i]);
                }
            }
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
            forward(task);
        }
    }

    /** Whether a background thread makes progress ({@code FERRY_PROGRESS=thread}) rather than the callers. */
    public boolean progressThreadMode() {
        return progressThread != null;
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
        checkRank(s.peer);
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
            forward(s);
        }
    }

    private void doSend(SendRequest s) {
        Gate g = gates[s.peer];
        if (g.state == Gate.NEW) {
            connect(g);
        }
        g.send(s);
    }

    private void connect(Gate g) {
        if (g.state != Gate.NEW) {
            return;
        }
        g.connect();
        if (g.state == Gate.OPEN) {
            Gate[] a = active;
            Gate[] b = java.util.Arrays.copyOf(a, a.length + 1);
            b[a.length] = g;
            active = b;
        }
    }

    private void checkRank(int peer) {
        if (peer < 0 || peer >= size) {
            throw new IllegalArgumentException("rank " + peer + " outside 0.." + (size - 1));
        }
    }

    // ---- receiving --------------------------------------------------------------------------

    /** From a gate's parse: hands a message to the layer above; what it leaves is dropped. */
    void deliver(Message view) {
        handler.onMessage(view);
        if (!view.taken) {
            view.drop();
        }
    }

    /** A kept message holds {@code credit} until it is received or dropped. */
    void held(int credit) {
        stats.held(credit);
    }

    /** An immediate message is consumed: its credits go back to the sender. */
    void consumed(Message m) {
        if (!onEngineThread()) {
            forward(m);
            return;
        }
        boolean took = enter();
        try {
            if (!m.transientView) {
                stats.held(-m.credit);
            }
            m.gate.creditsOwed += m.credit;
            m.settled = !m.transientView; // nothing here reads it again: a kept one may be filled anew
        } finally {
            exit(took);
        }
    }

    void receiveRendezvous(Message m, RecvRequest r) {
        if (!onEngineThread()) {
            r.pendingMessage = m;
            forward(r);
            return;
        }
        boolean took = enter();
        try {
            if (!m.transientView) {
                stats.held(-m.credit);
            }
            m.gate.receiveRendezvous(m, r);
        } finally {
            exit(took);
        }
    }

    void gateFailed(Gate g) {
        if (!closing) {
            handler.onPeerFailed(g.rank, g.failStatus, g.failure);
        }
    }

    // ---- progress ---------------------------------------------------------------------------

    boolean callerProgress() {
        return progressThread == null;
    }

    private boolean onEngineThread() {
        return progressThread == null || Thread.currentThread() == progressThread;
    }

    /**
     * Makes progress once (caller mode): sends what waits, receives what arrived, runs the handler.
     * True when anything happened. Does nothing when called from a handler, or from another thread
     * than the progress thread in thread mode. A loop that spins on it should pause after a pass
     * that found nothing, as {@link Request#await} does ({@link #backoff}): a spin without
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
    public boolean progress() {
        if (progressThread != null || closed) {
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
        return progressThread == null && control.take(Thread.currentThread());
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
        if (progressThread != null || control.heldBy(Thread.currentThread()) || closed) {
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
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        RuntimeException[] failure = new RuntimeException[1];
        forward((Runnable) () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                failure[0] = e;
            } finally {
                done.countDown();
            }
        });
        try {
            if (!done.await(CLOSE_FLUSH.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
                throw new IllegalStateException("rank " + rank + ": the progress thread did not run a task within " + CLOSE_FLUSH.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the progress thread ran a task", e);
        }
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    private static final java.lang.invoke.VarHandle WORK_PASSES;

    static {
        try {
            WORK_PASSES = java.lang.invoke.MethodHandles.lookup().findVarHandle(Engine.class, "workPasses", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private long workPasses() {
        return (long) WORK_PASSES.getOpaque(this);
    }

    /**
     * How a waiter idles after a fruitless pass, {@code waitedNanos} into its wait: this engine's
     * {@link #idleStrategy()}: spins (briefly when this node runs more ranks than it has cores),
     * yields, naps, and after a second dozes in the drivers' blocking waits (futex, epoll), woken
     * at once by a packet, a connection request or a peer's death; so a rank that waits long costs
     * no CPU. Any thread may call it.
     *
     * <pre>{@code
     * for (long start = System.nanoTime(); !request.isDone(); ) {
     *     if (!engine.progress()) engine.idle(System.nanoTime() - start);
     * }
     * }</pre>
     */
    public void idle(long waitedNanos) {
        idle.idle(waitedNanos, Long.MAX_VALUE);
    }

    /** Dozes begun so far by this engine's waiters ({@link #idle}). */
    long dozes() {
        return doze.count();
    }

    /** {@link #idle(long)} that sleeps no longer than {@code remainingNanos} (a wait's deadline). */
    public void idle(long waitedNanos, long remainingNanos) {
        idle.idle(waitedNanos, remainingNanos);
    }

    /** How this engine's waiters idle: the strategy every wait on it uses, ending in the drivers' sleeping waits. */
    public IdleStrategy idleStrategy() {
        return idle;
    }

    /** How long a waiter spins before it starts yielding. */
    private static final long SPIN_NANOS = IdleStrategy.DEFAULT.spinNanos();
    /**
     * The same on a node running more ranks than it has cores: spinning long there only keeps the
     * rank being waited for off the core.
     */
    private static final long OVERSUBSCRIBED_SPIN_NANOS = 2_000;

    /**
     * How a waiter idles that has no engine to doze in ({@link IdleStrategy#DEFAULT}), {@code waitedNanos}
     * into its wait: spins for the first 200 us, yields until 1 ms, naps, then parks 10 ms at a time.
     */
    public static void backoff(long waitedNanos) {
        IdleStrategy.DEFAULT.idle(waitedNanos);
    }

    /** {@link IdleStrategy#clockDue} of the default strategy: whether a waiter should read the clock again. */
    public static boolean clockDue(int round, long waitedNanos) {
        return IdleStrategy.DEFAULT.clockDue(round, waitedNanos);
    }

    /**
     * The state of every connected gate, one per line, for the message of a wait that timed out
     * (read without the thread of control: a snapshot that may be a moment old).
     */
    String stateReport() {
        StringBuilder b = new StringBuilder("rank ").append(rank).append(" after ").append(passes).append(" progress passes:");
        for (Gate g : active) {
            b.append("\n  gate to ").append(g.stateReport());
        }
        return b.toString();
    }

    /** Progress passes so far (wrapping): a send can tell whether one ran since an earlier send. */
    int passes() {
        return passes;
    }

    private boolean progressOnce() {
        boolean work = false;
        if (commands != null) {
            Object c;
            while ((c = commands.poll()) != null) {
                execute(c);
                work = true;
            }
        }
        if ((++passes & 63) == 0 || acceptsDue) { // connection requests are rare: not on every pass of a busy loop
            acceptsDue = false;
            work |= pollAccepts();
        }
        for (Gate g : active) {
            if (g.state == Gate.OPEN) {
                work |= g.progress();
            }
        }
        work |= handler.onProgress();
        if (work) {
            WORK_PASSES.setOpaque(this, workPasses + 1); // single writer: the thread in progress
        }
        return work;
    }

    private boolean pollAccepts() {
        boolean any = false;
        for (int i = 0; i < accepting.size(); i++) {
            EngineContext c = accepting.get(i);
            while (c.context().acceptProbe(request) == Status.DONE) {
                accepted(c, request.url);
                any = true;
            }
        }
        return any;
    }

    private void accepted(EngineContext c, DriverUrl url) {
        Integer peer = rankByUrl.get(c.name()).get(ByteBuffer.wrap(url.encoded()));
        if (peer == null) {
            log.log(System.Logger.Level.WARNING, "rank {0}: a connection request on {1} from {2}, which is no rank of this job", rank, c.name(), url);
            return;
        }
        connect(gates[peer]);
    }

    private void execute(Object c) {
        if (c instanceof SendRequest s) {
            doSend(s);
        } else if (c instanceof RecvRequest r) {
            Message m = r.pendingMessage;
            r.pendingMessage = null;
            receiveRendezvous(m, r);
        } else if (c instanceof Message m) {
            consumed(m);
        } else if (c instanceof Runnable task) {
            task.run();
        }
    }

    private void forward(Object c) {
        long start = 0;
        while (!commands.offer(c)) { // full: the progress thread is behind, and takes one soon
            if (start == 0) {
                start = System.nanoTime();
            }
            IdleStrategy.DEFAULT.idle(System.nanoTime() - start);
        }
        java.lang.invoke.VarHandle.fullFence(); // the offer before reading threadParked (it sets that, then looks at the queue)
        if (threadParked) {
            LockSupport.unpark(progressThread);
        }
    }

    private void progressLoop() {
        control.holdForGood(Thread.currentThread());
        // A request handed over unparks the thread at once: its naps are short only to bound a
        // late look at data arriving; after a second without work, it dozes in the drivers' waits,
        // which data itself ends.
        IdleStrategy strategy = idle.withSpin(PROGRESS_SPIN_NANOS).withYieldUntil(2 * PROGRESS_SPIN_NANOS).withMaxNap(50_000);
        long idleSince = 0;
        long now = 0;
        int round = 0;
        while (!threadStop || !quiet() && System.nanoTime() - threadStopBy < 0) {
            boolean work;
            try {
                work = progressOnce();
            } catch (RuntimeException | Error e) {
                log.log(System.Logger.Level.ERROR, "rank " + rank + ": the progress thread failed", e);
                throw e;
            }
            if (work) {
                round = 0;
                continue;
            }
            if (round == 0) {
                idleSince = now = System.nanoTime();
            } else if (strategy.clockDue(round, now - idleSince)) {
                now = System.nanoTime();
            }
            round++;
            long waited = now - idleSince;
            if (!strategy.parks(waited)) {
                strategy.idle(waited);
                continue;
            }
            threadParked = true;
            if (commands.isEmpty()) {
                strategy.idle(threadStop ? Math.min(waited, strategy.sleepAfterNanos() - 1) : waited);
            }
            threadParked = false;
        }
    }

    /** How long the progress thread spins after its last work before it yields (then naps, then dozes). */
    private static final long PROGRESS_SPIN_NANOS = 100_000;

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
        if (progressThread != null) {
            // The progress thread owns the gates: it flushes them itself and ends when they are quiet.
            threadStopBy = System.nanoTime() + CLOSE_FLUSH.toNanos();
            threadStop = true;
            LockSupport.unpark(progressThread);
            try {
                progressThread.join(CLOSE_FLUSH.toMillis() + 10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else {
            long end = System.nanoTime() + CLOSE_FLUSH.toNanos();
            long start = System.nanoTime();
            for (long now = start; !quiet() && now - end < 0; now = System.nanoTime()) {
                if (!progress()) {
                    backoff(now - start); // a fruitless pass: let the peers run
                }
            }
        }
        if (!quiet()) {
            log.log(System.Logger.Level.WARNING, "rank {0}: closing with messages still in flight after {1} s", rank, CLOSE_FLUSH.toSeconds());
        }
        closing = true;
        boolean met = true;
        try {
            for (Gate g : active) {
                if (g.state == Gate.OPEN && g.sentAny) {
                    g.awaitTakenUp();
                }
            }
            met = size == 1 || meet();
        } finally {
            closed = true;
            doze.close();
            for (Gate g : gates) {
                g.close();
            }
            wire.close();
            if (ownsBootstrap && met) {
                wire.bootstrap().close(); // an unmet fence still holds the bootstrap: the process's end closes it
            }
        }
    }

    /**
     * Meets the other ranks (a fence through the bootstrap, in a thread of its own) while serving
     * them, at most {@link #CLOSE_MEET}: ranks that end together leave together, so that nothing
     * a peer still needs of this rank (a driver's completion answer, a late pull) goes with it;
     * a rank whose peers are still at work, or failed, leaves on its own after the bound.
     */
    private boolean meet() {
        boolean[] done = new boolean[1];
        Thread fence = Thread.ofPlatform().daemon().name("ferry-close-meet-" + rank).start(() -> {
            try {
                wire.bootstrap().fence();
                done[0] = true;
            } catch (RuntimeException e) {
                log.log(System.Logger.Level.DEBUG, "rank {0}: the closing fence failed: {1}", rank, e.getMessage());
            }
        });
        long start = System.nanoTime();
        while (fence.isAlive()) {
            long waited = System.nanoTime() - start;
            if (waited > CLOSE_MEET.toNanos()) {
                log.log(System.Logger.Level.INFO, "rank {0}: closing without meeting every rank within {1} s (some failed or are still at work)",
                        rank, CLOSE_MEET.toSeconds());
                return false;
            }
            if (!progress()) {
                backoff(waited);
            }
        }
        return done[0];
    }

    private boolean quiet() {
        for (Gate g : active) {
            if (g.state == Gate.OPEN && !g.quiet()) {
                return false;
            }
        }
        return true;
    }

    // ---- what was chosen --------------------------------------------------------------------

    /** The rails and protocols for each kind of peer of this rank (FERRY_INFO=1, {@code ferry info} in a job). */
    public String describe() {
        return "ferry: rank " + rank + " of " + size + " on node " + wire.node(rank)
                + "; contexts " + contexts.stream().map(EngineContext::name).toList()
                + "; progress " + (progressThread == null ? "caller" : "thread") + '\n'
                + byKindOfPeer();
    }

    /**
     * One block per kind of peer (self, same node, remote), in the order the kinds first appear:
     * the rails of its gates and their protocol table, read from one gate of the kind (gates of a
     * kind are built alike), like UCX_PROTO_INFO.
     *
     * <pre>{@code
     *   same node (1 peer): rails shm
     *       0 .. 8144 B:           eager           in the packet; ...
     *       8145 .. 67108864 B:    rendezvous-pull RTS with shm's pull data; ...
     * }</pre>
     */
    private String byKindOfPeer() {
        StringBuilder b = new StringBuilder();
        Map<String, List<Gate>> byKind = new java.util.LinkedHashMap<>();
        for (Gate g : gates) {
            byKind.computeIfAbsent(g.kind, k -> new ArrayList<>()).add(g);
        }
        for (Map.Entry<String, List<Gate>> e : byKind.entrySet()) {
            Gate g = e.getValue().get(0);
            int peers = e.getValue().size();
            b.append(String.format("  %-9s (%d peer%s): ", e.getKey(), peers, peers == 1 ? "" : "s"));
            if (g.rails.length == 0) {
                b.append("unreachable: no selected driver\n");
                continue;
            }
            b.append("rails ");
            for (Rail r : g.rails) {
                b.append(r.index == 0 ? "" : ", ").append(r.ec.name());
            }
            b.append('\n').append(g.table.describe("      "));
        }
        return b.toString();
    }
}
