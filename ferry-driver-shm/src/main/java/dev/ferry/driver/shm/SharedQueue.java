package dev.ferry.driver.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

import static dev.ferry.driver.shm.ShmLayout.ENTRY_KIND_OFFSET;
import static dev.ferry.driver.shm.ShmLayout.ENTRY_LENGTH_OFFSET;
import static dev.ferry.driver.shm.ShmLayout.ENTRY_SENDER_OFFSET;
import static dev.ferry.driver.shm.ShmLayout.QUEUE_CLAIMER_OFFSET;
import static dev.ferry.driver.shm.ShmLayout.QUEUE_SLOTS;
import static dev.ferry.driver.shm.ShmLayout.SEQ_OFFSET;

/**
 * A shared receive queue ({@link ShmLayout}, {@code .srq}): the one queue through which a context
 * receives from every peer that has no ring of its own to it (XRC's shared receive queue, Nemesis's
 * queue per process). Many producers claim slots under a lock that names its holder, so that a
 * producer dying with it held stops nobody; they fill and publish their slot unlocked. The owner
 * reads in order and passes over slots given up, slots of connections it no longer has, and slots
 * claimed by a process that died before publishing.
 *
 * <p>The same class is the owner's view (consumer) and a peer's (producer): each maps the file.
 */
final class SharedQueue {
    /** Claim attempts against a held lock before its holder's liveness is looked at. */
    private static final int LOCK_SPINS = 64;

    final Path file;
    final MemorySegment map;
    private final MemorySegment[] data = new MemorySegment[QUEUE_SLOTS];
    /** A producer's last look at the owner's head: read again only when the queue seems full (the owner writes it on every packet). */
    private long headCache;

    SharedQueue(Path file, MemorySegment map) {
        this.file = file;
        this.map = map;
        for (int i = 0; i < QUEUE_SLOTS; i++) {
            data[i] = map.asSlice(ShmLayout.queueSlot(i) + ShmLayout.QUEUE_DATA_OFFSET, ShmLayout.SLOT_DATA);
        }
    }

    /** The data area of the slot of {@code position}. */
    MemorySegment data(long position) {
        return data[(int) (position & (QUEUE_SLOTS - 1))];
    }

    // ---- producers --------------------------------------------------------------------------

    /**
     * Claims the slot at the tail for {@code sender} of process {@code pid}: answers its position,
     * or -1 when the queue is full or another producer holds the lock now (try again later).
     */
    long claim(int sender, long pid, MemorySegment errno) {
        for (int spin = 0; ; spin++) {
            long holder = (long) Channel.LONG.getVolatile(map, ShmLayout.QUEUE_LOCK);
            if (holder == 0) {
                if (Channel.LONG.compareAndSet(map, ShmLayout.QUEUE_LOCK, 0L, pid)) {
                    break;
                }
            } else if (spin >= LOCK_SPINS) {
                // held long: a producer descheduled (try later) or dead (take its lock over)
                if (holder == pid || Native.alive(errno, holder) || !Channel.LONG.compareAndSet(map, ShmLayout.QUEUE_LOCK, holder, pid)) {
                    return -1;
                }
                break;
            }
            Thread.onSpinWait();
        }
        long tail = (long) Channel.LONG.getVolatile(map, ShmLayout.QUEUE_TAIL);
        long head = headCache;
        if (tail - head >= QUEUE_SLOTS) {
            head = headCache = (long) Channel.LONG.getAcquire(map, ShmLayout.QUEUE_HEAD);
        }
        if (tail - head >= QUEUE_SLOTS) {
            // the owner signals us when it frees a slot; the head is read again after the flag is
            // up (the owner moves the head, then reads the flag), so a slot freed meanwhile is seen
            Channel.INT.setVolatile(map, ShmLayout.QUEUE_FULL, 1);
            head = (long) Channel.LONG.getVolatile(map, ShmLayout.QUEUE_HEAD);
            if (tail - head >= QUEUE_SLOTS) {
                Channel.LONG.setRelease(map, ShmLayout.QUEUE_LOCK, 0L);
                return -1;
            }
        }
        long s = ShmLayout.queueSlot(tail);
        map.set(ValueLayout.JAVA_INT, s + ENTRY_SENDER_OFFSET, sender);
        map.set(ValueLayout.JAVA_LONG, s + QUEUE_CLAIMER_OFFSET, pid);
        Channel.LONG.setRelease(map, ShmLayout.QUEUE_TAIL, tail + 1); // the slot's claimer is known before it counts
        Channel.LONG.setRelease(map, ShmLayout.QUEUE_LOCK, 0L);
        return tail;
    }

    /** Publishes the slot of {@code position} claimed before (volatile: the wake-up check that follows reads after it). */
    void publish(long position, int kind, long length) {
        long s = ShmLayout.queueSlot(position);
        map.set(ValueLayout.JAVA_INT, s + ENTRY_KIND_OFFSET, kind);
        map.set(ValueLayout.JAVA_LONG, s + ENTRY_LENGTH_OFFSET, length);
        Channel.LONG.setVolatile(map, s + SEQ_OFFSET, position + 1);
    }

    // ---- the owner --------------------------------------------------------------------------

    long head() {
        return (long) Channel.LONG.getAcquire(map, ShmLayout.QUEUE_HEAD);
    }

    /** Whether the slot at the head is published. */
    boolean published(long head) {
        return (long) Channel.LONG.getAcquire(map, ShmLayout.queueSlot(head) + SEQ_OFFSET) == head + 1;
    }

    /** Whether the slot at the head is claimed, published or not. */
    boolean claimed(long head) {
        return (long) Channel.LONG.getAcquire(map, ShmLayout.QUEUE_TAIL) > head;
    }

    int sender(long position) {
        return map.get(ValueLayout.JAVA_INT, ShmLayout.queueSlot(position) + ENTRY_SENDER_OFFSET);
    }

    long claimer(long position) {
        return map.get(ValueLayout.JAVA_LONG, ShmLayout.queueSlot(position) + QUEUE_CLAIMER_OFFSET);
    }

    int kind(long position) {
        return map.get(ValueLayout.JAVA_INT, ShmLayout.queueSlot(position) + ENTRY_KIND_OFFSET);
    }

    long length(long position) {
        return map.get(ValueLayout.JAVA_LONG, ShmLayout.queueSlot(position) + ENTRY_LENGTH_OFFSET);
    }

    /**
     * Frees the slot at {@code head} (the owner's threads only; a compare-and-set, as the owner's
     * pass over slots nobody will read may race with it); answers whether producers found the
     * queue full meanwhile and wait for room (the flag is cleared).
     */
    boolean consume(long head) {
        if (!Channel.LONG.compareAndSet(map, ShmLayout.QUEUE_HEAD, head, head + 1)) {
            return false;
        }
        return (int) Channel.INT.getVolatile(map, ShmLayout.QUEUE_FULL) != 0
                && Channel.INT.compareAndSet(map, ShmLayout.QUEUE_FULL, 1, 0);
    }
}
