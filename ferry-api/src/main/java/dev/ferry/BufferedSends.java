package dev.ferry;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;

/**
 * The buffer that buffered sends copy into (MPI_Buffer_attach), for one Ferry instance. A
 * buffered send reserves its packed bytes plus {@link Ferry#BSEND_OVERHEAD} of the buffer,
 * copies the message there and starts a standard send of the copy; the space is free again once
 * that send completes. Space is handed out first-fit in buffer order; completed sends are
 * reclaimed when space runs short and when the buffer is detached, which waits for the sends
 * still in flight (as MPI_Buffer_detach does).
 *
 * <p>A buffered send that fails after its call returned (its peer died) has nobody to tell but the
 * log: it is logged when its space is reclaimed.
 */
final class BufferedSends {
    private final Messaging messaging;
    /** What the application attached (handed back by detach), and its memory; null when none. */
    private Object attached;
    private MemorySegment memory;
    /** The reserved blocks, by offset. */
    private final ArrayList<Block> blocks = new ArrayList<>();
    /** Blocks whose sends completed, with their send requests, for the next messages. */
    private final ArrayDeque<Block> spares = new ArrayDeque<>();
    /** Spares kept at most. */
    private static final int MAX_SPARES = 64;

    /** One message's reservation: {@code length} bytes from {@code offset}, and its send. */
    static final class Block {
        long offset;
        long length;
        /** The message's packed bytes. */
        MemorySegment data;
        /** Its send, reused by the block's next message once complete. */
        final SendOp send;
        /** Whether the send has started (a block is reserved before its copy is made). */
        boolean started;

        Block(Messaging messaging) {
            send = new SendOp(messaging, null, Ferry.PROC_NULL, Ferry.ANY_TAG, false);
        }
    }

    BufferedSends(Messaging messaging) {
        this.messaging = messaging;
    }

    /** Attaches {@code buffer} (a byte array, a byte buffer or a memory segment). */
    synchronized void attach(Object buffer) {
        if (attached != null) {
            throw FerryException.arg(ErrorClass.BUFFER, "buffer: a buffer of " + memory.byteSize()
                    + " bytes is attached already (detach it first)");
        }
        if (buffer == null) {
            throw FerryException.arg(ErrorClass.BUFFER, "buffer is null");
        }
        memory = Buffers.whole(buffer, true, "buffer");
        attached = buffer;
    }

    /**
     * Waits until every buffered send from the attached buffer completed, detaches it and hands
     * it back; null when none was attached. Sends that failed are logged.
     */
    synchronized Object detach() {
        Object was = attached;
        if (was == null) {
            return null;
        }
        for (Block b : blocks) {
            if (b.started) {
                try {
                    b.send.await();
                } catch (FerryException e) {
                    // its status tells why: logged below
                }
                logFailure(b.send.status());
            }
        }
        blocks.clear();
        spares.clear();
        attached = null;
        memory = null;
        return was;
    }

    /** The bytes still reserved (messages in flight with their overhead), for tests and tools. */
    synchronized long reserved() {
        reclaim();
        long sum = 0;
        for (Block b : blocks) {
            sum += b.length;
        }
        return sum;
    }

    /**
     * A buffered send from {@code comm} of {@code count} elements of {@code type} in {@code from}
     * (checked): packed into a reserved block, then sent from there; a request complete at once.
     */
    Request send(Comm comm, MemorySegment from, long count, Datatype type, int dest, int tag) {
        long bytes = Math.multiplyExact(count, type.size); // Buffers checked the reach: this fits
        Block b = reserve(bytes);
        try {
            if (type.contiguous) {
                MemorySegment.copy(from, 0, b.data, 0, bytes);
            } else {
                CollBuffer.pack(from, count, type, b.data);
            }
            comm.sendCopy(b.send.set(comm, dest, tag, false), b.data);
        } catch (RuntimeException e) {
            release(b); // never started: its space is free again
            throw e;
        }
        started(b);
        return messaging.sent();
    }

    /**
     * Reserves room for a message of {@code bytes} packed bytes: its block, whose {@link Block#data}
     * {@link #send} fills and then sends with {@link Block#send}. Fails
     * with {@link ErrorClass#BUFFER} when no buffer is attached or no free stretch of it is long
     * enough even after reclaiming the sends that completed.
     */
    private synchronized Block reserve(long bytes) {
        if (memory == null) {
            throw FerryException.arg(ErrorClass.BUFFER, "bsend: no buffer is attached (attach one of at least the packed size plus "
                    + Ferry.BSEND_OVERHEAD + " bytes per message first)");
        }
        long need = bytes + Ferry.BSEND_OVERHEAD;
        reclaim(); // the sends done so far: few are in flight, so this is short, and the list stays short
        Block b = place(bytes, need);
        if (b == null) {
            messaging.progress(); // sends about to complete free their space now rather than never
            if (reclaim()) {
                b = place(bytes, need);
            }
        }
        if (b == null) {
            long free = memory.byteSize();
            for (Block x : blocks) {
                free -= x.length;
            }
            throw FerryException.arg(ErrorClass.BUFFER, "bsend: a message of " + bytes + " bytes needs " + need
                    + " bytes of the attached buffer (its packed size plus BSEND_OVERHEAD " + Ferry.BSEND_OVERHEAD + "), but of its "
                    + memory.byteSize() + " bytes " + free + " are free, "
                    + (free >= need ? "none of them in one stretch long enough" : "with " + blocks.size() + " buffered sends in flight"));
        }
        return b;
    }

    /** The send of a reserved block has started: its space is freed once it completes. */
    private synchronized void started(Block b) {
        b.started = true;
    }

    /** A reserved block whose send could not start: its space is free again. */
    private synchronized void release(Block b) {
        blocks.remove(b);
    }

    /** First fit: the block of {@code need} bytes in the first stretch that holds it, or null. */
    private Block place(long bytes, long need) {
        long at = 0;
        for (int i = 0; i < blocks.size(); i++) {
            Block x = blocks.get(i);
            if (x.offset - at >= need) {
                return insert(i, at, bytes, need);
            }
            at = x.offset + x.length;
        }
        return memory.byteSize() - at >= need ? insert(blocks.size(), at, bytes, need) : null;
    }

    private Block insert(int index, long at, long bytes, long need) {
        Block b = spares.poll();
        if (b == null) {
            b = new Block(messaging);
        }
        b.offset = at;
        b.length = need;
        b.data = memory.asSlice(at, bytes);
        b.started = false;
        blocks.add(index, b);
        return b;
    }

    /** Frees the blocks whose sends completed; whether any was. */
    private boolean reclaim() {
        int kept = 0;
        for (int i = 0; i < blocks.size(); i++) {
            Block b = blocks.get(i);
            if (b.started && b.send.isDone()) {
                logFailure(b.send.status());
                if (spares.size() < MAX_SPARES) {
                    b.data = null;
                    spares.push(b);
                }
            } else {
                blocks.set(kept++, b);
            }
        }
        boolean any = kept < blocks.size();
        while (blocks.size() > kept) {
            blocks.removeLast();
        }
        return any;
    }

    private void logFailure(Status s) {
        if (s != null && s.error() != null) {
            messaging.engine().logger().log(System.Logger.Level.WARNING, "a buffered send failed after its call returned: {0}", s.failure());
        }
    }
}
