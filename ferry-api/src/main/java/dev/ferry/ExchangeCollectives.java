package dev.ferry;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The collectives that move blocks between members without combining them: gather(v),
 * scatter(v), allgather(v), alltoall(v, w). Each checks its arguments, picks its algorithm, builds
 * its schedule and starts it ({@link CollectiveMachinery#start}).
 */
abstract sealed class ExchangeCollectives extends CollectiveMachinery permits Collectives {
    ExchangeCollectives(Comm comm, Messaging messaging, CollectiveTuning tuning, TempPool pool) {
        super(comm, messaging, tuning, pool);
    }

    // ---- gather and scatter ------------------------------------------------------------------------

    Request gather(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                   Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
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

    Request gatherv(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                    Object recvBuf, long recvOffset, long[] recvCounts, long[] displs, Datatype recvType, int root) {
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

    Request scatter(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                    Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
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

    Request scatterv(Object sendBuf, long sendOffset, long[] sendCounts, long[] displs, Datatype sendType,
                     Object recvBuf, long recvOffset, long recvCount, Datatype recvType, int root) {
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

    Request allgather(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                      Object recvBuf, long recvOffset, long recvCount, Datatype recvType) {
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

    Request allgatherv(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                       Object recvBuf, long recvOffset, long[] recvCounts, long[] displs, Datatype recvType) {
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

    Request alltoall(Object sendBuf, long sendOffset, long sendCount, Datatype sendType,
                     Object recvBuf, long recvOffset, long recvCount, Datatype recvType) {
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

    Request alltoallv(Object sendBuf, long sendOffset, long[] sendCounts, long[] sendDispls, Datatype sendType,
                      Object recvBuf, long recvOffset, long[] recvCounts, long[] recvDispls, Datatype recvType) {
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

    Request alltoallw(Object sendBuf, long sendOffset, long[] sendCounts, long[] sendByteDispls, Datatype[] sendTypes,
                      Object recvBuf, long recvOffset, long[] recvCounts, long[] recvByteDispls, Datatype[] recvTypes) {
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
