package dev.ferry.examples;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.Request;
import dev.ferry.Route;
import dev.ferry.Status;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Every pair of ranks at work, one pair at a time, on the application API: the pair measures an
 * 8-byte ping-pong (the immediate protocol) and 4 MiB transfers (rendezvous), with every byte
 * checked; rank 0 prints each pair's line as soon as the pair is done: where the peer is, the
 * drivers that carried it ({@link Comm#route}) and how fast. Run as {@code ferry demo}: four ranks
 * playing two nodes, so same-node pairs use shm and the others tcp.
 *
 * <p>The ping-pong lasts about half a second whatever the machine's load (its count follows the
 * warm-up's pace, up to PINGS), and a rank waiting for its turn allows a bound per pair still
 * ahead of it, so a busy machine slows the demo down but does not fail it.
 *
 * <pre>
 *   bin/ferry demo
 *   bin/ferry run -n 4 --ranks-per-node 2 --example demo [PINGS]
 * </pre>
 */
public final class Demo {
    /** The longest any one message may take: a pair's whole work when it is the next to wait for. */
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final int PING = 1, DATA = 2, ACK = 3, REPORT = 4, TURN = 5, RESULT = 6, WARM_END = 7, DONE = 8;
    /** How long each pair's timed ping-pong lasts, about. */
    private static final long PING_NANOS = 500_000_000L;
    private static final int BULK = 50;
    private static final int BULK_BYTES = 4 << 20;

    private final Comm world;
    private final int me;
    private final int maxPings;
    private final MemorySegment out;
    private final MemorySegment in;
    private final MemorySegment small = Arena.ofAuto().allocate(8);
    private final MemorySegment smallIn = Arena.ofAuto().allocate(8);

    private Demo(Ferry ferry, int maxPings) {
        this.world = ferry.world();
        // the node's shared arena: between two ranks of a node, one copy (as MPI_Alloc_mem)
        this.out = ferry.allocate(BULK_BYTES);
        this.in = ferry.allocate(BULK_BYTES);
        this.me = world.rank();
        this.maxPings = maxPings;
        for (long i = 0; i < BULK_BYTES; i += 8) {
            out.set(ValueLayout.JAVA_LONG, i, i * 0x9E3779B97F4A7C15L);
        }
    }

    public static void main(String[] args) {
        int pings = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        try (Ferry ferry = Ferry.init()) {
            new Demo(ferry, pings).run();
        }
    }

    private void run() {
        int n = world.size();
        // Every pair in turn, alone, so each measures the link and not the two cores' sharing:
        // the leading (lower) rank of a pair waits for the previous pair's lead to pass the turn.
        List<int[]> pairs = new ArrayList<>();
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                pairs.add(new int[] {a, b});
            }
        }
        if (me == 0) {
            long nodes = java.util.stream.IntStream.range(0, n).mapToObj(r -> world.route(r).node()).distinct().count();
            System.out.printf("ferry demo: %d ranks on %d node(s); %d pairs in turn, each: 8 B ping-pongs for about %.1f s, %d x 4 MiB, "
                    + "every byte checked%n", n, nodes, pairs.size(), PING_NANOS / 1e9, BULK);
            System.out.printf("%-6s %-10s %-9s %-28s %-20s%n", "pair", "peers", "rails", "8 B one-way (" + world.route(Math.min(1, n - 1)).protocol(8) + ")",
                    "4 MiB (" + world.route(Math.min(1, n - 1)).protocol(BULK_BYTES) + ")");
        }
        int lastPair = -1;
        int printed = 0;
        for (int k = 0; k < pairs.size(); k++) {
            int a = pairs.get(k)[0], b = pairs.get(k)[1];
            if (me == 0) {
                printed = printReports(printed, k); // the lines of the pairs done while rank 0 waited
            }
            if (me != a && me != b) {
                continue;
            }
            Duration wait = BOUND.multipliedBy(k - lastPair); // covers every pair between this rank's last one and this one
            lastPair = k;
            if (me == a && k > 0 && pairs.get(k - 1)[0] != me) {
                receive(world.irecv(small, 0, 0, Datatype.BYTE, pairs.get(k - 1)[0], TURN), wait, "turn");
            }
            String line = pair(me == a ? b : a, wait);
            if (line != null) {
                if (me == 0) {
                    System.out.println(line);
                    printed++;
                } else {
                    byte[] text = line.getBytes(StandardCharsets.UTF_8);
                    world.send(text, 0, text.length, Datatype.BYTE, 0, REPORT);
                }
            }
            if (me == a && k + 1 < pairs.size() && pairs.get(k + 1)[0] != me) {
                world.send(small, 0, 0, Datatype.BYTE, pairs.get(k + 1)[0], TURN);
            }
        }
        if (me == 0) {
            printReports(printed, pairs.size());
            for (int r = 1; r < n; r++) {
                world.send(small, 0, 0, Datatype.BYTE, r, DONE);
            }
        } else { // leave with the others: a rank done early would otherwise wait at close, alone
            receive(world.irecv(smallIn, 0, 0, Datatype.BYTE, 0, DONE), BOUND.multipliedBy(pairs.size()), "the end");
        }
    }

    /** Rank 0: prints the other leads' lines until {@code upTo} pairs are printed; answers the count printed. */
    private int printReports(int printed, int upTo) {
        byte[] text = new byte[256];
        for (; printed < upTo; printed++) {
            Status s = receive(world.irecv(text, 0, text.length, Datatype.BYTE, Ferry.ANY_SOURCE, REPORT), BOUND, "a pair's line");
            System.out.println(new String(text, 0, s.count(Datatype.BYTE), StandardCharsets.UTF_8));
        }
        return printed;
    }

    /** Measures one pair ({@code wait}: how long the follower may wait for the lead to start); the lower rank returns its line. */
    private String pair(int peer, Duration wait) {
        boolean lead = me < peer;
        // Warm-up, untimed, until the lead's JIT has compiled nothing for 0.25 s (at least 0.3 s, at
        // most 5 s): measured before that, the figure is partly the compiler's.
        int pings;
        if (lead) {
            CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
            long start = System.nanoTime(), quietSince = start, compiled = jit.getTotalCompilationTime();
            long roundTrip;
            while (true) { // in steps of 100, so that a loaded machine's slow round trips do not stretch it
                long b = System.nanoTime();
                pingPong(peer, true, 100, BOUND);
                long now = System.nanoTime(), c = jit.getTotalCompilationTime();
                roundTrip = Math.max(1, (now - b) / 100);
                if (c != compiled) {
                    compiled = c;
                    quietSince = now;
                }
                if (now - start > 5_000_000_000L || (now - start > 300_000_000L && now - quietSince > 250_000_000L)) {
                    break;
                }
            }
            pings = (int) Math.max(200, Math.min(maxPings, PING_NANOS / roundTrip)); // at the warm-up's last pace
            small.set(ValueLayout.JAVA_LONG, 0, pings);
            world.send(small, 0, 8, Datatype.BYTE, peer, WARM_END); // ends the follower's warm-up, with the count
        } else {
            Duration first = wait;
            while (pingPong(peer, false, 1000, first)) {
                first = BOUND; // until the lead's warm-up ends
            }
            pings = (int) smallIn.get(ValueLayout.JAVA_LONG, 0);
        }
        long t0 = System.nanoTime();
        pingPong(peer, lead, pings, BOUND);
        double oneWayUs = (System.nanoTime() - t0) / 2.0 / pings / 1000;
        long t1 = 0, checking = 0;
        for (int i = -3; i < BULK; i++) { // three untimed
            if (i == 0) {
                t1 = System.nanoTime();
                checking = 0;
            }
            if (lead) {
                world.send(out, 0, BULK_BYTES, Datatype.BYTE, peer, DATA);
                receive(world.irecv(smallIn, 0, 0, Datatype.BYTE, peer, ACK), BOUND, "an acknowledgement");
            } else {
                receive(world.irecv(in, 0, BULK_BYTES, Datatype.BYTE, peer, DATA), BOUND, "4 MiB");
                long c0 = System.nanoTime();
                long bad = in.mismatch(out);
                if (bad != -1) {
                    throw new IllegalStateException("4 MiB from rank " + peer + " differ at byte " + bad);
                }
                checking += System.nanoTime() - c0;
                world.send(small, 0, 0, Datatype.BYTE, peer, ACK);
            }
        }
        double mbps = (double) BULK * BULK_BYTES / (System.nanoTime() - t1 - checking) * 1000;
        double[] figure = {mbps};
        if (!lead) { // the receiver's figure: its checks not counted
            world.send(figure, 0, 1, Datatype.DOUBLE, peer, RESULT);
            return null;
        }
        receive(world.irecv(figure, 0, 1, Datatype.DOUBLE, peer, RESULT), BOUND, "the figure");
        Route route = world.route(peer);
        String where = route.locality() == Route.Locality.REMOTE ? "remote" : "same node";
        return String.format("%-6s %-10s %-9s %-28s %-20s", me + "-" + peer, where, String.join("+", route.rails()),
                String.format("%.2f us (%d)", oneWayUs, pings), String.format("%.0f MB/s", figure[0]));
    }

    /**
     * {@code count} ping-pongs of 8 bytes (the lead sends first). The follower waits at most
     * {@code bound} for the first message, and answers false when that was the lead's end of the
     * warm-up (its 8 bytes, in {@code smallIn}: the timed count).
     */
    private boolean pingPong(int peer, boolean lead, int count, Duration bound) {
        for (int i = 0; i < count; i++) {
            if (lead) {
                world.send(small, 0, 8, Datatype.BYTE, peer, PING);
                receive(world.irecv(smallIn, 0, 8, Datatype.BYTE, peer, PING), BOUND, "a ping");
            } else {
                Status s = receive(world.irecv(smallIn, 0, 8, Datatype.BYTE, peer, Ferry.ANY_TAG), i == 0 ? bound : BOUND, "a ping");
                if (s.tag() == WARM_END) {
                    return false;
                }
                world.send(small, 0, 8, Datatype.BYTE, peer, PING);
            }
        }
        return true;
    }

    /** Waits for {@code r} at most {@code bound}; a bound that runs out is an error naming {@code what}. */
    private static Status receive(Request r, Duration bound, String what) {
        if (!r.await(bound)) {
            r.cancel();
            throw new IllegalStateException("no " + what + " within " + bound.toSeconds() + " s");
        }
        return r.await();
    }
}
