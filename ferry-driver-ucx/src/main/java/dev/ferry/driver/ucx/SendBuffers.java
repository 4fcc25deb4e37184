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
 * {@link Ucp}; a completed one is released when seen, its status kept. The context's lock guards
 * every call.
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
    /** The UCP request of each buffer's last send, 0 once it completed (or done at once). */
    private final long[] req = new long[MAX];
    /** The last send's UCS status, {@link Ucp#INPROGRESS} while UCX holds the buffer. */
    final int[] status = new int[MAX];
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
        long r = Ucp.tagSend(ep, msg[i].address(), length, tag);
        if (r == 0 || Ucp.isError(r)) {
            req[i] = 0;
            status[i] = (int) r;
            return false;
        }
        req[i] = r;
        status[i] = Ucp.INPROGRESS;
        return !completed(i);
    }

    /** Buffer i's last send has completed (its request released then). */
    private boolean completed(int i) {
        long r = req[i];
        if (r == 0) {
            return true;
        }
        int s = Ucp.check(r);
        if (s == Ucp.INPROGRESS) {
            return false;
        }
        Ucp.free(r);
        req[i] = 0;
        status[i] = s;
        return true;
    }

    /** A free buffer's index, taken in turn (one more is made while under {@link #MAX}), or -1. */
    int free() {
        int n = count;
        for (int k = 0; k < n; k++) {
            int i = (next + k) % n;
            if (!held[i] && completed(i)) {
                next = (i + 1) % n;
                return i;
            }
        }
        return n < MAX ? add() : -1;
    }

    /** Some send UCX still holds (completed ones are released here). */
    boolean busy() {
        boolean busy = false;
        for (int i = 0; i < count; i++) {
            busy |= !completed(i);
        }
        return busy;
    }
}
