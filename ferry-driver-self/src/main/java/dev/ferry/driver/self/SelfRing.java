package dev.ferry.driver.self;

import dev.ferry.spi.Packet;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The inbound queue of one self instance: a single-producer (the peer instance), single-consumer
 * (this instance) ring of entries. An entry is either INLINE, its bytes in a preallocated slot
 * that the sender wrote in place, or REF, a pointer to the sender's packet that the receiver
 * copies from directly (one copy, however large).
 *
 * <p>Layout: {@code capacity} slots of {@link #SLOT_SIZE} bytes in one off-heap slab; the kind,
 * length and packet of entry {@code i} in parallel arrays. {@code tail} is published with a
 * volatile store so that the producer's subsequent read of a sleeping consumer's thread cannot
 * be reordered before it (the wake-up handshake in {@link SelfInstance}).
 */
final class SelfRing {
    /** Bytes per slot: the largest INLINE packet, and the driver's buffer size. */
    static final int SLOT_SIZE = 8192;
    static final int CAPACITY = 64;
    static final byte INLINE = 1;
    static final byte REF = 2;

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(SelfRing.class, "head", long.class);
            TAIL = l.findVarHandle(SelfRing.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MemorySegment[] slots = new MemorySegment[CAPACITY];
    private final byte[] kinds = new byte[CAPACITY];
    private final long[] lengths = new long[CAPACITY];
    private final Packet[] refs = new Packet[CAPACITY];

    @SuppressWarnings("unused") // accessed through HEAD
    private long head;
    @SuppressWarnings("unused") // accessed through TAIL
    private long tail;

    SelfRing() {
        // Freed by the GC once neither end references the ring: a late access by a racing peer
        // can never touch freed memory.
        MemorySegment slab = Arena.ofAuto().allocate((long) SLOT_SIZE * CAPACITY, 64);
        for (int i = 0; i < CAPACITY; i++) {
            slots[i] = slab.asSlice((long) i * SLOT_SIZE, SLOT_SIZE);
        }
    }

    // ---- producer side ----------------------------------------------------------------------

    /** The index of the next free entry, or -1 when the ring is full. Does not publish. */
    long claim() {
        long t = (long) TAIL.getOpaque(this);
        return t - (long) HEAD.getAcquire(this) < CAPACITY ? t : -1;
    }

    MemorySegment slot(long index) {
        return slots[(int) (index & (CAPACITY - 1))];
    }

    void publishInline(long index, long length) {
        int i = (int) (index & (CAPACITY - 1));
        kinds[i] = INLINE;
        lengths[i] = length;
        refs[i] = null;
        TAIL.setVolatile(this, index + 1);
    }

    void publishRef(long index, Packet packet, long length) {
        int i = (int) (index & (CAPACITY - 1));
        kinds[i] = REF;
        lengths[i] = length;
        refs[i] = packet;
        TAIL.setVolatile(this, index + 1);
    }

    // ---- consumer side ----------------------------------------------------------------------

    boolean isEmpty() {
        return (long) HEAD.getOpaque(this) == (long) TAIL.getVolatile(this);
    }

    /** Index of the oldest published entry; only valid when not {@link #isEmpty()}. */
    long headIndex() {
        return (long) HEAD.getOpaque(this);
    }

    byte kind(long index) {
        return kinds[(int) (index & (CAPACITY - 1))];
    }

    long length(long index) {
        return lengths[(int) (index & (CAPACITY - 1))];
    }

    Packet ref(long index) {
        return refs[(int) (index & (CAPACITY - 1))];
    }

    /** Frees the oldest entry for the producer. */
    void consume(long index) {
        refs[(int) (index & (CAPACITY - 1))] = null;
        HEAD.setRelease(this, index + 1);
    }
}
