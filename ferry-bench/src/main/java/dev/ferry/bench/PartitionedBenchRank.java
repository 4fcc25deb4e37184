package dev.ferry.bench;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.Op;
import dev.ferry.PartitionedRequest;
import dev.ferry.Request;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * One rank of {@code ferry bench partitioned} (two ranks): per size, a partitioned send of
 * {@link #PARTS} partitions readied by {@code --threads} threads of rank 0 (its main thread and
 * helpers, each its share) into rank 1's partitioned receive ({@code impl=partitioned}), beside one send of the same
 * bytes ({@code impl=send}), in alternating batches; each transfer ends with a 0-byte answer from
 * rank 1, so its time is the whole delivery. Rank 0 prints the median transfer's time and
 * bandwidth, and for the partitioned form how long before the last partition was readied the
 * first had arrived ({@code first_lead_us}, median of a pass in which each thread fills every
 * partition before readying it, as a program computing them would, and rank 1 watches partition
 * 0 with {@code parrived}).
 */
public final class PartitionedBenchRank {
    static final int PARTS = 16;
    private static final int BATCHES = 10;
    private static final int ANSWER = 9;

    private final Comm w;
    private final int r;

    private PartitionedBenchRank(Comm w) {
        this.w = w;
        this.r = w.rank();
    }

    public static void main(String[] args) throws Exception {
        BenchOptions o = BenchOptions.parse(args[0], List.of(args).subList(2, args.length));
        try (Ferry ferry = Ferry.init()) {
            if (ferry.size() != 2) {
                throw new IllegalStateException("partitioned runs on 2 ranks, not " + ferry.size());
            }
            new PartitionedBenchRank(ferry.world()).measure(o);
        }
    }

    private void measure(BenchOptions o) throws Exception {
        for (long size : o.sizes()) {
            long part = Math.max(1, size / PARTS);
            MemorySegment buf = Arena.global().allocate(part * PARTS, 4096); // page aligned, as the bw benchmark's
            PartitionedRequest pr = r == 0 ? w.psendInit(buf, PARTS, part, Datatype.BYTE, 1, 0) : w.precvInit(buf, PARTS, part, Datatype.BYTE, 0, 0);
            Readiers readiers = r == 0 ? new Readiers(pr, buf, part, o.threads()) : null;
            try {
                int n = (int) Math.max(BATCHES, o.iterationsFor(size));
                int perBatch = Math.max(1, n / BATCHES);
                for (int i = 0; i < Math.max(perBatch, o.warmupFor(size)); i++) {
                    partitioned(pr, readiers, false);
                    send(buf);
                }
                double[][] batches = new double[2][BATCHES];
                for (int b = 0; b < BATCHES; b++) {
                    boolean sendFirst = b % 2 == 1;
                    batches[sendFirst ? 1 : 0][b] = batch(sendFirst ? () -> send(buf) : () -> partitioned(pr, readiers, false), perBatch);
                    batches[sendFirst ? 0 : 1][b] = batch(sendFirst ? () -> partitioned(pr, readiers, false) : () -> send(buf), perBatch);
                }
                double[] leads = new double[perBatch];
                for (int i = 0; i < perBatch; i++) {
                    leads[i] = partitioned(pr, readiers, true);
                }
                if (r == 0) {
                    long bytes = part * PARTS;
                    print(o, bytes, (long) perBatch * BATCHES, batches[0], "impl=partitioned,parts=" + PARTS + ",threads=" + o.threads()
                            + ",first_lead_us=" + Stats.round(Stats.median(leads), 2));
                    print(o, bytes, (long) perBatch * BATCHES, batches[1], "impl=send");
                }
            } finally {
                if (readiers != null) {
                    readiers.close();
                }
            }
            pr.free();
        }
        w.barrier();
    }

