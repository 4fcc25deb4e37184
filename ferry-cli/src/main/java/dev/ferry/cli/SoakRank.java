package dev.ferry.cli;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.MessageHandler;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.SendRequest;
import dev.ferry.spi.Status;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.SplittableRandom;

/**
 * One rank of {@code ferry soak}: for a given time it sends messages of random sizes (0 B to
 * {@code maxSize}, most small, some rendezvous) to random ranks, itself included, several in
 * flight, and receives whatever comes, in whatever order the peers' traffic mixes; every payload
 * is a pattern of (source, sequence number, size), so the receiver checks every byte, and the
 * sequence numbers per source tell lost, duplicated and reordered messages. At the end each rank
 * tells every peer how many messages it sent it (after them, on the same ordered path), so that
 * what never came is counted as lost. Prints one {@code soak rank ...} line of counts; a peer's
 * failure is printed when first seen ({@code soak rank R saw rank P fail at MS}).
 *
 * <p>With a quiet spell (for FERRY_IDLE_CLOSE), every rank stops starting sends for that long in
 * each period of ten spells, at the same moments by the clock, so that connections fall idle and
 * close, and reopen all at once when the traffic comes back. The rank prints its connection counts
 * ({@code soak rank R connections: open ...}) before its counts.
 *
 * <p>Arguments: duration in ms, seed, largest message size, and optionally the quiet spell in ms
 * (0: none).
 */
public final class SoakRank {
    private static final long END = 1;
    private static final int WINDOW = 8;
    private static final Duration BOUND = Duration.ofSeconds(120);

    private SoakRank() {
    }

    /** What the rank hears: messages kept until taken, peer failures as they happen. */
    private static final class Handler implements MessageHandler {
        final ArrayDeque<Message> queue = new ArrayDeque<>();
        final boolean[] failed;
        boolean anyFailed;
        final int rank;

        Handler(int size, int rank) {
            this.failed = new boolean[size];
            this.rank = rank;
        }

        @Override
        public void onMessage(Message m) {
            queue.add(m.keep());
        }

        @Override
        public void onPeerFailed(int peer, Status status, String why) {
            if (!failed[peer]) {
                failed[peer] = true;
                anyFailed = true;
                System.out.println("soak rank " + rank + " saw rank " + peer + " fail at " + System.currentTimeMillis() + " (" + status + ": " + why + ")");
                System.out.flush();
            }
        }
    }

    /** The pattern of message ({@code source}, {@code seq}): a word per 8 bytes from a mixed seed. */
    static long seed(int source, long seq, long size) {
        long h = (source * 0x9E3779B97F4A7C15L) ^ (seq * 0xC2B2AE3D27D4EB4FL) ^ (size * 0x165667B19E3779F9L);
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        return h ^ (h >>> 29);
    }

