package dev.ferry;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.engine.EngineConfig;
import dev.ferry.launch.pmi.InProcessJob;
import dev.ferry.launch.pmi.NodeId;
import dev.ferry.spi.Settings;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;

/**
 * Ferry for one rank of a parallel job: {@link #init()} under {@code ferry run}, Hydra's
 * {@code mpiexec}, Slurm's {@code srun} or Open MPI's {@code mpirun} (or alone, as a job of one),
 * or {@link #runInProcess} for a job whose ranks are threads of one JVM (tests, IDEs). Holds the
 * world and self communicators. Several instances may live in one JVM, each its own rank.
 * Closing it waits until what this rank sent has left and meets the other ranks.
 *
 * <pre>{@code
 * try (Ferry ferry = Ferry.init()) {
 *     Comm world = ferry.world();
 *     System.out.println("hello from rank " + world.rank() + " of " + world.size());
 * }
 * }</pre>
 */
public final class Ferry implements AutoCloseable {
    /** A receive's or probe's wildcard source. */
    public static final int ANY_SOURCE = -1;
    /** A receive's or probe's wildcard tag. */
    public static final int ANY_TAG = -1;
    /** A rank that sends and receives nothing: operations on it complete at once. */
    public static final int PROC_NULL = -2;
    /**
     * The root of a rooted collective on an intercommunicator, as the root itself names it (MPI_ROOT);
     * the other members of its group pass {@link #PROC_NULL}, the remote group the root's rank.
     */
    public static final int ROOT = -4;
    /** A rank or count that has no value (MPI_UNDEFINED). */
    public static final int UNDEFINED = -32766;
    /** The largest tag. */
    public static final int TAG_UB = Integer.MAX_VALUE;
    /**
     * In place of a collective's send buffer (or a scatter root's receive buffer): the data is
     * taken from, and the result left in, the other buffer, as with MPI's {@code MPI_IN_PLACE}.
     */
    public static final Object IN_PLACE = new Object() {
        @Override
        public String toString() {
            return "IN_PLACE";
        }
    };

    /**
     * The bytes of the attached buffer each buffered send takes beyond its packed data (MPI's
     * {@code MPI_BSEND_OVERHEAD}): size a buffer as the sum over the messages in flight at once of
     * their packed size plus this.
     */
    public static final int BSEND_OVERHEAD = 64;

    /** What each rank of an in-process job runs. */
    @FunctionalInterface
    public interface RankMain {
        void run(Ferry ferry) throws Exception;
    }

    final Engine engine;
    final Messaging messaging = new Messaging();
    /** The buffer buffered sends copy into, when one is attached. */
    final BufferedSends bsends = new BufferedSends(messaging);
    final ContextIds contexts = new ContextIds();
    /** The channels of this rank's partitioned sends. */
    final PartitionWire.Channels partitionChannels = new PartitionWire.Channels();
    /** Which algorithm each collective takes. */
    final CollectiveTuning tuning;
    /** The collectives' temporary memory, reused. */
    final TempPool temps = new TempPool();
    /** Held while a communicator is made: one agreement on context ids at a time. */
    final Object creation = new Object();
    /** What the windows share, from the first window on (under {@link #creation}). */
    WindowLibrary windows;
    private final Comm world;
    private final Comm self;
    /** This rank's MBean, with FERRY_JMX on; else null. */
    private final RankBean mbean;

    private Ferry(FerryConfig config) {
        Settings s = config.environment() ? Settings.fromEnvironment() : Settings.defaults();
        for (Map.Entry<String, String> e : config.settings().entrySet()) {
            s = s.with(e.getKey(), e.getValue());
        }
        this.tuning = new CollectiveTuning(s);
        messaging.stallNanos = dev.ferry.internal.ToolSettings.stallReportNanos(s);
        EngineConfig ec = new EngineConfig().settings(s);
        if (config.bootstrap() != null) {
            ec.bootstrap(config.bootstrap());
        }
        if (config.progressThread() != null) {
            ec.progress(config.progressThread() ? EngineConfig.Progress.THREAD : EngineConfig.Progress.CALLER);
        }
        if (config.logger() != null) {
            ec.logger(config.logger());
        }
        this.engine = Engine.init(ec, messaging);
        messaging.attach(engine);
        this.world = new Comm(this, ContextIds.WORLD, IntStream.range(0, engine.size()).toArray());
        this.self = new Comm(this, ContextIds.SELF, new int[] {engine.rank()});
        this.mbean = dev.ferry.core.config.EngineSettings.onOff(s, dev.ferry.internal.ToolSettings.JMX) ? RankBean.register(this) : null;
    }

    /** Joins the job this process was launched in (a job of one when no launcher started it); collective. */
    public static Ferry init() {
        return new Ferry(new FerryConfig());
    }

    /** {@link #init()} as {@code config} says. */
    public static Ferry init(FerryConfig config) {
        return new Ferry(config.copy());
    }

