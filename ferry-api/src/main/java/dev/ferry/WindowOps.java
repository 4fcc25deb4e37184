package dev.ferry;

import dev.ferry.portals.MdHandle;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static dev.ferry.portals.Portals.*;

/**
 * How one window's operations go out: checks the target side of each (rank, epoch, signature,
 * displacement and range against the target's window, or for a dynamic window the target's
 * attachment table), stages or binds the origin side ({@link WindowLibrary}) and issues one
 * library operation per contiguous block at the target ({@link TargetBlocks}). Everything it
 * reuses (the blocks, the buffer views) makes the hot path free of garbage. Used under the
 * window library's lock.
 *
 * <pre>{@code
 * ops.transfer(true, data, 0, n, Datatype.INT, target, disp, n, Datatype.INT, "put");
 * }</pre>
 */
final class WindowOps {
    /** Match bits of a window's memory entry. */
    static final long DATA_BITS = 0;

    private final WindowLibrary lib;
    private final Comm comm;
    private final int pt;
    /** Bytes and displacement unit of every member's window. */
    final long[] sizes;
    final int[] dispUnits;
    /** A dynamic window's copies of the targets' attachment tables (null until read); null for the others. */
    private final MemorySegment[] tables;
    private final WindowEpochs epochs;
    private final WindowLocks locks;
    /** The match bits of the operation being issued (set by {@link #checkTarget}). */
    private long opBits;
    // reused by every operation (under the library's lock): no garbage on the hot path
    private final TargetBlocks blocks = new TargetBlocks();
    private final Scratch.Slice originCache = new Scratch.Slice(), resultCache = new Scratch.Slice(), compareCache = new Scratch.Slice();

    WindowOps(WindowLibrary lib, Comm comm, int pt, long[] sizes, int[] dispUnits, boolean dynamic, WindowEpochs epochs, WindowLocks locks) {
        this.lib = lib;
        this.locks = locks;
        this.comm = comm;
        this.pt = pt;
        this.sizes = sizes;
        this.dispUnits = dispUnits;
        this.tables = dynamic ? new MemorySegment[comm.size()] : null;
        this.epochs = epochs;
    }

    /** MPI's compare-and-swap on one integer element; the result arrives with the next quiescence. */
    void compareAndSwap(Object origin, long offset, Object compare, long compareOffset, Object result, long resultOffset, Datatype type,
                        int target, long disp) {
        dev.ferry.portals.Datatype dt = RmaKinds.element(type, "compareAndSwap");
        if (!type.contiguous || type.size != dt.size() || dt == dev.ferry.portals.Datatype.FLOAT || dt == dev.ferry.portals.Datatype.DOUBLE) {
            throw FerryException.arg(ErrorClass.TYPE, "compareAndSwap: " + type + " is not one integer element");
        }
        MemorySegment src = Buffers.contiguous(origin, offset, 1, type, false, "compareAndSwap origin", originCache);
        MemorySegment cmp = Buffers.contiguous(compare, compareOffset, 1, type, false, "compareAndSwap compare", compareCache);
        MemorySegment res = Buffers.contiguous(result, resultOffset, 1, type, true, "compareAndSwap result", resultCache);
        long at = checkTarget(target, disp, 1, type, type.size, "compareAndSwap");
        int size = dt.size();
        lib.stage(16, id(target));
        MemorySegment.copy(src, 0, lib.opMem, lib.opOff, size);
        MemorySegment operand = lib.operand(size);
        MemorySegment.copy(cmp, 0, operand, 0, size);
        lib.ptl.swap(lib.opMd, lib.opOff + 8, lib.opMd, lib.opOff, size, id(target), pt, opBits, at, null, 0, operand,
                dev.ferry.portals.Op.CSWAP, dt);
        lib.issued(1);
        lib.copyOut(lib.opMem, lib.opOff + 8, res, 1, type);
    }

    /** Seed 004's masked compare-and-swap on one 64-bit word; answers its old value (waits). */
    long maskedCompareSwap(int target, long disp, long compare, long compareMask, long swap, long swapMask) {
        long at = checkTarget(target, disp, 1, Datatype.LONG, 8, "maskedCompareSwap");
        MemorySegment operand = lib.operand(24);
        operand.set(ValueLayout.JAVA_LONG, 0, compare);
        operand.set(ValueLayout.JAVA_LONG, 8, compareMask);
        operand.set(ValueLayout.JAVA_LONG, 16, swapMask);
        return swap64(target, at, swap, operand, dev.ferry.portals.Op.MSK_CSWAP);
    }

