package dev.ferry.core.agent;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Native memory per pull slot, for the agent to reach where a message's own memory is out of its
 * reach (a heap array moves with the collector; a scattered layout is not one range): a receive
 * is pulled into it and copied out, a send is copied into it and exposed. Kept and grown, so a
 * run of such messages allocates once per slot; a channel's thread alone uses it.
 *
 * <pre>{@code
 * MemorySegment m = staging.at(slot, n);   // at least n bytes, valid until the slot's next at()
 * }</pre>
 */
final class Staging implements AutoCloseable {
    private final MemorySegment[] memory = new MemorySegment[ChannelLayout.PULL_SLOTS];
    private final Arena[] arenas = new Arena[ChannelLayout.PULL_SLOTS];

    /** At least {@code bytes} of native memory for slot {@code slot}. */
    MemorySegment at(int slot, long bytes) {
        MemorySegment m = memory[slot];
        if (m == null || m.byteSize() < bytes) {
            if (arenas[slot] != null) {
                arenas[slot].close();
            }
            arenas[slot] = Arena.ofShared();
            m = memory[slot] = arenas[slot].allocate(Math.max(bytes, 64 * 1024), 64);
        }
        return m;
    }

    /** The bytes held now, over every slot. */
    long bytesHeld() {
        long n = 0;
        for (MemorySegment m : memory) {
            n += m == null ? 0 : m.byteSize();
        }
        return n;
    }

    @Override
    public void close() {
        for (int s = 0; s < arenas.length; s++) {
            if (arenas[s] != null) {
                arenas[s].close();
                arenas[s] = null;
                memory[s] = null;
            }
        }
    }
}
