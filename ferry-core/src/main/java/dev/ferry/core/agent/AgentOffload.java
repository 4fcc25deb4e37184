package dev.ferry.core.agent;

import java.lang.foreign.MemorySegment;

/**
 * Messages of a layer above the engine that the node agent serves for a rank by itself (seed
 * 004's offloads, as the Portals reference implementation's PPE serves its clients): the rank
 * publishes a table of its kind ({@code DriverContext.offloadTable}) in memory the agent maps, and
 * the agent offers each arriving message that is handled on arrival to the offload of every kind
 * the rank published, in order behind every message the rank has still to parse. An offload that
 * takes a message performs it on the rank's memory there and then and may answer its sender for
 * the rank; the rank never sees it. The agent finds offloads with {@link java.util.ServiceLoader}
 * (a layer above cannot be imported here). Used from the agent's loop alone: no allocation, no
 * lock, no blocking.
 *
 * <pre>{@code
 * public int take(Rank rank, int from, long header, MemorySegment buf, long at, long n, MemorySegment answer) {
 *     MemorySegment table = rank.table(kind());
 *     MemorySegment memory = table == null ? null : rank.mapped(targetAddress, n - 64);
 *     if (memory == null) return NOT_TAKEN;
 *     MemorySegment.copy(buf, at + 64, memory, 0, n - 64);
 *     answer.set(ValueLayout.JAVA_LONG, 0, ACK_HEADER);     // then the answer's bytes from 8
 *     return 64;
 * }
 * }</pre>
 */
public interface AgentOffload {
    /** What {@link #take} says of a message it leaves to the rank. */
    int NOT_TAKEN = -1;
    /** Most bytes of an answer's message: a 64-byte header and 4 KiB (a small get's reply). */
    int MAX_ANSWER = 64 + 4096;
    /** Kinds are 1 up to this. */
    int MAX_KIND = 7;

    /** The kind of table this offload reads (1 to {@link #MAX_KIND}): the layer above publishes it with the same number. */
    int kind();

    /**
     * A message for {@code rank} from rank {@code from} (of another node) with engine header word
     * {@code header}, its {@code n} bytes in {@code buf} from {@code at}: {@link #NOT_TAKEN}, or
     * taken (performed) and the number of bytes of the message to send {@code from} in answer, as
     * {@code rank} (0: none). The answer's engine header word goes at 0 of {@code answer} and its
     * bytes from 8 (at most {@link #MAX_ANSWER}).
     */
    int take(Rank rank, int from, long header, MemorySegment buf, long at, long n, MemorySegment answer);

    /** The rank served, as an offload may touch it. */
    interface Rank {
        /** The table of {@code kind} it published, as the agent maps it; null when none. */
        MemorySegment table(int kind);

        /**
         * The rank's {@code length} bytes at {@code address} as the agent maps them (its arena
         * memory: {@code DriverContext.prepareShared}), to read, write and do atomics on; null
         * where the agent does not map them. The same arguments give the same view again.
         */
        MemorySegment mapped(long address, long length);

        /**
         * What an operation just did may be what the rank waits for (a count it polls): the
         * agent rings the rank's bell, waking it if it sleeps.
         */
        void wake();
    }
}
