package dev.ferry.core.agent;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * One of a channel's two arrays of slots ({@link ChannelLayout}): the exposures a rank offers its
 * peers to pull, or the pulls it asked its agent for. The rank takes a slot, fills it and posts
 * it; the agent answers DONE or FAILED. A pull slot may instead be armed with a receive's match
 * bits ({@link #arm}): the agent matches an arriving announcement against it ({@link #armedFor}),
 * claims it and posts it itself ({@link #claim}), or the rank takes it back ({@link #reclaim});
 * one compare-and-set decides which. A slot's state and generation are one 64-bit word, so
 * the agent's answer is a compare-and-set from "this generation, posted": an answer to an older
 * use of the slot changes nothing. The rank's side ({@link #take}, {@link #post}, {@link #free})
 * is used by one thread at a time (the engine's progress); the agent's by its loop.
 */
final class PullSlots {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment memory;
    /** The pull slots' match fields; null for exposures. */
    private final MemorySegment match;
    /** The rank's free slots (a stack); unused on the agent's side. */
    private final int[] free;
    private int freeCount;

    PullSlots(MemorySegment memory) {
        this(memory, null);
    }

    PullSlots(MemorySegment memory, MemorySegment match) {
        if (match != null && match.byteSize() < ChannelLayout.PULL_SLOTS * ChannelLayout.MATCH_BYTES) {
            throw new IllegalArgumentException("match fields need " + ChannelLayout.PULL_SLOTS * ChannelLayout.MATCH_BYTES + " bytes, not " + match.byteSize());
        }
        this.match = match;
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
        WORD.setRelease(memory, fill(slot, address, length, peer) + ChannelLayout.SLOT_STATE, word(g, ChannelLayout.POSTED));
        return g;
    }

    /** Writes a slot's fields but its word: where the slot starts. */
    private long fill(int slot, long address, long length, int peer) {
        long base = at(slot);
        memory.set(ValueLayout.JAVA_LONG, base + ChannelLayout.SLOT_ADDRESS, address);
        memory.set(ValueLayout.JAVA_LONG, base + ChannelLayout.SLOT_LENGTH, length);
        memory.set(ValueLayout.JAVA_INT, base + ChannelLayout.SLOT_PEER, peer);
        return base;
    }

    /**
     * Gives {@code slot} back, whatever its state: a late answer to this use finds another
     * generation or FREE. A slot the agent is claiming ({@link #claim}: three stores) is waited
     * for, briefly; one still claimed after that belongs to an agent that died mid-claim, and is
     * not used again.
     */
    void free(int slot) {
        long at = at(slot) + ChannelLayout.SLOT_STATE;
        for (int spins = 0; ; spins++) {
            long w = word(slot);
            if (state(w) != ChannelLayout.CLAIMED) {
                if (WORD.compareAndSet(memory, at, w, word(generation(w), ChannelLayout.FREE))) {
                    break; // by compare-and-set: an agent that claimed meanwhile is waited for
                }
            } else if (spins >= 1 << 20) {
                return;
            }
            Thread.onSpinWait();
        }
        free[freeCount++] = slot;
    }

    /**
     * Arms {@code slot} with a receive into {@code length} bytes at {@code address} for a message
     * from {@code peer} ({@link ChannelLayout#ANY_PEER}: from any) whose header word is
     * {@code bits} outside {@code ignore}: the agent may match it from now on. Its new generation.
     */
    int arm(int slot, long address, long length, int peer, long bits, long ignore) {
        int g = generation(word(slot)) + 1;
        long base = fill(slot, address, length, peer), m = matchAt(slot);
        match.set(ValueLayout.JAVA_LONG, m + ChannelLayout.MATCH_BITS, bits & ~ignore);
        match.set(ValueLayout.JAVA_LONG, m + ChannelLayout.MATCH_IGNORE, ignore);
        WORD.setRelease(memory, base + ChannelLayout.SLOT_STATE, word(g, ChannelLayout.ARMED));
        return g;
    }

    /** Takes armed {@code slot}'s use {@code generation} back, freeing the slot: false when the agent matched it first (it goes on). */
    boolean reclaim(int slot, int generation) {
        if (!WORD.compareAndSet(memory, at(slot) + ChannelLayout.SLOT_STATE, word(generation, ChannelLayout.ARMED), word(generation, ChannelLayout.FREE))) {
            return false;
        }
        free[freeCount++] = slot;
        return true;
    }

    /** The header word of the message the agent matched to {@code slot} (read once the slot is answered). */
    long matchedHeader(int slot) {
        return match.get(ValueLayout.JAVA_LONG, matchAt(slot) + ChannelLayout.MATCH_HEADER);
    }

    /** The length of the message the agent matched to {@code slot}. */
    long matchedLength(int slot) {
        return match.get(ValueLayout.JAVA_LONG, matchAt(slot) + ChannelLayout.MATCH_LENGTH);
    }

    private static long matchAt(int slot) {
        return slot * ChannelLayout.MATCH_BYTES;
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

    /**
     * The armed slot whose receive (of {@code peer}, or of any peer) accepts a message from {@code peer} with header word
     * {@code header} and {@code length} bytes (no longer than the receive), as slot << 32 |
     * generation; or -1. The rank arms at most one receive a message can match (it arms none
     * behind an earlier receive that accepts the same messages), so the first found is the one.
     */
    long armedFor(int peer, long header, long length) {
        if (match == null) {
            return -1;
        }
        for (int s = 0; s < ChannelLayout.PULL_SLOTS; s++) {
            long w = word(s);
            int armedPeer;
            if (state(w) != ChannelLayout.ARMED || (armedPeer = peer(s)) != peer && armedPeer != ChannelLayout.ANY_PEER) {
                continue;
            }
            long m = matchAt(s);
            long bits = match.get(ValueLayout.JAVA_LONG, m + ChannelLayout.MATCH_BITS), ignore = match.get(ValueLayout.JAVA_LONG, m + ChannelLayout.MATCH_IGNORE);
            if (((header ^ bits) & ~ignore) == 0 && length <= length(s) && word(s) == w) { // the word again: the fields were those of this use
                return (long) s << 32 | generation(w) & 0xffffffffL;
            }
        }
        return -1;
    }

    /**
     * Claims armed {@code slot}'s use {@code generation} for a message from {@code peer} of
     * {@code header} and {@code length} bytes, and posts it as a pull of that length from that
     * peer (a receive of any peer learns its source here), or, {@code atOnce}, says the agent
     * writes it now (an eager message): false when the rank took it back first.
     */
    boolean claim(int slot, int generation, int peer, long header, long length, boolean atOnce) {
        long at = at(slot);
        if (!WORD.compareAndSet(memory, at + ChannelLayout.SLOT_STATE, word(generation, ChannelLayout.ARMED), word(generation, ChannelLayout.CLAIMED))) {
            return false;
        }
        // the rank changes no field of a claimed slot ({@link #free} waits for the claim's end)
        long m = matchAt(slot);
        match.set(ValueLayout.JAVA_LONG, m + ChannelLayout.MATCH_HEADER, header);
        match.set(ValueLayout.JAVA_LONG, m + ChannelLayout.MATCH_LENGTH, length);
        memory.set(ValueLayout.JAVA_LONG, at + ChannelLayout.SLOT_LENGTH, length);
        memory.set(ValueLayout.JAVA_INT, at + ChannelLayout.SLOT_PEER, peer);
        memory.set(ValueLayout.JAVA_INT, at + ChannelLayout.SLOT_PLACED, atOnce ? 1 : 0);
        WORD.setRelease(memory, at + ChannelLayout.SLOT_STATE, word(generation, ChannelLayout.POSTED));
        return true;
    }

    /** Whether the message the agent matched to {@code slot} was written at the match (an eager one), not pulled; read once it answered. */
    boolean placedAtOnce(int slot) {
        return memory.get(ValueLayout.JAVA_INT, at(slot) + ChannelLayout.SLOT_PLACED) != 0;
    }

    /**
     * Answers FAILED every pull posted from {@code peer}, which is gone: no data will come for them,
     * whether the rank posted them or the agent claimed them for a receive of any source (no
     * instance of the rank owns those, so none gives them back). How many were answered.
     */
    int failPostedFrom(int peer) {
        int n = 0;
        for (int s = 0; s < ChannelLayout.PULL_SLOTS; s++) {
            long w = word(s);
            if (state(w) == ChannelLayout.POSTED && peer(s) == peer && answer(s, generation(w), ChannelLayout.FAILED)) {
                n++;
            }
        }
        return n;
    }

    /** Answers {@code slot}'s use {@code generation} with {@code state} (DONE or FAILED); false when that use is over. */
    boolean answer(int slot, int generation, int state) {
        long at = at(slot) + ChannelLayout.SLOT_STATE;
        return WORD.compareAndSet(memory, at, word(generation, ChannelLayout.POSTED), word(generation, state));
    }
}
