package dev.ferry.core.agent;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Native memory per pull slot, for the agent to reach where a message's own memory is out of its
 * reach (a heap array moves with the collector; a scattered layout is not one range): a receive
 * is pulled into it and copied out, a send is copied into it and exposed. Kept and grown, so a
 * run of such messages allocates once per slot, but only while all slots together hold at most
 * {@link #KEEP_BYTES}: past that, a slot's memory goes when its use ends, so one large message
 * does not leave its size held for the rest of the job. Where the agent can map memory of this
 * rank (a shared file mapping: {@link Mapper}), a slot's memory is such memory while all of that
 * stays within the bound too: the agent then moves a pull's bytes between its link and this
 * memory with no copy of its own, as for the arena. Mapped memory lives as long as the agent's
 * mapping of it (until close), so a slot that outgrows it leaves it for another slot; it does not
 * count against what the other memory keeps (counted together, a channel past the mapped bound
 * freed and made again 16 MiB for every heap send, at 0.75x the throughput). A channel's thread
 * alone uses it.
 *
 * <pre>{@code
 * MemorySegment m = staging.at(slot, n);   // at least n bytes, valid until done(slot)
 * ...
 * staging.done(slot);                      // the slot's use ended: kept, or freed past the bound
 * }</pre>
 */
final class Staging implements AutoCloseable {
    /** What the slots together keep between uses. */
    static final long KEEP_BYTES = 64L << 20;

    /** Memory the agent maps too ({@link CrossMemory#map}): a shared file mapping it was told of. */
    interface Mapper {
        /** {@code bytes} of memory in {@code arena} that the agent has mapped, or null where it cannot be so (the arena is then closed). */
        MemorySegment map(long bytes, Arena arena);
    }

    private final MemorySegment[] memory = new MemorySegment[ChannelLayout.PULL_SLOTS];
    private final Arena[] arenas = new Arena[ChannelLayout.PULL_SLOTS];
    /** Whether a slot's memory is mapped by the agent: kept until close, as the agent's mapping is. */
    private final boolean[] mapped = new boolean[ChannelLayout.PULL_SLOTS];
    /** Mapped memory a slot outgrew, for another slot to take. */
    private final java.util.ArrayList<MemorySegment> spareMapped = new java.util.ArrayList<>();
    private final java.util.ArrayList<Arena> spareArenas = new java.util.ArrayList<>();
    private final long keepBytes;
    private final Mapper mapper;
    private long held, heldMapped;

    Staging() {
        this(KEEP_BYTES);
    }

    /** @param keepBytes what the slots together keep between uses */
    Staging(long keepBytes) {
        this(keepBytes, null);
    }

    /**
     * @param keepBytes what the slots together keep between uses
     * @param mapper    where memory the agent maps comes from (null: none): taken while all of it
     *                  together stays within {@code keepBytes}, and kept until close
     */
    Staging(long keepBytes, Mapper mapper) {
        this.keepBytes = keepBytes;
        this.mapper = mapper;
    }

    /** At least {@code bytes} of native memory for slot {@code slot}. */
    MemorySegment at(int slot, long bytes) {
        MemorySegment m = memory[slot];
        if (m != null && m.byteSize() >= bytes) {
            return m;
        }
        release(slot);
        long size = Math.max(bytes, 64 * 1024);
        if (takeSpare(slot, bytes)) {
            return memory[slot];
        }
        Arena a = Arena.ofShared();
        boolean tried = mapper != null && heldMapped + size <= keepBytes;
        m = tried ? mapper.map(size, a) : null;
        if (m != null) {
            mapped[slot] = true;
            heldMapped += size;
        } else {
            if (tried) { // what the attempt mapped goes with it
                a.close();
                a = Arena.ofShared();
            }
            m = a.allocate(size, 64);
        }
        arenas[slot] = a;
        memory[slot] = m;
        held += size;
        return m;
    }

    /** Whether slot {@code slot}'s memory is mapped by the agent (for tests). */
    boolean mapped(int slot) {
        return mapped[slot];
    }

    private boolean takeSpare(int slot, long bytes) {
        for (int i = 0; i < spareMapped.size(); i++) {
            if (spareMapped.get(i).byteSize() >= bytes) {
                memory[slot] = spareMapped.remove(i);
                arenas[slot] = spareArenas.remove(i);
                mapped[slot] = true;
                return true;
            }
        }
        return false;
    }

    /** Slot {@code slot}'s use ended: its memory stays for the next unless it is not mapped and the slots hold more such than they keep. */
    void done(int slot) {
        if (held - heldMapped > keepBytes) {
            free(slot);
        }
    }

    /** Slot {@code slot} outgrew its memory: mapped memory stays for another slot, the rest is freed. */
    private void release(int slot) {
        if (mapped[slot]) {
            spareMapped.add(memory[slot]);
            spareArenas.add(arenas[slot]);
            mapped[slot] = false;
            arenas[slot] = null;
            memory[slot] = null;
        } else {
            free(slot);
        }
    }

    private void free(int slot) {
        if (arenas[slot] != null && !mapped[slot]) {
            held -= memory[slot].byteSize();
            arenas[slot].close();
            arenas[slot] = null;
            memory[slot] = null;
        }
    }

    /** The bytes held now, over every slot. */
    long bytesHeld() {
        return held;
    }

    @Override
    public void close() {
        for (int s = 0; s < arenas.length; s++) {
            if (arenas[s] != null) {
                arenas[s].close();
                arenas[s] = null;
                memory[s] = null;
                mapped[s] = false;
            }
        }
        spareArenas.forEach(Arena::close);
        spareArenas.clear();
        spareMapped.clear();
        held = 0;
        heldMapped = 0;
    }
}
