package dev.ferry.driver.ucx;

import java.lang.foreign.MemorySegment;

/**
 * An instance's DATA receives, posted ahead into a ring of buffers (each a
 * {@link UcxWire#DATA_HEADER} then a payload of the buffer size). UCX matches posted receives in
 * the order they were posted, and a consumed buffer is posted again behind the others, so the
 * head always holds the oldest message. Receives are UCP requests made through {@link Ucp}
 * (no JUCX object per message), kept in {@link RequestSlots}. The context's lock guards every call.
 */
final class ReceiveRing {
    /** Receive buffers posted ahead. */
    static final int SIZE = 8;

    private final UcxContext ctx;
    private final long tag;
    private final MemorySegment[] msg = new MemorySegment[SIZE];
    private final MemorySegment[] payload = new MemorySegment[SIZE];
    /** Each slot's receive. */
    private final RequestSlots req = new RequestSlots(SIZE);
    private int head;

    ReceiveRing(UcxContext ctx, int instanceId) {
        this.ctx = ctx;
        this.tag = UcxWire.tag(UcxWire.KIND_DATA, instanceId);
        for (int i = 0; i < SIZE; i++) {
            msg[i] = ctx.arena.allocate(UcxWire.DATA_HEADER + ctx.bufferSize, 64);
            payload[i] = msg[i].asSlice(UcxWire.DATA_HEADER, ctx.bufferSize);
            post(i);
        }
    }

    private void post(int i) {
        // NULL when a message already waiting was received at once
        req.started(i, Ucp.tagRecv(ctx.workerHandle, msg[i].address(), msg[i].byteSize(), tag, UcxWire.FULL_MASK));
    }

    /** The head receive has completed (with data, an error or a cancellation). */
    boolean ready() {
        return req.completed(head);
    }

    /** The head receive's UCS status (after {@link #ready()}). */
    int status() {
        return req.status(head);
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
            req.ended(head, Ucp.ERR_CANCELED);
        }
        head = (head + 1) % SIZE;
    }

    void cancel() {
        for (int i = 0; i < SIZE; i++) {
            req.cancel(i, ctx.workerHandle);
        }
    }

    /** Some receive is still in UCX's hands (cancelled ones complete on a later progress, and are released here). */
    boolean busy() {
        return req.busy(SIZE);
    }
}
