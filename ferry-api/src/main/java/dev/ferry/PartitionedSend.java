package dev.ferry;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A partitioned send: at init it tells the receiver its channel and partitioning (the setup
 * message, which the receiver's matching precvInit takes); each partition readied goes at once as
 * a message of its own on the channel's tag. A round is complete when every partition was
 * readied and its send completed. Each partition's send request is made once and reused every
 * round: readying allocates nothing.
 */
final class PartitionedSend extends PartitionedRequest {
    private final int channel;
    private final Object[] data;
    private final SendOp[] sends;
    /** The round each partition was last readied in: a second pready in one round is refused. */
    private final AtomicIntegerArray readiedIn;
    /** Partitions readied and handed to the engine this round. */
    private final AtomicInteger readied = new AtomicInteger();
    private final Request setup;
    private final String name;

    PartitionedSend(Comm comm, Object buf, int partitions, long count, Datatype type, int dest, int tag) {
        super(comm, partitions, count, type, dest, tag, "psendInit");
        comm.checkLive();
        comm.checkDest(dest);
        MemorySegment whole = Buffers.elements(buf, 0, Math.multiplyExact(count, (long) partitions), type, false, "buffer");
        this.data = parts(whole, partitions, count, type, false);
        this.name = "partitioned send of " + partitions + " x " + count + " " + type + " to rank " + dest + ", tag " + tag;
        this.readiedIn = new AtomicIntegerArray(partitions);
        this.sends = new SendOp[partitions];
        for (int p = 0; p < partitions; p++) {
            sends[p] = new SendOp(comm.messaging(), comm, dest, tag, false);
        }
        if (dest == Ferry.PROC_NULL) {
            this.channel = -1;
            this.setup = Request.completed(comm.messaging(), Status.SENT);
        } else {
            this.channel = comm.ferry().partitionChannels.take();
            this.setup = comm.collectiveSend(PartitionWire.setup(channel, partitions, count * type.size), dest, PartitionWire.setupTag(tag));
        }
    }

    @Override
    void begin(int round) {
        readied.set(0);
    }

    @Override
    public void pready(int partition) {
        checkPartition(partition, "pready");
        int r = round();
        if (r == 0 || !isActive()) {
            throw FerryException.arg(ErrorClass.REQUEST, "pready: " + this + " is not active: start it first");
        }
        if (readiedIn.getAndSet(partition, r) == r) {
            throw FerryException.arg(ErrorClass.ARG, "pready: partition " + partition + " of " + this + " was readied already in this round");
        }
        if (peer == Ferry.PROC_NULL) {
            sends[partition].set(comm, peer, tag, false).finish(Status.SENT);
        } else {
            comm.sendPrepared(sends[partition], data[partition], peer, PartitionWire.dataTag(channel, partition));
        }
        readied.incrementAndGet(); // after the send was handed over: a poll that counts them all sees every send set up
        // the engine announces a rendezvous sent between its passes at the next pass: make one now
        // (caller progress; unless another thread is in one), so the partition moves at once
        messaging.progress();
    }

    @Override
    public boolean parrived(int partition) {
        throw FerryException.arg(ErrorClass.REQUEST, "parrived: " + this + " is a send (parrived asks a partitioned receive)");
    }

    @Override
    Status poll(int round) {
        if (readied.get() < partitions) {
            return null;
        }
        Status s = setup.current();
        if (s == null || s.error() != null) {
            return s;
        }
        for (SendOp op : sends) {
            s = op.current();
            if (s == null || s.error() != null) {
                return s;
            }
        }
        return Status.SENT;
    }

    @Override
    void release() {
        if (channel >= 0) {
            comm.ferry().partitionChannels.give(channel);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
