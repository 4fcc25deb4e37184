package dev.ferry.driver.shm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * How a context receives from its peers ({@code FERRY_SHM_RINGS}): the rings it may still give,
 * and the owner's side of its {@link SharedQueue}: the queue itself (made on first need), the
 * sender ids of the connections that write into it, and the passing over of slots nobody will
 * read.
 */
final class ReceiveResources {
    ReceiveResources(int ringCap, long pid, long start, Arena arena, java.util.function.Supplier<ShmInstance[]> instances) {
        this.ringCap = ringCap;
        this.pid = pid;
        this.start = start;
        this.arena = arena;
        this.instances = instances;
    }

    /** The peers this context receives from through rings at most; -1: all. */
    final int ringCap;
    private final long pid;
    private final long start;
    private final Arena arena;
    /** The context's instances now (to signal the queue's peers). */
    private final java.util.function.Supplier<ShmInstance[]> instances;
    private int ringsInUse;
    /** Our shared receive queue, made when a connection first takes it. */
    private volatile SharedQueue queue;
    /** The connections receiving through our queue, by the index of their sender id; grown as needed, under the lock. */
    private volatile java.util.concurrent.atomic.AtomicReferenceArray<ShmInstance> queueSenders =
            new java.util.concurrent.atomic.AtomicReferenceArray<>(16);
    private int[] senderGeneration = new int[16];
    private final java.util.ArrayDeque<Integer> freeSenders = new java.util.ArrayDeque<>();
    private int sendersMade;
    private static final int SENDER_INDEX_BITS = 20;
    private static final int SENDER_INDEX = (1 << SENDER_INDEX_BITS) - 1;
    /** The head slot of our queue that was last seen claimed and not published, and how often since. */
    private long stuckHead = -1;
    private int stuckLooks;

    /**
     * How a new connection receives: true for a ring of its own, counted until it ends
     * ({@link #giveRing}); false for the shared queue (past {@link #ringCap}).
     */
    synchronized boolean takeRing() {
        if (ringCap < 0 || ringsInUse < ringCap) {
            ringsInUse++;
            return true;
        }
        return false;
    }

    synchronized void giveRing() {
        ringsInUse--;
    }

    /** Connections receiving through rings now. */
    synchronized int ringsInUse() {
        return ringsInUse;
    }

    /** Our shared receive queue (next to the context file {@code contextFile}), made on first use. */
    synchronized SharedQueue ownQueue(Path contextFile) throws IOException {
        SharedQueue q = queue;
        if (q == null) {
            Path f = queueFile(contextFile);
            MemorySegment m = ShmFiles.createFresh(f, ShmLayout.QUEUE_BYTES, arena);
            ShmFiles.writeHeader(m, ShmLayout.KIND_QUEUE, pid, start);
            ShmFiles.markReady(m);
            q = new SharedQueue(f, m);
            queue = q;
        }
        return q;
    }

    static Path queueFile(Path contextFile) {
        String name = contextFile.getFileName().toString();
        return contextFile.resolveSibling(name.substring(0, name.length() - ".ctx".length()) + ".srq");
    }

    /** A sender id for a connection that receives through our queue: an index and its generation (never 0). */
    synchronized int enlist(ShmInstance i) {
        Integer free = freeSenders.poll();
        int index;
        if (free != null) {
            index = free;
        } else if (sendersMade <= SENDER_INDEX) {
            index = sendersMade++;
            if (index == senderGeneration.length) {
                int n = 2 * index;
                var grown = new java.util.concurrent.atomic.AtomicReferenceArray<ShmInstance>(n);
                for (int k = 0; k < index; k++) {
                    grown.set(k, queueSenders.get(k));
                }
                senderGeneration = java.util.Arrays.copyOf(senderGeneration, n);
                queueSenders = grown;
            }
        } else {
            return 0;
        }
        int gen = (senderGeneration[index] + 1) & 0x7ff;
        senderGeneration[index] = gen == 0 ? 1 : gen;
        queueSenders.set(index, i);
        return senderGeneration[index] << SENDER_INDEX_BITS | index;
    }

    /** The connection with that sender id ended: whatever it still has in our queue is passed over. */
    synchronized void delist(int id) {
        int index = id & SENDER_INDEX;
        if (senderOf(id) != null) {
            queueSenders.set(index, null);
            freeSenders.push(index);
        }
    }

    /** The connection receiving through our queue with that sender id, or null (ended, or never ours). */
    ShmInstance senderOf(int id) {
        var t = queueSenders;
        int index = id & SENDER_INDEX;
        ShmInstance i = index < t.length() ? t.get(index) : null;
        return i != null && i.queueId == id ? i : null;
    }

    /**
     * Passes over the slots at the head of our queue that nobody will read: given up by their
     * producer, sent by a connection that has ended here, or claimed by a process that died
     * before publishing (looked at only once a slot has stayed unpublished for a while). The
     * owner's receiving threads only.
     */
    void settle() {
        SharedQueue q = queue;
        for (;;) {
            long h = q.head();
            if (q.published(h)) {
                if (q.kind(h) != ShmLayout.ENTRY_SKIP && senderOf(q.sender(h)) != null) {
                    return; // somebody's packet
                }
            } else if (!claimerDead(q, h)) {
                return; // nothing there yet, or a producer still filling it (the usual case: looked at no further)
            }
            if (q.consume(h)) {
                signalPeers();
            }
        }
    }

    private boolean claimerDead(SharedQueue q, long h) {
        if (h != stuckHead) {
            stuckHead = h;
            stuckLooks = 0;
            return false;
        }
        if ((++stuckLooks & 1023) != 0 || !q.claimed(h)) {
            return false;
        }
        long pid = q.claimer(h);
        try (Arena a = Arena.ofConfined()) {
            return pid != this.pid && !Native.alive(Native.errnoCapture(a), pid);
        }
    }

    /** Whether the head of our queue is a slot nobody will read: a receiving pass passes over it. Read-only (probe-any). */
    boolean headStale() {
        SharedQueue q = queue;
        if (q == null) {
            return false;
        }
        long h = q.head();
        return q.published(h) && (q.kind(h) == ShmLayout.ENTRY_SKIP || senderOf(q.sender(h)) == null);
    }

    /** Our queue has room again after producers found it full: every peer sending through it may wait for that. */
    void signalPeers() {
        for (ShmInstance i : instances.get()) {
            Channel c = i.ch;
            if (i.queueId != 0 && c != null && i.state <= ShmConnection.CONNECTED) {
                c.signalPeer();
            }
        }
    }

    /** Our queue, or null before a connection took it. */
    SharedQueue queue() {
        return queue;
    }
}
