package dev.ferry.core.agent;

import dev.ferry.spi.IdleStrategy;
import dev.ferry.spi.Syscall;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The node agent (seed 003's library side in a process of its own): it listens on a Unix socket,
 * admits the ranks of its user and job (the kernel's {@code SO_PEERCRED} for the user and the
 * process, the job key for the job), gives each a command ring in a file both map, and in one
 * loop dispatches the commands of every rank, reaching the ranks' registered memory with
 * {@code process_vm_readv} / {@code process_vm_writev} ({@link CrossMemory}). A rank that hangs
 * up (ends or dies) has its registrations and ring freed; closing the agent tells every ring.
 *
 * <pre>{@code
 * try (Agent a = Agent.start(new Agent.Config(Path.of("/tmp/ferry-agent.sock"), "job-42"))) {
 *     a.run();   // until closed, or idle for the configured time
 * }
 * }</pre>
 */
public final class Agent implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Agent.class.getName());
    /** How often the loop looks for ranks that hung up. */
    private static final long HANGUP_CHECK_NANOS = 10_000_000L;
    /** How often the loop looks for new connections (a rank's greeting waits at most this long). */
    private static final long ACCEPT_NANOS = 1_000_000L;
    /**
     * How the loop waits for work while some is under way (a link half read, a ring full): a short
     * spin, then 20 us naps, no yielding. The agent shares the node's cores with its ranks; a
     * yielding agent on a node whose ranks spin gets the core once a scheduler slice
     * (milliseconds), a napping one within tens of microseconds.
     */
    private static final IdleStrategy IDLE = new IdleStrategy(20_000, 20_000, 1_000_000_000L, 20_000, IdleStrategy.PARK);
    /**
     * How long the loop spins with nothing to do before it sleeps on its bell: a rank's next
     * command of a burst comes within it and costs no wake-up (a forwarded call costs 0.6 us, not
     * 12). Short, because on a node whose cores its ranks fill, an agent that spun or napped 50 us
     * before it slept doubled the latency between nodes.
     */
    static final long SPIN_NANOS = 10_000L;
    /**
     * What an agent serves and how.
     *
     * @param socket    where it listens
     * @param jobKey    the key its ranks greet it with; null: the key of the first rank that greets it
     *                  (an agent started before its job's key is drawn: a Slurm task prolog's)
     * @param uid       the one user it admits (its own, unless a test says otherwise)
     * @param channels  the directory of the ranks' channel files (memory-backed: /dev/shm)
     * @param slots     slots per command ring (a power of two)
     * @param slotBytes bytes per slot (a multiple of 64)
     * @param idleExit  how long without any rank before it ends by itself; zero: never
     * @param ringBytes bytes of each of a rank's two packet rings
     * @param linkAddress where it listens for other nodes' agents (null: the node's first address up)
     * @param endWithJob  whether it ends as soon as the last rank has left (an agent started by a
     *                    job's rank serves that job alone: its ranks all come before any leaves)
     * @param linkIdleClose close a link to another node's agent idle this long (zero: never;
     *                    FERRY_IDLE_CLOSE of the rank that starts it)
     * @param maxLinks    keep at most this many links open, closing the least recently used
     *                    (0: any number; FERRY_MAX_CONNECTIONS of the rank that starts it)
     */
    public record Config(Path socket, String jobKey, long uid, Path channels, int slots, int slotBytes, Duration idleExit, int ringBytes,
                         java.net.InetAddress linkAddress, boolean endWithJob, Duration linkIdleClose, int maxLinks) {
        public Config(Path socket, String jobKey) {
            this(socket, jobKey, AgentSocket.uid(), Path.of("/dev/shm"), ChannelLayout.DEFAULT_SLOTS, ChannelLayout.DEFAULT_SLOT_BYTES, Duration.ZERO,
                    ChannelLayout.DEFAULT_RING_BYTES, null, false, Duration.ZERO, 0);
        }

        public Config {
            if (linkIdleClose.isNegative() || maxLinks < 0) {
                throw new IllegalArgumentException("the agent's link idle close (" + linkIdleClose + ") and link cap (" + maxLinks + ") must not be negative");
            }
        }

        public Config withUid(long other) {
            return new Config(socket, jobKey, other, channels, slots, slotBytes, idleExit, ringBytes, linkAddress, endWithJob, linkIdleClose, maxLinks);
        }

        public Config withIdleExit(Duration d) {
            return new Config(socket, jobKey, uid, channels, slots, slotBytes, d, ringBytes, linkAddress, endWithJob, linkIdleClose, maxLinks);
        }

        public Config withChannels(Path dir) {
            return new Config(socket, jobKey, uid, dir, slots, slotBytes, idleExit, ringBytes, linkAddress, endWithJob, linkIdleClose, maxLinks);
        }

        public Config withEndWithJob(boolean end) {
            return new Config(socket, jobKey, uid, channels, slots, slotBytes, idleExit, ringBytes, linkAddress, end, linkIdleClose, maxLinks);
        }

        public Config withLinkAddress(java.net.InetAddress a) {
            return new Config(socket, jobKey, uid, channels, slots, slotBytes, idleExit, ringBytes, a, endWithJob, linkIdleClose, maxLinks);
        }

        /** Links closed when idle for {@code idle} (zero: never) and capped at {@code max} (0: no cap). */
        public Config withLinks(Duration idle, int max) {
            return new Config(socket, jobKey, uid, channels, slots, slotBytes, idleExit, ringBytes, linkAddress, endWithJob, idle, max);
        }
    }

    /** A connection that has not greeted yet. */
    private static final class Pending {
        final int conn;
        final AgentSocket.Credentials who;
        final MemorySegment buffer;
        long have;
        /** A greeting of the next job, waiting while the last job's links are told its ranks have gone. */
        boolean deferred;

        Pending(int conn, AgentSocket.Credentials who, Arena arena) {
            this.conn = conn;
            this.who = who;
            this.buffer = arena.allocate(AgentHello.KEY + AgentHello.MAX_KEY, 8);
        }
    }

    private final Config config;
    private final AgentSocket socket;
    private final AgentBell bell;
    /** Sleeps on the bell so far (for tests and stats). */
    private volatile long sleeps;
    private final long pid = ProcessHandle.current().pid();
    private final Arena arena = Arena.ofShared();
    private final List<Pending> pending = new ArrayList<>();
    private final List<AgentRank> ranks = new ArrayList<>();
    private final MemorySegment probe = arena.allocate(64, 8);
    private volatile boolean closing;
    /** Whether {@link #run} runs: it frees everything as it ends; otherwise {@link #close} does. */
    private volatile boolean running;
    /** Counted down once {@link #run} has freed everything. */
    private final java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(1);
    private volatile Thread loopThread;
    private volatile int admitted;
    private long beat;
    private int files;
    /** When {@link #duty} last looked for connections, and for ranks that hung up. */
    private long lastAccept, lastHangupCheck = System.nanoTime();
    private boolean shut;

    /** Rails a rank may attach on (FERRY_RAILS allows up to 16 contexts of a driver). */
    static final int MAX_RAILS = 16;

    /** The job's key: the configuration's, or the first rank's (null until it greets). */
    private String jobKey;
    /**
     * An agent given no key that does not end with its job serves one job at a time: once that
     * job's ranks here have all left and its links are quiet, it forgets the key and the job's
     * links ({@link #releasing} meanwhile), and the next job's first rank keys it.
     */
    private final boolean rekeys;
    private boolean releasing;
    /** The node's rails: the first from the start, the others made when a rank first attaches on them. */
    private final AgentRail[] rails = new AgentRail[MAX_RAILS];
    /** The offloads of the layers above on the agent's class path ({@link AgentOffload}). */
    private final AgentOffloads offloads = AgentOffloads.load();

    private Agent(Config config, AgentSocket socket, AgentBell bell) {
        this.config = config;
        this.socket = socket;
        this.bell = bell;
        this.jobKey = config.jobKey();
        this.rekeys = config.jobKey() == null && !config.endWithJob();
        this.rails[0] = new AgentRail(0, config, jobKey, ranks, offloads, bell.selector());
    }

    /** Where other nodes' agents reach this one on its first rail: "host:port". */
    public String linkAddress() {
        return rails[0].network.address();
    }

    /** Bytes read from the links to other nodes so far, every rail's. */
    long linkBytesIn() {
        long n = 0;
        for (AgentRail l : rails) {
            n += l == null ? 0 : l.network.bytesIn();
        }
        return n;
    }

    /** Whether a link holds a record of rank {@code jobRank}'s half written (for tests driving {@link #duty}). */
    boolean halfWritten(int jobRank) {
        for (AgentRail l : rails) {
            if (l != null && l.network.halfWritten(jobRank)) {
                return true;
            }
        }
        return false;
    }

    /** The links to other nodes' agents open now, on every rail. */
    public int openLinks() {
        int n = 0;
        for (AgentRail l : rails) {
            n += l == null ? 0 : l.network.openLinks();
        }
        return n;
    }

    /** Probes of links closed in order made so far, every rail's (for tests). */
    long linkProbes() {
        long n = 0;
        for (AgentRail l : rails) {
            n += l == null ? 0 : l.network.probes();
        }
        return n;
    }

    /**
     * Starts listening at {@code config.socket()}: a socket file left by an agent that died is
     * taken over; a live agent's is refused.
     */
    public static Agent start(Config config) {
        if (config.jobKey() != null && config.jobKey().getBytes(StandardCharsets.UTF_8).length > AgentHello.MAX_KEY) {
            throw new AgentException("the job key is longer than " + AgentHello.MAX_KEY + " bytes");
        }
        Path s = config.socket();
        if (Files.exists(s) && !answers(s)) {
            try {
                Files.delete(s); // a dead agent's
            } catch (IOException e) {
                throw new AgentException("cannot remove the dead agent's socket " + s + ": " + e);
            }
        }
        AgentSocket listening = AgentSocket.listen(s);
        AgentBell bell;
        try {
            bell = AgentBell.listen(s);
        } catch (AgentException e) {
            listening.close();
            throw e;
        }
        Agent a = new Agent(config, listening, bell);
        a.removeDeadAgentsChannels();
        return a;
    }

    /** Removes the channel files of agents that died without removing them (their pid is in the name). */
    private void removeDeadAgentsChannels() {
        try (var files = Files.list(config.channels())) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String[] name = f.getFileName().toString().split("-");
                if (name.length == 5 && name[0].equals("ferry") && name[1].equals("agent")) {
                    try {
                        long owner = Long.parseLong(name[2]);
                        if (owner != pid && !ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false) && Files.isWritable(f)) {
                            Files.deleteIfExists(f);
                        }
                    } catch (NumberFormatException | IOException e) {
                        // not one of ours, or not ours to remove
                    }
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "agent: cannot list {0}: {1}", config.channels(), e.toString());
        }
    }

    /** Whether something listens at socket path {@code s}. */
    static boolean answers(Path s) {
        try (var c = java.nio.channels.SocketChannel.open(java.net.UnixDomainSocketAddress.of(s))) {
            return c.isConnected();
        } catch (IOException e) {
            return false;
        }
    }

    /** Ranks admitted so far (those connected now and those that left). */
    public int admitted() {
        return admitted;
    }

    /** The ranks connected now. */
    public synchronized int connected() {
        return ranks.size();
    }

    /** Runs the loop until {@link #close} (from another thread) or the idle exit. */
    public void run() {
        loopThread = Thread.currentThread();
        running = true;
        try {
            loop();
        } finally {
            shutdown();
            running = false;
            ended.countDown();
        }
    }

    private void loop() {
        long idleSince = System.nanoTime(), quietSince = 0;
        long idleExit = config.idleExit().toNanos();
        while (!closing) {
            boolean work = duty();
            long now = System.nanoTime();
            if (!ranks.isEmpty() || !pending.isEmpty()) {
                idleSince = now;
            } else if (config.endWithJob() && admitted > 0) {
                LOG.log(System.Logger.Level.DEBUG, "agent: the job's last rank here has left, ending");
                break;
            } else if (idleExit > 0 && now - idleSince > idleExit) {
                LOG.log(System.Logger.Level.INFO, "agent: no rank for {0}, ending", config.idleExit());
                break;
            }
            if (work) {
                quietSince = 0;
            } else {
                if (quietSince == 0) {
                    quietSince = now;
                }
                if (now - quietSince < SPIN_NANOS) {
                    Thread.onSpinWait();
                } else if (!quiet() || !sleep(now, ranks.isEmpty() && idleExit > 0 ? idleSince + idleExit - now : Long.MAX_VALUE)) {
                    IDLE.idle(now - quietSince, 1_000_000L); // at most a millisecond asleep: the beat keeps moving
                }
            }
        }
    }

    /**
     * Whether nothing is under way: no greeting half read, no command, copy, record or pull
     * waiting, no rank to be told of a rank gone, a quiet network. Only then may the loop sleep:
     * everything else it waits for wakes it.
     */
    private boolean quiet() {
        if (!pending.isEmpty()) {
            return false;
        }
        for (int i = 0; i < ranks.size(); i++) {
            AgentRank r = ranks.get(i);
            if (!r.jobs.isEmpty() || !r.goneToTell.isEmpty() || !r.out.isEmpty() || r.ring.waiting() > 0) {
                return false;
            }
        }
        for (AgentRail l : rails) {
            if (l != null && (!l.localPulls.idle() || !l.network.quiet())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Sleeps on the bell, at most until the first of {@link #maxSleep}, a link's timer and
     * {@code bound} from {@code now}, unless work came since {@link #quiet} (the ranks are told
     * first that the agent sleeps, then it looks once more). Whether it slept.
     */
    private boolean sleep(long now, long bound) {
        for (int i = 0; i < ranks.size(); i++) {
            AgentBell.sleeps(ranks.get(i).channel, true);
        }
        java.lang.invoke.VarHandle.fullFence();
        boolean slept = false;
        if (quiet()) {
            long until = Math.min(bound, maxSleepNanos);
            for (AgentRail l : rails) {
                if (l != null) {
                    until = Math.min(until, l.network.untilTimer(now));
                }
            }
            asleep = true;
            boolean changed = bell.sleep(until);
            asleep = false;
            for (AgentRail l : rails) {
                if (l != null) {
                    l.network.acceptDue();
                }
            }
            if (changed) {
                lastAccept = lastHangupCheck = 0; // a rank came or went: look at once
            }
            sleeps++;
            slept = true;
        }
        for (int i = 0; i < ranks.size(); i++) {
            AgentBell.sleeps(ranks.get(i).channel, false);
        }
        return slept;
    }

    /** Times the loop slept on its bell (for tests and stats). */
    long sleeps() {
        return sleeps;
    }

    /** Whether the loop sleeps on its bell now, or is about to with nothing left to look at (for tests). */
    boolean asleep() {
        return asleep;
    }

    private volatile boolean asleep;

    /**
     * Sleeps at most {@code d} with nothing to do (default {@link AgentBell#MAX_SLEEP_NANOS}): a
     * test that must see every wake-up come from the bell, not from the sleep's end, sets it long.
     */
    void maxSleep(Duration d) {
        maxSleepNanos = d.toNanos();
    }

    private volatile long maxSleepNanos = AgentBell.MAX_SLEEP_NANOS;

    /**
     * One pass of the agent's work, for a caller that drives it from a loop of its own (Aeron's
     * {@code AgentInvoker}) instead of {@link #run}: new connections and greetings (once a
     * millisecond: a system call each), every rank's commands and a stage of its first queued
     * copy, the beat, and (every 10 ms) the ranks that hung up. Whether there was work. From one
     * thread at a time.
     */
    public boolean duty() {
        beat++;
        boolean work = false;
        long t = System.nanoTime();
        if (t - lastAccept > ACCEPT_NANOS || !pending.isEmpty()) {
            lastAccept = t;
            work = acceptAll() | greet();
        }
        for (AgentRank r : ranks) {
            work |= r.ring.dispatch(r, 64) > 0;
            work |= advance(r);
            work |= relay(r);
            r.ring.beat(beat);
        }
        for (AgentRail l : rails) {
            if (l != null) {
                work |= l.localPulls.step(l.rankOf); // a chunk of the first pull between two ranks of this node
                work |= l.network.poll();
            }
        }
        for (AgentRank r : ranks) {
            ring(r);
        }
        if (releasing) {
            work |= release();
        }
        if (t - lastHangupCheck > HANGUP_CHECK_NANOS) {
            lastHangupCheck = t;
            dropHungUp();
        }
        return work;
    }

    private boolean acceptAll() {
        boolean any = false;
        for (int c; (c = socket.accept()) >= 0; ) {
            any = true;
            pending.add(new Pending(c, socket.peer(c), arena));
        }
        return any;
    }

    /** Reads the greetings that came; admits or refuses those complete. */
    private boolean greet() {
        boolean any = false;
        for (int i = pending.size() - 1; i >= 0; i--) {
            Pending p = pending.get(i);
            MemorySegment rest = p.buffer.asSlice(p.have);
            long r = rest.byteSize() == 0 ? 0 : socket.read(p.conn, rest);
            if (r == -1 && !p.deferred) {
                continue;
            }
            if (r == 0) { // hung up, or said more than a greeting holds
                pending.remove(i);
                socket.close(p.conn);
                any = true;
                continue;
            }
            if (r > 0) {
                any = true;
                p.have += r;
            }
            if (p.have < AgentHello.KEY) {
                continue;
            }
            int magic = p.buffer.get(ValueLayout.JAVA_INT, AgentHello.HELLO_MAGIC);
            int keyLength = p.buffer.get(ValueLayout.JAVA_INT, AgentHello.KEY_LENGTH);
            if (magic != AgentHello.MAGIC || keyLength < 0 || keyLength > AgentHello.MAX_KEY) {
                refuse(i, p, AgentHello.MALFORMED);
            } else if (p.have >= AgentHello.KEY + keyLength) {
                String key = new String(p.buffer.asSlice(AgentHello.KEY, keyLength).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
                if (p.who.uid() != config.uid()) {
                    refuse(i, p, AgentHello.WRONG_USER);
                } else if (jobKey != null && !key.equals(jobKey)) {
                    if (releasing) {
                        p.deferred = true; // the next job's: admitted once the last one's links are told
                    } else {
                        refuse(i, p, AgentHello.WRONG_KEY);
                    }
                } else {
                    if (jobKey == null) {
                        keyed(key);
                    }
                    releasing = false; // a rank of the same job came back, or the next job's is first
                    pending.remove(i);
                    admit(p);
                }
            }
        }
        return any;
    }

    /**
     * Takes the job key of the first rank that greets an agent started without one: that rank is
     * of its user (the kernel said so), so its key is the job's, drawn by the job's first rank and
     * shared through the launcher; other nodes' agents are then told apart by it.
     */
    private void keyed(String key) {
        jobKey = key;
        for (AgentRail l : rails) {
            if (l != null) {
                l.network.key(key);
            }
        }
        LOG.log(System.Logger.Level.DEBUG, "agent: keyed by its first rank''s job key");
    }

    private void refuse(int index, Pending p, int status) {
        pending.remove(index);
        LOG.log(System.Logger.Level.WARNING, "agent: refused process {0} (uid {1}): {2}", String.valueOf(p.who.pid()), String.valueOf(p.who.uid()), AgentHello.refusal(status));
        answer(p.conn, status, "");
        socket.close(p.conn);
    }

    private boolean answer(int conn, int status, String path) {
        byte[] b = path.getBytes(StandardCharsets.UTF_8);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(AgentHello.PATH + b.length, 8);
            m.set(ValueLayout.JAVA_INT, AgentHello.STATUS, status);
            m.set(ValueLayout.JAVA_INT, AgentHello.PATH_LENGTH, b.length);
            MemorySegment.copy(b, 0, m, ValueLayout.JAVA_BYTE, AgentHello.PATH, b.length);
            return socket.write(conn, m);
        }
    }

    /** Gives an admitted rank its ring, in a file only this user can open. */
    private void admit(Pending p) {
        Path file = config.channels().resolve("ferry-agent-" + pid + "-" + p.who.pid() + "-" + files++);
        Arena a = Arena.ofShared();
        try {
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            long bytes = ChannelLayout.bytes(config.slots(), config.slotBytes(), config.ringBytes());
            MemorySegment m;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                m = ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, a);
            }
            m.set(ValueLayout.JAVA_INT, ChannelLayout.RING_BYTES_AT, config.ringBytes());
            CommandRing ring = CommandRing.create(m, config.slots(), config.slotBytes(), p.who.pid(), pid);
            ring.beat(beat);
            AgentRank r = new AgentRank(p.conn, new CrossMemory(p.who.pid()), ring, file, a, m, config, this::dispatch);
            if (!answer(p.conn, 0, file.toString())) {
                free(r);
                return;
            }
            synchronized (this) {
                ranks.add(r);
            }
            admitted++;
            LOG.log(System.Logger.Level.DEBUG, "agent: admitted process {0}", String.valueOf(p.who.pid()));
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "agent: could not give process {0} a ring: {1}", String.valueOf(p.who.pid()), e.toString());
            a.close();
            socket.close(p.conn);
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // it stays in the directory; nobody maps it
            }
        }
    }

    /** Runs one command of rank {@code r}. */
    private long dispatch(AgentRank r, int call, MemorySegment payload, int argBytes) {
        try {
            return switch (call) {
                case AgentCalls.PING -> {
                    need(argBytes, 8);
                    payload.set(ValueLayout.JAVA_LONG, AgentCalls.RET_BEAT, beat);
                    yield 16; // the value stays where it came
                }
                case AgentCalls.REGISTER -> {
                    need(argBytes, 16);
                    long h = r.memory.register(payload.get(ValueLayout.JAVA_LONG, AgentCalls.ADDRESS), payload.get(ValueLayout.JAVA_LONG, AgentCalls.LENGTH));
                    payload.set(ValueLayout.JAVA_LONG, AgentCalls.RET_HANDLE, h);
                    yield 8;
                }
                case AgentCalls.DEREGISTER -> {
                    need(argBytes, 8);
                    yield r.memory.deregister(payload.get(ValueLayout.JAVA_LONG, AgentCalls.HANDLE)) ? 0 : AgentError.NOT_REGISTERED.code();
                }
                case AgentCalls.COPY -> {
                    need(argBytes, 40);
                    long n = r.memory.copy(payload.get(ValueLayout.JAVA_LONG, AgentCalls.FROM), payload.get(ValueLayout.JAVA_LONG, AgentCalls.FROM_OFFSET),
                            payload.get(ValueLayout.JAVA_LONG, AgentCalls.TO), payload.get(ValueLayout.JAVA_LONG, AgentCalls.TO_OFFSET),
                            payload.get(ValueLayout.JAVA_LONG, AgentCalls.COPY_LENGTH));
                    payload.set(ValueLayout.JAVA_LONG, AgentCalls.RET_COPIED, n);
                    yield 8;
                }
                case AgentCalls.COPY_ASYNC -> {
                    need(argBytes, 44);
                    AgentRank.Copy j = new AgentRank.Copy(payload.get(ValueLayout.JAVA_LONG, AgentCalls.FROM), payload.get(ValueLayout.JAVA_LONG, AgentCalls.FROM_OFFSET),
                            payload.get(ValueLayout.JAVA_LONG, AgentCalls.TO), payload.get(ValueLayout.JAVA_LONG, AgentCalls.TO_OFFSET),
                            payload.get(ValueLayout.JAVA_LONG, AgentCalls.COPY_LENGTH), payload.get(ValueLayout.JAVA_INT, AgentCalls.COUNTER));
                    if (j.counter < 0 || j.counter >= ChannelLayout.COUNTERS) {
                        yield AgentError.BAD_ARGUMENTS.code();
                    }
                    r.memory.check(j.from, j.fromOffset, j.length, "copy from");
                    r.memory.check(j.to, j.toOffset, j.length, "copy to");
                    r.jobs.add(j);
                    yield 0;
                }
                case AgentCalls.ATTACH -> {
                    need(argBytes, 8);
                    int rank = payload.get(ValueLayout.JAVA_INT, AgentCalls.RANK), index = payload.get(ValueLayout.JAVA_INT, AgentCalls.RAIL);
                    if (rank < 0 || index < 0 || index >= MAX_RAILS || r.jobRank >= 0 && (r.jobRank != rank || r.rail.index != index)) {
                        yield AgentError.BAD_ARGUMENTS.code();
                    }
                    if (rails[index] == null) {
                        rails[index] = new AgentRail(index, config, jobKey, ranks, offloads, bell.selector());
                    }
                    AgentRail rail = rails[index];
                    AgentRank there = rail.byJobRank.get(rank);
                    if (there != null && there != r) {
                        yield AgentError.BAD_ARGUMENTS.code();
                    }
                    r.jobRank = rank;
                    r.rail = rail;
                    rail.byJobRank.put(rank, r);
                    byte[] a = rail.network.address().getBytes(StandardCharsets.UTF_8);
                    payload.set(ValueLayout.JAVA_INT, AgentCalls.RET_ADDRESS_LENGTH, a.length);
                    MemorySegment.copy(a, 0, payload, ValueLayout.JAVA_BYTE, AgentCalls.RET_ADDRESS, a.length);
                    yield AgentCalls.RET_ADDRESS + a.length;
                }
                case AgentCalls.ROUTE -> {
                    need(argBytes, 8);
                    int rank = payload.get(ValueLayout.JAVA_INT, AgentCalls.RANK), n = payload.get(ValueLayout.JAVA_INT, AgentCalls.ADDRESS_LENGTH);
                    if (rank < 0 || n <= 0 || n > AgentLinkHello.MAX_ADDRESS || argBytes < AgentCalls.ROUTE_ADDRESS + n) {
                        yield AgentError.BAD_ARGUMENTS.code();
                    }
                    String to = new String(payload.asSlice(AgentCalls.ROUTE_ADDRESS, n).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
                    if (r.rail == null) {
                        yield AgentError.BAD_ARGUMENTS.code(); // routes are a rail's: attach first
                    }
                    if (!to.equals(r.rail.network.address())) {
                        r.rail.network.route(rank, to);
                    }
                    yield 0;
                }
                case AgentCalls.STATS -> {
                    long closedIdle = 0, evicted = 0, made = 0;
                    for (AgentRail l : rails) {
                        if (l != null) {
                            closedIdle += l.network.closedIdle();
                            evicted += l.network.evicted();
                            made++;
                        }
                    }
                    payload.set(ValueLayout.JAVA_LONG, AgentCalls.RET_LINKS, openLinks());
                    payload.set(ValueLayout.JAVA_LONG, AgentCalls.RET_CLOSED_IDLE, closedIdle);
                    payload.set(ValueLayout.JAVA_LONG, AgentCalls.RET_EVICTED, evicted);
                    payload.set(ValueLayout.JAVA_LONG, AgentCalls.RET_RAILS, made);
                    long linked = 0, offloaded = 0; // this rank's channels on every rail
                    for (AgentRail l : rails) {
                        AgentRank same = l == null || r.jobRank < 0 ? null : l.byJobRank.get(r.jobRank);
                        if (same != null) {
                            linked += same.memory.linkedBytes();
                            offloaded += same.offloaded;
                        }
                    }
                    payload.set(ValueLayout.JAVA_LONG, AgentCalls.RET_MAPPED_BYTES, r.jobRank < 0 ? r.memory.linkedBytes() : linked);
                    payload.set(ValueLayout.JAVA_LONG, AgentCalls.RET_OFFLOADED, r.jobRank < 0 ? r.offloaded : offloaded);
                    yield 48;
                }
                case AgentCalls.MAP -> {
                    need(argBytes, 16);
                    boolean m = r.memory.map(payload.get(ValueLayout.JAVA_LONG, AgentCalls.ADDRESS), payload.get(ValueLayout.JAVA_LONG, AgentCalls.LENGTH));
                    payload.set(ValueLayout.JAVA_LONG, AgentCalls.RET_MAPPED, m ? 1 : 0);
                    yield 8;
                }
                case AgentCalls.TABLE -> {
                    need(argBytes, 24);
                    int kind = payload.get(ValueLayout.JAVA_INT, AgentCalls.KIND);
                    long address = payload.get(ValueLayout.JAVA_LONG, AgentCalls.TABLE_ADDRESS), length = payload.get(ValueLayout.JAVA_LONG, AgentCalls.TABLE_LENGTH);
                    if (kind < 1 || kind > AgentOffload.MAX_KIND || length <= 0) {
                        yield AgentError.BAD_ARGUMENTS.code();
                    }
                    // only memory the agent maps (the rank's arena): read there as the rank writes it, never copied
                    CrossMemory.Mapping m = offloads.serves(kind) ? r.memory.mapping(address, length) : null;
                    if (m != null && r.tables[kind] == null) {
                        r.tables[kind] = m.here().asSlice(address - m.address(), length);
                        r.tablesPublished++;
                    }
                    payload.set(ValueLayout.JAVA_LONG, AgentCalls.RET_TABLE, m != null ? 1 : 0);
                    yield 8;
                }
                default -> AgentError.NO_CALL.code();
            };
        } catch (AgentException e) {
            return e.error() != null ? e.error().code() : AgentError.UNREACHABLE.code();
        }
    }

    /**
     * Moves one stage of rank {@code r}'s first queued copy; a copy done adds its bytes to its
     * counter, one that fails (memory deregistered, the process's memory gone) sets the counter's
     * error. One stage per rank per pass: every rank's commands and copies take turns.
     */
    private boolean advance(AgentRank r) {
        AgentRank.Copy j = r.jobs.peek();
        if (j == null) {
            return false;
        }
        long n = Math.min(CrossMemory.STAGE, j.length - j.done);
        try {
            r.memory.copy(j.from, j.fromOffset + j.done, j.to, j.toOffset + j.done, n);
            j.done += n;
            if (j.done == j.length) {
                r.jobs.poll();
                r.ring.addDone(j.counter, j.length);
            }
        } catch (AgentException e) {
            r.jobs.poll();
            r.ring.fail(j.counter, e.error() != null ? e.error().code() : AgentError.UNREACHABLE.code());
        }
        return true;
    }

    /**
     * Passes rank {@code r}'s sent records on: to a rank of this node straight into its IN ring,
     * to another node's over the link to that node, written from where it lies; first tells it of
     * ranks gone. Stops at a record that cannot go yet (a full ring, a busy link): order is kept.
     */
    private boolean relay(AgentRank r) {
        boolean work = false;
        while (!r.goneToTell.isEmpty()) {
            if (r.in.claimed() || r.in.claim(0) < 0) { // a link's record still comes into the ring
                return work;
            }
            int g = r.goneToTell.pollInt();
            r.in.commit(g, g, ChannelLayout.GONE, 0, 0);
            work = true;
        }
        if (r.jobRank < 0) {
            return work;
        }
        for (int n = 0; n < 64; n++) {
            long rec = r.out.next();
            if (rec < 0) {
                break;
            }
            int to = r.out.peer(rec);
            r.out.origin(rec, r.jobRank);
            AgentRank local = r.rail.byJobRank.get(to);
            if (r.out.kind(rec) == ChannelLayout.PULL && !pullToSend(r, to, local, rec)) {
                r.out.release(rec); // refused, or served here
                work = true;
                continue;
            }
            if (local != null) {
                int len = r.out.length(rec);
                long at = local.in.claimed() ? -1 : local.in.claim(len); // a link's record may still come into it
                if (at < 0) {
                    break;
                }
                MemorySegment.copy(r.out.memory(), ByteRing.payload(rec), local.in.memory(), at, len);
                local.in.commit(r.jobRank, r.jobRank, r.out.kind(rec), r.out.more(rec), len);
            } else {
                AgentLink link = r.rail.network.linkOf(to);
                try {
                    if (link == null) {
                        throw new AgentException(AgentError.UNREACHABLE, "no route to rank " + to);
                    }
                    if (!r.rail.network.send(link, r.jobRank, r.out, r.outView, rec)) {
                        break;
                    }
                } catch (AgentException e) {
                    // the rank learns its peer is gone; what it sent there is dropped
                    if (!r.goneToTell.contains(to)) {
                        r.goneToTell.add(to);
                    }
                }
            }
            r.out.release(rec);
            work = true;
        }
        if (work) {
            roomMade(r);
        }
        return work;
    }

    /**
     * The agent took records out of rank {@code r}'s OUT ring: if the rank found it full and
     * asked ({@link ChannelLayout#OUT_WAITS}), its bell rings, so that a send sleeping on the full
     * ring goes on now. The fence orders the release before the look, as the rank's before its second try.
     */
    private static void roomMade(AgentRank r) {
        java.lang.invoke.VarHandle.fullFence();
        if ((int) BELL_WORD.getVolatile(r.channel, ChannelLayout.OUT_WAITS) != 0) {
            BELL_WORD.setVolatile(r.channel, ChannelLayout.OUT_WAITS, 0);
            r.wake();
        }
    }

    /**
     * AgentRank {@code r}'s pull request {@code rec} to rank {@code to}: true when it is to go on to
     * the other node; false when it was refused (the pull answered FAILED) or is served here.
     */
    private boolean pullToSend(AgentRank r, int to, AgentRank local, long rec) {
        MemorySegment req = r.out.memory().asSlice(ByteRing.payload(rec), Math.max(0, r.out.length(rec)));
        if (!AgentPulls.own(r, to, req)) {
            return false;
        }
        if (local == null) {
            return true;
        }
        r.rail.localPulls.ask(r, local, req);
        return false;
    }

    private static final java.lang.invoke.VarHandle BELL_WORD = ValueLayout.JAVA_INT.varHandle();
    private final MemorySegment errno = Syscall.errnoCapture(arena);

    /** Rings rank {@code r}'s bell when records came into its IN ring since it last rang, waking it if it sleeps. */
    private void ring(AgentRank r) {
        long p = r.in.produced();
        if (p == r.rungAt && r.answers == r.rungAnswers) {
            return;
        }
        r.rungAt = p;
        r.rungAnswers = r.answers;
        BELL_WORD.getAndAdd(r.channel, ChannelLayout.BELL, 1);
        if ((int) BELL_WORD.getVolatile(r.channel, ChannelLayout.RANK_SLEEPS) != 0) {
            Syscall.call(errno, Syscall.number(Syscall.Call.FUTEX), r.channel.address() + ChannelLayout.BELL, 1 /* FUTEX_WAKE */, Integer.MAX_VALUE, 0, 0, 0);
        }
    }

    private static void need(int argBytes, int bytes) {
        if (argBytes < bytes) {
            throw new AgentException(AgentError.BAD_ARGUMENTS, "arguments of " + argBytes + " bytes, " + bytes + " needed");
        }
    }

    /**
     * The job's ranks here have all left: once every link has said so (nothing queued or under
     * way), the job's links are closed and forgotten with its key. Whether it happened.
     */
    private boolean release() {
        if (!ranks.isEmpty()) {
            releasing = false; // a rank of the same job came meanwhile
            return false;
        }
        for (AgentRail l : rails) {
            if (l != null && !l.network.quiet()) {
                return false;
            }
        }
        for (AgentRail l : rails) {
            if (l != null) {
                l.network.forgetJob();
            }
        }
        jobKey = null;
        releasing = false;
        LOG.log(System.Logger.Level.DEBUG, "agent: its job''s ranks have all left; the next job''s first rank keys it");
        return true;
    }

    /** Frees the ranks whose connection ended. */
    private void dropHungUp() {
        for (int i = ranks.size() - 1; i >= 0; i--) {
            AgentRank r = ranks.get(i);
            if (socket.read(r.conn, probe) == 0) {
                LOG.log(System.Logger.Level.DEBUG, "agent: process {0} hung up; its {1} registrations freed", String.valueOf(r.memory.pid()), r.memory.registrations());
                if (r.rail != null) {
                    r.rail.network.release(r.memory); // before its mappings go
                    r.rail.network.leaving(r.jobRank, r.outView);
                }
                free(r); // before it leaves the list: who sees it gone sees its file gone
                synchronized (this) {
                    ranks.remove(i);
                }
                if (rekeys && ranks.isEmpty() && jobKey != null) {
                    releasing = true;
                }
                if (r.jobRank >= 0) {
                    r.rail.byJobRank.remove(r.jobRank);
                    r.rail.network.forget(r.in);
                    r.rail.network.sayGone(r.jobRank);
                    for (AgentRank o : ranks) {
                        if (o.rail == r.rail) {
                            o.goneToTell.add(r.jobRank);
                        }
                    }
                }
            }
        }
    }

    private void free(AgentRank r) {
        r.left = true; // pulls from it or into it stop touching its memory
        r.ring.close();
        socket.close(r.conn);
        r.memory.close();
        r.arena.close();
        try {
            Files.deleteIfExists(r.file);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "agent: could not remove {0}: {1}", r.file, e.toString());
        }
    }

    private synchronized void shutdown() {
        if (shut) {
            return;
        }
        shut = true;
        for (AgentRank r : ranks) {
            free(r);
        }
        synchronized (this) {
            ranks.clear();
        }
        for (Pending p : pending) {
            socket.close(p.conn);
        }
        pending.clear();
        for (AgentRail l : rails) {
            if (l != null) {
                l.network.close();
            }
        }
        socket.close();
        bell.close();
        arena.close();
    }

    /**
     * Ends the loop and returns once it has: every rank's ring says the agent has gone, and the
     * socket file is gone (so a new agent may listen there at once).
     */
    @Override
    public void close() {
        closing = true;
        bell.wakeup();
        if (running && Thread.currentThread() != loopThread) {
            try {
                if (!ended.await(10, java.util.concurrent.TimeUnit.SECONDS)) {
                    LOG.log(System.Logger.Level.WARNING, "agent: its loop did not end within 10 s of close");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (!running) {
            shutdown();
        }
    }
}