    /**
     * Runs {@code main} as {@code ranks} ranks, each a thread of this JVM with a Ferry instance of its
     * own (reaching the others through the self driver), and returns when all ended. A rank that
     * throws fails the job: the first failure is thrown (naming its rank), the others suppressed.
     * {@code bound} limits the whole run.
     *
     * <pre>{@code
     * Ferry.runInProcess(4, Duration.ofMinutes(1), ferry -> {
     *     Comm w = ferry.world();
     *     int[] token = {w.rank()};
     *     w.sendrecvReplace(token, 0, 1, Datatype.INT, (w.rank() + 1) % 4, 0, (w.rank() + 3) % 4, 0);
     * });
     * }</pre>
     */
    public static void runInProcess(int ranks, Duration bound, RankMain main) {
        runInProcess(ranks, bound, new FerryConfig(), main);
    }

    /** {@link #runInProcess(int, Duration, RankMain)} with each rank's instance configured by {@code config}. */
    public static void runInProcess(int ranks, Duration bound, FerryConfig config, RankMain main) {
        try {
            InProcessJob.run(ranks, bound, boot -> {
                try (Ferry f = new Ferry(config.copy().bootstrap(boot))) {
                    main.run(f);
                }
            });
        } catch (TimeoutException e) {
            throw new FerryException(ErrorClass.TIMEOUT, "the in-process job of " + ranks + " ranks did not end within " + bound);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FerryException(ErrorClass.INTERN, "interrupted while the in-process job ran");
        }
    }

    /**
     * Memory that messages between ranks of this node move through fastest (MPI_Alloc_mem): the
     * shared-memory driver's arena, where a transfer between two ranks' such buffers is one copy
     * and needs no system call; ordinary off-heap memory where this node's driver has none or its
     * arena is full. With {@code FERRY_AGENT=on} the node's agent maps it too, and moves large
     * messages between it and other nodes with no copy of its own. Page aligned, and valid until this instance closes; there is no
     * freeing it before (allocate a buffer once and reuse it).
     *
     * <pre>{@code
     * MemorySegment buf = ferry.allocate(4 << 20);
     * world.send(buf, 0, 4 << 20, Datatype.BYTE, 1, 0);
     * }</pre>
     *
     * @throws FerryException ARG when {@code bytes} is not positive
     */
    public MemorySegment allocate(long bytes) {
        if (bytes <= 0) {
            throw FerryException.arg(ErrorClass.ARG, "allocate: bytes must be positive, not " + bytes);
        }
        return engine.memory().allocate(bytes);
    }

    /** All ranks of the job. */
    public Comm world() {
        return world;
    }

    /**
     * Attaches the buffer that {@link Comm#bsend buffered sends} copy their messages into (MPI's
     * {@code MPI_Buffer_attach}): a byte array, a byte buffer or a memory segment, which the
     * application leaves alone until {@link #detachBuffer}. One buffer at a time per instance.
     *
     * <pre>{@code
     * ferry.attachBuffer(new byte[2 * (4096 + Ferry.BSEND_OVERHEAD)]); // two 4 KiB messages in flight
     * world.bsend(data, 0, 1024, Datatype.INT, 1, 7);                  // returns at once
     * ferry.detachBuffer();                                            // waits until both left
     * }</pre>
     *
     * @throws FerryException {@link ErrorClass#BUFFER} when a buffer is attached already
     */
    public void attachBuffer(Object buffer) {
        bsends.attach(buffer);
    }

    /**
     * Waits until every buffered send from the attached buffer has completed, then detaches it
     * and hands it back (MPI's {@code MPI_Buffer_detach}); null when none is attached.
     */
    public Object detachBuffer() {
        return bsends.detach();
    }

    /** The tag of the goodbyes at close (on the world's internal context; collectives' tags are never negative but -2). */
    static final int GOODBYE_TAG = -3;
    /** How long close waits for the other ranks' goodbyes (as long as the engine's closing meet). */
    private static final long GOODBYE_NANOS = 3_000_000_000L;
    private boolean saidGoodbye;