    /** Seed 004's masked fetch-and-add on one 64-bit word; answers its old value (waits). */
    long maskedFetchAdd(int target, long disp, long addend, long boundaries) {
        long at = checkTarget(target, disp, 1, Datatype.LONG, 8, "maskedFetchAdd");
        MemorySegment operand = lib.operand(8);
        operand.set(ValueLayout.JAVA_LONG, 0, boundaries);
        return swap64(target, at, addend, operand, dev.ferry.portals.Op.MFETCH_ADD);
    }

    /** One of the library's swaps on the 64-bit word at byte {@code at} of {@code target}, waited for; the word's old value. */
    private long swap64(int target, long at, long data, MemorySegment operand, dev.ferry.portals.Op op) {
        lib.stage(16, id(target));
        MemorySegment st = lib.opMem;
        long o = lib.opOff;
        st.set(ValueLayout.JAVA_LONG, o, data);
        lib.ptl.swap(lib.opMd, o + 8, lib.opMd, o, 8, id(target), pt, opBits, at, null, 0, operand, op, dev.ferry.portals.Datatype.UINT64_T);
        lib.issued(1);
        lib.flush(id(target).rank);
        return st.get(ValueLayout.JAVA_LONG, o + 8); // intact: nothing was staged since
    }

    void transfer(boolean put, Object buf, long offset, long count, Datatype type, int target, long disp, long targetCount,
                          Datatype targetType, String what) {
        CollBuffer.checkType(type, what);
        MemorySegment user = Buffers.contiguous(buf, offset, count, type, !put, put ? "the origin buffer" : "the result buffer", put ? originCache : resultCache);
        long bytes = (long) count * type.size;
        long base = checkTarget(target, disp, targetCount, targetType, bytes, what);
        if (bytes == 0) {
            return;
        }
        if (type.contiguous && user.isNative() && bytes >= WindowLibrary.IN_PLACE) {
            lib.inPlace(user, id(target)); // no copy: MPI lets neither side touch the buffer before the operation completes
        } else {
            lib.stage(bytes, id(target));
            if (put) {
                WindowLibrary.pack(user, count, type, lib.opMem, lib.opOff);
            } else {
                lib.copyOut(lib.opMem, lib.opOff, user, count, type);
            }
        }
        TargetBlocks b = blocks.of(base, targetCount, targetType, Long.MAX_VALUE);
        long pos = lib.opOff;
        for (int i = 0; i < b.n; i++) {
            if (put) {
                lib.ptl.put(lib.opMd, pos, b.len[i], CT_ACK_REQ, id(target), pt, opBits, b.at[i], null, 0);
            } else {
                lib.ptl.get(lib.opMd, pos, b.len[i], id(target), pt, opBits, b.at[i], null);
            }
            pos += b.len[i];
        }
        lib.issued(b.n);
    }

