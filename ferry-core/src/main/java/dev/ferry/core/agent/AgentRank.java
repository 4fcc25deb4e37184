package dev.ferry.core.agent;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * A rank the node's agent admitted: its connection, memory, command ring and the file under it, its
 * packet rings and pull slots, the rail it attached on. Its commands go to the agent's dispatch.
 */
final class AgentRank implements CommandRing.Dispatcher, AgentPulls.Party, AgentOffloads.Served {
    final int conn;
    final CrossMemory memory;
    final CommandRing ring;
    final Path file;
    final Arena arena;
    /** Its queued copies, in the order posted. */
    final java.util.ArrayDeque<Copy> jobs = new java.util.ArrayDeque<>();
    /** The memory it shares with the agent; its packet rings there, and the OUT ring's memory as a buffer to write to links from. */
    final MemorySegment channel;
    final ByteRing out, in;
    final java.nio.ByteBuffer outView;
    /** Its rank in the job, and the rail its channel serves, once it attached (-1 and null before). */
    int jobRank = -1;
    AgentRail rail;
    /** Ranks gone that it has still to be told of (its IN ring was full). */
    final org.agrona.collections.IntArrayQueue goneToTell = new org.agrona.collections.IntArrayQueue();
    /** The IN ring's produced bytes, and the slots answered, when the rank's bell last rang. */
    long rungAt, rungAnswers;
    /** Its exposure and pull slots, and how many of them the agent has answered. */
    final PullSlots exposures, pulls;
    long answers;
    boolean left;
    /** The tables it published for the agent's offloads, by kind, as mapped here; how many; the messages they served. */
    final MemorySegment[] tables = new MemorySegment[AgentOffload.MAX_KIND + 1];
    int tablesPublished;
    long offloaded;

    AgentRank(int conn, CrossMemory memory, CommandRing ring, Path file, Arena arena, MemorySegment channel, Agent.Config config, Calls calls) {
        this.calls = calls;
        this.channel = channel;
        this.conn = conn;
        this.memory = memory;
        this.ring = ring;
        this.file = file;
        this.arena = arena;
        this.out = ByteRing.at(channel, ChannelLayout.outRing(config.slots(), config.slotBytes()), config.ringBytes());
        this.in = ByteRing.at(channel, ChannelLayout.inRing(config.slots(), config.slotBytes(), config.ringBytes()), config.ringBytes());
        this.outView = channel.asByteBuffer();
        long slotBytes = ChannelLayout.PULL_SLOTS * ChannelLayout.PULL_SLOT_BYTES;
        this.exposures = new PullSlots(channel.asSlice(ChannelLayout.exposures(config.slots(), config.slotBytes(), config.ringBytes()), slotBytes));
        this.pulls = new PullSlots(channel.asSlice(ChannelLayout.pulls(config.slots(), config.slotBytes(), config.ringBytes()), slotBytes),
                channel.asSlice(ChannelLayout.matches(config.slots(), config.slotBytes(), config.ringBytes()), ChannelLayout.PULL_SLOTS * ChannelLayout.MATCH_BYTES));
    }

    @Override
    public int rank() {
        return jobRank;
    }

    @Override
    public PullSlots exposures() {
        return exposures;
    }

    @Override
    public PullSlots pulls() {
        return pulls;
    }

    @Override
    public CrossMemory memory() {
        return memory;
    }

    @Override
    public boolean left() {
        return left;
    }

    @Override
    public void answered() {
        answers++;
    }

    @Override
    public void wake() {
        answers++; // rings the bell, as an answer does
    }

    @Override
    public boolean publishedTables() {
        return tablesPublished > 0;
    }

    @Override
    public void served() {
        offloaded++;
    }

    @Override
    public MemorySegment table(int kind) {
        return kind >= 1 && kind <= AgentOffload.MAX_KIND ? tables[kind] : null;
    }

    @Override
    public MemorySegment mapped(long address, long length) {
        return left ? null : memory.view(address, length);
    }

    @Override
    public long dispatch(int call, MemorySegment payload, int argBytes) {
        return calls.dispatch(this, call, payload, argBytes);
    }

    /** Where a rank's commands run (the agent's dispatch). */
    @FunctionalInterface
    interface Calls {
        long dispatch(AgentRank r, int call, MemorySegment payload, int argBytes);
    }

    private final Calls calls;

    /** A copy the agent moves while the rank computes: a stage per pass, then its counter. */
    static final class Copy {
        final long from, fromOffset, to, toOffset, length;
        final int counter;
        long done;

        Copy(long from, long fromOffset, long to, long toOffset, long length, int counter) {
            this.from = from;
            this.fromOffset = fromOffset;
            this.to = to;
            this.toOffset = toOffset;
            this.length = length;
            this.counter = counter;
        }
    }
}
