package dev.ferry;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The collectives of one communicator: checks the arguments, turns the buffers into packed
 * memory ({@link CollBuffer}), picks the algorithm ({@link CollectiveTuning}), builds its
 * {@link Schedule} and starts it as a {@link CollOp}. Every collective is non-blocking
 * underneath; the blocking forms wait for it. Each gets the next tag of the communicator's
 * internal context, so collectives in flight at once never take each other's messages.
 */
final class Collectives {
    private final Comm comm;
    private final Messaging messaging;
    private final CollectiveTuning tuning;
    private final TempPool pool;
    private final int p, r;
    /** Where the members run, and their slots in the node's shared memory: made on first use. */
    private NodeMap nodeMap;
    private NodeArena arena;
    /** Small blocking allreduce and bcast, run in the caller's thread: made on first use. */
    private DirectCollectives direct;
    /** Their buffers' last views, reused when the same buffer comes again (blocking collectives: one caller at a time). */
    private final Scratch.Slice bufferView = new Scratch.Slice(), sendView = new Scratch.Slice();
    /** The last algorithm chosen (tests and benchmarks read it). */
    volatile String lastAlgorithm = "";

    Collectives(Comm comm, Messaging messaging, CollectiveTuning tuning, TempPool pool) {
        this.pool = pool;
        this.comm = comm;
        this.messaging = messaging;
        this.tuning = tuning;
        this.p = comm.size();
        this.r = comm.rank();
    }

    /** 1 when this communicator lives on one node that runs more of its members than it has cores (every member sees the same), 0 when not, -1 until known. */
    private int crowded = -1;

    private boolean crowded() {
        if (crowded < 0) { // once: availableProcessors reads the container's limits each time
            crowded = nodeMap().nodes.length == 1 && p > Runtime.getRuntime().availableProcessors() ? 1 : 0;
        }
        return crowded == 1;
    }

    private NodeMap nodeMap() {
        if (nodeMap == null) {
            nodeMap = new NodeMap(comm, messaging.engine());
        }
        return nodeMap;
    }

    private DirectCollectives direct() {
        if (direct == null) {
            direct = new DirectCollectives(comm, messaging, pool);
        }
        return direct;
    }

    private static final Status DONE = Status.ok(Ferry.ANY_SOURCE, Ferry.ANY_TAG, 0, 1);
    /** What a collective done in the caller's thread answers: complete, and the same every time. */
    private Request done;

    private Request done() {
        if (done == null) {
            done = Request.completed(messaging, DONE);
        }
        return done;
    }

    private NodeArena arena() {
        if (arena == null) {
            arena = new NodeArena(comm, messaging.engine());
        }
        return arena;
    }

    /** The members on this rank's node, split off on first need, and their slots in the node's shared memory. */
    private Comm nodeComm;
    private NodeArena nodeArena;

    /**
     * This node's members' slots for a node-aware collective's phases within nodes, or null (a
     * node of one, or memory that cannot be shared). Collective over the whole communicator the
     * first time (the node communicator is split off), then over the node's members: every
     * member asks at the same point of its collectives, with the same size.
     */
    private MemorySegment[] nodeSlots(long bytes) {
        if (nodeComm == null) {
            nodeComm = comm.split(nodeMap().myNode, comm.rank());
            nodeArena = new NodeArena(nodeComm, messaging.engine());
        }
        return nodeArena.slots(bytes);
    }

    /** Frees what the collectives made for themselves (the node communicator), with their communicator. */
    void free() {
        if (arena != null) {
            try {
                arena.settle(); // the receipts come on this communicator's context, which goes now
            } catch (FerryException e) {
                messaging.engine().logger().log(System.Logger.Level.DEBUG, "rank {0}: freeing {1}: {2}", r, comm, e.getMessage());
            }
        }
        if (nodeComm != null) {
            nodeComm.free();
        }
    }

