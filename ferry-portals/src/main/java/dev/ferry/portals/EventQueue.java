package dev.ferry.portals;

/**
 * An event queue (library side): a ring of {@code count} events, plus one slot kept for the
 * PT_DISABLED event of flow control. A full queue drops further events and remembers it, so
 * that the next get answers EQ_DROPPED. The library posts from its thread, readers may be any
 * thread: the ring is guarded by its monitor.
 *
 * <pre>{@code
 * EventQueue q = new EventQueue(ni, 64);
 * q.post(event);
 * Event e = q.poll();
 * }</pre>
 */
final class EventQueue {
    final Ni ni;
    final EqHandle handle;
    private final Event[] ring;
    private final int count;
    private int head;
    private int size;
    private boolean dropped;
    volatile boolean freed;

    EventQueue(Ni ni, int count) {
        this.ni = ni;
        this.count = count;
        this.ring = new Event[count + 1];
        this.handle = new EqHandle(this);
    }

    /** Whether an ordinary event fits (flow control asks before accepting a message). */
    synchronized boolean hasRoom() {
        return size < count;
    }

    /** Posts an event; false when the queue was full and it was dropped. */
    synchronized boolean post(Event e) {
        int limit = e.type == EventKind.EVENT_PT_DISABLED ? count + 1 : count;
        if (size >= limit) {
            dropped = true;
            return false;
        }
        ring[(head + size) % ring.length] = e;
        size++;
        return true;
    }

    /** The oldest event, or null; {@link #takeDropped()} says whether events were dropped before it. */
    synchronized Event poll() {
        if (size == 0) {
            return null;
        }
        Event e = ring[head];
        ring[head] = null;
        head = (head + 1) % ring.length;
        size--;
        return e;
    }

    synchronized boolean takeDropped() {
        boolean d = dropped;
        dropped = false;
        return d;
    }

    synchronized boolean isEmpty() {
        return size == 0;
    }

    @Override
    public String toString() {
        return "#" + System.identityHashCode(this) + " of " + count;
    }
}
