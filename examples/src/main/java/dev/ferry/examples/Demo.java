package dev.ferry.examples;


import dev.ferry.core.engine.Engine;
import dev.ferry.core.engine.Inbox;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.SendRequest;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine at work on every pair of ranks, one pair at a time: the pair measures an 8-byte ping-pong (immediate protocol) and 4 MiB transfers (rendezvous), with every
 * byte checked; rank 0 prints which rails and protocol each pair used and how fast. Run as
 * {@code ferry demo}: four ranks playing two nodes, so same-node pairs use shm and the others tcp.
 * The ping-pong lasts about half a second whatever the machine's load (its count follows the
 * warm-up's pace, up to PINGS), and a rank waiting for its turn allows a bound per pair still
 * ahead of it, so a busy machine slows the demo down but does not fail it.
 *
 * <pre>
 *   bin/ferry demo
 *   bin/ferry run -n 4 --ranks-per-node 2 --example demo [PINGS]
 * </pre>
 */
public final class Demo {
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final long PING = 1, DATA = 2, ACK = 3, REPORT = 4, TURN = 5, RESULT = 6, WARM_END = 7, DONE = 8;
    private static int PINGS = 100_000;
    /** How long each pair's timed ping-pong lasts, about. */
    private static final long PING_NANOS = 500_000_000L;
    private static final int BULK = 50;
    private static final long BULK_BYTES = 4L << 20;

    private Demo() {
    }

    public static void main(String[] args) {
        if (args.length > 0) {
            PINGS = Integer.parseInt(args[0]);
        }
        Inbox inbox = new Inbox();
        try (Engine e = Engine.init(inbox)) {
            inbox.attach(e);
            int n = e.size();
            int me = e.rank();
            MemorySegment out = e.memory().allocate(BULK_BYTES);
            MemorySegment in = e.memory().allocate(BULK_BYTES);
            for (long i = 0; i < BULK_BYTES; i += 8) {
                out.set(ValueLayout.JAVA_LONG, i, i * 0x9E3779B97F4A7C15L);
            }
            List<String> mine = new ArrayList<>();
            // Every pair in turn, alone, so each measures the link and not the two cores' sharing:
            // the leading (lower) rank of a pair waits for the previous pair's lead to pass the turn.
            List<int[]> pairs = new ArrayList<>();
            for (int a = 0; a < n; a++) {
                for (int b = a + 1; b < n; b++) {
                    pairs.add(new int[] {a, b});
                }
            }
            SendRequest turn = new SendRequest();
            int lastPair = -1;
            for (int k = 0; k < pairs.size(); k++) {
                int a = pairs.get(k)[0], b = pairs.get(k)[1];
                if (me != a && me != b) {
                    continue;
                }
                // waiting here covers every pair between this rank's last one and this one
                Duration wait = BOUND.multipliedBy(k - lastPair);
                lastPair = k;
                if (me == a && k > 0 && pairs.get(k - 1)[0] != me) {
                    int prev = pairs.get(k - 1)[0];
                    inbox.take(m -> m.source() == prev && m.header() == TURN, wait).drop();
                }
                String line = pair(e, inbox, me, me == a ? b : a, out, in, wait);
                if (line != null) {
                    mine.add(line);
                }
                if (me == a && k + 1 < pairs.size() && pairs.get(k + 1)[0] != me) {
                    e.send(turn.to(pairs.get(k + 1)[0], TURN, out.asSlice(0, 0)));
                    turn.join(BOUND);
                }
            }
            SendRequest s = new SendRequest();
            if (me != 0) {
                byte[] text = String.join("\n", mine).getBytes(StandardCharsets.UTF_8);
                MemorySegment m = java.lang.foreign.Arena.ofAuto().allocate(Math.max(1, text.length));
                MemorySegment.copy(text, 0, m, ValueLayout.JAVA_BYTE, 0, text.length);
                e.send(s.to(0, REPORT, m.asSlice(0, text.length)));
                s.join(BOUND);
                // leave with the others: a rank done early would otherwise wait at close, alone, and go
                inbox.take(x -> x.source() == 0 && x.header() == DONE, BOUND.multipliedBy(pairs.size())).drop();
            } else {
                List<String> all = new ArrayList<>(mine);
                for (int k = 1; k < n; k++) {
                    Message r = inbox.take(x -> x.header() == REPORT, BOUND.multipliedBy(pairs.size()));
                    String t = new String(r.payload().toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
                    r.drop();
                    if (!t.isEmpty()) {
                        all.addAll(List.of(t.split("\n")));
                    }
                }
                all.sort(null);
                System.out.printf("ferry demo: %d ranks on %d node(s); each pair: 8 B ping-pongs for about %.1f s (at most %d), %d x 4 MiB, "
                                + "every byte checked%n",
                        n, java.util.stream.IntStream.range(0, n).mapToObj(e::node).distinct().count(), PING_NANOS / 1e9, PINGS, BULK);
                System.out.printf("%-6s %-10s %-9s %-28s %-34s%n", "pair", "peers", "rails", "8 B one-way (immediate)", "4 MiB (rendezvous)");
                all.forEach(System.out::println);
                for (int k = 1; k < n; k++) {
                    e.send(s.to(k, DONE, out.asSlice(0, 0)));
                    s.join(BOUND);
                }
            }
        }
    }

    /** Measures one pair ({@code wait}: how long the follower may wait for the lead to start); the lower rank returns its report line. */
    private static String pair(Engine e, Inbox inbox, int me, int peer, MemorySegment out, MemorySegment in, Duration wait) {
        boolean lead = me < peer;
        SendRequest s = new SendRequest();
        RecvRequest r = new RecvRequest();
        MemorySegment small = out.asSlice(0, 8);
        MemorySegment smallIn = in.asSlice(0, 8);
        // Warm-up, untimed, until the lead's JIT has compiled nothing for 0.25 s (at least 0.3 s, at most 5 s):
        // measured before that, the figure is partly the compiler's.
        int pings;
        if (lead) {
            java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
            long start = System.nanoTime(), quietSince = start, compiled = jit.getTotalCompilationTime();
            long roundTrip;
            while (true) {
                long b = System.nanoTime();
                pingPong(e, inbox, s, r, peer, small, smallIn, true, 1000, BOUND);
                long now = System.nanoTime(), c = jit.getTotalCompilationTime();
                roundTrip = Math.max(1, (now - b) / 1000);
                if (c != compiled) {
                    compiled = c;
                    quietSince = now;
                }
                if (now - start > 5_000_000_000L || (now - start > 300_000_000L && now - quietSince > 250_000_000L)) {
                    break;
                }
            }
            pings = (int) Math.max(1000, Math.min(PINGS, PING_NANOS / roundTrip)); // at the warm-up's last pace
            small.set(ValueLayout.JAVA_LONG, 0, pings);
            pingPong(e, inbox, s, r, peer, small, smallIn, true, -1, BOUND); // tells the peer the warm-up is over, and the count
            small.set(ValueLayout.JAVA_LONG, 0, 0L); // back to the pattern the 4 MiB checks compare
        } else {
            Duration first = wait;
            while (pingPong(e, inbox, s, r, peer, small, smallIn, false, 1000, first)) {
                first = BOUND;
                Thread.onSpinWait(); // until the lead's warm-up ends
            }
            pings = (int) smallIn.get(ValueLayout.JAVA_LONG, 0);
        }
        long t0 = System.nanoTime();
        pingPong(e, inbox, s, r, peer, small, smallIn, lead, pings, BOUND);
        double oneWayUs = (System.nanoTime() - t0) / 2.0 / pings / 1000;
        long t1 = 0;
        long checking = 0;
        for (int i = -3; i < BULK; i++) { // three untimed
            if (i == 0) {
                t1 = System.nanoTime();
                checking = 0;
            }
            if (lead) {
                e.send(s.to(peer, DATA, out));
                s.join(BOUND);
                take(inbox, peer, ACK).drop();
            } else {
                take(inbox, peer, DATA).receive(in, r);
                r.join(BOUND);
                long c0 = System.nanoTime();
                long bad = in.mismatch(out);
                if (bad != -1) {
                    throw new IllegalStateException("4 MiB from rank " + peer + " differ at byte " + bad);
                }
                checking += System.nanoTime() - c0;
                e.send(s.to(peer, ACK, small.asSlice(0, 0)));
                s.join(BOUND);
            }
        }
        double mbps = (double) BULK * BULK_BYTES / (System.nanoTime() - t1 - checking) * 1000;
        if (!lead) {
            MemorySegment figure = java.lang.foreign.Arena.ofAuto().allocate(8); // not in out: out is the pattern
            figure.set(ValueLayout.JAVA_DOUBLE, 0, mbps); // the receiver's figure: its checks not counted
            e.send(s.to(peer, RESULT, figure));
            s.join(BOUND);
            return null;
        }
        Message res = take(inbox, peer, RESULT);
        mbps = res.payload().get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0);
        res.drop();
        String kind = e.node(me).equals(e.node(peer)) ? "same node" : "remote";
        return String.format("%-6s %-10s %-9s %-28s %-34s", me + "-" + peer, kind, String.join("+", e.rails(peer)),
                String.format("%.2f us (%d)", oneWayUs, pings), String.format("%.0f MB/s", mbps));
    }

