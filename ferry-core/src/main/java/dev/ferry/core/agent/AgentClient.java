package dev.ferry.core.agent;

import dev.ferry.spi.IdleStrategy;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * A rank's end of its node's agent (seed 003's API-side NAL): it greets the agent on its socket
 * with the job key, maps the command ring the agent gives it, and forwards calls there. Every
 * wait for the agent is bounded: an agent whose process is gone, that said it closed, or whose
 * beat has not moved for the configured bound fails the call with an {@link AgentException},
 * never a hang. Any thread may call; each keeps its own argument and answer blocks.
 *
 * <pre>{@code
 * try (AgentClient agent = AgentClient.connect(Path.of("/tmp/ferry-agent.sock"), "job-42", Duration.ofSeconds(10))) {
 *     long h = agent.register(buffer);                       // the agent may now reach buffer
 *     agent.copy(h, 0, h, 4096, 4096);                       // and copies within it
 * }
 * }</pre>
 */
public final class AgentClient implements AutoCloseable {
    private final SocketChannel socket;
    private final CommandRing ring;
    private final long agentPid;
    private final long bound;
    private final CommandRing.Liveness liveness = this::check;
    /** The agent's beat when last seen moving, and when. */
    private volatile long lastBeat;
    private volatile long beatSeenAt;
    private volatile boolean closed;
    private final ThreadLocal<MemorySegment[]> blocks;

    private final MemorySegment channel;

    /** Wakes the agent when it sleeps, after this rank posted work. */
    private final AgentBell.Ringer ringer;

    private AgentClient(SocketChannel socket, SocketChannel bell, MemorySegment channel, Duration bound) {
        this.socket = socket;
        this.channel = channel;
        this.ringer = new AgentBell.Ringer(bell, channel);
        this.ring = CommandRing.open(channel).withDoorbell(ringer::ring);
        this.agentPid = ring.agentPid();
        this.bound = bound.toNanos();
        this.lastBeat = ring.beat();
        this.beatSeenAt = System.nanoTime();
        int n = ring.payloadBytes();
        this.blocks = ThreadLocal.withInitial(() -> new MemorySegment[] {Arena.ofAuto().allocate(n, 8), Arena.ofAuto().allocate(n, 8)});
    }

    /**
     * Greets the agent listening at {@code socket} with {@code jobKey} and maps the ring it gives;
     * {@code bound} limits the greeting, and later any wait in which the agent shows no sign of life.
     *
     * @throws AgentException when nobody listens there, or the agent refuses (another user, another job)
     */
    public static AgentClient connect(Path socketPath, String jobKey, Duration bound) {
        SocketChannel s;
        try {
            s = SocketChannel.open(UnixDomainSocketAddress.of(socketPath));
        } catch (IOException e) {
            throw new AgentException(AgentError.ABSENT, socketPath + " (" + e.getMessage() + ")");
        }
        SocketChannel bell = null;
        try {
            byte[] key = jobKey.getBytes(StandardCharsets.UTF_8);
            ByteBuffer hello = ByteBuffer.allocate((int) AgentHello.KEY + key.length).order(ByteOrder.LITTLE_ENDIAN);
            hello.putInt((int) AgentHello.HELLO_MAGIC, AgentHello.MAGIC).putInt((int) AgentHello.KEY_LENGTH, key.length).put((int) AgentHello.KEY, key, 0, key.length);
            while (hello.hasRemaining()) {
                s.write(hello);
            }
            bell = AgentBell.Ringer.dial(socketPath, bound); // wakes an agent asleep to read the greeting
            s.configureBlocking(false);
            ByteBuffer head = read(s, (int) AgentHello.PATH, bound, socketPath);
            int status = head.getInt((int) AgentHello.STATUS), length = head.getInt((int) AgentHello.PATH_LENGTH);
            if (status != 0) {
                throw new AgentException("the agent at " + socketPath + " refused this process: " + AgentHello.refusal(status));
            }
            if (length <= 0 || length > 4096) {
                throw new AgentException("the agent at " + socketPath + " answered a channel path of " + length + " bytes");
            }
            Path file = Path.of(StandardCharsets.UTF_8.decode(read(s, length, bound, socketPath)).toString());
            Arena mapped = Arena.ofShared();
            MemorySegment channel;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                channel = ch.map(FileChannel.MapMode.READ_WRITE, 0, ch.size(), mapped);
            }
            AgentClient c = new AgentClient(s, bell, channel, bound);
            c.mapped = mapped;
            c.file = file;
            return c;
        } catch (IOException | RuntimeException e) {
            try {
                s.close();
                if (bell != null) {
                    bell.close();
                }
            } catch (IOException ignored) {
                // going anyway
            }
            if (e instanceof AgentException a) {
                throw a;
            }
            throw new AgentException("greeting the agent at " + socketPath + " failed: " + e);
        }
    }

    /** The arena of the ring's mapping, closed with the client. */
    private Arena mapped;
    /** The channel file: the agent removes it; after the agent's death, the rank does. */
    private Path file;

    /** Reads exactly {@code n} bytes from non-blocking {@code s}, within {@code bound}. */
    private static ByteBuffer read(SocketChannel s, int n, Duration bound, Path where) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        long start = System.nanoTime();
        while (b.hasRemaining()) {
            if (s.read(b) < 0) {
                throw new AgentException("the agent at " + where + " hung up before it answered the greeting");
            }
            long waited = System.nanoTime() - start;
            if (b.hasRemaining()) {
                if (waited > bound.toNanos()) {
                    throw new AgentException("the agent at " + where + " did not answer the greeting within " + bound);
                }
                IdleStrategy.DEFAULT.idle(waited, 1_000_000L);
            }
        }
        return b.flip();
    }

    /**
     * Whether the agent's process exists. A sleeping rank's watcher asks every 100 ms: by a system
     * call, where ProcessHandle reads and parses /proc.
     */
    private boolean agentExists() {
        try (Arena a = Arena.ofConfined()) {
            return dev.ferry.spi.Syscall.processExists(dev.ferry.spi.Syscall.errnoCapture(a), agentPid);
        }
    }

    /** Throws when the agent is gone: it said so, its process ended, or its beat stood still for the bound. */
    private void check() {
        if (closed) {
            throw new AgentException("this rank's agent connection was closed");
        }
        if (ring.closed()) {
            throw new AgentException("the agent (process " + agentPid + ") has closed");
        }
        if (!agentExists()) {
            throw new AgentException("the agent (process " + agentPid + ") has died");
        }
        long b = ring.beat(), now = System.nanoTime();
        if (b != lastBeat) {
            lastBeat = b;
            beatSeenAt = now;
        } else if (now - beatSeenAt > bound) {
            throw new AgentException("the agent (process " + agentPid + ") has not moved for " + Duration.ofNanos(now - beatSeenAt).toMillis()
                    + " ms: taken as dead");
        }
    }

    /** Forwards {@code call} with the {@code argBytes} this thread wrote into {@link #args()}; the answer's bytes in {@link #answer()}. */
    private long forward(int call, int argBytes, String what) {
        if (closed || ring.closed()) { // the rest of the check (the agent's process, its beat) costs a look at /proc: only while waiting
            check();
        }
        MemorySegment[] b = blocks.get();
        long r = ring.forward(call, b[0], argBytes, b[1], liveness);
        if (r < 0) {
            AgentError e = AgentError.of((int) r);
            throw e != null ? new AgentException(e, what) : new AgentException(what + ": the agent answered " + r);
        }
        return r;
    }

    private MemorySegment args() {
        return blocks.get()[0];
    }

    private MemorySegment answer() {
        return blocks.get()[1];
    }

    /** A round trip through the agent: {@code value} comes back. */
    public long ping(long value) {
        args().set(ValueLayout.JAVA_LONG, AgentCalls.VALUE, value);
        forward(AgentCalls.PING, 8, "ping");
        return answer().get(ValueLayout.JAVA_LONG, AgentCalls.RET_VALUE);
    }

    /** Lets the agent reach {@code memory} (native, this process's): its handle (seed 003's validate). */
    public long register(MemorySegment memory) {
        if (!memory.isNative()) {
            throw new IllegalArgumentException("register: the agent reaches native memory only");
        }
        return register(memory.address(), memory.byteSize());
    }

    /** Lets the agent reach {@code length} bytes at {@code address} of this process: their handle. */
    public long register(long address, long length) {
        MemorySegment a = args();
        a.set(ValueLayout.JAVA_LONG, AgentCalls.ADDRESS, address);
        a.set(ValueLayout.JAVA_LONG, AgentCalls.LENGTH, length);
        forward(AgentCalls.REGISTER, 16, "register");
        return answer().get(ValueLayout.JAVA_LONG, AgentCalls.RET_HANDLE);
    }

    /**
     * Asks the agent to map {@code length} bytes at {@code address} of this process too (memory
     * kept until this rank leaves, in a shared mapping of a file): whether it did. Pulls from and
     * into them then move between its links and this memory with no copy between.
     */
    public boolean map(long address, long length) {
        MemorySegment a = args();
        a.set(ValueLayout.JAVA_LONG, AgentCalls.ADDRESS, address);
        a.set(ValueLayout.JAVA_LONG, AgentCalls.LENGTH, length);
        forward(AgentCalls.MAP, 16, "map");
        return answer().get(ValueLayout.JAVA_LONG, AgentCalls.RET_MAPPED) != 0;
    }

    /**
     * Publishes a table of {@code kind} ({@code length} bytes at {@code address}, memory the agent
     * mapped) for the agent's offload of that kind ({@link AgentOffload}): whether one reads it.
     */
    public boolean table(int kind, long address, long length) {
        MemorySegment a = args();
        a.set(ValueLayout.JAVA_INT, AgentCalls.KIND, kind);
        a.set(ValueLayout.JAVA_INT, AgentCalls.KIND + 4, 0);
        a.set(ValueLayout.JAVA_LONG, AgentCalls.TABLE_ADDRESS, address);
        a.set(ValueLayout.JAVA_LONG, AgentCalls.TABLE_LENGTH, length);
        forward(AgentCalls.TABLE, 24, "table");
        return answer().get(ValueLayout.JAVA_LONG, AgentCalls.RET_TABLE) != 0;
    }

    public void deregister(long handle) {
        args().set(ValueLayout.JAVA_LONG, AgentCalls.HANDLE, handle);
        forward(AgentCalls.DEREGISTER, 8, "deregister");
    }

    /** Has the agent copy {@code length} bytes between two of this rank's registrations; the bytes copied. */
    public long copy(long from, long fromOffset, long to, long toOffset, long length) {
        copyArgs(from, fromOffset, to, toOffset, length);
        forward(AgentCalls.COPY, 40, "copy");
        return answer().get(ValueLayout.JAVA_LONG, AgentCalls.RET_COPIED);
    }

    /** A copy's arguments, in this thread's argument block (returned). */
    private MemorySegment copyArgs(long from, long fromOffset, long to, long toOffset, long length) {
        MemorySegment a = args();
        a.set(ValueLayout.JAVA_LONG, AgentCalls.FROM, from);
        a.set(ValueLayout.JAVA_LONG, AgentCalls.FROM_OFFSET, fromOffset);
        a.set(ValueLayout.JAVA_LONG, AgentCalls.TO, to);
        a.set(ValueLayout.JAVA_LONG, AgentCalls.TO_OFFSET, toOffset);
        a.set(ValueLayout.JAVA_LONG, AgentCalls.COPY_LENGTH, length);
        return a;
    }

    /**
     * Has the agent copy {@code length} bytes between two of this rank's registrations while this
     * rank goes on: it returns once the agent checked and queued the copy, whose length the agent
     * adds to {@code counter} when done (or sets the counter's error). See {@link #awaitCounter}.
     *
     * <pre>{@code
     * long target = agent.counter(0) + n;
     * agent.copyAsync(from, 0, to, 0, n, 0);
     * compute();                                   // the agent moves the bytes meanwhile
     * agent.awaitCounter(0, target);
     * }</pre>
     */
    public void copyAsync(long from, long fromOffset, long to, long toOffset, long length, int counter) {
        CommandRing.checkCounter(counter);
        copyArgs(from, fromOffset, to, toOffset, length).set(ValueLayout.JAVA_INT, AgentCalls.COUNTER, counter);
        forward(AgentCalls.COPY_ASYNC, 44, "copyAsync");
    }

    /** {@link #attach(int, int)} on the first rail. */
    public String attach(int rank) {
        return attach(rank, 0);
    }

    /**
     * Tells the agent this process is rank {@code rank} of the job on rail {@code rail} (its
     * channel is that rail's): from now on it relays the packet rings. Returns the rail's link
     * address, for this rank's URL.
     */
    public String attach(int rank, int rail) {
        args().set(ValueLayout.JAVA_INT, AgentCalls.RANK, rank);
        args().set(ValueLayout.JAVA_INT, AgentCalls.RAIL, rail);
        forward(AgentCalls.ATTACH, 8, "attach");
        MemorySegment a = answer();
        int n = a.get(ValueLayout.JAVA_INT, AgentCalls.RET_ADDRESS_LENGTH);
        return new String(a.asSlice(AgentCalls.RET_ADDRESS, n).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    /** The links the agent holds open to other nodes' agents now. */
    public long links() {
        return linkCounts()[0];
    }

    /**
     * The agent's links on every rail: open now, closed in order for being idle so far, and for
     * the cap; then its rails; then the bytes of this rank's pulls (all its rails) that moved
     * between a link and memory the agent mapped; then the messages for it that the agent's
     * offloads served.
     */
    public long[] linkCounts() {
        forward(AgentCalls.STATS, 0, "stats");
        MemorySegment a = answer();
        return new long[] {a.get(ValueLayout.JAVA_LONG, AgentCalls.RET_LINKS), a.get(ValueLayout.JAVA_LONG, AgentCalls.RET_CLOSED_IDLE),
                a.get(ValueLayout.JAVA_LONG, AgentCalls.RET_EVICTED), a.get(ValueLayout.JAVA_LONG, AgentCalls.RET_RAILS),
                a.get(ValueLayout.JAVA_LONG, AgentCalls.RET_MAPPED_BYTES), a.get(ValueLayout.JAVA_LONG, AgentCalls.RET_OFFLOADED)};
    }

    /** Tells the agent that rank {@code rank} is served by the agent at {@code agentAddress}. */
    public void route(int rank, String agentAddress) {
        byte[] b = agentAddress.getBytes(StandardCharsets.UTF_8);
        MemorySegment a = args();
        a.set(ValueLayout.JAVA_INT, AgentCalls.RANK, rank);
        a.set(ValueLayout.JAVA_INT, AgentCalls.ADDRESS_LENGTH, b.length);
        MemorySegment.copy(b, 0, a, ValueLayout.JAVA_BYTE, AgentCalls.ROUTE_ADDRESS, b.length);
        forward(AgentCalls.ROUTE, (int) AgentCalls.ROUTE_ADDRESS + b.length, "route");
    }

    /** The memory shared with the agent (for the bell). */
    MemorySegment channel() {
        return channel;
    }

    /** The ring of the packets this rank sends (it writes, the agent reads); null when the channel has none. */
    public ByteRing outRing() {
        int bytes = channel.get(ValueLayout.JAVA_INT, ChannelLayout.RING_BYTES_AT);
        return bytes == 0 ? null : ByteRing.at(channel, ChannelLayout.outRing(ring.slots(), ring.slotBytes()), bytes);
    }

    /** The ring of the packets that come for this rank (the agent writes, it reads); null when the channel has none. */
    public ByteRing inRing() {
        int bytes = channel.get(ValueLayout.JAVA_INT, ChannelLayout.RING_BYTES_AT);
        return bytes == 0 ? null : ByteRing.at(channel, ChannelLayout.inRing(ring.slots(), ring.slotBytes(), bytes), bytes);
    }

    /** The exposure slots (what this rank offers peers to pull), or null when the channel has no rings. */
    MemorySegment exposureSlots() {
        int bytes = channel.get(ValueLayout.JAVA_INT, ChannelLayout.RING_BYTES_AT);
        return bytes == 0 ? null
                : channel.asSlice(ChannelLayout.exposures(ring.slots(), ring.slotBytes(), bytes), ChannelLayout.PULL_SLOTS * ChannelLayout.PULL_SLOT_BYTES);
    }

    /** The pull slots (the memory this rank asked the agent to pull into), or null when the channel has no rings. */
    MemorySegment pullSlots() {
        int bytes = channel.get(ValueLayout.JAVA_INT, ChannelLayout.RING_BYTES_AT);
        return bytes == 0 ? null
                : channel.asSlice(ChannelLayout.pulls(ring.slots(), ring.slotBytes(), bytes), ChannelLayout.PULL_SLOTS * ChannelLayout.PULL_SLOT_BYTES);
    }

    /** The pull slots' match fields (receives armed for the agent to match), or null when the channel has no rings. */
    MemorySegment matchFields() {
        int bytes = channel.get(ValueLayout.JAVA_INT, ChannelLayout.RING_BYTES_AT);
        return bytes == 0 ? null
                : channel.asSlice(ChannelLayout.matches(ring.slots(), ring.slotBytes(), bytes), ChannelLayout.PULL_SLOTS * ChannelLayout.MATCH_BYTES);
    }

    /**
     * Null while the agent serves; else why it does not (closed, dead, or still for longer than
     * the bound). Looks at /proc: for a rank's occasional check, not every poll.
     */
    public String failure() {
        try {
            check();
            return null;
        } catch (AgentException e) {
            return e.getMessage();
        }
    }

    /** The bytes finished on {@code counter} so far: read where it is, no call to the agent. */
    public long counter(int counter) {
        return ring.counterDone(counter);
    }

    /**
     * Waits until {@code counter} reaches {@code target} bytes, idling as every wait does (asleep
     * once it has waited a while: the rank takes no core from the agent), and asking now and then
     * whether the agent lives.
     *
     * @throws AgentException with the error of an operation counted there that failed, or when the agent is gone
     */
    public void awaitCounter(int counter, long target) {
        long start = System.nanoTime(), asked = start;
        while (true) {
            int err = ring.counterError(counter);
            if (err != 0) {
                AgentError e = AgentError.of(err);
                throw e != null ? new AgentException(e, "an operation counted on counter " + counter) : new AgentException("counter " + counter + ": " + err);
            }
            if (ring.counterDone(counter) >= target) {
                return;
            }
            long now = System.nanoTime();
            if (now - asked > 1_000_000L) {
                asked = now;
                check();
            }
            IdleStrategy.DEFAULT.idle(now - start, 1_000_000L);
        }
    }

    /** Commands this rank posted that the agent has not dispatched yet (for tests). */
    int commandsWaiting() {
        return ring.waiting();
    }

    /** Wakes the agent if it sleeps: after this rank posted records in its OUT ring. */
    void wakeAgent() {
        ringer.ring();
    }

    /** The agent's process id. */
    public long agentPid() {
        return agentPid;
    }

    /** Hangs up: the agent frees this rank's registrations and ring. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            socket.close();
        } catch (IOException ignored) {
            // the agent sees the hang-up either way
        }
        ringer.close(); // after the socket: its end wakes a sleeping agent to see the hang-up

        if (mapped != null) {
            mapped.close();
        }
        if (file != null && !agentExists()) {
            try {
                java.nio.file.Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // the next agent removes a dead one's files
            }
        }
    }
}
