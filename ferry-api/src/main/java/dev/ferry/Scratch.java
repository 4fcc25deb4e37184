package dev.ferry;

import java.lang.foreign.MemorySegment;

/**
 * What one thread's blocking calls reuse, so that a steady exchange of blocking sends and
 * receives allocates next to nothing: a send and a receive (each in use by one blocking call at a
 * time; a nested one, say from a future's callback, makes its own), and the last memory slice
 * each used (an array or segment passed again with the same offset, count and datatype maps to the
 * same slice, unchecked), and 8 KiB for the blocks of a small collective run in the thread
 * ({@link DirectCollectives}). It holds on to the last buffers used until the next call replaces them.
 */
final class Scratch {
    /** Bytes of {@link #small}: a small collective's received block and its packed data. */
    static final long SMALL_BYTES = 2 * DirectCollectives.MAX_BYTES;

    /** The thread whose calls use it. */
    final Thread owner = Thread.currentThread();
    final SendOp send;
    final RecvOp recv;
    boolean sendBusy;
    boolean recvBusy;
    final Slice sendSlice = new Slice();
    final Slice recvSlice = new Slice();
    /** This thread's memory for small collectives ({@link DirectCollectives}), made on first use. */
    private MemorySegment small;
    /** The last view of {@link #small} handed out: the same object while the size repeats, so a receive into it finds its slice cached. */
    private MemorySegment smallView;

    Scratch(Messaging messaging) {
        this.send = new SendOp(messaging, null, Ferry.PROC_NULL, 0, false);
        this.recv = new RecvOp(messaging, null, 0, null, null, 1, 0, 0);
    }

    /** Whether {@code r} is this thread's send and left complete in the engine's call (a blocking send then skips its wait). */
    boolean sentAtOnce(Request r) {
        return r == send && send.sentAtOnce();
    }

    /**
     * The first {@code bytes} (at most {@link #SMALL_BYTES}) of this thread's memory for small
     * collectives; the same view as last time when the size repeats.
     */
    MemorySegment small(long bytes) {
        if (smallView == null || smallView.byteSize() != bytes) {
            if (small == null) {
                small = java.lang.foreign.Arena.ofAuto().allocate(SMALL_BYTES, 64);
            }
            smallView = small.asSlice(0, bytes);
        }
        return smallView;
    }

    /** The last slice made of one buffer: reused while the buffer, offset, count and datatype repeat. */
    static final class Slice {
        private Object buffer;
        private long offset;
        private long count;
        private Datatype type;
        private MemorySegment slice;

        /** The slice made for these arguments last time (checked then: a datatype and a buffer's memory do not change), or null. */
        MemorySegment get(Object buf, long offset, long count, Datatype type) {
            return buf == buffer && offset == this.offset && count == this.count && type == this.type ? slice : null;
        }

        MemorySegment put(Object buf, long offset, long count, Datatype type, MemorySegment slice) {
            this.buffer = buf;
            this.offset = offset;
            this.count = count;
            this.type = type;
            this.slice = slice;
            return slice;
        }
    }
}