    /**
     * {@code count} ping-pongs (the lead sends first); a lead's count of -1 sends one message that
     * ends the follower's warm-up loop (its 8 bytes: the timed count), and the follower answers
     * false when it got it. The follower waits at most {@code bound} for the first message.
     */
    private static boolean pingPong(Engine e, Inbox inbox, SendRequest s, RecvRequest r, int peer,
                                    MemorySegment small, MemorySegment smallIn, boolean lead, int count, Duration bound) {
        if (count < 0) {
            e.send(s.to(peer, WARM_END, small));
            s.join(BOUND);
            return true;
        }
        for (int i = 0; i < count; i++) {
            if (lead) {
                e.send(s.to(peer, PING, small));
                s.join(BOUND);
                take(inbox, peer, PING).receive(smallIn, r);
            } else {
                Message m = inbox.take(x -> x.source() == peer && (x.header() == PING || x.header() == WARM_END), i == 0 ? bound : BOUND);
                if (m.header() == WARM_END) {
                    MemorySegment.copy(m.payload(), 0, smallIn, 0, 8);
                    m.drop();
                    return false;
                }
                m.receive(smallIn, r);
                e.send(s.to(peer, PING, small));
                s.join(BOUND);
            }
            r.join(BOUND);
        }
        return true;
    }

    private static Message take(Inbox inbox, int peer, long header) {
        return inbox.take(m -> m.source() == peer && m.header() == header, BOUND);
    }
}
