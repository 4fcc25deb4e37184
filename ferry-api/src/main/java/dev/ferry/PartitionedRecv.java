package dev.ferry;

import java.lang.foreign.MemorySegment;

/**
 * A partitioned receive: at init it posts a receive for its sender's setup message (matched as
 * MPI matches partitioned inits: by source and tag, in order); once that came it knows the
 * sender's channel and partitioning, and each round posts one receive per sender partition
 * straight into the buffer. A receive partition has arrived when every sender partition that
 * overlaps it has. The receives are made once and reused every round.
 */
final class PartitionedRecv extends PartitionedRequest {
    private final MemorySegment whole;
    private final long count;
    private final Datatype type;
    private final MemorySegment setupIn = MemorySegment.ofArray(new long[PartitionWire.SETUP_BYTES / 8]);
    private final Request setup;
    private final String name;

    // known once the setup message came (under the request's lock)
    private int senderPartitions;
    private long senderBytes;
    private RecvOp[] recvs;
    private Object[] into;
    private int[] tags;
    private Status refused;
    /** The round whose receives are posted. */
    private int posted;

    PartitionedRecv(Comm comm, Object buf, int partitions, long count, Datatype type, int source, int tag) {
        super(comm, partitions, count, type, source, tag, "precvInit");
        comm.checkLive();
        comm.checkSource(source);
        this.whole = Buffers.elements(buf, 0, Math.multiplyExact(count, (long) partitions), type, true, "buffer");
        this.count = count;
        this.type = type;
        this.name = "partitioned receive of " + partitions + " x " + count + " " + type + " from rank " + source + ", tag " + tag;
        this.setup = source == Ferry.PROC_NULL ? null : comm.collectiveRecv(setupIn, source, PartitionWire.setupTag(tag));
    }

    @Override
    void begin(int round) {
        if (peer != Ferry.PROC_NULL) {
            postIfKnown(round);
        }
    }

    /** Posts round {@code round}'s receives if the setup came and they are not posted yet; whether they are. */
    private synchronized boolean postIfKnown(int round) {
        if (posted == round) {
            return true;
        }
        if (recvs == null && !learnSetup()) {
            return false;
        }
        if (refused == null) {
            for (int j = 0; j < recvs.length; j++) {
                comm.recvPrepared(recvs[j], into[j], type.size, peer, tags[j]);
            }
        }
        posted = round;
        return true;
    }

    /** Reads the sender's setup if it came: its channel and partitioning, checked against this receive. */
    private boolean learnSetup() {
        Status s = setup.current();
        if (s == null) {
            return false;
        }
        if (s.error() != null) {
            refused = s;
            recvs = new RecvOp[0];
            return true;
        }
        int channel = PartitionWire.channel(setupIn);
        senderPartitions = PartitionWire.partitions(setupIn);
        senderBytes = PartitionWire.partitionBytes(setupIn);
        long mine = partitions * count * type.size;
        recvs = new RecvOp[senderPartitions];
        tags = new int[senderPartitions];
        if (senderPartitions * senderBytes != mine) {
            refused = Status.failed(peer, tag, ErrorClass.COUNT, this + ": the sender's " + senderPartitions + " partitions of "
                    + senderBytes + " bytes are not this receive's " + mine + " bytes");
            return true;
        }
        if (senderPartitions != partitions && !type.contiguous) {
            refused = Status.failed(peer, tag, ErrorClass.TYPE, this + ": the sender cuts the message into " + senderPartitions
                    + " partitions, not " + partitions + "; a receive partitioned otherwise than its sender needs a contiguous datatype");
            return true;
        }
        into = senderPartitions == partitions ? parts(whole, partitions, count, type, true) : new Object[senderPartitions];
        for (int j = 0; j < senderPartitions; j++) {
            if (senderPartitions != partitions) {
                into[j] = whole.asSlice(j * senderBytes, senderBytes);
            }
            tags[j] = PartitionWire.dataTag(channel, j);
            recvs[j] = new RecvOp(comm.messaging(), comm, 0, null, null, type.size, 0, 0);
        }
        return true;
    }

    @Override
    public void pready(int partition) {
        throw FerryException.arg(ErrorClass.REQUEST, "pready: " + this + " is a receive (pready readies a partitioned send's partition)");
    }

    @Override
    public boolean parrived(int partition) {
        checkPartition(partition, "parrived");
        int r = round();
        if (r == 0) {
            throw FerryException.arg(ErrorClass.REQUEST, "parrived: " + this + " was never started");
        }
        if (peer == Ferry.PROC_NULL || current() != null) {
            return true;
        }
        messaging.progress();
        if (!postIfKnown(r)) {
            return false;
        }
        if (refused != null) {
            return true; // the wait tells why
        }
        long bytes = count * type.size;
        int first = 0, last = senderPartitions - 1; // no bytes: every partition is all of them
        if (senderPartitions == partitions) {
            first = last = partition;
        } else if (bytes > 0) {
            first = (int) (partition * bytes / senderBytes);
            last = (int) (((partition + 1) * bytes - 1) / senderBytes);
        }
        for (int j = first; j <= last; j++) {
            if (recvs[j].current() == null) {
                return false;
            }
        }
        return true;
    }

    @Override
    Status poll(int round) {
        if (peer == Ferry.PROC_NULL) {
            return Status.ok(Ferry.PROC_NULL, Ferry.ANY_TAG, 0, type.size);
        }
        if (!postIfKnown(round)) {
            return null;
        }
        if (refused != null) {
            return refused;
        }
        for (RecvOp op : recvs) {
            Status s = op.current();
            if (s == null || s.error() != null) {
                return s;
            }
        }
        return Status.ok(peer, tag, senderPartitions * senderBytes, type.size);
    }

    @Override
    void release() {
        if (setup != null && setup.current() == null) {
            setup.cancel();
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