    void atomics(Object origin, long offset, long count, Datatype type, Object result, long resultOffset, int target, long disp,
                         long targetCount, Datatype targetType, Op op, String what) {
        CollBuffer.checkType(type, what);
        if (op != null && (op.code == Op.Code.MINLOC || op.code == Op.Code.MAXLOC)) {
            pairs(origin, offset, count, type, result, resultOffset, target, disp, targetCount, targetType, op, what);
            return;
        }
        dev.ferry.portals.Datatype dt = RmaKinds.element(type, what);
        if (RmaKinds.element(targetType, what) != dt) {
            throw FerryException.arg(ErrorClass.TYPE, what + ": the target's " + targetType + " is not of the origin's kind of element (" + type + ")");
        }
        if (op == null) {
            throw FerryException.arg(ErrorClass.OP, what + ": the operation is null");
        }
        boolean replace = op.code == Op.Code.REPLACE, noOp = op.code == Op.Code.NO_OP;
        if (noOp && result == null) {
            throw FerryException.arg(ErrorClass.OP, what + ": NO_OP only reads: use getAccumulate or fetchAndOp");
        }
        dev.ferry.portals.Op pop = replace ? dev.ferry.portals.Op.SWAP : noOp ? null : RmaKinds.op(op, dt, what);
        MemorySegment src = noOp ? null : Buffers.contiguous(origin, offset, count, type, false, "the origin buffer", originCache);
        MemorySegment res = result == null ? null : Buffers.contiguous(result, resultOffset, count, type, true, "the result buffer", resultCache);
        long bytes = (long) count * type.size;
        long base = checkTarget(target, disp, targetCount, targetType, bytes, what);
        if (bytes == 0) {
            return;
        }
        boolean fetch = result != null || replace; // a replace is a swap, which fetches (into the staging area when nobody wants it)
        lib.stage(fetch ? 2 * bytes : bytes, id(target));
        MdHandle md = lib.opMd;
        long from = lib.opOff, into = lib.opOff + bytes;
        if (noOp) {
            pop = dt == dev.ferry.portals.Datatype.FLOAT || dt == dev.ferry.portals.Datatype.DOUBLE ? dev.ferry.portals.Op.SUM : dev.ferry.portals.Op.BOR;
            fillNeutral(lib.opMem, from, bytes, dt); // x + -0.0 == x for every x, -0.0 included; x | 0 == x
        } else {
            WindowLibrary.pack(src, count, type, lib.opMem, from);
        }
        if (res != null) {
            lib.copyOut(lib.opMem, into, res, count, type);
        }
        long chunk = Math.max(dt.size(), dt.wholeElements(lib.maxAtomic));
        TargetBlocks b = blocks.of(base, targetCount, targetType, chunk);
        for (int i = 0; i < b.n; i++) {
            if (replace) {
                lib.ptl.swap(md, into, md, from, b.len[i], id(target), pt, opBits, b.at[i], null, 0, null, pop, dt);
            } else if (fetch) {
                lib.ptl.fetchAtomic(md, into, md, from, b.len[i], id(target), pt, opBits, b.at[i], null, 0, pop, dt);
            } else {
                lib.ptl.atomic(md, from, b.len[i], CT_ACK_REQ, id(target), pt, opBits, b.at[i], null, 0, pop, dt);
            }
            from += b.len[i];
            into += b.len[i];
        }
        lib.issued(b.n);
    }

    /** Most bytes of pairs one MINLOC / MAXLOC accumulate takes (the current and the origin's values fit the staging area). */
    static final long MAX_PAIR_BYTES = WindowLibrary.STAGING / 4;

    /**
     * MINLOC / MAXLOC, which the library has no atomic for: under the target window's accumulate
     * mutex (so atomic with respect to every other MINLOC / MAXLOC on the window), get the
     * target's pairs, combine the origin's into them here, put them back. Complete on return.
     */
    private void pairs(Object origin, long offset, long count, Datatype type, Object result, long resultOffset, int target, long disp,
                       long targetCount, Datatype targetType, Op op, String what) {
        if (!type.isPair() || targetType != type) {
            throw FerryException.arg(ErrorClass.TYPE, what + ": " + op + " takes one predefined pair type on both sides (INT2, DOUBLE_INT...), not "
                    + type + " and " + targetType);
        }
        MemorySegment src = Buffers.contiguous(origin, offset, count, type, false, "the origin buffer", originCache);
        MemorySegment res = result == null ? null : Buffers.contiguous(result, resultOffset, count, type, true, "the result buffer", resultCache);
        long bytes = (long) count * type.size;
        long base = checkTarget(target, disp, targetCount, targetType, bytes, what);
        if (bytes == 0) {
            return;
        }
        if (bytes > MAX_PAIR_BYTES) {
            throw FerryException.arg(ErrorClass.COUNT, what + ": " + op + " on " + bytes + " bytes of pairs at once; Ferry takes up to "
                    + MAX_PAIR_BYTES + " (split the call)");
        }
        long bits = opBits;
        dev.ferry.portals.ProcessId to = id(target);
        locks.lockMutex(to);
        try {
            lib.stage(2 * bytes, to); // nothing else is staged until the put back is complete: both halves stay ours
            MdHandle md = lib.opMd;
            MemorySegment mem = lib.opMem;
            long current = lib.opOff, mine = current + bytes;
            TargetBlocks b = blocks.of(base, targetCount, targetType, Long.MAX_VALUE);
            long pos = current;
            for (int i = 0; i < b.n; i++) {
                lib.ptl.get(md, pos, b.len[i], to, pt, bits, b.at[i], null);
                pos += b.len[i];
            }
            lib.issued(b.n);
            WindowLibrary.pack(src, count, type, mem, mine);
            lib.quiesce();
            if (res != null) {
                WindowLibrary.unpack(mem, current, res, count, type);
            }
            op.apply(mem.asSlice(mine, bytes), mem.asSlice(current, bytes), count, type);
            pos = current;
            for (int i = 0; i < b.n; i++) {
                lib.ptl.put(md, pos, b.len[i], CT_ACK_REQ, to, pt, bits, b.at[i], null, 0);
                pos += b.len[i];
            }
            lib.issued(b.n);
            lib.quiesce();
        } finally {
            locks.unlockMutex(to);
        }
    }