    /**
     * Tells the other ranks by message that this one is done, and waits (bounded) until each has
     * said the same or failed: a rank that closed while another was still inside a collective
     * with it would fail that collective, and the launcher's closing fence does not always wait
     * (Hydra's PMI-2). The goodbyes climb a binomial tree to rank 0 and come back down, so that a
     * rank's answer means every rank is past its last collective: n - 1 pairs of the job talk, not
     * all n(n - 1) (a pair's first message costs a connection, a channel's mapping, a handshake).
     * A goodbye is sent after this rank's last collective, and read before its close is seen, so
     * by the time the answer is in nobody still needs this rank.
     */
    private void sayGoodbye() {
        int n = size(), me = rank();
        if (n < 2 || saidGoodbye) {
            return;
        }
        saidGoodbye = true;
        long deadline = System.nanoTime() + GOODBYE_NANOS;
        int parentMask = 1; // the lowest set bit of this rank: its parent is me - that bit
        while (parentMask < n && (me & parentMask) == 0) {
            parentMask <<= 1;
        }
        Request[] children = new Request[Integer.SIZE];
        int c = 0;
        for (int mask = 1; mask < parentMask && me + mask < n; mask <<= 1) {
            children[c++] = world.collectiveRecv(DoublingAlgorithms.NOTHING, me + mask, GOODBYE_TAG);
        }
        // a request that failed (its peer died) counts as answered: a dead rank needs nobody
        boolean inTime = awaitAll(children, c, deadline);
        if (inTime && parentMask < n) { // up to the parent once the subtree is in; its answer comes once all are
            inTime = world.collectiveSend(DoublingAlgorithms.NOTHING, me - parentMask, GOODBYE_TAG).awaitUntil(deadline);
            Request down = world.collectiveRecv(DoublingAlgorithms.NOTHING, me - parentMask, GOODBYE_TAG);
            inTime = inTime && down.awaitUntil(deadline);
            if (!inTime) {
                down.cancel();
            }
        }
        if (inTime) {
            for (int mask = 1, i = 0; mask < parentMask && me + mask < n; mask <<= 1) {
                children[i++] = world.collectiveSend(DoublingAlgorithms.NOTHING, me + mask, GOODBYE_TAG);
            }
            inTime = awaitAll(children, c, deadline);
        } else {
            for (int i = 0; i < c; i++) {
                children[i].cancel();
            }
        }
        if (!inTime) {
            engine.logger().log(System.Logger.Level.INFO, "rank {0}: closing without every rank''s goodbye within {1} s (some are still at work)",
                    me, GOODBYE_NANOS / 1_000_000_000L);
        }
    }

    private static boolean awaitAll(Request[] r, int count, long deadline) {
        for (int i = 0; i < count; i++) {
            if (!r[i].awaitUntil(deadline)) {
                return false;
            }
        }
        return true;
    }

    /** This rank alone. */
    public Comm self() {
        return self;
    }

    /** This process's rank in the job. */
    public int rank() {
        return engine.rank();
    }

    /** The ranks in the job. */
    public int size() {
        return engine.size();
    }

    /**
     * How this job was wired up: the protocol through which its launcher gave each rank its place
     * and peers. {@code "pmi-1"} ({@code ferry run}, MPICH's Hydra), {@code "pmi-2"} (Hydra,
     * Slurm's {@code --mpi=pmi2}), {@code "pmix"} (Open MPI's {@code mpirun}, Slurm's
     * {@code --mpi=pmix}), {@code "singleton"} (no launcher: a job of one), {@code "in-process"}
     * ({@link #runInProcess}).
     *
     * <pre>{@code
     * if (ferry.rank() == 0) System.out.println(ferry.size() + " ranks, started over " + ferry.launcher());
     * }</pre>
     */
    public String launcher() {
        return engine.bootstrapProtocol();
    }

    /** Any thread may call. */
    public ThreadLevel threadLevel() {
        return ThreadLevel.MULTIPLE;
    }

    /** The name of the host this rank runs on. */
    public String processorName() {
        return NodeId.hostName();
    }

    /** Seconds since some fixed moment, for timing (MPI_Wtime). */
    public static double wtime() {
        return System.nanoTime() / 1e9;
    }

    /**
     * This rank's connections and the bytes Ferry holds, by kind (what {@code ferry run --stats}
     * prints per rank). Any thread.
     *
     * <pre>{@code
     * FerryStats s = ferry.stats();
     * if (s.connectionsOpen() > 64) System.err.println("many peers at once: " + s);
     * }</pre>
     */
    public FerryStats stats() {
        dev.ferry.core.gate.ConnectionCounts c = engine.connections();
        return new FerryStats(c.open(), c.opened(), c.closedIdle(), c.evicted(), new java.util.LinkedHashMap<>(engine.bytesHeld()));
    }

    /** The rails and protocols chosen for each kind of peer (what {@code ferry info} prints in a job). */
    public String describe() {
        return engine.describe() + "collectives (FERRY_COLL_<NAME> forces one):\n" + tuning.table().indent(2);
    }

    /**
     * Leaves the job: waits until what this rank sent has left (buffered sends included), meets the other ranks (a bounded
     * while), and closes the drivers. Every request of this rank must be complete.
     */
    @Override
    public void close() {
        try {
            bsends.detach(); // buffered sends still in flight complete first, as MPI_Finalize has them do
        } catch (RuntimeException e) {
            engine.logger().log(System.Logger.Level.DEBUG, "rank {0}: buffered sends at close: {1}", rank(), e.getMessage());
        }
        try {
            messaging.faults.announceLeaving(); // peers waiting for this rank's messages hear now that none will come
        } catch (RuntimeException e) {
            engine.logger().log(System.Logger.Level.DEBUG, "rank {0}: telling the peers at close: {1}", rank(), e.getMessage());
        }
        try {
            sayGoodbye();
        } catch (RuntimeException e) { // closing goes on: a peer that failed meanwhile is no reason to stay
            engine.logger().log(System.Logger.Level.DEBUG, "rank {0}: goodbyes at close: {1}", rank(), e.getMessage());
        }
        if (mbean != null) {
            mbean.unregister();
        }
        WindowLibrary w;
        synchronized (creation) {
            w = windows;
            windows = null;
        }
        try {
            if (w != null) {
                w.close();
            }
        } finally {
            engine.close();
        }
    }
}
