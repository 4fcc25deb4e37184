package dev.ferry.cli;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.ErrorClass;
import dev.ferry.Ferry;
import dev.ferry.FerryException;
import dev.ferry.Request;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One rank of {@code ferry soak --chaos --recover}: rounds of checked point-to-point traffic on
 * a communicator of the live ranks (the application API), while the launcher kills ranks at
 * random moments. In a round every rank sends a few messages of random sizes to random members,
 * tells each member how many (an alltoall), receives exactly those, checking every byte and the
 * order; then the members agree whether the round held everywhere (and whether to go on). A
 * round that did not (a member died: a transfer or the alltoall failed, and the rank revoked the
 * communicator) is dropped by all alike; the survivors acknowledge the failures, shrink, and go
 * on. So every round the survivors count was moved whole between survivors.
 *
 * <p>Arguments: duration in ms, seed, largest message size. Prints {@code soak rank ...} lines
 * as {@link SoakRank} does (the counts of the rounds that held), one
 * {@code soak rank R saw rank P fail at MS} per failure it learns of, one
 * {@code soak rank R recovered at MS with N survivors} per shrink, and
 * {@code soak rank R rounds H dropped D} at the end.
 */
public final class SoakRecover {
    private static final int DATA = 1, MAX_PER_ROUND = 12;

    private SoakRecover() {
    }

    public static void main(String[] args) {
        long durationMs = Long.parseLong(args[0]);
        long seed = Long.parseLong(args[1]);
        long maxSize = Math.min(Long.parseLong(args[2]), 1 << 20);
        try (Ferry ferry = Ferry.init()) {
            new SoakRecover().run(ferry, durationMs, seed, maxSize);
        }
    }

    private long sentMsgs, sentBytes, recvMsgs, recvBytes, corrupted, reordered;
    private int held, dropped;
    private final List<Integer> seen = new ArrayList<>();

    private void run(Ferry ferry, long durationMs, long seed, long maxSize) {
        Comm world = ferry.world();
        int me = world.rank();
        System.out.println("soak rank " + me + " pid " + ProcessHandle.current().pid() + " started at " + System.currentTimeMillis());
        System.out.flush();
        SplittableRandom r = new SplittableRandom(seed * 1_000_003 + me);
        Comm comm = world.dup(); // revoking it leaves the world (and the goodbyes at close) alone
        MemorySegment out = Arena.ofAuto().allocate(MAX_PER_ROUND * maxSize + 8, 8);
        MemorySegment in = Arena.ofAuto().allocate(Math.max(8, maxSize), 8);
        long end = System.nanoTime() + durationMs * 1_000_000L;
        for (int round = 0; ; round++) {
            int n = comm.size();
            long[] roundCounts = new long[4]; // sent msgs, bytes, received msgs, bytes: counted if the round holds
            boolean ok = true;
            try {
                ok = round(comm, round, r, maxSize, out, in, roundCounts);
            } catch (FerryException e) {
                if (e.errorClass() != ErrorClass.PROC_FAILED && e.errorClass() != ErrorClass.REVOKED
                        && e.errorClass() != ErrorClass.PROC_FAILED_PENDING && e.errorClass() != ErrorClass.IN_STATUS) {
                    throw e; // IN_STATUS: sends of the round failed (their statuses say PROC_FAILED or REVOKED)
                }
                ok = false;
                comm.revoke();
            }
            int goOn = System.nanoTime() - end < 0 ? 2 : 0;
            int agreed;
            try {
                agreed = comm.agree((ok ? 1 : 0) | goOn);
            } catch (FerryException e) {
                if (e.errorClass() != ErrorClass.PROC_FAILED) {
                    throw e;
                }
                agreed = goOn; // failures not all acknowledged: the round is dropped (the flags agree still)
                ok = false;
            }
            reportFailures(comm, world, me);
            if ((agreed & 1) != 0) {
                held++;
                sentMsgs += roundCounts[0];
                sentBytes += roundCounts[1];
                recvMsgs += roundCounts[2];
                recvBytes += roundCounts[3];
            } else {
                dropped++;
                comm.ackFailed(Integer.MAX_VALUE);
                Comm survivors = comm.shrink();
                // the members the survivors left out failed, whether this rank saw it itself or the agreement told it
                int[] before = comm.group().translateRanks(java.util.stream.IntStream.range(0, comm.size()).toArray(), world.group());
                for (int w : before) {
                    if (!contains(survivors, world, w)) {
                        report(me, w);
                    }
                }
                comm.free();
                comm = survivors;
                System.out.println("soak rank " + me + " recovered at " + System.currentTimeMillis() + " with " + comm.size() + " survivors (from " + n + ")");
                System.out.flush();
            }
            if ((agreed & 2) == 0 && (agreed & 1) != 0) {
                break; // someone's time is up, and the last round held
            }
        }
        System.out.println("soak rank " + me + ": sent " + sentMsgs + " messages " + sentBytes + " bytes; received " + recvMsgs
                + " messages " + recvBytes + " bytes; lost 0 duplicated 0 corrupted " + corrupted + " reordered " + reordered
                + " send-failed 0 failed-peers " + seen.size());
        System.out.println("soak rank " + me + " rounds " + held + " dropped " + dropped + " survivors " + comm.size());
        System.out.flush();
        comm.free();
    }