    private static void fillNeutral(MemorySegment m, long at, long bytes, dev.ferry.portals.Datatype dt) {
        if (dt == dev.ferry.portals.Datatype.DOUBLE) {
            for (long i = 0; i < bytes; i += 8) {
                m.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at + i, -0.0);
            }
        } else if (dt == dev.ferry.portals.Datatype.FLOAT) {
            for (long i = 0; i < bytes; i += 4) {
                m.set(ValueLayout.JAVA_FLOAT_UNALIGNED, at + i, -0.0f);
            }
        } else {
            m.asSlice(at, bytes).fill((byte) 0);
        }
    }

    /**
     * Checks an access to {@code target} (rank, epoch, range, signature): answers the byte offset
     * of its displacement in the target's window.
     */
    private long checkTarget(int target, long disp, long targetCount, Datatype targetType, long originBytes, String what) {
        checkRank(target, what);
        if (!epochs.mayAccess(target)) {
            throw FerryException.arg(ErrorClass.RMA_SYNC, what + " to rank " + target
                    + " outside an access epoch: call fence, start (with the target in its group), lock or lockAll first");
        }
        CollBuffer.checkType(targetType, what);
        if (targetCount < 0) {
            throw FerryException.arg(ErrorClass.COUNT, what + ": the target count " + targetCount + " is negative");
        }
        if (disp < 0) {
            throw FerryException.arg(ErrorClass.DISP, what + ": the displacement " + disp + " is negative");
        }
        long tbytes = (long) targetCount * targetType.size;
        if (tbytes != originBytes) {
            throw FerryException.arg(ErrorClass.COUNT, what + ": the origin holds " + originBytes + " bytes but the target's "
                    + targetCount + " elements of " + targetType + " hold " + tbytes);
        }
        long reach = Buffers.reach(targetCount, targetType);
        if (tables != null) {
            return attached(target, disp, reach, targetCount, targetType, what);
        }
        opBits = DATA_BITS;
        long at = Math.multiplyHigh(disp, dispUnits[target]) != 0 ? Long.MAX_VALUE : disp * dispUnits[target];
        if (at > sizes[target] || reach > sizes[target] - at) {
            throw FerryException.arg(ErrorClass.RMA_RANGE, what + ": " + targetCount + " elements of " + targetType + " at displacement "
                    + disp + " (byte " + at + ", " + reach + " bytes) do not fit rank " + target + "'s window of " + sizes[target] + " bytes");
        }
        return at;
    }

    private final long[] found = new long[2];

    /** A dynamic window's target range: the slot covering it (reading the target's table again when this copy has none). */
    private long attached(int target, long address, long reach, long targetCount, Datatype targetType, String what) {
        if (tables[target] == null || !Attachments.find(tables[target], address, reach, found)) {
            MemorySegment copy = tables[target] != null ? tables[target] : MemorySegment.ofArray(new long[(int) (Attachments.BYTES / 8)]);
            lib.stage(Attachments.BYTES, id(target));
            lib.ptl.get(lib.opMd, lib.opOff, Attachments.BYTES, id(target), pt, Attachments.TABLE_BITS, 0, null);
            lib.issued(1);
            lib.copyOut(lib.opMem, lib.opOff, copy, (int) Attachments.BYTES, Datatype.BYTE);
            lib.quiesce();
            tables[target] = copy;
            if (!Attachments.find(copy, address, reach, found)) {
                throw FerryException.arg(ErrorClass.RMA_RANGE, what + ": " + targetCount + " elements of " + targetType + " at address 0x"
                        + Long.toHexString(address) + " (" + reach + " bytes) are not in memory rank " + target + " has attached");
            }
        }
        opBits = found[0];
        return found[1];
    }

    dev.ferry.portals.ProcessId id(int target) {
        return lib.ids[comm.world(target)];
    }

    void checkRank(int rank, String what) {
        if (rank < 0 || rank >= comm.size()) {
            throw FerryException.arg(ErrorClass.RANK, what + ": rank " + rank + " is not in the window's communicator (size " + comm.size() + ")");
        }
    }
}
