package dev.ferry.driver.self;

import dev.ferry.spi.Packet;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The inbound queue of one self instance: a single-producer (the peer instance), single-consumer
 * (this instance) ring of entries. An entry is either INLINE, its bytes in a preallocated slot
 * that the sender wrote in place, or REF, a pointer to the sender's packet that the receiver
 * copies from directly (one copy, however large).
 *
 * <p>Slot layout, in one off-heap slab of {@link #CAPACITY} slots of {@link #SLOT_BYTES}:
 * <pre>
 *   offset 0  long  length of the packet (REF: of the sender's layout)
 *   offset 8  int   kind: INLINE or REF
 *   offset 12 int   unused
 *   offset 16 ...   SLOT_SIZE bytes of data (INLINE)
 * </pre>
 * The header shares the data's first cache line, so a small packet moves between the cores as
 * one line plus the tail counter. The producer caches the consumer's head and the consumer the
 * producer's tail, re-reading the other side's counter only when the cached one says full or
 * empty. {@code head} and {@code tail} live in separate objects, so they never share a cache
 * line. {@code tail} is published with a volatile store so that the producer's subsequent read of
 * a sleeping consumer's thread cannot be reordered before it (the wake-up handshake in
 * {@link SelfInstance}).
 */
final class SelfRing {
    /** Bytes of data per slot: the largest INLINE packet, and the driver's buffer size. */
    static final int SLOT_SIZE = 8192;
    static final int HEADER = 16;
    static final int SLOT_BYTES = HEADER + SLOT_SIZE;
    static final int CAPACITY = 64;
    static final int INLINE = 1;
    static final int REF = 2;
    private static final long LENGTH_OFFSET = 0;
    private static final long KIND_OFFSET = 8;

    /** A counter alone in its object (and so, with the object header, in its own cache line region). */
    static final class Counter {
        static final VarHandle VALUE;

        static {
            try {
                VALUE = MethodHandles.lookup().findVarHandle(Counter.class, "value", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @SuppressWarnings("unused")
        private long p01, p02, p03, p04, p05, p06, p07;
        @SuppressWarnings("unused") // accessed through VALUE
        private long value;
        @SuppressWarnings("unused")
        private long p11, p12, p13, p14, p15, p16, p17;
    }

    private final Counter head = new Counter();
    private final Counter tail = new Counter();
    private final MemorySegment slab;
    private final MemorySegment[] data = new MemorySegment[CAPACITY];
    private final Packet[] refs = new Packet[CAPACITY];
    /** Producer's private copy of head. */
    private long headCache;
    /** Consumer's private copy of tail. */
    private long tailCache;

    SelfRing() {
        // Freed by the GC once neither end references the ring: a late access by a racing peer
        // can never touch freed memory.
        slab = Arena.ofAuto().allocate((long) SLOT_BYTES * CAPACITY, 64);
        for (int i = 0; i < CAPACITY; i++) {
            data[i] = slab.asSlice((long) i * SLOT_BYTES + HEADER, SLOT_SIZE);
        }
    }

    private static int index(long position) {
        return (int) (position & (CAPACITY - 1));
    }

    private static long headerOffset(long position) {
        return (long) index(position) * SLOT_BYTES;
    }

    // ---- producer side ----------------------------------------------------------------------

    /** The position of the next free entry, or -1 when the ring is full. Does not publish. */
    long claim() {
        long t = (long) Counter.VALUE.getOpaque(tail);
        if (t - headCache >= CAPACITY) {
            headCache = (long) Counter.VALUE.getAcquire(head);
            if (t - headCache >= CAPACITY) {
                return -1;
            }
        }
        return t;
    }

    /** The data area of the entry at {@code position}. */
    MemorySegment slot(long position) {
        return data[index(position)];
    }

    void publishInline(long position, long length) {
        long h = headerOffset(position);
        slab.set(ValueLayout.JAVA_LONG, h + LENGTH_OFFSET, length);
        slab.set(ValueLayout.JAVA_INT, h + KIND_OFFSET, INLINE);
        Counter.VALUE.setVolatile(tail, position + 1);
    }

    void publishRef(long position, Packet packet, long length) {
        long h = headerOffset(position);
        refs[index(position)] = packet;
        slab.set(ValueLayout.JAVA_LONG, h + LENGTH_OFFSET, length);
        slab.set(ValueLayout.JAVA_INT, h + KIND_OFFSET, REF);
        Counter.VALUE.setVolatile(tail, position + 1);
    }

    // ---- consumer side ----------------------------------------------------------------------

    boolean isEmpty() {
        long h = (long) Counter.VALUE.getOpaque(head);
        if (h != tailCache) {
            return false;
        }
        tailCache = (long) Counter.VALUE.getVolatile(tail);
        return h == tailCache;
    }

    /** Non-mutating emptiness check for other threads (probe-any may run beside the consumer). */
    boolean looksEmpty() {
        return (long) Counter.VALUE.getAcquire(head) == (long) Counter.VALUE.getVolatile(tail);
    }

    /** Position of the oldest published entry; only valid after {@link #isEmpty()} said false. */
    long headPosition() {
        return (long) Counter.VALUE.getOpaque(head);
    }

    int kind(long position) {
        return slab.get(ValueLayout.JAVA_INT, headerOffset(position) + KIND_OFFSET);
    }

    long length(long position) {
        return slab.get(ValueLayout.JAVA_LONG, headerOffset(position) + LENGTH_OFFSET);
    }

    Packet ref(long position) {
        return refs[index(position)];
    }

    /**
     * Frees the oldest entry for the producer; answers whether the ring was full as far as this
     * consumer last saw (the producer may be waiting for room).
     */
    boolean consume(long position) {
        refs[index(position)] = null;
        Counter.VALUE.setRelease(head, position + 1);
        return tailCache - position >= CAPACITY;
    }
}
