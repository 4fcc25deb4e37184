package dev.ferry.driver.ucx;

import java.lang.foreign.MemorySegment;

/**
 * An instance's DATA receives, posted ahead into a ring of buffers (each a
 * {@link UcxWire#DATA_HEADER} then a payload of the buffer size). UCX matches posted receives in
 * the order they were posted, and a consumed buffer is posted again behind the others, so the
 * head always holds the oldest message. Receives are UCP requests made through {@link Ucp}
 * (no JUCX object per message); a completed one is released as soon as it is seen, its status
 * kept. The context's lock guards every call.
 */
final class ReceiveRing {
    /** Receive buffers posted ahead. */
    static final int SIZE = 8;

    private final UcxContext ctx;
    private final long tag;
    private final MemorySegment[] msg = new MemorySegment[SIZE];
    private final MemorySegment[] payload = new MemorySegment[SIZE];
    /** The UCP request of each slot's receive; 0 once completed (and released) or not posted. */
    private final long[] req = new long[SIZE];
    /** Each slot's receive status: {@link Ucp#INPROGRESS} while UCX has it. */
    private final int[] status = new int[SIZE];
    /** Where {@code ucp_tag_recv_request_test} writes (its contents are not used: the DATA header says the length). */
    private final MemorySegment info;
    private int head;

    ReceiveRing(UcxContext ctx, int instanceId) {
        this.ctx = ctx;
        this.tag = UcxWire.tag(UcxWire.KIND_DATA, instanceId);
        this.info = ctx.arena.allocate(Ucp.INFO_SIZE, 8);
        for (int i = 0; i < SIZE; i++) {
            msg[i] = ctx.arena.allocate(UcxWire.DATA_HEADER + ctx.bufferSize, 64);
            payload[i] = msg[i].asSlice(UcxWire.DATA_HEADER, ctx.bufferSize);
            post(i);
        }
    }

    private void post(int i) {
        long r = Ucp.tagRecv(ctx.workerHandle, msg[i].address(), msg[i].byteSize(), tag, UcxWire.FULL_MASK);
        if (r == 0 || Ucp.isError(r)) {
            req[i] = 0; // NULL: a message already waiting was received at once
            status[i] = (int) r;
        } else {
            req[i] = r;
            status[i] = Ucp.INPROGRESS;
        }
    }

    /** Slot i's receive has completed (its request released then): status known. */
    private boolean completed(int i) {
        long r = req[i];
        if (r == 0) {
            return true;
        }
        int s = Ucp.recvTest(r, info);
        if (s == Ucp.INPROGRESS) {
            return false;
        }
        Ucp.free(r);
        req[i] = 0;
        status[i] = s;
        return true;
    }

    /** The head receive has completed (with data, an error or a cancellation). */
    boolean ready() {
        return status[head] != Ucp.INPROGRESS || completed(head);
    }

    /** The head receive's UCS status (after {@link #ready()}). */
    int status() {
        return status[head];
    }

    /** The head message's header and payload. */
    MemorySegment message() {
        return msg[head];
    }

    MemorySegment payload() {
        return payload[head];
    }

    /** The head message was taken: its buffer is posted again (unless the instance is over) and the next is head. */
    void advance(boolean repost) {
        if (repost) {
            post(head);
        } else {
            status[head] = Ucp.ERR_CANCELED;
        }
        head = (head + 1) % SIZE;
    }

    void cancel() {
        for (int i = 0; i < SIZE; i++) {
            if (!completed(i)) {
                Ucp.cancel(ctx.workerHandle, req[i]);
            }
        }
    }

    /** Some receive is still in UCX's hands (cancelled ones complete on a later progress, and are released here). */
    boolean busy() {
        boolean busy = false;
        for (int i = 0; i < SIZE; i++) {
            busy |= !completed(i);
        }
        return busy;
    }
}
