package dev.ferry;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The temporary memory of collectives (partial results, packed blocks), off-heap so that drivers
 * move it without a copy, in power-of-two classes kept for reuse once a collective completed: a
 * collective that runs again and again (an allreduce in a solver's loop) allocates none, and the
 * GC's cleaner does not free native memory on every call. Holds at most {@link #MAX_HELD} bytes.
 * Any thread may take; a collective gives back in the engine's thread of control.
 */
final class TempPool {
    static final long MAX_HELD = 64L << 20;
    private static final int MIN_SHIFT = 6;
    private static final int CLASSES = 40;
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    @SuppressWarnings("unchecked")
    private final ConcurrentLinkedQueue<MemorySegment>[] free = new ConcurrentLinkedQueue[CLASSES];
    /**
     * Blocks larger than the pool keeps, by address, with the arena each was made in: exactly
     * their size, and freed when given back. (An automatic arena's, rounded up to a power of two,
     * waited for the GC, and counted against the direct-memory limit meanwhile: two 2 GiB
     * collectives in a row ran out of it.)
     */
    private final java.util.concurrent.ConcurrentHashMap<Long, Arena> large = new java.util.concurrent.ConcurrentHashMap<>();
    private final AtomicLong held = new AtomicLong();

    TempPool() {
        for (int i = 0; i < CLASSES; i++) {
            free[i] = new ConcurrentLinkedQueue<>();
        }
    }

    /** A block of at least {@code bytes} (its whole class: give back this very segment). */
    MemorySegment take(long bytes) {
        if (bytes == 0) {
            return EMPTY;
        }
        if (bytes > MAX_HELD) {
            Arena a = Arena.ofShared(); // given back in the engine's thread of control, maybe not the taker's
            MemorySegment m = MappedTemp.map(bytes, a); // no gigabytes of zeros written first, huge pages
            if (m == null) {
                m = a.allocate(bytes, 64);
            }
            large.put(m.address(), a);
            return m;
        }
        int c = classOf(bytes);
        MemorySegment m = free[c].poll();
        if (m != null) {
            held.addAndGet(-m.byteSize());
            return m;
        }
        return Arena.ofAuto().allocate(1L << (c + MIN_SHIFT), 64);
    }

    /** Gives a block back; kept while the pool holds less than {@link #MAX_HELD}, else left to the GC. */
    void give(MemorySegment m) {
        if (m.byteSize() == 0) {
            return;
        }
        Arena a = m.byteSize() > MAX_HELD ? large.remove(m.address()) : null;
        if (a != null) {
            a.close();
            return;
        }
        if (held.addAndGet(m.byteSize()) > MAX_HELD) {
            held.addAndGet(-m.byteSize());
            return;
        }
        free[classOf(m.byteSize())].offer(m);
    }

    private static int classOf(long bytes) {
        int shift = 64 - Long.numberOfLeadingZeros(Math.max(bytes, 1L << MIN_SHIFT) - 1);
        return shift - MIN_SHIFT;
    }
}
