package dev.ferry;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The collectives of one communicator: checks the arguments, turns the buffers into packed
 * memory ({@link CollBuffer}), picks the algorithm ({@link CollectiveTuning}), builds its
 * {@link Schedule} and starts it as a {@link CollOp}. Every collective is non-blocking
 * underneath; the blocking forms wait for it. Each gets the next tag of the communicator's
 * internal context, so collectives in flight at once never take each other's messages. Barrier,
 * broadcast and the reductions are here; the gathers, scatters and all-to-all in the superclass
 * {@link ExchangeCollectives}; what they all share in {@link CollectiveMachinery}.
 */
final class Collectives extends ExchangeCollectives {
    Collectives(Comm comm, Messaging messaging, CollectiveTuning tuning, TempPool pool) {
        super(comm, messaging, tuning, pool);
    }

    // ---- synchronization and broadcast ------------------------------------------------------------

    /** {@code blocking}: the caller waits for it, so it may run in the caller's thread. */
    Request barrier(boolean blocking) {
        comm.checkLive();
        String alg = tuning.barrier(nodeMap().worthIt(), crowded());
        if (blocking && p > 1 && !alg.equals("node_aware")) {
            noteAlgorithm(alg);
            boolean linear = alg.equals("linear");
            FerryEvents.Collective ev = FerryEvents.collective();
            direct().barrier(linear, linear ? "barrier (linear)" : "barrier (dissemination)");
            if (ev != null) {
                FerryEvents.commit(ev, comm, "barrier (" + alg + ")", 0, false);
            }
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
    Request bcast(Object buf, long offset, long count, Datatype type, int root, boolean blocking) {
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
            FerryEvents.Collective ev = FerryEvents.collective();
            direct().bcast(data, count, type, root, linear, linear ? "bcast (linear)" : "bcast (binomial)");
            if (ev != null) {
                FerryEvents.commit(ev, comm, "bcast (" + small + ")", r == root ? size : 0, false);
            }
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

    Request reduce(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op, int root) {
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

    Request allreduce(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op, boolean blocking) {
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
            FerryEvents.Collective ev = FerryEvents.collective();
            direct().allreduce(input, result, op, type, count, linear, linear ? "allreduce (linear)" : "allreduce (recursive_doubling)");
            if (ev != null) {
                FerryEvents.commit(ev, comm, "allreduce (" + small + ")", bytes, false);
            }
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

    Request reduceScatter(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long[] recvCounts, Datatype type, Op op) {
        comm.checkLive();
        checkOp(op, type);
        CollBuffer.checkLength(recvCounts, p, "recvCounts");
        long[] starts = new long[p];
        long total = 0;
        for (int i = 0; i < p; i++) {
            if (recvCounts[i] < 0) {
                throw FerryException.arg(ErrorClass.COUNT, "recvCounts[" + i + "]: " + recvCounts[i] + " is negative");
            }
            starts[i] = total;
            total += recvCounts[i];
            if (total < 0) {
                throw FerryException.arg(ErrorClass.COUNT, "recvCounts add up to more than 2^63 elements");
            }
        }
        long n = total;
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

    Request reduceScatterBlock(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long recvCount, Datatype type, Op op) {
        if (recvCount < 0) {
            throw FerryException.arg(ErrorClass.COUNT, "recvCount: " + recvCount + " is negative");
        }
        long[] counts = new long[p];
        java.util.Arrays.fill(counts, recvCount);
        return reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, counts, type, op);
    }

    Request scan(Object sendBuf, long sendOffset, Object recvBuf, long recvOffset, long count, Datatype type, Op op, boolean exclusive) {
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

}
