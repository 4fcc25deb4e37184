package dev.ferry;

/**
 * A persistent receive (MPI's {@code MPI_Recv_init}): its buffer is checked and mapped once, and
 * every start posts the same receive again.
 */
final class PersistentRecv extends PersistentRequest {
    private final Comm comm;
    private final Object data;
    private final long typeSize;
    private final RecvOp op;
    private final int source;
    private final int tag;

    PersistentRecv(Comm comm, Object data, long typeSize, int source, int tag) {
        super(comm.messaging());
        this.comm = comm;
        this.data = data;
        this.typeSize = typeSize;
        this.source = source;
        this.tag = tag;
        this.op = new RecvOp(comm.messaging(), comm, 0, null, null, typeSize, 0, 0);
    }

    @Override
    void begin(int round) {
        comm.postPrepared(op, data, typeSize, source, tag);
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