    /** Stores only a change: a volatile store is a full fence, as dear as a tenth of an 8-byte collective. */
    private void noteAlgorithm(String algorithm) {
        if (lastAlgorithm != algorithm) {
            lastAlgorithm = algorithm;
        }
    }

    private CollOp start(String what, String algorithm, Schedule s, List<Runnable> last) {
        for (Runnable step : last) {
            s.local(step);
        }
        noteAlgorithm(algorithm);
        CollOp op = new CollOp(messaging, comm, what + " (" + algorithm + ")", comm.nextCollectiveTag(), s);
        messaging.start(op);
        return op;
    }

    private void checkRoot(int root) {
        if (root < 0 || root >= p) {
            throw FerryException.arg(ErrorClass.ROOT, "root: " + root + " is outside the communicator's ranks 0.." + (p - 1));
        }
    }

    private static void checkOp(Op op, Datatype type) {
        if (op == null) {
            throw FerryException.arg(ErrorClass.OP, "op is null");
        }
        CollBuffer.checkType(type, "");
        op.check(type);
    }

    private static boolean inPlace(Object buf) {
        return buf == Ferry.IN_PLACE;
    }

    /** The checks of a rooted collective: a live communicator, a root in it, IN_PLACE ({@code buf}) only at the root. */
    private void checkRooted(int root, Object buf, String which, String collective) {
        comm.checkLive();
        checkRoot(root);
        if (inPlace(buf) && r != root) {
            throw FerryException.arg(ErrorClass.BUFFER, which + ": IN_PLACE is not allowed here (only the root of a " + collective + " may pass it)");
        }
    }

    // ---- synchronization and broadcast ------------------------------------------------------------

    /** {@code blocking}: the caller waits for it, so it may run in the caller's thread. */
    Request barrier(boolean blocking) {
        comm.checkLive();
        String alg = tuning.barrier(nodeMap().worthIt(), crowded());
        if (blocking && p > 1 && !alg.equals("node_aware")) {
            noteAlgorithm(alg);
            boolean linear = alg.equals("linear");
            direct().barrier(linear, linear ? "barrier (linear)" : "barrier (dissemination)");
            return done();
        }
        Schedule s = new Schedule(pool);
        if (alg.equals("node_aware")) {
            NodeAwareAlgorithms.barrier(s, nodeMap());
        } else if (alg.equals("linear")) {
            LinearAlgorithms.barrier(s, p, r);
        } else {
            DoublingAlgorithms.barrierDissemination(s, p, r);
        }
        return start("barrier", alg, s, List.of());
    }

