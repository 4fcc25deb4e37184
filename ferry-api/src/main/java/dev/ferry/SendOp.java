package dev.ferry;

import dev.ferry.core.request.SendRequest;


/**
 * A send in flight: the engine's send and, for a synchronous one, the receiver's word that a
 * receive matched it. Complete when the engine's send is and (synchronous) the word came.
 */
final class SendOp extends Request {
    final SendRequest engineSend = new SendRequest();
    Comm comm;
    /** The destination's rank in the communicator and in the job. */
    int dest;
    int destWorld;
    int tag;
    boolean synchronous;
    /** A synchronous send: a receive matched it (its ACK came). */
    volatile boolean acked;
    /** Set when the send ended without the engine's help (a dead peer, no sync id, PROC_NULL). */
    private volatile Status finished;

    private static final java.lang.invoke.VarHandle ACKED, FINISHED;

    static {
        try {
            var l = java.lang.invoke.MethodHandles.lookup();
            ACKED = l.findVarHandle(SendOp.class, "acked", boolean.class);
            FINISHED = l.findVarHandle(SendOp.class, "finished", Status.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    SendOp(Messaging messaging, Comm comm, int dest, int tag, boolean synchronous) {
        super(messaging);
        set(comm, dest, tag, synchronous);
    }

    /** Sets the send up (again: a blocking send reuses its thread's one once it completed). */
    SendOp set(Comm comm, int dest, int tag, boolean synchronous) {
        reset();
        this.comm = comm;
        this.dest = dest;
        this.destWorld = comm == null || dest < 0 ? dest : comm.world(dest);
        this.tag = tag;
        this.synchronous = synchronous;
        ACKED.setRelease(this, false); // release stores: the op is published to others by the engine's own fences
        FINISHED.setRelease(this, (Status) null);
        return this;
    }

    void finish(Status s) {
        finished = s;
        wake();
    }

    /**
     * Whether a standard send completed within the engine's call (its data copied out, as eager
     * data on a live connection is): a blocking send then returns without a wait. Otherwise
     * (synchronous, failed, still in flight) it waits as any request does.
     */
    boolean sentAtOnce() {
        return !synchronous && finished == null && engineSend.status() == dev.ferry.spi.Status.DONE;
    }

    @Override
    Status poll() {
        Status f = finished;
        if (f != null) {
            return f;
        }
        if (!engineSend.isDone()) {
            return null;
        }
        if (engineSend.status() != dev.ferry.spi.Status.DONE) {
            String why = engineSend.failure();
            return Status.failed(dest, tag, ErrorClass.PROC_FAILED, "send to rank " + dest + " failed: "
                    + engineSend.status() + (why.isEmpty() ? "" : " (" + why + ")"));
        }
        if (synchronous && !acked) {
            return null;
        }
        return Status.SENT;
    }

    @Override
    public String toString() {
        return (synchronous ? "synchronous send" : "send") + " to rank " + dest + ", tag " + tag;
    }
}