    /** One round's traffic on {@code comm}; false when a transfer failed (the rank revoked it). */
    private boolean round(Comm comm, int round, SplittableRandom r, long maxSize, MemorySegment out, MemorySegment in, long[] counts) {
        int n = comm.size(), me = comm.rank();
        int k = r.nextInt(MAX_PER_ROUND + 1);
        int[] to = new int[n];
        Request[] sends = new Request[k];
        long at = 0;
        for (int i = 0; i < k; i++) {
            int peer = r.nextInt(n);
            long size = SoakRank.size(r, maxSize);
            long seq = to[peer]++;
            MemorySegment m = out.asSlice(at, size);
            SoakRank.fill(m, size, pattern(comm, me, round, seq, size));
            sends[i] = comm.isend(m, 0, (int) size, Datatype.BYTE, peer, DATA);
            counts[0]++;
            counts[1] += size;
            at += (size + 7) & ~7L;
        }
        int[] from = new int[n];
        comm.alltoall(to, 0, 1, Datatype.INT, from, 0, 1, Datatype.INT);
        for (int src = 0; src < n; src++) {
            for (int seq = 0; seq < from[src]; seq++) {
                dev.ferry.Status s = comm.recv(in, 0, (int) in.byteSize(), Datatype.BYTE, src, DATA);
                long size = s.count();
                if (!SoakRank.check(in, size, pattern(comm, src, round, seq, size))) {
                    // not this message's pattern: another message of the same sender (order), or damage
                    boolean other = false;
                    for (int j = 0; j < from[src] && !other; j++) {
                        other = j != seq && SoakRank.check(in, size, pattern(comm, src, round, j, size));
                    }
                    if (other) {
                        reordered++;
                    } else {
                        corrupted++;
                    }
                }
                counts[2]++;
                counts[3] += size;
            }
        }
        Request.waitAll(sends);
        return true;
    }

    /** A message's pattern: its sender's rank (on this round's communicator), round, number to this receiver, and size. */
    private static long pattern(Comm comm, int sender, int round, long seq, long size) {
        return SoakRank.seed(sender + comm.size() * 1_000 * round, seq, size);
    }

    private void reportFailures(Comm comm, Comm world, int me) {
        dev.ferry.Group failed = comm.getFailed();
        for (int w : failed.translateRanks(java.util.stream.IntStream.range(0, failed.size()).toArray(), world.group())) {
            report(me, w);
        }
    }

    private void report(int me, int worldRank) {
        if (!seen.contains(worldRank)) {
            seen.add(worldRank);
            System.out.println("soak rank " + me + " saw rank " + worldRank + " fail at " + System.currentTimeMillis());
            System.out.flush();
        }
    }

    /** Whether job rank {@code worldRank} is a member of {@code c}. */
    private static boolean contains(Comm c, Comm world, int worldRank) {
        return world.group().translateRanks(new int[] {worldRank}, c.group())[0] != Ferry.UNDEFINED;
    }
}
