package dev.ferry.driver.ucx;

import org.openucx.jucx.ucp.UcpRequest;

import java.lang.foreign.MemorySegment;

/**
 * An instance's DATA receives, posted ahead into a ring of buffers (each a
 * {@link UcxWire#DATA_HEADER} then a payload of the buffer size). UCX matches posted receives in
 * the order they were posted, and a consumed buffer is posted again behind the others, so the
 * head always holds the oldest message. The context's lock guards every call.
 */
final class ReceiveRing {
    /** Receive buffers posted ahead. */
    static final int SIZE = 8;

    private final UcxContext ctx;
    private final long tag;
    private final MemorySegment[] msg = new MemorySegment[SIZE];
    private final MemorySegment[] payload = new MemorySegment[SIZE];
    private final UcpRequest[] req = new UcpRequest[SIZE];
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
        req[i] = ctx.worker.recvTaggedNonBlocking(msg[i].address(), msg[i].byteSize(), tag, UcxWire.FULL_MASK, null);
    }

    /** The head receive has completed (with data, an error or a cancellation). */
    boolean ready() {
        UcpRequest r = req[head];
        return r != null && r.isCompleted();
    }

    /** The head receive's UCS status. */
    int status() {
        return req[head].getStatus();
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
            req[head] = null;
        }
        head = (head + 1) % SIZE;
    }

    void cancel() {
        for (UcpRequest r : req) {
            if (r != null && !r.isCompleted()) {
                ctx.worker.cancelRequest(r);
            }
        }
    }

    /** Some receive is still in UCX's hands (cancelled ones complete on a later progress). */
    boolean busy() {
        for (UcpRequest r : req) {
            if (r != null && !r.isCompleted()) {
                return true;
            }
        }
        return false;
    }
}