    /** {@code blocking}: the caller waits for it, so it may use the node's arena (which one collective at a time uses). */
    Request bcast(Object buf, int offset, int count, Datatype type, int root, boolean blocking) {
        comm.checkLive();
        checkRoot(root);
        CollBuffer.checkType(type, "buffer");
        long size = (long) count * type.size;
        String small = blocking && p > 1 && count >= 0 && size <= DirectCollectives.MAX_BYTES
                ? tuning.bcast(size, p, arena().sameNode(), nodeMap().worthIt(), crowded(), true) : "";
        if (small.equals("binomial") || small.equals("linear")) {
            noteAlgorithm(small);
            // the same buffer again (a loop) costs no new view of it: checked when first seen
            MemorySegment data = type.contiguous ? Buffers.contiguous(buf, offset, count, type, r != root, "buffer", bufferView)
                    : CollBuffer.of(buf, offset, count, type, r != root, "buffer").block(0, count);
            boolean linear = small.equals("linear");
            direct().bcast(data, count, type, root, linear, linear ? "bcast (linear)" : "bcast (binomial)");
            return done();
        }
        CollBuffer b = CollBuffer.of(buf, offset, count, type, r != root, "buffer");
        Schedule s = new Schedule(pool);
        List<Runnable> last = new ArrayList<>();
        MemorySegment data = r == root ? b.input(s, 0, count) : b.output(s, last, 0, count);
        boolean nodeAware = nodeMap().worthIt();
        String alg = tuning.bcast(size, p, blocking && arena().sameNode(), nodeAware, crowded(), blocking);
        MemorySegment[] slots = alg.equals("arena") ? arena().slots(data.byteSize()) : null;
        if (alg.equals("arena") && slots == null) {
            alg = tuning.bcast(size, p, false, nodeAware, crowded(), blocking);
        }
        if (alg.startsWith("node_aware")) {
            MemorySegment[] local = alg.equals("node_aware_arena") ? nodeSlots(size) : null;
            NodeAwareAlgorithms.bcast(s, nodeMap(), root, data, local);
            if (local == null) {
                alg = "node_aware";
            }
        } else if (slots != null && r == root) {
            ArenaAlgorithms.bcastRoot(s, p, r, slots, data);
            CollOp op = start("bcast", alg, s, last);
            Schedule words = new Schedule(pool);
            ArenaAlgorithms.copiedOut(words, p, r);
            CollOp receipts = new CollOp(messaging, comm, "bcast (arena): the others' copies out", op.tag(), words);
            messaging.start(receipts);
            arena.owe(receipts);
            return op;
        } else if (slots != null) {
            ArenaAlgorithms.bcastLeaf(s, root, slots, data);
        } else if (alg.equals("pipeline")) {
            TreeAlgorithms.bcastPipeline(s, p, r, root, data, CollectiveTuning.BCAST_CHUNK);
        } else if (alg.equals("linear")) {
            LinearAlgorithms.bcast(s, p, r, root, data);
        } else {
            TreeAlgorithms.bcastBinomial(s, p, r, root, data);
        }
        return start("bcast", alg, s, last);
    }

    // ---- reductions --------------------------------------------------------------------------------

