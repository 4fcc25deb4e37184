package dev.ferry.driver.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * An instance's send buffers, each a DATA header ({@link UcxWire#DATA_HEADER}) then a payload
 * of the buffer size. A buffer is free when no caller holds it (sendBufGet to sendBufPost) and
 * UCX has let go of its last send. There are {@link #START} at first, one more made whenever all
 * are busy, up to {@link #MAX}: an eager send is DONE once copied into a buffer (the caller's
 * memory is free) while UCX may still hold it, and a receiver that does not progress (its
 * shared-memory FIFO full) is absorbed by up to that many. Sends are UCP requests made through
 * {@link Ucp}, kept in {@link RequestSlots}. The context's lock guards every call.
 */
final class SendBuffers {
    static final int START = 8;
    static final int MAX = 64;

    /** What a packet sent from a buffer refers to: the buffer's index (its use count goes in driverState). */
    static final class Ref {
        final int slot;

        Ref(int slot) {
            this.slot = slot;
        }
    }

    private final Arena arena;
    private final int bufferSize;
    /** Whole buffers (header and payload), and their payload slices. */
    final MemorySegment[] msg = new MemorySegment[MAX];
    final MemorySegment[] payload = new MemorySegment[MAX];
    /** Each buffer's last send. */
    private final RequestSlots req = new RequestSlots(MAX);
    /** Handed to a caller by sendBufGet, not posted yet. */
    final boolean[] held = new boolean[MAX];
    /** Sends made from each buffer: a packet whose count is older was completed, the buffer reused. */
    final long[] uses = new long[MAX];
    final Ref[] ref = new Ref[MAX];
    private int count;
    private int next;

    SendBuffers(Arena arena, int bufferSize) {
        this.arena = arena;
        this.bufferSize = bufferSize;
        for (int i = 0; i < START; i++) {
            add();
        }
    }

    private int add() {
        int i = count++;
        msg[i] = arena.allocate(UcxWire.DATA_HEADER + bufferSize, 64);
        payload[i] = msg[i].asSlice(UcxWire.DATA_HEADER, bufferSize);
        ref[i] = new Ref(i);
        return i;
    }

    /**
     * Sends {@code length} bytes of buffer i (header included) with {@code tag}: true when UCX
     * still holds the buffer afterwards.
     */
    boolean send(int i, long ep, long length, long tag) {
        req.started(i, Ucp.tagSend(ep, msg[i].address(), length, tag));
        return !req.completed(i);
    }

    /** The last status seen of buffer i's last send ({@link Ucp#INPROGRESS} while UCX holds it); no UCP call. */
    int status(int i) {
        return req.status(i);
    }

    /** A free buffer's index, taken in turn (one more is made while under {@link #MAX}), or -1. */
    int free() {
        int n = count;
        for (int k = 0; k < n; k++) {
            int i = (next + k) % n;
            if (!held[i] && req.completed(i)) {
                next = (i + 1) % n;
                return i;
            }
        }
        return n < MAX ? add() : -1;
    }

    /** Some send UCX still holds (completed ones are released here). */
    boolean busy() {
        return req.busy(count);
    }
}
