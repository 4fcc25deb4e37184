package dev.ferry;

import dev.ferry.core.match.MatchEntry;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.spi.DataLayout;

import java.lang.foreign.MemorySegment;

/**
 * A receive: posted in the matching queues until a message matches it (or found an unexpected
 * one at once), then the engine's receive of that message into the buffer. Runs its matching
 * steps in the engine's thread of control; its completion is read from any thread.
 */
final class RecvOp extends Request implements Runnable, dev.ferry.core.request.Matched {
    final MatchEntry<RecvOp> entry = new MatchEntry<>(this);
    final RecvRequest engineRecv = new RecvRequest();
    Comm comm;
    /** The context it matches in: the communicator's user or internal one. */
    int context;
    /** Where the bytes go: a contiguous segment, else a layout. */
    MemorySegment into;
    DataLayout layout;
    long typeSize;
    /** The pattern: source in the job (or ANY) and tag (or ANY). */
    int sourceWorld;
    int tag;
    /** A matched probe's message this receive takes, instead of matching (mrecv). */
    Message matchedMessage;
    private int matchedTag;
    private volatile boolean matched;
    private volatile Status finished;
    /** The last successful status this op answered: the next, when alike, is that one (no allocation on a blocking receive's path). */
    private Status lastOk;
    /**
     * The same by source (direct-mapped), made when a reused op answers a second source: a
     * blocking receive that takes each rank in turn (a linear collective's root) allocates none.
     */
    private Status[] okBySource;

    private static final java.lang.invoke.VarHandle MATCHED, FINISHED;

    static {
        try {
            var l = java.lang.invoke.MethodHandles.lookup();
            MATCHED = l.findVarHandle(RecvOp.class, "matched", boolean.class);
            FINISHED = l.findVarHandle(RecvOp.class, "finished", Status.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    RecvOp(Messaging messaging, Comm comm, int context, MemorySegment into, DataLayout layout, long typeSize, int sourceWorld, int tag) {
        super(messaging);
        set(comm, context, into, layout, typeSize, sourceWorld, tag);
    }

    /** Sets the receive up (again: a blocking receive reuses its thread's one once it completed). */
    RecvOp set(Comm comm, int context, MemorySegment into, DataLayout layout, long typeSize, int sourceWorld, int tag) {
        reset();
        this.comm = comm;
        this.context = context;
        this.into = into;
        this.layout = layout;
        this.typeSize = typeSize;
        this.sourceWorld = sourceWorld;
        this.tag = tag;
        this.matchedMessage = null;
        MATCHED.setRelease(this, false); // release stores: the op is published to others by the engine's own fences
        FINISHED.setRelease(this, (Status) null);
        return this;
    }

    /** Posts the receive, or takes a matched probe's message (engine's thread of control). */
    @Override
    public void run() {
        if (matchedMessage != null) {
            Message m = matchedMessage;
            matchedMessage = null;
            deliver(m);
        } else {
            messaging.post(this);
        }
    }

    /** A message matched: receive it (engine's thread of control). */
    void deliver(Message m) {
        long h = m.header();
        matchedTag = Envelope.tag(h);
        if (into != null) {
            m.receive(into, engineRecv);
        } else {
            m.receive(layout, engineRecv);
        }
        if (Envelope.kind(h) == Envelope.SYNC) {
            messaging.ack(m.source(), Envelope.syncId(h));
        }
        MATCHED.setRelease(this, true); // after the engine's receive began: a reader that sees it sees that
        wake();
    }

    /**
     * The node agent matched this receive, handed to it when posted, and its message is in place
     * (engine's thread of control): as {@link #deliver}, with no message to receive.
     */
    @Override
    public void matched(RecvRequest r) {
        if (finished != null) {
            return; // failed meanwhile (its communicator revoked): the bytes landed, the status stands
        }
        long h = r.header();
        matchedTag = Envelope.tag(h);
        messaging.matchedByAgent(this);
        if (Envelope.kind(h) == Envelope.SYNC) {
            messaging.ack(r.source(), Envelope.syncId(h));
        }
        MATCHED.setRelease(this, true);
        wake();
    }

    /** Ends the receive without a message (cancelled, or its source died). */
    void finish(Status s) {
        if (engineRecv.armedBy >= 0) {
            messaging.reclaim(this); // the agent has it no more; if it matched it already, the status above stands
        }
        finished = s;
        wake();
    }

    /** Cancels it while still posted (engine's thread of control). */
    boolean cancelPosted() {
        if (messaging.unpost(this)) {
            finish(Status.cancelled(typeSize));
            return true;
        }
        return false;
    }

    @Override
    public boolean cancel() {
        boolean[] done = new boolean[1];
        messaging.engine().runSerialized(() -> done[0] = cancelPosted());
        return done[0];
    }

    @Override
    Status poll() {
        Status f = finished;
        if (f != null) {
            return f;
        }
        if (!matched || !engineRecv.isDone()) {
            return null;
        }
        int source = comm.local(engineRecv.source());
        if (engineRecv.status() != dev.ferry.spi.Status.DONE) {
            String why = engineRecv.failure();
            return Status.failed(source, matchedTag, ErrorClass.PROC_FAILED, "receive from rank " + source + " failed: "
                    + engineRecv.status() + (why.isEmpty() ? "" : " (" + why + ")"));
        }
        if (engineRecv.truncated()) {
            long room = into != null ? into.byteSize() : layout.size();
            return new Status(source, matchedTag, engineRecv.length(), engineRecv.received(), typeSize, ErrorClass.TRUNCATE,
                    "a message of " + engineRecv.length() + " bytes from rank " + source + ", tag " + matchedTag
                            + ", is longer than the receive buffer of " + room + " bytes", false);
        }
        Status last = lastOk;
        if (last != null && last.is(source, matchedTag, engineRecv.length(), typeSize)) {
            return last; // a status is immutable: a blocking receive in a loop (one reused op) answers the same one
        }
        if (last == null) {
            return lastOk = Status.ok(source, matchedTag, engineRecv.length(), typeSize);
        }
        if (okBySource == null) {
            okBySource = new Status[8];
            okBySource[last.source() & (okBySource.length - 1)] = last;
        }
        int slot = source & (okBySource.length - 1);
        Status seen = okBySource[slot];
        if (seen == null || !seen.is(source, matchedTag, engineRecv.length(), typeSize)) {
            seen = okBySource[slot] = Status.ok(source, matchedTag, engineRecv.length(), typeSize);
        }
        return lastOk = seen;
    }

    @Override
    public String toString() {
        return "receive from " + (sourceWorld == MatchEntry.ANY ? "any rank" : "world rank " + sourceWorld) + ", tag " + (tag == MatchEntry.ANY ? "any" : tag);
    }
}
