package dev.ferry;

import java.lang.foreign.MemorySegment;

/**
 * A partitioned send or receive (MPI-4's {@code MPI_Psend_init} and {@code MPI_Precv_init}): one
 * message of {@code partitions} parts of {@code count} elements each, made once and started for
 * every round. The sender readies each part when it is filled, from any thread and in any order;
 * a readied part starts moving at once, and {@link #pready} never blocks. The receiver may ask
 * whether a part has arrived before the whole message has. Sender and receiver may cut the
 * message into different numbers of parts (then the receive's datatype must be contiguous); the
 * sizes in bytes must agree.
 *
 * <pre>{@code
 * // rank 0: 4 threads fill and ready 16 parts of 64 Ki doubles
 * PartitionedRequest s = world.psendInit(data, 16, 65536, Datatype.DOUBLE, 1, 7);
 * s.start();
 * IntStream.range(0, 16).parallel().forEach(p -> { fill(data, p); s.pready(p); });
 * s.await();
 * // rank 1
 * PartitionedRequest r = world.precvInit(in, 16, 65536, Datatype.DOUBLE, 0, 7);
 * r.start();
 * while (!r.parrived(0)) { compute(); }
 * r.await();
 * }</pre>
 */
public abstract sealed class PartitionedRequest extends PersistentRequest permits PartitionedSend, PartitionedRecv {
    final Comm comm;
    final int partitions;
    /** The peer's rank in the communicator, and the user's tag. */
    final int peer;
    final int tag;

    PartitionedRequest(Comm comm, int partitions, long count, Datatype type, int peer, int tag, String what) {
        super(comm.messaging());
        if (partitions < 1 || partitions > PartitionWire.MAX_PARTITIONS) {
            throw FerryException.arg(ErrorClass.ARG, what + ": partitions: " + partitions + " is not within 1.." + PartitionWire.MAX_PARTITIONS);
        }
        if (tag < 0 || tag > PartitionWire.MAX_TAG) {
            throw FerryException.arg(ErrorClass.TAG, what + ": tag: " + tag + " is not within 0.." + PartitionWire.MAX_TAG
                    + " (partitioned communication's tags)");
        }
        if (peer == Ferry.ANY_SOURCE) {
            throw FerryException.arg(ErrorClass.RANK, what + ": a partitioned receive names its source (ANY_SOURCE is not allowed)");
        }
        if (count < 0) {
            throw FerryException.arg(ErrorClass.COUNT, what + ": count: " + count + " is negative");
        }
        this.comm = comm;
        this.partitions = partitions;
        this.peer = peer;
        this.tag = tag;
    }

    /** The number of partitions. */
    public final int partitions() {
        return partitions;
    }

    /**
     * Marks partition {@code partition} of the send ready: its data goes now (MPI's {@code MPI_Pready}).
     * Any thread may call it; it never blocks.
     *
     * @throws FerryException ARG for a partition out of range or readied twice in this round;
     *         REQUEST on an inactive request or a receive
     */
    public abstract void pready(int partition);

    /** Readies partitions {@code lo} to {@code hi}, both included (MPI's {@code MPI_Pready_range}); checked before any is readied. */
    public final void preadyRange(int lo, int hi) {
        if (lo < 0 || hi >= partitions || lo > hi) {
            throw FerryException.arg(ErrorClass.ARG, "preadyRange: " + lo + ".." + hi + " is not a range within 0.." + (partitions - 1));
        }
        for (int p = lo; p <= hi; p++) {
            pready(p);
        }
    }

    /** Readies the partitions listed (MPI's {@code MPI_Pready_list}); checked against the range before any is readied. */
    public final void preadyList(int... list) {
        for (int p : list) {
            checkPartition(p, "preadyList");
        }
        for (int p : list) {
            pready(p);
        }
    }

    /**
     * Whether partition {@code partition} of the receive has arrived, whole (MPI's
     * {@code MPI_Parrived}); makes progress. True once the round has completed.
     *
     * @throws FerryException ARG for a partition out of range; REQUEST on a request never started or a send
     */
    public abstract boolean parrived(int partition);

    final void checkPartition(int partition, String what) {
        if (partition < 0 || partition >= partitions) {
            throw FerryException.arg(ErrorClass.ARG, what + ": partition " + partition + " is outside 0.." + (partitions - 1));
        }
    }

    /**
     * The data of each of {@code parts} parts of {@code count} elements of {@code type} in {@code whole}
     * (the whole buffer, checked): a segment for a contiguous type, else a layout.
     */
    static Object[] parts(MemorySegment whole, int parts, long count, Datatype type, boolean writable) {
        Object[] out = new Object[parts];
        long step = count * type.extent;
        for (int p = 0; p < parts; p++) {
            MemorySegment from = whole.asSlice(p * step);
            out[p] = type.contiguous ? Buffers.contiguous(from, 0, count, type, writable, "buffer")
                    : Buffers.layout(from, 0, count, type, writable, "buffer");
        }
        return out;
    }
}
