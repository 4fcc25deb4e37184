package dev.ferry.core.agent;

import dev.ferry.spi.IdleStrategy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Seed 003's {@code forward} and {@code lib_dispatch} over the memory a rank shares with its
 * node's agent ({@link ChannelLayout}): any thread of the rank {@link #forward}s a command (a call
 * index and an argument block) into a slot and waits for the agent to {@link #dispatch} it and put
 * its return block in the same slot. Bounded, multi-producer (the rank's threads take positions
 * by compare-and-set), single-consumer (the agent's dispatch loop), in the order positions were
 * taken. Neither side allocates: each slot's payload is a slice made once.
 *
 * <pre>{@code
 * CommandRing ring = CommandRing.create(memory, 64, 256, ProcessHandle.current().pid());   // the agent
 * ring.dispatch((call, payload, argBytes) -> { ...; return retBytes; }, 16);
 * long n = CommandRing.open(memory).forward(AgentCalls.PING, args, 8, answer, liveness);    // a rank
 * }</pre>
 */
public final class CommandRing {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    /** Runs one command in the agent. */
    @FunctionalInterface
    public interface Dispatcher {
        /**
         * Runs {@code call} with its {@code argBytes} of arguments at the start of {@code payload},
         * writing its return block there in their place; the return block's bytes, or an
         * {@link AgentError}'s (negative) code.
         */
        long dispatch(int call, MemorySegment payload, int argBytes);
    }

    /** Whether the agent at the other end of a waiting rank is still there. */
    @FunctionalInterface
    public interface Liveness {
        /** Throws {@link AgentException} when the agent is gone; called from time to time while a rank waits. */
        void check();
    }

    private final MemorySegment memory;
    private final int slots;
    private final int slotBytes;
    private final long mask;
    private final MemorySegment[] payloads;
    /** The agent's next position (the agent alone reads and writes it; mirrored into the memory for tools). */
    private long tail;
    /** Run once a rank posted a command: wakes the agent if it sleeps. */
    private final Runnable doorbell;

    private CommandRing(MemorySegment memory, Runnable doorbell) {
        this.memory = memory;
        this.doorbell = doorbell;
        this.slots = memory.get(ValueLayout.JAVA_INT, ChannelLayout.SLOTS_AT);
        this.slotBytes = memory.get(ValueLayout.JAVA_INT, ChannelLayout.SLOT_BYTES_AT);
        this.mask = slots - 1;
        this.payloads = new MemorySegment[slots];
        for (int i = 0; i < slots; i++) {
            payloads[i] = memory.asSlice(ChannelLayout.slot(i, slotBytes) + ChannelLayout.PAYLOAD, ChannelLayout.payload(slotBytes));
        }
        this.tail = (long) LONG.getAcquire(memory, ChannelLayout.TAIL);
    }

    /**
     * Lays a new channel out in {@code memory} (the agent, before the rank maps it): the header,
     * and every slot free for the first lap.
     */
    public static CommandRing create(MemorySegment memory, int slots, int slotBytes, long rankPid, long agentPid) {
        if (Integer.bitCount(slots) != 1 || slotBytes < ChannelLayout.PAYLOAD + 16 || slotBytes % 64 != 0) {
            throw new IllegalArgumentException("a ring takes a power of two of slots and slots of a multiple of 64 bytes, not " + slots + " x " + slotBytes);
        }
        if (memory.byteSize() < ChannelLayout.bytes(slots, slotBytes)) {
            throw new IllegalArgumentException("a ring of " + slots + " x " + slotBytes + " needs " + ChannelLayout.bytes(slots, slotBytes)
                    + " bytes, not " + memory.byteSize());
        }
        memory.set(ValueLayout.JAVA_INT, ChannelLayout.SLOTS_AT, slots);
        memory.set(ValueLayout.JAVA_INT, ChannelLayout.SLOT_BYTES_AT, slotBytes);
        memory.set(ValueLayout.JAVA_LONG, ChannelLayout.RANK_PID, rankPid);
        memory.set(ValueLayout.JAVA_LONG, ChannelLayout.AGENT_PID, agentPid);
        for (int i = 0; i < slots; i++) {
            memory.set(ValueLayout.JAVA_LONG, ChannelLayout.slot(i, slotBytes) + ChannelLayout.SEQUENCE, i);
        }
        memory.set(ValueLayout.JAVA_INT, ChannelLayout.VERSION_AT, ChannelLayout.VERSION);
        INT.setRelease(memory, ChannelLayout.MAGIC_AT, ChannelLayout.MAGIC); // last: a rank that sees the magic sees the rest
        return new CommandRing(memory, () -> { });
    }

    /** The ring another process laid out in {@code memory} (a rank, once the agent handed it over). */
    public static CommandRing open(MemorySegment memory) {
        int magic = (int) INT.getAcquire(memory, ChannelLayout.MAGIC_AT);
        if (magic != ChannelLayout.MAGIC || memory.get(ValueLayout.JAVA_INT, ChannelLayout.VERSION_AT) != ChannelLayout.VERSION) {
            throw new AgentException("the agent's channel is not a version " + ChannelLayout.VERSION + " command ring (magic "
                    + Integer.toHexString(magic) + ")");
        }
        return new CommandRing(memory, () -> { });
    }

    /** This ring, running {@code d} once a command is posted (a rank's: it wakes the agent if it sleeps, {@link AgentBell.Ringer}). */
    public CommandRing withDoorbell(Runnable d) {
        return new CommandRing(memory, d);
    }

    /** The bytes of arguments, or of an answer, one command carries at most. */
    public int slots() {
        return slots;
    }

    public int slotBytes() {
        return slotBytes;
    }

    public int payloadBytes() {
        return ChannelLayout.payload(slotBytes);
    }

    /** The agent's process id, as it wrote it. */
    public long agentPid() {
        return memory.get(ValueLayout.JAVA_LONG, ChannelLayout.AGENT_PID);
    }

    /** The agent's beat: a count its dispatch loop moves on every pass. */
    public long beat() {
        return (long) LONG.getAcquire(memory, ChannelLayout.AGENT_BEAT);
    }

    /** Whether the agent said it has gone. */
    public boolean closed() {
        return (int) INT.getAcquire(memory, ChannelLayout.CLOSED) != 0;
    }

    /** Commands posted and not yet dispatched (for tests and tools). */
    int waiting() {
        long tailNow = (long) LONG.getAcquire(memory, ChannelLayout.TAIL), head = (long) LONG.getAcquire(memory, ChannelLayout.HEAD);
        int n = 0;
        for (long p = tailNow; p < head; p++) {
            if ((long) LONG.getAcquire(memory, ChannelLayout.slot((int) (p & mask), slotBytes) + ChannelLayout.SEQUENCE) == p + 1) {
                n++;
            }
        }
        return n;
    }

    // ---- counters: the agent writes, the rank polls ---------------------------------------------------

    /** The bytes operations counted on counter {@code i} have finished. */
    public long counterDone(int i) {
        return (long) LONG.getAcquire(memory, ChannelLayout.counter(checkCounter(i)) + ChannelLayout.COUNTER_DONE);
    }

    /** 0, or the {@link AgentError} code of the first operation counted on {@code i} that failed. */
    public int counterError(int i) {
        return (int) (long) LONG.getAcquire(memory, ChannelLayout.counter(checkCounter(i)) + ChannelLayout.COUNTER_ERROR);
    }

    /** The agent: operations counted on {@code i} finished {@code bytes} more (it alone writes counters). */
    public void addDone(int i, long bytes) {
        long at = ChannelLayout.counter(i) + ChannelLayout.COUNTER_DONE;
        LONG.setRelease(memory, at, (long) LONG.get(memory, at) + bytes);
    }

    /** The agent: an operation counted on {@code i} failed with {@code code} (the first failure stays). */
    public void fail(int i, int code) {
        long at = ChannelLayout.counter(i) + ChannelLayout.COUNTER_ERROR;
        if ((long) LONG.get(memory, at) == 0) {
            LONG.setRelease(memory, at, (long) code);
        }
    }

    static int checkCounter(int i) {
        if (i < 0 || i >= ChannelLayout.COUNTERS) {
            throw new IllegalArgumentException("counter " + i + " is not one of the channel's 0.." + (ChannelLayout.COUNTERS - 1));
        }
        return i;
    }

    // ---- the rank's side ---------------------------------------------------------------------------

    /**
     * Forwards {@code call} with the first {@code argBytes} of {@code args} and waits for its answer, whose bytes go
     * to the start of {@code ret} (as many as fit); the answer's length, or an {@link AgentError}'s
     * negative code. While it waits it idles as every wait does and asks {@code liveness} now and
     * then, whose {@link AgentException} it lets through (the slot stays taken: the agent is gone).
     */
    public long forward(int call, MemorySegment args, long argBytes, MemorySegment ret, Liveness liveness) {
        if (argBytes < 0 || argBytes > payloadBytes() || argBytes > args.byteSize()) {
            throw new IllegalArgumentException("arguments of " + argBytes + " bytes: more than " + (argBytes > args.byteSize() ? "the block holds ("
                    + args.byteSize() + ")" : "a command carries (" + payloadBytes() + ")"));
        }
        long pos = claim(liveness);
        long at = ChannelLayout.slot((int) (pos & mask), slotBytes);
        MemorySegment payload = payloads[(int) (pos & mask)];
        memory.set(ValueLayout.JAVA_INT, at + ChannelLayout.CALL, call);
        memory.set(ValueLayout.JAVA_INT, at + ChannelLayout.ARG_BYTES, (int) argBytes);
        MemorySegment.copy(args, 0, payload, 0, argBytes);
        LONG.setRelease(memory, at + ChannelLayout.SEQUENCE, pos + 1);
        doorbell.run();
        awaitSequence(at, pos + 2, liveness);
        int status = memory.get(ValueLayout.JAVA_INT, at + ChannelLayout.STATUS);
        long n = Math.min(memory.get(ValueLayout.JAVA_INT, at + ChannelLayout.RET_BYTES), ret.byteSize());
        if (status == 0) {
            MemorySegment.copy(payload, 0, ret, 0, n);
        }
        LONG.setRelease(memory, at + ChannelLayout.SEQUENCE, pos + slots); // free for the next lap
        return status != 0 ? status : n;
    }

    /** Takes the next position whose slot is free, waiting while the ring is full. */
    private long claim(Liveness liveness) {
        long start = 0, asked = 0;
        for (int round = 0; ; round++) {
            long pos = (long) LONG.getAcquire(memory, ChannelLayout.HEAD);
            long seq = (long) LONG.getAcquire(memory, ChannelLayout.slot((int) (pos & mask), slotBytes) + ChannelLayout.SEQUENCE);
            if (seq == pos) {
                if (LONG.compareAndSet(memory, ChannelLayout.HEAD, pos, pos + 1)) {
                    return pos;
                }
            } else if (seq < pos) { // the slot's last lap is still being answered or read: full
                if (start == 0) {
                    start = asked = System.nanoTime();
                }
                asked = pause(start, asked, round, liveness);
            } // else another thread took the position: look again
        }
    }

    /** Waits until the slot at {@code at} has sequence {@code expected}: the agent answered. */
    private void awaitSequence(long at, long expected, Liveness liveness) {
        long start = 0, asked = 0;
        for (int round = 1; (long) LONG.getAcquire(memory, at + ChannelLayout.SEQUENCE) != expected; round++) {
            if (start == 0) {
                start = asked = System.nanoTime();
            }
            asked = pause(start, asked, round, liveness);
        }
    }

    /**
     * One step of a wait begun at {@code start}: a spin, and every 64 rounds a look at the clock,
     * the idle strategy's step (never asleep more than a millisecond: the agent does not wake a
     * rank) and, once a millisecond, liveness; when liveness was last asked.
     */
    private static long pause(long start, long asked, int round, Liveness liveness) {
        if ((round & 63) != 0) {
            Thread.onSpinWait();
            return asked;
        }
        long now = System.nanoTime();
        if (now - asked > LIVENESS_NANOS) {
            liveness.check();
            asked = now;
        }
        IdleStrategy.DEFAULT.idle(now - start, 1_000_000L);
        return asked;
    }

    /**
     * How often a waiting rank asks whether the agent is still there (between, it reads the clock
     * every 64 rounds): a look at /proc costs tens of microseconds.
     */
    private static final long LIVENESS_NANOS = 1_000_000L;

    // ---- the agent's side --------------------------------------------------------------------------

    /** Dispatches the commands posted, in order, at most {@code max}; how many. */
    public int dispatch(Dispatcher dispatcher, int max) {
        int done = 0;
        while (done < max) {
            long at = ChannelLayout.slot((int) (tail & mask), slotBytes);
            if ((long) LONG.getAcquire(memory, at + ChannelLayout.SEQUENCE) != tail + 1) {
                break;
            }
            int call = memory.get(ValueLayout.JAVA_INT, at + ChannelLayout.CALL);
            int argBytes = memory.get(ValueLayout.JAVA_INT, at + ChannelLayout.ARG_BYTES);
            long r;
            if (argBytes < 0 || argBytes > payloadBytes()) {
                r = AgentError.BAD_ARGUMENTS.code();
            } else {
                try {
                    r = dispatcher.dispatch(call, payloads[(int) (tail & mask)], argBytes);
                } catch (RuntimeException e) {
                    r = AgentError.BAD_ARGUMENTS.code(); // a call that throws answers; the agent goes on
                }
            }
            memory.set(ValueLayout.JAVA_INT, at + ChannelLayout.STATUS, r < 0 ? (int) r : 0);
            memory.set(ValueLayout.JAVA_INT, at + ChannelLayout.RET_BYTES, r < 0 ? 0 : (int) Math.min(r, payloadBytes()));
            LONG.setRelease(memory, at + ChannelLayout.SEQUENCE, tail + 2);
            tail++;
            LONG.setRelease(memory, ChannelLayout.TAIL, tail);
            done++;
        }
        return done;
    }

    /** Moves the agent's beat on (its dispatch loop, once a pass). */
    public void beat(long beat) {
        LONG.setRelease(memory, ChannelLayout.AGENT_BEAT, beat);
    }

    /** Says the agent has gone: ranks waiting on this ring fail at once. */
    public void close() {
        INT.setRelease(memory, ChannelLayout.CLOSED, 1);
    }
}
