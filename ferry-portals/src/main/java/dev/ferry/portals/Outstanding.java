package dev.ferry.portals;

import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.SendRequest;


/**
 * An operation this process started (initiator side), from the call until its events were
 * posted: what it was, which MDs it uses, and what it still waits for (its data to leave, an
 * ack, a reply).
 *
 * <pre>{@code
 * Outstanding o = ops.take();
 * o.type = PtlWire.PUT; o.putMd = md; ...
 * }</pre>
 */
final class Outstanding {
    final int slot;
    int generation;
    byte type;
    Ni ni;
    MemDesc putMd;
    MemDesc getMd;
    long localPutOffset;
    long localGetOffset;
    long length;
    Object userPtr;
    AckReq ack;
    int target;
    int ptIndex;
    long matchBits;
    long hdrData;
    Op op;
    Datatype datatype;
    boolean waitSend;
    boolean waitResponse;
    /** Counted for ordering with direct access ({@link DirectAccess}): the target answers it, and its end is reported. */
    boolean counted;
    /** Answered only for that count: no ack was asked for, so none is posted. */
    boolean silent;
    /** The separate data message of a large put, until the target pulled it. */
    SendRequest dataSend;
    /** The separate data of a large reply, while it is pulled into the get MD. */
    RecvRequest replyRecv;
    long replyMlength;
    long replyOffset;
    /** The list the target matched, as its REPLY named it. */
    ListKind replyList;
    /**
     * A failure ACK that came while the put's data was still moving (the target dropped it), or
     * null: it is posted once the data send completed, after SEND, as for a success.
     */
    DeferredAck deferredAck;

    /** What an ACK said, kept until it may be posted. */
    record DeferredAck(NiFail fail, ListKind list, long mlength, long offset, boolean silent) {
    }

    Outstanding(int slot) {
        this.slot = slot;
    }

    long id() {
        return ((long) generation << 20) | slot;
    }
}
