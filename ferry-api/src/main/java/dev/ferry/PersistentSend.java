package dev.ferry;

/**
 * A persistent send (MPI's {@code MPI_Send_init}, {@code MPI_Ssend_init}): its buffer is checked
 * and mapped once, and every start sends it again on the same request.
 */
final class PersistentSend extends PersistentRequest {
    private final Comm comm;
    private final Object data;
    private final SendOp op;
    private final int dest;
    private final int tag;
    private final boolean sync;

    PersistentSend(Comm comm, Object data, int dest, int tag, boolean sync) {
        super(comm.messaging());
        this.comm = comm;
        this.data = data;
        this.dest = dest;
        this.tag = tag;
        this.sync = sync;
        this.op = new SendOp(comm.messaging(), comm, dest, tag, sync);
    }

    @Override
    void begin(int round) {
        comm.startPrepared(op, data, dest, tag, sync);
    }

    @Override
    Status poll(int round) {
        return op.current();
    }

    @Override
    void release() {
    }

    @Override
    public String toString() {
        return "persistent " + op;
    }
}
