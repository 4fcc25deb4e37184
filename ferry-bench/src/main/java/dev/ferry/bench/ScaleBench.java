package dev.ferry.bench;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.engine.EngineConfig;
import dev.ferry.core.engine.Inbox;
import dev.ferry.core.gate.ConnectionCounts;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.SendRequest;
import dev.ferry.launch.pmi.InProcessJob;
import dev.ferry.spi.IdleStrategy;
import dev.ferry.spi.Settings;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * {@code ferry bench scale}: what a rank of a large job owns. A job table of {@code --peers}
 * ranks of which {@code --live} run, as threads of this JVM with engines of their own over one
 * driver (the rest are peers never contacted, on nodes of 96 ranks each); rank 0 talks to the
 * live ones in turn, {@code --contacts} round trips in all, under FERRY_MAX_CONNECTIONS and
 * FERRY_IDLE_CLOSE, and reports the bytes Ferry holds (its own accounting, by kind) before the
 * first contact and after a quarter, half and all of them, per peer of the table; and the heap the
 * engines took, measured. Then the cost of a reconnect: the round trip of a message whose
 * connection had just closed idle, against one on an open connection (medians).
 *
 * <pre>
 * ferry bench scale --peers 100000
 * ferry bench scale --peers 100000 --driver tcp --format json
 * </pre>
 */
final class ScaleBench {
    static final String USAGE = """
            usage: ferry bench scale [--peers N] [--live L] [--contacts C] [--driver shm|tcp]
                                     [--max-connections K] [--idle-close D] [--reconnects R] [--format text|json]
              --peers N            ranks in the job table (default 100000)
              --live L             ranks that run and are contacted, rank 0 included (default 4)
              --contacts C         round trips rank 0 makes with the live ranks in turn (default 4000)
              --driver D           shm (default) or tcp
              --max-connections K  FERRY_MAX_CONNECTIONS (default 2)
              --idle-close D       FERRY_IDLE_CLOSE (default 5ms)
              --reconnects R       round trips timed after an idle close, and as many on an open connection (default 50)
              --format text|json   (default text)""";
    private static final Duration BOUND = Duration.ofSeconds(120);
    /** A message's wait: shorter than the job's, so that a hang says what the engine holds. */
    private static final Duration TAKE = Duration.ofSeconds(30);
    private static final long STOP = -1;

