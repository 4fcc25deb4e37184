package dev.ferry.core.agent;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * One of a channel's two arrays of slots ({@link ChannelLayout}): the exposures a rank offers its
 * peers to pull, or the pulls it asked its agent for. The rank takes a slot, fills it and posts
 * it; the agent answers DONE or FAILED. A slot's state and generation are one 64-bit word, so
 * the agent's answer is a compare-and-set from "this generation, posted": an answer to an older
 * use of the slot changes nothing. The rank's side ({@link #take}, {@link #post}, {@link #free})
 * is used by one thread at a time (the engine's progress); the agent's by its loop.
 */
final class PullSlots {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment memory;
    /** The rank's free slots (a stack); unused on the agent's side. */
    private final int[] free;
    private int freeCount;

    PullSlots(MemorySegment memory) {
        if (memory.byteSize() < ChannelLayout.PULL_SLOTS * ChannelLayout.PULL_SLOT_BYTES) {
            throw new IllegalArgumentException("pull slots need " + ChannelLayout.PULL_SLOTS * ChannelLayout.PULL_SLOT_BYTES + " bytes, not "
                    + memory.byteSize());
        }
        this.memory = memory;
        this.free = new int[ChannelLayout.PULL_SLOTS];
        for (int i = 0; i < free.length; i++) {
            free[i] = free.length - 1 - i;
        }
        freeCount = free.length;
    }

    private static long at(int slot) {
        return slot * ChannelLayout.PULL_SLOT_BYTES;
    }

    /** Whether {@code slot} names a slot. */
    static boolean valid(int slot) {
        return slot >= 0 && slot < ChannelLayout.PULL_SLOTS;
    }

    static long word(int generation, int state) {
        return (long) generation << 32 | state & 0xffffffffL;
    }

    /** The slot's state and generation (acquire). */
    long word(int slot) {
        return (long) WORD.getAcquire(memory, at(slot) + ChannelLayout.SLOT_STATE);
    }

    static int state(long word) {
        return (int) word;
    }

    static int generation(long word) {
        return (int) (word >>> 32);
    }

    long address(int slot) {
        return memory.get(ValueLayout.JAVA_LONG, at(slot) + ChannelLayout.SLOT_ADDRESS);
    }

    long length(int slot) {
        return memory.get(ValueLayout.JAVA_LONG, at(slot) + ChannelLayout.SLOT_LENGTH);
    }

    int peer(int slot) {
        return memory.get(ValueLayout.JAVA_INT, at(slot) + ChannelLayout.SLOT_PEER);
    }

    // ---- the rank's side ------------------------------------------------------------------------

    /** A free slot, or -1 when all are in use. */
    int take() {
        return freeCount == 0 ? -1 : free[--freeCount];
    }

    /** Fills {@code slot} and posts it (the word last, release): its new generation. */
    int post(int slot, long address, long length, int peer) {
        int g = generation(word(slot)) + 1;
        long base = at(slot);
        memory.set(ValueLayout.JAVA_LONG, base + ChannelLayout.SLOT_ADDRESS, address);
        memory.set(ValueLayout.JAVA_LONG, base + ChannelLayout.SLOT_LENGTH, length);
        memory.set(ValueLayout.JAVA_INT, base + ChannelLayout.SLOT_PEER, peer);
        WORD.setRelease(memory, base + ChannelLayout.SLOT_STATE, word(g, ChannelLayout.POSTED));
        return g;
    }

    /** Gives {@code slot} back, whatever its state: a late answer to this use finds another generation or FREE. */
    void free(int slot) {
        int g = generation(word(slot));
        WORD.setRelease(memory, at(slot) + ChannelLayout.SLOT_STATE, word(g, ChannelLayout.FREE));
        free[freeCount++] = slot;
    }

    /** Slots in use. */
    int inUse() {
        return free.length - freeCount;
    }

    // ---- the agent's side -----------------------------------------------------------------------

    /** Whether {@code slot} is posted in generation {@code generation}. */
    boolean posted(int slot, int generation) {
        return word(slot) == word(generation, ChannelLayout.POSTED);
    }

    /** Answers {@code slot}'s use {@code generation} with {@code state} (DONE or FAILED); false when that use is over. */
    boolean answer(int slot, int generation, int state) {
        long at = at(slot) + ChannelLayout.SLOT_STATE;
        return WORD.compareAndSet(memory, at, word(generation, ChannelLayout.POSTED), word(generation, state));
    }
}
