package dev.ferry.core.engine;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Bounded many-producer, one-consumer queue (D. Vyukov's array queue): how application threads
 * hand requests to the progress thread without a lock or an allocation per request.
 */
final class CommandQueue {
    private final Object[] slots;
    private final AtomicLongArray sequence;
    private final int mask;
    private final AtomicLong tail = new AtomicLong();
    private long head;

    CommandQueue(int capacityPowerOfTwo) {
        if (Integer.bitCount(capacityPowerOfTwo) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacityPowerOfTwo);
        }
        slots = new Object[capacityPowerOfTwo];
        sequence = new AtomicLongArray(capacityPowerOfTwo);
        for (int i = 0; i < capacityPowerOfTwo; i++) {
            sequence.set(i, i);
        }
        mask = capacityPowerOfTwo - 1;
    }

    /** Any thread; false when full. */
    boolean offer(Object o) {
        long t;
        while (true) {
            t = tail.get();
            long s = sequence.get((int) (t & mask));
            if (s == t) {
                if (tail.compareAndSet(t, t + 1)) {
                    break;
                }
            } else if (s < t) {
                return false;
            }
        }
        int i = (int) (t & mask);
        slots[i] = o;
        sequence.setRelease(i, t + 1);
        return true;
    }

    /** The consumer thread only: whether nothing waits (a volatile read). */
    boolean isEmpty() {
        return sequence.get((int) (head & mask)) != head + 1;
    }

    /** The consumer thread only; null when empty. */
    Object poll() {
        long h = head;
        int i = (int) (h & mask);
        if (sequence.getAcquire(i) != h + 1) {
            return null;
        }
        Object o = slots[i];
        slots[i] = null;
        sequence.setRelease(i, h + slots.length);
        head = h + 1;
        return o;
    }
}
