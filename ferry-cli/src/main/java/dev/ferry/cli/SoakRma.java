package dev.ferry.cli;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

import dev.ferry.portals.CtHandle;
import dev.ferry.portals.Md;
import dev.ferry.portals.MdHandle;
import dev.ferry.portals.Me;
import dev.ferry.portals.NiHandle;
import dev.ferry.portals.ProcessId;

import static dev.ferry.portals.Portals.*;

/**
 * One rank of {@code ferry soak}'s one-sided phase, on the Portals library: for a given time it
 * puts a pattern of random size into its own slot of a random rank's window and gets it back
 * (every byte checked), and fetch-adds 1 to its own counter there (the old value tells an add
 * lost or applied twice). Each rank has two windows: one on {@code memAlloc} memory that same-node
 * peers reach directly, one that counts its operations and so is always reached by message.
 * Prints the same {@code soak rank ...} line as {@link SoakRank} (operations for messages).
 *
 * <p>Arguments: duration in ms, seed, largest size.
 */
public final class SoakRma {
    private SoakRma() {
    }

    public static void main(String[] args) {
        long durationMs = Long.parseLong(args[0]);
        long seed = Long.parseLong(args[1]);
        long maxSize = Long.parseLong(args[2]);
        init();
        try {
            run(durationMs, seed, maxSize);
        } finally {
            fini();
        }
    }

    private static void run(long durationMs, long seed, long maxSize) {
        NiHandle ni = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        int rank = getId(ni).rank;
        int size = getMap(ni, 0).actualMapSize();
        System.out.println("soak rank " + rank + " pid " + ProcessHandle.current().pid() + " started at " + System.currentTimeMillis());
        System.out.flush();
        int pt = ptAlloc(ni, 0, EQ_NONE, 0);
        long counters = size * maxSize; // each source's slot, then each source's 8-byte counter
        long windowBytes = counters + 8L * size;
        MemorySegment direct = memAlloc(windowBytes);
        MemorySegment byMessage = Arena.ofShared().allocate(windowBytes, 8);
        CtHandle served = ctAlloc(ni);
        Me d = new Me();
        d.start = direct;
        d.length = windowBytes;
        d.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE; // asks nothing of this process: direct
        d.matchBits = 1;
        meAppend(ni, pt, d, PRIORITY_LIST, null);
        Me m = new Me();
        m.start = byMessage;
        m.length = windowBytes;
        m.options = ME_OP_PUT | ME_OP_GET | ME_EVENT_LINK_DISABLE | ME_EVENT_CT_COMM; // counted: by message
        m.ctHandle = served;
        m.matchBits = 2;
        meAppend(ni, pt, m, PRIORITY_LIST, null);
        barrier();

        MemorySegment out = Arena.ofShared().allocate(maxSize + 16, 8);
        MemorySegment in = Arena.ofShared().allocate(maxSize + 16, 8);
        CtHandle ct = ctAlloc(ni);
        Md om = new Md();
        om.start = out;
        om.length = out.byteSize();
        om.options = MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY;
        om.ctHandle = ct;
        MdHandle outMd = mdBind(ni, om);
        Md im = new Md();
        im.start = in;
        im.length = in.byteSize();
        im.options = MD_EVENT_CT_REPLY;
        im.ctHandle = ct;
        MdHandle inMd = mdBind(ni, im);
        out.set(ValueLayout.JAVA_LONG, maxSize, 1); // the operand of every fetch-add

        SplittableRandom r = new SplittableRandom(seed * 7_000_003 + rank);
        long[][] adds = new long[size][3];
        boolean[] failed = new boolean[size];
        long ops = 0, bytes = 0, lost = 0, duplicated = 0, corrupted = 0, opFailed = 0;
        long expectCt = 0;
        long seq = 0;
        long end = System.nanoTime() + durationMs * 1_000_000L;
        while (System.nanoTime() - end < 0) {
            int peer = r.nextInt(size);
            if (failed[peer]) {
                continue;
            }
            int path = 1 + r.nextInt(2);
            ProcessId target = ProcessId.ofRank(peer);
            boolean ok;
            if (r.nextInt(4) == 0) {
                in.set(ValueLayout.JAVA_LONG, 0, -1);
                fetchAtomic(inMd, 0, outMd, maxSize, 8, target, pt, path, counters + 8L * rank, null, 0, SUM, INT64_T);
                ok = ctWait(ct, ++expectCt).failure() == 0;
                if (ok) {
                    long old = in.get(ValueLayout.JAVA_LONG, 0);
                    long want = adds[peer][path]++;
                    if (old < want) {
                        lost += want - old;
                    } else if (old > want) {
                        duplicated += old - want;
                    }
                    ops++;
                    bytes += 8;
                }
            } else {
                long n = SoakRank.size(r, maxSize);
                long s = SoakRank.seed(rank, seq++, n);
                SoakRank.fill(out, n, s);
                put(outMd, 0, n, CT_ACK_REQ, target, pt, path, rank * maxSize, null, 0);
                ok = ctWait(ct, ++expectCt).failure() == 0;
                if (ok) {
                    get(inMd, 0, n, target, pt, path, rank * maxSize, null);
                    ok = ctWait(ct, ++expectCt).failure() == 0;
                    if (ok && !SoakRank.check(in, n, s)) {
                        corrupted++;
                    }
                    ops += 2;
                    bytes += 2 * n;
                }
            }
            if (!ok) {
                // A counter's failures stay: every later wait on it would return at once. Start a new one.
                opFailed++;
                mdRelease(outMd);
                mdRelease(inMd);
                ctFree(ct);
                ct = ctAlloc(ni);
                om.ctHandle = ct;
                im.ctHandle = ct;
                outMd = mdBind(ni, om);
                inMd = mdBind(ni, im);
                expectCt = 0;
                end = System.nanoTime(); // a peer died: wind down now, so the counts are told before the job ends
                if (!failed[peer]) {
                    failed[peer] = true;
                    System.out.println("soak rank " + rank + " saw rank " + peer + " fail at " + System.currentTimeMillis());
                    System.out.flush();
                }
            }
        }
        int failedPeers = 0;
        for (boolean f : failed) {
            failedPeers += f ? 1 : 0;
        }
        System.out.println("soak rank " + rank + ": sent " + ops + " messages " + bytes + " bytes; received " + ops
                + " messages " + bytes + " bytes; lost " + lost + " duplicated " + duplicated + " corrupted " + corrupted
                + " reordered 0 send-failed " + opFailed + " failed-peers " + failedPeers);
        System.out.flush();
        barrier();
    }
}