    private ScaleBench() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        int peers = 100_000;
        int live = 4;
        int contacts = 4_000;
        String driver = "shm";
        String cap = "2";
        String idle = "5ms";
        int reconnects = 50;
        boolean json = false;
        try {
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "--peers" -> peers = (int) BenchOptions.positive(BenchOptions.value(args, ++i, a), a);
                    case "--live" -> live = (int) BenchOptions.positive(BenchOptions.value(args, ++i, a), a);
                    case "--contacts" -> contacts = (int) BenchOptions.positive(BenchOptions.value(args, ++i, a), a);
                    case "--driver" -> driver = BenchOptions.value(args, ++i, a);
                    case "--max-connections" -> cap = BenchOptions.value(args, ++i, a);
                    case "--idle-close" -> idle = BenchOptions.value(args, ++i, a);
                    case "--reconnects" -> reconnects = (int) BenchOptions.positive(BenchOptions.value(args, ++i, a), a);
                    case "--format" -> {
                        String f = BenchOptions.value(args, ++i, a);
                        if (!f.equals("text") && !f.equals("json")) {
                            throw new UsageException("--format takes text or json, not '" + f + "'");
                        }
                        json = f.equals("json");
                    }
                    case "-h", "--help" -> {
                        out.println(USAGE);
                        return 0;
                    }
                    default -> throw new UsageException("unknown option '" + a + "' of ferry bench scale (see --help)");
                }
            }
            if (!driver.equals("shm") && !driver.equals("tcp")) {
                throw new UsageException("--driver takes shm or tcp, not '" + driver + "'");
            }
            if (live < 2 || live > peers || live > 16) {
                throw new UsageException("--live takes 2 to 16 ranks, at most --peers, not " + live);
            }
            Settings s = settings(driver).with("FERRY_MAX_CONNECTIONS", cap).with("FERRY_IDLE_CLOSE", idle);
            dev.ferry.core.config.EngineSettings.validate(s);
            Outcome o = measure(peers, live, contacts, reconnects, s);
            out.println(json ? o.json(peers, live, contacts, driver) : o.text(peers, live, contacts, driver));
            return 0;
        } catch (UsageException | IllegalArgumentException e) {
            err.println("ferry bench scale: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            err.println("ferry bench scale: failed: " + e);
            if (System.getenv("FERRY_DEBUG") != null) {
                e.printStackTrace(err);
            }
            return 1;
        }
    }

    private static Settings settings(String driver) {
        Settings s = Settings.fromEnvironment().with("FERRY_SAME_PROCESS", "node");
        return driver.equals("shm") ? s.with("FERRY_DRIVERS", "self,shm")
                : s.with("FERRY_DRIVERS", "self,tcp").with("FERRY_RANKS_PER_NODE", "1").with("FERRY_TCP_INTERFACES", "lo");
    }

    /** What rank 0 held at each checkpoint, the heap the engines took, and the reconnect figures. */
    record Outcome(List<Long> contactsAt, List<Map<String, Long>> held, List<ConnectionCounts> connections, long heapPerEngine,
                   double reconnectUs, double openUs, long heapPerGate) {
        long total(int i) {
            return held.get(i).values().stream().mapToLong(Long::longValue).sum();
        }

        String json(int peers, int live, int contacts, String driver) {
            int last = held.size() - 1;
            StringBuilder b = new StringBuilder("{\"benchmark\":\"scale\",\"driver\":\"").append(driver).append("\",\"peers\":").append(peers)
                    .append(",\"live\":").append(live).append(",\"contacts\":").append(contacts)
                    .append(",\"ferry_bytes\":").append(total(last)).append(",\"bytes_per_peer\":").append(String.format("%.1f", (double) total(last) / peers))
                    .append(",\"ferry_bytes_by_contacts\":{");
            for (int i = 0; i < held.size(); i++) {
                b.append(i == 0 ? "" : ",").append('"').append(contactsAt.get(i)).append("\":").append(total(i));
            }
            b.append("},\"held\":{");
            int k = 0;
            for (Map.Entry<String, Long> e : held.get(last).entrySet()) {
                b.append(k++ == 0 ? "" : ",").append('"').append(e.getKey()).append("\":").append(e.getValue());
            }
            ConnectionCounts c = connections.get(last);
            return b.append("},\"connections_open\":").append(c.open()).append(",\"connections_opened\":").append(c.opened())
                    .append(",\"closed_idle\":").append(c.closedIdle()).append(",\"evicted\":").append(c.evicted())
                    .append(",\"heap_per_engine\":").append(heapPerEngine).append(",\"heap_per_gate_made\":").append(heapPerGate)
                    .append(",\"reconnect_rtt_us\":").append(String.format("%.1f", reconnectUs))
                    .append(",\"open_rtt_us\":").append(String.format("%.1f", openUs)).append('}').toString();
        }

        String text(int peers, int live, int contacts, String driver) {
            StringBuilder b = new StringBuilder(String.format("scale over %s: a job table of %,d ranks, %d running; rank 0 holds:%n", driver, peers, live));
            for (int i = 0; i < held.size(); i++) {
                ConnectionCounts c = connections.get(i);
                b.append(String.format("  after %,6d contacts: %,11d bytes (%.1f per peer of the table); connections %s%n",
                        contactsAt.get(i), total(i), (double) total(i) / peers, c));
            }
            b.append("  by kind:");
            held.get(held.size() - 1).forEach((k, v) -> b.append(String.format(" %s %,d;", k, v)));
            b.append(String.format("%n  heap per engine, measured: %,d bytes; per gate made (a peer once contacted, connection closed): %,d bytes%n",
                    heapPerEngine, heapPerGate));
            b.append(String.format("  round trip of 8 B: %.1f us on an open connection, %.1f us right after an idle close (the reconnect)", openUs, reconnectUs));
            return b.toString();
        }
    }

    private static long heapUsed() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void until(Engine e, BooleanSupplier done, String what) {
        long start = System.nanoTime();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - start > BOUND.toNanos()) {
                throw new IllegalStateException("rank " + e.rank() + ": " + what + " not within " + BOUND);
            }
            e.progress();
            IdleStrategy.DEFAULT.idle(System.nanoTime() - start);
        }
    }

    private static Outcome measure(int peers, int live, int contacts, int reconnects, Settings settings) throws Exception {
        List<Long> at = new ArrayList<>();
        List<Map<String, Long>> held = new ArrayList<>();
        List<ConnectionCounts> conns = new ArrayList<>();
        AtomicLong heapBefore = new AtomicLong();
        AtomicLong heapAfter = new AtomicLong();
        java.util.concurrent.CyclicBarrier started = new java.util.concurrent.CyclicBarrier(live);
        AtomicBoolean done = new AtomicBoolean();
        double[] rtts = new double[2];
        AtomicLong gateHeap = new AtomicLong();
        try (InProcessJob job = InProcessJob.sparse(peers, live)) {
            // peers elsewhere, never contacted; over shm, those whose gates are made at the end are on this node
            boolean shm = settings.value(dev.ferry.core.config.FerrySettings.DRIVERS).contains("shm");
            String here = dev.ferry.launch.pmi.NodeId.of(0, job.bootstrap(0).node(), null);
            for (int r = live; r < peers; r++) {
                dev.ferry.launch.pmi.KeyValues.put(job.bootstrap(0), "ferry.node." + r, shm && r < live + GATES ? here : "far-node-" + r / 96);
                dev.ferry.launch.pmi.KeyValues.put(job.bootstrap(0), "ferry.process." + r, "elsewhere");
            }
            heapBefore.set(heapUsed());
            job.runAll(BOUND, boot -> {
                Inbox inbox = new Inbox();
                try (Engine e = Engine.init(new EngineConfig().bootstrap(boot).settings(settings), inbox)) {
                    inbox.attach(e);
                    started.await();
                    MemorySegment word = Arena.ofAuto().allocate(8);
                    if (e.rank() == 0) {
                        heapAfter.set(heapUsed());
                        int[] checkpoints = {0, contacts / 4, contacts / 2, contacts};
                        int next = 0;
                        for (int i = 0; i <= contacts; i++) {
                            if (next < checkpoints.length && i == checkpoints[next]) {
                                at.add((long) i);
                                held.add(new LinkedHashMap<>(e.bytesHeld()));
                                conns.add(e.connections());
                                next++;
                            }
                            if (i < contacts) {
                                roundTrip(e, inbox, 1 + i % (live - 1), word);
                            }
                        }
                        rtts[0] = reconnectRtt(e, inbox, word, reconnects);
                        rtts[1] = openRtt(e, inbox, word, reconnects);
                        gateHeap.set(gateHeap(e, boot, Math.min(GATES, peers - live), live));
                        for (int p = 1; p < live; p++) {
                            SendRequest s = new SendRequest();
                            e.send(s.to(p, STOP, word));
                            s.join(BOUND);
                        }
                        done.set(true);
                    } else {
                        while (true) { // echo rank 0's words until it says stop
                            Message m = inbox.take(x -> x.source() == 0, TAKE);
                            long h = m.header();
                            m.drop();
                            if (h == STOP) {
                                break;
                            }
                            SendRequest s = new SendRequest();
                            e.send(s.to(0, h, word));
                            s.join(BOUND);
                        }
                        until(e, done::get, "rank 0's end"); // answering its close requests meanwhile
                    }
                }
            });
        }
        long heapPerEngine = Math.max(0, (heapAfter.get() - heapBefore.get()) / live);
        return new Outcome(at, held, conns, heapPerEngine, rtts[0], rtts[1], gateHeap.get());
    }

    /** Gates made, for peers that do not run, to measure a gate's heap. */
    private static final int GATES = 10_000;

    /**
     * Makes gates to {@code n} peers that do not run (their URLs shaped like rank 1's), connecting
     * none, and returns the heap each took, measured.
     */
    private static long gateHeap(Engine e, dev.ferry.launch.pmi.Bootstrap boot, int n, int live) {
        if (n <= 0) {
            return 0;
        }
        List<String> drivers = e.rails(1);
        for (int r = live; r < live + n; r++) {
            for (String d : drivers) {
                String u = dev.ferry.launch.pmi.KeyValues.get(boot, "ferry.url.1." + d);
                dev.ferry.launch.pmi.KeyValues.put(boot, "ferry.url." + r + "." + d, u.replace("-r1-", "-r" + r + "-").replace("/1", "/" + r));
            }
        }
        long before = heapUsed();
        for (int r = live; r < live + n; r++) {
            e.gate(r);
        }
        return Math.max(0, (heapUsed() - before) / n);
    }

    private static void roundTrip(Engine e, Inbox inbox, int peer, MemorySegment word) {
        SendRequest s = new SendRequest();
        e.send(s.to(peer, 1, word));
        inbox.take(x -> x.source() == peer, TAKE).drop();
        s.join(BOUND);
    }

    /** Median round trip with rank 1 right after its connection closed idle (so each includes a reconnect), in us. */
    private static double reconnectRtt(Engine e, Inbox inbox, MemorySegment word, int n) {
        double[] us = new double[n];
        for (int i = 0; i < n; i++) {
            until(e, () -> !e.isConnected(1), "the idle close");
            long t0 = System.nanoTime();
            roundTrip(e, inbox, 1, word);
            us[i] = (System.nanoTime() - t0) / 1e3;
        }
        return Stats.median(us);
    }

    /** Median round trip with rank 1 on an open connection, in us. */
    private static double openRtt(Engine e, Inbox inbox, MemorySegment word, int n) {
        double[] us = new double[n];
        roundTrip(e, inbox, 1, word);
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            roundTrip(e, inbox, 1, word);
            us[i] = (System.nanoTime() - t0) / 1e3;
        }
        return Stats.median(us);
    }
}