    Request reduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op, int root) {
        checkRooted(root, sendBuf, "send buffer", "reduce");
        checkOp(op, type);
        Schedule s = new Schedule(pool);
        List<Runnable> last = new ArrayList<>();
        Reducer red = new Reducer(op, type);
        CollBuffer out = r == root ? CollBuffer.of(recvBuf, recvOffset, count, type, true, "receive buffer") : null;
        CollBuffer in = inPlace(sendBuf) ? out : CollBuffer.of(sendBuf, sendOffset, count, type, false, "send buffer");
        MemorySegment input = in.input(s, 0, count);
        MemorySegment result = out == null ? null : out.output(s, last, 0, count);
        MemorySegment acc = r == root && (op.isCommutative() || root == 0) ? result : s.temp(red.bytes(count));
        if (!input.equals(acc)) {
            s.local(Reducer.copy(input, acc));
        }
        String alg = tuning.reduce(nodeMap().worthIt(), op.isCommutative());
        if (alg.equals("node_aware")) {
            NodeAwareAlgorithms.reduce(s, nodeMap(), root, acc, result, red, count);
        } else {
            TreeAlgorithms.reduceBinomial(s, p, r, root, acc, result, red, count);
        }
        return start("reduce", alg, s, last);
    }

    Request allreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op, boolean blocking) {
        comm.checkLive();
        checkOp(op, type);
        long bytes = (long) count * type.size;
        // the choice depends on nothing a rank may have of its own (a datatype's layout): every member makes the same
        String small = blocking && p > 1 && count >= 0 && op.isCommutative() && bytes <= DirectCollectives.MAX_BYTES
                ? tuning.allreduce(bytes, count, p, true, arena().sameNode(), nodeMap().worthIt(), crowded(), true) : "";
        if (small.equals("recursive_doubling") || small.equals("linear")) {
            noteAlgorithm(small);
            MemorySegment result = Buffers.contiguous(recvBuf, recvOffset, count, type, true, "receive buffer", bufferView);
            MemorySegment input = inPlace(sendBuf) ? result : Buffers.contiguous(sendBuf, sendOffset, count, type, false, "send buffer", sendView);
            boolean linear = small.equals("linear");
            direct().allreduce(input, result, op, type, count, linear, linear ? "allreduce (linear)" : "allreduce (recursive_doubling)");
            return done();
        }
        CollBuffer out = CollBuffer.of(recvBuf, recvOffset, count, type, true, "receive buffer");
        CollBuffer in = inPlace(sendBuf) ? out : CollBuffer.of(sendBuf, sendOffset, count, type, false, "send buffer");
        Schedule s = new Schedule(pool);
        List<Runnable> last = new ArrayList<>();
        Reducer red = new Reducer(op, type);
        MemorySegment input = in.input(s, 0, count);
        MemorySegment acc = out.output(s, last, 0, count);
        boolean nodeAware = nodeMap().worthIt();
        String alg = tuning.allreduce(acc.byteSize(), count, p, op.isCommutative(), blocking && arena().sameNode(), nodeAware, crowded(), blocking);
        MemorySegment[] slots = alg.equals("arena") ? arena().slots(2 * acc.byteSize()) : null;
        if (alg.equals("arena") && slots == null) {
            alg = tuning.allreduce(acc.byteSize(), count, p, op.isCommutative(), false, nodeAware, crowded(), blocking);
        }
        if (slots != null) {
            ArenaAlgorithms.allreduce(s, p, r, slots, input, acc, red, count);
            return start("allreduce", alg, s, last);
        }
        if (alg.equals("node_aware_arena")) {
            MemorySegment[] local = nodeSlots(2 * acc.byteSize());
            if (local != null) {
                NodeAwareAlgorithms.allreduceArena(s, nodeMap(), local, input, acc, red, count);
                return start("allreduce", alg, s, last);
            }
            alg = "node_aware"; // a node of one, or memory that cannot be shared: point-to-point within it
        }
        if (!input.equals(acc)) {
            s.local(Reducer.copy(input, acc));
        }
        switch (alg) {
            case "ring" -> RingAlgorithms.allreduce(s, p, r, acc, red, count);
            case "rabenseifner" -> DoublingAlgorithms.allreduceRabenseifner(s, p, r, acc, red, count);
            case "linear" -> LinearAlgorithms.allreduce(s, p, r, acc, red, count);
            case "node_aware" -> NodeAwareAlgorithms.allreduce(s, nodeMap(), acc, red, count);
            case "reduce_bcast" -> {
                TreeAlgorithms.reduceBinomial(s, p, r, 0, acc, acc, red, count);
                TreeAlgorithms.bcastBinomial(s, p, r, 0, acc);
            }
            default -> DoublingAlgorithms.allreduce(s, p, r, acc, red, count);
        }
        return start("allreduce", alg, s, last);
    }

    Request reduceScatter(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts, Datatype type, Op op) {
        comm.checkLive();
        checkOp(op, type);
        CollBuffer.checkLength(recvCounts, p, "recvCounts");
        int[] starts = new int[p];
        long total = 0;
        for (int i = 0; i < p; i++) {
            if (recvCounts[i] < 0) {
                throw FerryException.arg(ErrorClass.COUNT, "recvCounts[" + i + "]: " + recvCounts[i] + " is negative");
            }
            starts[i] = (int) total;
            total += recvCounts[i];
        }
        if (total > Integer.MAX_VALUE) {
            throw FerryException.arg(ErrorClass.COUNT, "recvCounts add up to " + total + " elements, more than a count can be");
        }
        int n = (int) total;
        Schedule s = new Schedule(pool);
        List<Runnable> last = new ArrayList<>();
        Reducer red = new Reducer(op, type);
        CollBuffer in = inPlace(sendBuf) ? CollBuffer.of(recvBuf, recvOffset, n, type, false, "receive buffer")
                : CollBuffer.of(sendBuf, sendOffset, n, type, false, "send buffer");
        MemorySegment input = in.input(s, 0, n);
        CollBuffer out = CollBuffer.of(recvBuf, recvOffset, recvCounts[r], type, true, "receive buffer");
        MemorySegment data = s.temp(red.bytes(n));
        s.local(Reducer.copy(input, data));
        MemorySegment result = out.output(s, last, 0, recvCounts[r]);
        MemorySegment mine = data.asSlice(red.bytes(starts[r]), red.bytes(recvCounts[r]));
        String alg = tuning.reduceScatter(op.isCommutative());
        if (alg.equals("ring")) {
            RingAlgorithms.reduceScatter(s, p, r, data, starts, recvCounts, red);
            s.local(Reducer.copy(mine, result));
        } else {
            TreeAlgorithms.reduceBinomial(s, p, r, 0, data, data, red, n);
            MemorySegment[] blocks = new MemorySegment[p];
            for (int j = 0; j < p; j++) {
                blocks[j] = data.asSlice(red.bytes(starts[j]), red.bytes(recvCounts[j]));
            }
            LinearAlgorithms.scatter(s, p, r, 0, blocks, result);
        }
        return start("reduce_scatter", alg, s, last);
    }

    Request reduceScatterBlock(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int recvCount, Datatype type, Op op) {
        if (recvCount < 0) {
            throw FerryException.arg(ErrorClass.COUNT, "recvCount: " + recvCount + " is negative");
        }
        int[] counts = new int[p];
        java.util.Arrays.fill(counts, recvCount);
        return reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, counts, type, op);
    }

    Request scan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op, boolean exclusive) {
        comm.checkLive();
        checkOp(op, type);
        Schedule s = new Schedule(pool);
        List<Runnable> last = new ArrayList<>();
        Reducer red = new Reducer(op, type);
        CollBuffer out = CollBuffer.of(recvBuf, recvOffset, count, type, true, "receive buffer");
        CollBuffer in = inPlace(sendBuf) ? out : CollBuffer.of(sendBuf, sendOffset, count, type, false, "send buffer");
        MemorySegment input = in.input(s, 0, count);
        MemorySegment partial = s.temp(red.bytes(count));
        s.local(Reducer.copy(input, partial));
        // an exscan leaves rank 0's buffer as it was
        MemorySegment result = exclusive && r == 0 ? s.temp(red.bytes(count)) : out.output(s, last, 0, count);
        DoublingAlgorithms.scan(s, p, r, partial, result, red, count, exclusive);
        return start(exclusive ? "exscan" : "scan", "recursive_doubling", s, last);
    }

    // ---- gather and scatter ------------------------------------------------------------------------

    Request gather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                   Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        checkRooted(root, sendBuf, "send buffer", "gather");
        Schedule s = new Schedule(pool);
        List<Runnable> last = new ArrayList<>();
        CollBuffer out = r == root ? CollBuffer.of(recvBuf, recvOffset, Math.multiplyExact(p, recvCount), recvType, true, "receive buffer") : null;
        MemorySegment mine = inPlace(sendBuf) ? null
                : CollBuffer.of(sendBuf, sendOffset, sendCount, sendType, false, "send buffer").input(s, 0, sendCount);
        long block = r == root ? recvCount * recvType.size : mine.byteSize();
        String alg = tuning.gather("gather", block * p);
        if (alg.equals("binomial")) {
            int vr = (r - root + p) % p;
            int low = vr == 0 ? p : Integer.lowestOneBit(vr);
            MemorySegment tmp = s.temp(Math.min(low, p - vr) * block);
            MemorySegment own = mine != null ? mine : out.input(s, (long) r * recvCount, recvCount);
            s.local(Reducer.copy(own, tmp.asSlice(0, block)));
            TreeAlgorithms.gatherBinomial(s, p, r, root, tmp, block);
            if (r == root) {
                for (int j = 0; j < p; j++) {
                    MemorySegment to = out.output(s, last, (long) ((j + root) % p) * recvCount, recvCount);
                    s.local(Reducer.copy(tmp.asSlice(j * block, block), to));
                }
            }
        } else {
            MemorySegment[] blocks = r == root ? new MemorySegment[p] : null;
            for (int j = 0; r == root && j < p; j++) {
                blocks[j] = out.output(s, last, (long) j * recvCount, recvCount);
            }
            LinearAlgorithms.gather(s, p, r, root, mine, blocks);
        }
        return start("gather", alg, s, last);
    }

    Request gatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                    Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType, int root) {
        checkRooted(root, sendBuf, "send buffer", "gatherv");
        Schedule s = new Schedule(pool);
        List<Runnable> last = new ArrayList<>();
        MemorySegment mine = inPlace(sendBuf) ? null
                : CollBuffer.of(sendBuf, sendOffset, sendCount, sendType, false, "send buffer").input(s, 0, sendCount);
        MemorySegment[] blocks = null;
        if (r == root) {
            CollBuffer out = CollBuffer.of(recvBuf, recvOffset, recvCounts, displs, recvType, p, true, "receive buffer");
            blocks = new MemorySegment[p];
            for (int j = 0; j < p; j++) {
                blocks[j] = out.output(s, last, displs[j], recvCounts[j]);
            }
        }
        LinearAlgorithms.gather(s, p, r, root, mine, blocks);
        return start("gatherv", "linear", s, last);
    }

    Request scatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                    Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        checkRooted(root, recvBuf, "receive buffer", "scatter");
        Schedule s = new Schedule(pool);
        List<Runnable> last = new ArrayList<>();
        CollBuffer in = r == root ? CollBuffer.of(sendBuf, sendOffset, Math.multiplyExact(p, sendCount), sendType, false, "send buffer") : null;
        MemorySegment mine = inPlace(recvBuf) ? null
                : CollBuffer.of(recvBuf, recvOffset, recvCount, recvType, true, "receive buffer").output(s, last, 0, recvCount);
        long block = r == root ? sendCount * sendType.size : mine.byteSize();
        String alg = tuning.gather("scatter", block * p);
        if (alg.equals("binomial")) {
            int vr = (r - root + p) % p;
            int low = vr == 0 ? p : Integer.lowestOneBit(vr);
            MemorySegment tmp = s.temp(Math.min(low, p - vr) * block);
            if (r == root) {
                for (int j = 0; j < p; j++) {
                    MemorySegment from = in.input(s, (long) ((j + root) % p) * sendCount, sendCount);
                    s.local(Reducer.copy(from, tmp.asSlice(j * block, block)));
                }
            }
            TreeAlgorithms.scatterBinomial(s, p, r, root, tmp, block);
            if (mine != null) {
                s.local(Reducer.copy(tmp.asSlice(0, block), mine));
            }
        } else {
            MemorySegment[] blocks = r == root ? new MemorySegment[p] : null;
            for (int j = 0; r == root && j < p; j++) {
                blocks[j] = in.input(s, (long) j * sendCount, sendCount);
            }
            LinearAlgorithms.scatter(s, p, r, root, blocks, mine);
        }
        return start("scatter", alg, s, last);
    }

    Request scatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                     Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        checkRooted(root, recvBuf, "receive buffer", "scatterv");
        Schedule s = new Schedule(pool);
        List<Runnable> last = new ArrayList<>();
        MemorySegment mine = inPlace(recvBuf) ? null
                : CollBuffer.of(recvBuf, recvOffset, recvCount, recvType, true, "receive buffer").output(s, last, 0, recvCount);
        MemorySegment[] blocks = null;
        if (r == root) {
            CollBuffer in = CollBuffer.of(sendBuf, sendOffset, sendCounts, displs, sendType, p, false, "send buffer");
            blocks = new MemorySegment[p];
            for (int j = 0; j < p; j++) {
                blocks[j] = in.input(s, displs[j], sendCounts[j]);
            }
        }
        LinearAlgorithms.scatter(s, p, r, root, blocks, mine);
        return start("scatterv", "linear", s, last);
    }

    // ---- allgather and all-to-all ---------------------------------------------------------------

    Request allgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                      Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        comm.checkLive();
        Schedule s = new Schedule(pool);
        List<Runnable> last = new ArrayList<>();
        CollBuffer out = CollBuffer.of(recvBuf, recvOffset, Math.multiplyExact(p, recvCount), recvType, true, "receive buffer");
        MemorySegment own = inPlace(sendBuf) ? out.input(s, (long) r * recvCount, recvCount)
                : CollBuffer.of(sendBuf, sendOffset, sendCount, sendType, false, "send buffer").input(s, 0, sendCount);
        long block = recvCount * recvType.size;
        String alg = tuning.allgather(block * p, p);
        if (alg.equals("recursive_doubling") || alg.equals("bruck")) {
            MemorySegment all = out.output(s, last, 0, p * recvCount); // packed, blocks in rank order
            MemorySegment to = all.asSlice(r * block, block);
            if (!own.equals(to)) {
                s.local(Reducer.copy(own, to));
            }
            if (alg.equals("bruck")) {
                DoublingAlgorithms.allgatherBruck(s, p, r, all, block);
            } else {
                DoublingAlgorithms.allgather(s, p, r, all, block);
            }
        } else {
            MemorySegment[] blocks = new MemorySegment[p];
            for (int j = 0; j < p; j++) {
                blocks[j] = out.output(s, last, (long) j * recvCount, recvCount);
            }
            if (!own.equals(blocks[r])) {
                s.local(Reducer.copy(own, blocks[r]));
            }
            RingAlgorithms.allgather(s, p, r, blocks);
        }
        return start("allgather", alg, s, last);
    }

    Request allgatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                       Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType) {
        comm.checkLive();
        Schedule s = new Schedule(pool);
        List<Runnable> last = new ArrayList<>();
        CollBuffer out = CollBuffer.of(recvBuf, recvOffset, recvCounts, displs, recvType, p, true, "receive buffer");
        MemorySegment own = inPlace(sendBuf) ? out.input(s, displs[r], recvCounts[r])
                : CollBuffer.of(sendBuf, sendOffset, sendCount, sendType, false, "send buffer").input(s, 0, sendCount);
        MemorySegment[] blocks = new MemorySegment[p];
        for (int j = 0; j < p; j++) {
            blocks[j] = out.output(s, last, displs[j], recvCounts[j]);
        }
        if (!own.equals(blocks[r])) {
            s.local(Reducer.copy(own, blocks[r]));
        }
        RingAlgorithms.allgather(s, p, r, blocks);
        return start("allgatherv", "ring", s, last);
    }

    Request alltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                     Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        comm.checkLive();
        Schedule s = new Schedule(pool);
        List<Runnable> last = new ArrayList<>();
        CollBuffer out = CollBuffer.of(recvBuf, recvOffset, Math.multiplyExact(p, recvCount), recvType, true, "receive buffer");
        MemorySegment[] outBlocks = new MemorySegment[p], inBlocks = new MemorySegment[p];
        if (inPlace(sendBuf)) {
            long block = recvCount * recvType.size;
            MemorySegment snapshot = s.temp(block * p); // what goes out, before the receives overwrite it
            for (int j = 0; j < p; j++) {
                s.local(Reducer.copy(out.input(s, (long) j * recvCount, recvCount), snapshot.asSlice(j * block, block)));
                outBlocks[j] = snapshot.asSlice(j * block, block);
            }
        } else {
            CollBuffer in = CollBuffer.of(sendBuf, sendOffset, Math.multiplyExact(p, sendCount), sendType, false, "send buffer");
            for (int j = 0; j < p; j++) {
                outBlocks[j] = in.input(s, (long) j * sendCount, sendCount);
            }
        }
        for (int j = 0; j < p; j++) {
            inBlocks[j] = out.output(s, last, (long) j * recvCount, recvCount);
        }
        String alg = tuning.alltoall(inBlocks[0].byteSize());
        if (alg.equals("pairwise")) {
            LinearAlgorithms.alltoallPairwise(s, p, r, outBlocks, inBlocks);
        } else {
            LinearAlgorithms.alltoall(s, p, r, outBlocks, inBlocks);
        }
        return start("alltoall", alg, s, last);
    }

    Request alltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls, Datatype sendType,
                      Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls, Datatype recvType) {
        comm.checkLive();
        if (inPlace(sendBuf)) {
            sendBuf = recvBuf; // the snapshot below is taken before anything arrives
            sendOffset = recvOffset;
            sendCounts = recvCounts;
            sendDispls = recvDispls;
            sendType = recvType;
        }
        Schedule s = new Schedule(pool);
        List<Runnable> last = new ArrayList<>();
        CollBuffer in = CollBuffer.of(sendBuf, sendOffset, sendCounts, sendDispls, sendType, p, false, "send buffer");
        CollBuffer out = CollBuffer.of(recvBuf, recvOffset, recvCounts, recvDispls, recvType, p, true, "receive buffer");
        MemorySegment[] outBlocks = new MemorySegment[p], inBlocks = new MemorySegment[p];
        for (int j = 0; j < p; j++) {
            outBlocks[j] = snapshotIfShared(s, in.input(s, sendDispls[j], sendCounts[j]), sendBuf == recvBuf);
            inBlocks[j] = out.output(s, last, recvDispls[j], recvCounts[j]);
        }
        LinearAlgorithms.alltoall(s, p, r, outBlocks, inBlocks);
        return start("alltoallv", "linear", s, last);
    }

    Request alltoallw(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendByteDispls, Datatype[] sendTypes,
                      Object recvBuf, int recvOffset, int[] recvCounts, int[] recvByteDispls, Datatype[] recvTypes) {
        comm.checkLive();
        if (inPlace(sendBuf)) {
            sendBuf = recvBuf;
            sendOffset = recvOffset;
            sendCounts = recvCounts;
            sendByteDispls = recvByteDispls;
            sendTypes = recvTypes;
        }
        CollBuffer.checkLength(sendCounts, p, "sendCounts");
        CollBuffer.checkLength(sendByteDispls, p, "sendByteDispls");
        CollBuffer.checkLength(recvCounts, p, "recvCounts");
        CollBuffer.checkLength(recvByteDispls, p, "recvByteDispls");
        if (sendTypes == null || sendTypes.length < p || recvTypes == null || recvTypes.length < p) {
            throw FerryException.arg(ErrorClass.ARG, "sendTypes and recvTypes need an entry for each of the " + p + " ranks");
        }
        Schedule s = new Schedule(pool);
        List<Runnable> last = new ArrayList<>();
        CollBuffer in = CollBuffer.raw(sendBuf, sendOffset, false, "send buffer");
        CollBuffer out = CollBuffer.raw(recvBuf, recvOffset, true, "receive buffer");
        MemorySegment[] outBlocks = new MemorySegment[p], inBlocks = new MemorySegment[p];
        for (int j = 0; j < p; j++) {
            CollBuffer.checkType(sendTypes[j], "sendTypes[" + j + "]");
            CollBuffer.checkType(recvTypes[j], "recvTypes[" + j + "]");
            MemorySegment from = in.bytesAt(sendByteDispls[j], sendCounts[j], sendTypes[j], "send block " + j);
            MemorySegment to = out.bytesAt(recvByteDispls[j], recvCounts[j], recvTypes[j], "receive block " + j);
            outBlocks[j] = snapshotIfShared(s, CollBuffer.input(s, from, sendCounts[j], sendTypes[j]), sendBuf == recvBuf);
            inBlocks[j] = CollBuffer.output(s, last, to, recvCounts[j], recvTypes[j]);
        }
        LinearAlgorithms.alltoall(s, p, r, outBlocks, inBlocks);
        return start("alltoallw", "linear", s, last);
    }

    /** A copy of {@code m} taken at the start when the send and receive buffers are one (in place). */
    private static MemorySegment snapshotIfShared(Schedule s, MemorySegment m, boolean shared) {
        if (!shared) {
            return m;
        }
        MemorySegment t = s.temp(m.byteSize());
        s.local(Reducer.copy(m, t));
        return t;
    }
}