    /** One batch of {@code n} transfers; the median in microseconds. */
    private double batch(Runnable transfer, int n) {
        w.barrier();
        double[] each = new double[n];
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            transfer.run();
            each[i] = (System.nanoTime() - t) / 1000.0;
        }
        return Stats.median(each);
    }

    /**
     * One partitioned transfer and its answer. With {@code fill}, each readier fills its partitions
     * before readying them and the answer carries when rank 1 saw partition 0: rank 0 answers
     * how long before its last pready that was (microseconds); otherwise 0.
     */
    private double partitioned(PartitionedRequest pr, Readiers readiers, boolean fill) {
        long[] seen = new long[1];
        pr.start();
        if (r == 0) {
            readiers.ready(fill);
            pr.await();
            long lastReady = readiers.lastReady();
            w.recv(seen, 0, 1, Datatype.LONG, 1, ANSWER);
            return fill ? (lastReady - seen[0]) / 1000.0 : 0;
        }
        if (fill) {
            while (!pr.parrived(0)) {
                Thread.onSpinWait();
            }
            seen[0] = System.nanoTime(); // one clock: both ranks run on this host (System.nanoTime is CLOCK_MONOTONIC)
        }
        pr.await();
        w.send(seen, 0, 1, Datatype.LONG, 0, ANSWER);
        return 0;
    }

    private void send(MemorySegment buf) {
        if (r == 0) {
            w.send(buf, 0L, buf.byteSize(), Datatype.BYTE, 1, 1);
            w.recv(new long[1], 0, 1, Datatype.LONG, 1, ANSWER);
        } else {
            w.recv(buf, 0L, buf.byteSize(), Datatype.BYTE, 0, 1);
            w.send(new long[1], 0, 1, Datatype.LONG, 0, ANSWER);
        }
    }

    private static void print(BenchOptions o, long size, long iterations, double[] batches, String fields) {
        double median = Stats.median(batches);
        System.out.println("RESULT " + o.benchmark() + " " + o.driver() + " " + size + " " + iterations + " " + median + " "
                + Stats.quantile(batches, 0.99) + " " + size / median + " " + fields);
        System.out.flush();
    }

    /**
     * The readiers: the rank's main thread and {@code threads - 1} helpers, each readying its
     * share (thread t: partitions t, t + threads, ...) when told. Helpers wait for the word
     * parked: spinning ones would take the cores the receiver and the transfer need. The last
     * pready's time is kept.
     */
    private static final class Readiers {
        private final PartitionedRequest pr;
        private final MemorySegment buf;
        private final long part;
        private final int threads;
        private final long[] lastReady;
        private final Thread[] helpers;
        private volatile long go;
        private final java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
        private volatile boolean fill;
        private volatile boolean closed;

        Readiers(PartitionedRequest pr, MemorySegment buf, long part, int threads) {
            this.pr = pr;
            this.buf = buf;
            this.part = part;
            this.threads = threads;
            this.lastReady = new long[threads];
            this.helpers = new Thread[threads - 1];
            for (int t = 1; t < threads; t++) {
                int k = t;
                helpers[t - 1] = Thread.ofPlatform().daemon().name("readier-" + t).start(() -> loop(k));
            }
        }

        private void loop(int t) {
            long seen = 0;
            while (true) {
                while (go == seen) {
                    java.util.concurrent.locks.LockSupport.park(this);
                }
                seen = go;
                if (closed) {
                    return;
                }
                share(t);
                done.incrementAndGet();
            }
        }

        private void share(int t) {
            for (int p = t; p < PARTS; p += threads) {
                if (fill) {
                    buf.asSlice(p * part, part).fill((byte) p);
                }
                pr.pready(p);
            }
            lastReady[t] = System.nanoTime();
        }

        /** Tells the helpers to ready their shares and readies the main thread's; returns at once after it. */
        void ready(boolean fill) {
            this.fill = fill;
            done.set(0);
            go++;
            for (Thread h : helpers) {
                java.util.concurrent.locks.LockSupport.unpark(h);
            }
            share(0);
        }

        /** Once the helpers are through (the transfer completed, so they readied all): the last pready's time. */
        long lastReady() {
            while (done.get() < threads - 1) {
                Thread.onSpinWait();
            }
            long last = 0;
            for (long v : lastReady) {
                last = Math.max(last, v);
            }
            return last;
        }

        void close() throws InterruptedException {
            closed = true;
            go++;
            for (Thread t : helpers) {
                java.util.concurrent.locks.LockSupport.unpark(t);
                t.join();
            }
        }
    }
}