    static void fill(MemorySegment m, long n, long seed) {
        long words = n >>> 3;
        for (long i = 0; i < words; i++) {
            m.set(ValueLayout.JAVA_LONG_UNALIGNED, i << 3, seed + i * 0x9E3779B97F4A7C15L);
        }
        for (long i = words << 3; i < n; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) (seed >>> (8 * (i & 7))));
        }
    }

    static boolean check(MemorySegment m, long n, long seed) {
        long words = n >>> 3;
        for (long i = 0; i < words; i++) {
            if (m.get(ValueLayout.JAVA_LONG_UNALIGNED, i << 3) != seed + i * 0x9E3779B97F4A7C15L) {
                return false;
            }
        }
        for (long i = words << 3; i < n; i++) {
            if (m.get(ValueLayout.JAVA_BYTE, i) != (byte) (seed >>> (8 * (i & 7)))) {
                return false;
            }
        }
        return true;
    }

    /** Mostly small, some medium, a few large: every protocol of every driver gets its share. */
    static long size(SplittableRandom r, long max) {
        int k = r.nextInt(100);
        long s = k < 70 ? r.nextLong(0, 1025) : k < 92 ? r.nextLong(1025, 65537) : r.nextLong(65537, max + 1);
        return Math.min(s, max);
    }

    public static void main(String[] args) {
        long durationMs = Long.parseLong(args[0]);
        long seed = Long.parseLong(args[1]);
        long maxSize = Long.parseLong(args[2]);
        long quietMs = args.length > 3 ? Long.parseLong(args[3]) : 0;
        Handler h;
        Engine e;
        {
            // The handler needs the rank, which only the engine knows: a slot filled after init.
            Handler[] slot = new Handler[1];
            ArrayDeque<Message> early = new ArrayDeque<>();
            e = Engine.init(new MessageHandler() {
                @Override
                public void onMessage(Message m) {
                    if (slot[0] != null) {
                        slot[0].onMessage(m);
                    } else {
                        early.add(m.keep());
                    }
                }

                @Override
                public void onPeerFailed(int rank, Status status, String why) {
                    if (slot[0] != null) {
                        slot[0].onPeerFailed(rank, status, why);
                    }
                }
            });
            h = new Handler(e.size(), e.rank());
            h.queue.addAll(early);
            slot[0] = h;
        }
        int rank = e.rank();
        int size = e.size();
        System.out.println("soak rank " + rank + " pid " + ProcessHandle.current().pid() + " started at " + System.currentTimeMillis());
        System.out.flush();
        SplittableRandom r = new SplittableRandom(seed * 1_000_003 + rank);
        long[] sentTo = new long[size];
        long[] expected = new long[size]; // next sequence number from each source
        long[] declared = new long[size]; // from END: how many each source sent here; -1 until then
        java.util.Arrays.fill(declared, -1);
        long sentMsgs = 0, sentBytes = 0, sendFailed = 0;
        long recvMsgs = 0, recvBytes = 0, lost = 0, duplicated = 0, corrupted = 0, reordered = 0;
        SendRequest[] sends = new SendRequest[WINDOW];
        MemorySegment[] sendBufs = new MemorySegment[WINDOW];
        for (int i = 0; i < WINDOW; i++) {
            sends[i] = new SendRequest();
            sendBufs[i] = e.memory().allocate(Math.max(8, maxSize));
        }
        boolean[] busy = new boolean[WINDOW];
        MemorySegment recvBuf = e.memory().allocate(Math.max(8, maxSize));
        RecvRequest recv = new RecvRequest();
        long end = System.nanoTime() + durationMs * 1_000_000L;
        boolean ended = false;
        long idleSince = System.nanoTime();
        while (true) {
            boolean work = false;
            if (h.anyFailed && !ended && System.nanoTime() - end < 0) {
                end = System.nanoTime(); // a peer died: wind down now, so the counts are told before the job ends
            }
            // sends: complete what finished, start one more while there is time and room
            for (int i = 0; i < WINDOW; i++) {
                if (busy[i] && sends[i].isDone()) {
                    busy[i] = false;
                    if (sends[i].status() != Status.DONE) {
                        sendFailed++;
                    }
                    work = true;
                }
            }
            boolean quiet = quietMs > 0 && System.currentTimeMillis() % (10 * quietMs) < quietMs;
            if (!ended && System.nanoTime() - end < 0) {
                for (int i = 0; i < WINDOW && !quiet; i++) {
                    if (!busy[i]) {
                        int peer = r.nextInt(size);
                        if (h.failed[peer]) {
                            break;
                        }
                        long n = size(r, maxSize);
                        long seq = sentTo[peer]++;
                        fill(sendBufs[i], n, seed(rank, seq, n));
                        e.send(sends[i].to(peer, seq << 8, sendBufs[i].asSlice(0, n)));
                        busy[i] = true;
                        sentMsgs++;
                        sentBytes += n;
                        work = true;
                        break;
                    }
                }
            } else if (!ended) {
                // time is up: after the last message to each peer, tell it how many there were
                boolean drained = true;
                for (boolean b : busy) {
                    drained &= !b;
                }
                if (drained) {
                    for (int peer = 0; peer < size; peer++) {
                        if (!h.failed[peer]) {
                            MemorySegment count = sendBufs[0].asSlice(0, 8);
                            count.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, sentTo[peer]);
                            SendRequest s = sends[0];
                            e.send(s.to(peer, END, count));
                            if (s.await(BOUND) != Status.DONE) {
                                sendFailed++;
                            }
                        }
                    }
                    ended = true;
                }
            }
            // receives: whatever came, checked
            Message m = h.queue.poll();
            if (m == null && e.progress()) {
                m = h.queue.poll();
            }
            if (m != null) {
                work = true;
                int src = m.source();
                long header = m.header();
                long n = m.length();
                m.receive(recvBuf.asSlice(0, Math.min(n, recvBuf.byteSize())), recv);
                Status st = recv.await(BOUND);
                if ((header & 0xff) == END) {
                    declared[src] = st == Status.DONE ? recvBuf.get(ValueLayout.JAVA_LONG_UNALIGNED, 0) : 0;
                } else {
                    long seq = header >>> 8;
                    recvMsgs++;
                    recvBytes += n;
                    if (st != Status.DONE) {
                        if (!h.failed[src]) { // a dead peer's message cut short is not corruption
                            corrupted++;
                        }
                    } else if (!check(recvBuf, n, seed(src, seq, n))) {
                        corrupted++;
                    }
                    if (seq < expected[src]) {
                        if (seq == expected[src] - 1) {
                            duplicated++;
                        } else {
                            reordered++;
                        }
                    } else {
                        if (seq > expected[src]) {
                            reordered++;
                        }
                        expected[src] = seq + 1;
                    }
                }
            }
            if (ended) {
                boolean all = true;
                for (int p = 0; p < size; p++) {
                    all &= h.failed[p] || declared[p] >= 0;
                }
                if (all && h.queue.isEmpty()) {
                    break;
                }
            }
            if (work) {
                idleSince = System.nanoTime();
            } else {
                long idle = System.nanoTime() - idleSince;
                if (idle > BOUND.toNanos()) {
                    throw new IllegalStateException("soak rank " + rank + ": nothing happened for " + BOUND.toSeconds() + " s");
                }
                dev.ferry.spi.IdleStrategy.DEFAULT.idle(idle);
            }
        }
        int failedPeers = 0;
        for (int p = 0; p < size; p++) {
            if (h.failed[p]) {
                failedPeers++;
            } else if (declared[p] > expected[p]) {
                lost += declared[p] - expected[p];
            }
        }
        java.util.TreeSet<String> rails = new java.util.TreeSet<>(); // what the traffic went over: shm, tcp, the node agents
        for (int p = 0; p < size; p++) {
            if (p != rank) {
                rails.addAll(e.rails(p));
            }
        }
        System.out.println("soak rank " + rank + " rails: " + String.join(" ", rails));
        System.out.println("soak rank " + rank + " connections: " + e.connections());
        System.out.println("soak rank " + rank + ": sent " + sentMsgs + " messages " + sentBytes + " bytes; received " + recvMsgs
                + " messages " + recvBytes + " bytes; lost " + lost + " duplicated " + duplicated + " corrupted " + corrupted
                + " reordered " + reordered + " send-failed " + sendFailed + " failed-peers " + failedPeers);
        System.out.flush();
        e.close();
    }
}
