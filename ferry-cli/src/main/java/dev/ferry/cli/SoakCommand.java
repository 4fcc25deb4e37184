package dev.ferry.cli;

import dev.ferry.launch.run.Job;
import dev.ferry.launch.run.JobSpec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.ferry.cli.OptionValues.number;
import static dev.ferry.cli.OptionValues.value;

/**
 * {@code ferry soak}: two jobs, each for half the time, over every driver at once (with
 * {@code --ranks-per-node}, shm within a "node", tcp between): {@link SoakRank}s exchanging
 * checksummed point-to-point messages of random sizes between every pair of ranks (the engine),
 * then {@link SoakRma}s putting, getting and fetch-adding in each other's windows, directly and
 * by message (the Portals library). Then the sum of what every rank counted: messages (or
 * operations) and bytes moved, and lost, duplicated, corrupted and reordered ones, which must
 * all be 0. With
 * {@code --chaos}, in each phase one random rank is killed (SIGKILL) at a random moment: every survivor must
 * report the failure within {@link #REPORT_BOUND}, and nothing of the job may be left on the
 * machine. With {@code --chaos --recover}, one job of the application API instead ({@link SoakRecovery}):
 * ranks killed one after another, the survivors revoking, agreeing and shrinking, and going on to
 * the end with every round they count moved whole between them.
 *
 * <pre>
 * ferry soak -n 4 --ranks-per-node 2 --duration 60
 * ferry soak -n 4 --ranks-per-node 2 --duration 30 --chaos --format json
 * ferry soak -n 6 --duration 30 --chaos --recover --kills 2
 * ferry soak -n 4 --duration 20 --idle-close 5ms --max-connections 2
 * ferry soak -n 8 --ranks-per-node 8 --duration 20 --shm-rings 1
 * </pre>
 * With {@code --idle-close} or {@code --max-connections}, the ranks run with FERRY_IDLE_CLOSE and
 * FERRY_MAX_CONNECTIONS, pause together now and then so that connections fall idle, and the report
 * adds the connections opened, closed idle and evicted, which must not all be 0.
 */
final class SoakCommand {
    static final String USAGE = """
            usage: ferry soak [-n N] [--ranks-per-node K] [--duration SECONDS] [--max-size BYTES]
                              [--drivers LIST] [--seed S] [--chaos [--recover [--kills K]]]
                              [--idle-close DURATION] [--max-connections K] [--shm-rings K]
                              [--agent on|off] [--format text|json]
              -n N                ranks (default 4)
              --ranks-per-node K  ranks per played node (default 2: shm within, tcp between)
              --duration S        seconds of traffic (default 60)
              --max-size B        largest message (default 4194304)
              --drivers LIST      FERRY_DRIVERS for the ranks (default: every driver found; the played
                                  nodes talk over tcp on lo unless FERRY_TCP_INTERFACES says otherwise)
              --seed S            the random traffic's seed, to replay a run (default: the clock; the
                                  report names the one used)
              --chaos             kill a random rank at a random moment; check the survivors notice
                                  within 10 s and that nothing of the job is left
              --recover           with --chaos: one job on the application API whose survivors
                                  recover (revoke, agree, shrink) and go on to the end; each
                                  round they count held is checked byte by byte; the time from
                                  each death to a working shrunk communicator is reported
              --kills K           ranks --recover kills, one soon after the other (default 2,
                                  at most n - 1)
              --idle-close D      FERRY_IDLE_CLOSE for the ranks (e.g. 5ms): connections unused that
                                  long close and reopen on next use; the ranks pause together for
                                  3 D in every 30 D so that they do
              --max-connections K FERRY_MAX_CONNECTIONS for the ranks: beyond K connections per
                                  driver the least recently used one closes
              --shm-rings K       FERRY_SHM_RINGS for the ranks: a rank receives from K shm peers
                                  through rings of their own, from the others through its
                                  shared queue (a count, all or auto)
              --agent on|off      FERRY_AGENT for the ranks: with on, the played nodes talk
                                  through their node agents (default: the environment's, else off);
                                  the point-to-point phase reports the rails its ranks used
              --format text|json  the report as lines of text (default) or one JSON object per phase
                                  and one for the whole run
              -h, --help          this text""";
    static final Duration REPORT_BOUND = Duration.ofSeconds(10);
    static final Pattern COUNTS = Pattern.compile("soak rank (\\d+): sent (\\d+) messages (\\d+) bytes; received (\\d+) messages (\\d+) bytes; "
            + "lost (\\d+) duplicated (\\d+) corrupted (\\d+) reordered (\\d+) send-failed (\\d+) failed-peers (\\d+)");
    static final Pattern STARTED = Pattern.compile("soak rank (\\d+) pid (\\d+) started at (\\d+)");
    static final Pattern CONNECTIONS = Pattern.compile("soak rank (\\d+) connections: open (\\d+) opened (\\d+) closed-idle (\\d+) evicted (\\d+)");
    /** The rails a rank's gates use, over all its peers (the point-to-point phase's ranks say). */
    static final Pattern RAILS = Pattern.compile("soak rank (\\d+) rails: (.*)");
    private static final Pattern SAW = Pattern.compile("soak rank (\\d+) saw rank (\\d+) fail at (\\d+).*");

    private SoakCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        int n = 4;
        int perNode = 2;
        long duration = 60;
        long maxSize = 4 << 20;
        String drivers = null;
        long seed = System.nanoTime();
        boolean chaos = false;
        boolean recover = false;
        int kills = 2;
        boolean json = false;
        String idleClose = null;
        long idleCloseNanos = 0;
        String maxConnections = null;
        String shmRings = null;
        String agent = null;
        try {
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "-n" -> n = (int) number(args, ++i, a, 2, 64);
                    case "--ranks-per-node" -> perNode = (int) number(args, ++i, a, 1, 64);
                    case "--duration" -> duration = number(args, ++i, a, 1, 7 * 24 * 3600);
                    case "--max-size" -> maxSize = number(args, ++i, a, 8, 64 << 20);
                    case "--drivers" -> drivers = value(args, ++i, a);
                    case "--seed" -> seed = number(args, ++i, a, 0, Long.MAX_VALUE);
                    case "--chaos" -> chaos = true;
                    case "--recover" -> recover = true;
                    case "--kills" -> kills = (int) number(args, ++i, a, 1, 63);
                    case "--idle-close" -> {
                        idleClose = value(args, ++i, a);
                        try {
                            idleCloseNanos = dev.ferry.core.config.EngineSettings.duration(dev.ferry.core.config.EngineSettings.IDLE_CLOSE, idleClose);
                        } catch (IllegalArgumentException e) {
                            throw new Program.UsageError("--idle-close: " + e.getMessage());
                        }
                        if (idleCloseNanos == 0) {
                            throw new Program.UsageError("--idle-close off closes nothing: leave the option out");
                        }
                    }
                    case "--max-connections" -> maxConnections = String.valueOf(number(args, ++i, a, 1, 1 << 20));
                    case "--shm-rings" -> {
                        shmRings = value(args, ++i, a);
                        if (!shmRings.matches("all|auto|\\d{1,7}")) {
                            throw new Program.UsageError("--shm-rings must be a count of peers (0 or more), all or auto, not '" + shmRings + "'");
                        }
                    }
                    case "--agent" -> {
                        agent = value(args, ++i, a);
                        if (!agent.equals("on") && !agent.equals("off")) {
                            throw new Program.UsageError("--agent is on or off, not '" + agent + "'");
                        }
                    }
                    case "--format" -> {
                        String f = value(args, ++i, a);
                        if (!f.equals("json") && !f.equals("text")) {
                            throw new Program.UsageError("--format is text or json, not '" + f + "'");
                        }
                        json = f.equals("json");
                    }
                    case "-h", "--help" -> {
                        out.println(USAGE);
                        return 0;
                    }
                    default -> throw new Program.UsageError("unknown option '" + a + "' (see 'ferry soak --help')");
                }
            }
            if (recover && !chaos) {
                throw new Program.UsageError("--recover recovers from --chaos: give both");
            }
            if (recover && kills >= n) {
                throw new Program.UsageError("--kills " + kills + " leaves no survivor of " + n + " ranks (at most " + (n - 1) + ")");
            }
        } catch (Program.UsageError e) {
            err.println("ferry soak: " + e.getMessage());
            return 2;
        }
        Map<String, String> env = new LinkedHashMap<>();
        env.put(dev.ferry.launch.LaunchSettings.RANKS_PER_NODE.name(), String.valueOf(perNode));
        if (System.getenv("FERRY_TCP_INTERFACES") == null) {
            env.put("FERRY_TCP_INTERFACES", "lo"); // the played nodes are this machine
        }
        if (drivers != null) {
            env.put("FERRY_DRIVERS", drivers);
        }
        long quietMs = 0;
        if (idleClose != null) {
            env.put(dev.ferry.core.config.EngineSettings.IDLE_CLOSE.name(), idleClose);
            quietMs = Math.max(1, 3 * idleCloseNanos / 1_000_000);
        }
        if (maxConnections != null) {
            env.put(dev.ferry.core.config.EngineSettings.MAX_CONNECTIONS.name(), maxConnections);
        }
        if (shmRings != null) {
            env.put("FERRY_SHM_RINGS", shmRings);
        }
        if (agent != null) {
            env.put(dev.ferry.core.agent.AgentSettings.AGENT.name(), agent);
        }
        boolean closing = idleClose != null || maxConnections != null;
        dev.ferry.bench.Progress progress = dev.ferry.bench.Progress.forTerminal(err);
        if (recover) {
            SoakRecovery.Outcome o;
            try (dev.ferry.bench.Progress.Shown bar = progress.timed("soak recover", Duration.ofSeconds(duration))) {
                o = SoakRecovery.run(n, kills, env, duration, seed, maxSize, err);
            } catch (IOException e) {
                err.println("ferry soak: " + e.getMessage());
                return 1;
            }
            out.println(json ? o.json(n, duration, seed) : o.text(n, duration, seed));
            o.problems().forEach(p -> err.println("ferry soak: " + p));
            return o.problems().isEmpty() ? 0 : 1;
        }
        // Point-to-point on the engine, then one-sided on the Portals library: half the time each.
        long half = Math.max(1, duration / 2);
        Phase p2p, rma;
        try (dev.ferry.bench.Progress.Shown bar = progress.timed("soak p2p", Duration.ofSeconds(half))) {
            p2p = phase("p2p", SoakRank.class, n, env, half, seed, maxSize, chaos, quietMs, closing, err);
        }
        try (dev.ferry.bench.Progress.Shown bar = progress.timed("soak rma", Duration.ofSeconds(Math.max(1, duration - half)))) {
            rma = phase("rma", SoakRma.class, n, env, Math.max(1, duration - half), seed + 1, maxSize, chaos, quietMs, closing, err);
        }
        if (p2p == null || rma == null) {
            return 1;
        }
        long[] sum = new long[11];
        for (Phase ph : List.of(p2p, rma)) {
            for (int k = 1; k < 11; k++) {
                sum[k] += ph.sum[k];
            }
        }
        List<String> problems = new ArrayList<>(p2p.problems);
        problems.addAll(rma.problems);
        for (Phase ph : List.of(p2p, rma)) {
            out.println(json ? ph.json(n, perNode, seed, chaos) : ph.text(n, perNode, seed, chaos));
        }
        if (json) {
            out.println("{\"benchmark\":\"soak\",\"phase\":\"all\",\"ranks\":" + n + ",\"duration_s\":" + duration + ",\"seed\":" + seed
                    + ",\"chaos\":" + chaos + ",\"messages\":" + sum[3] + ",\"bytes\":" + sum[4] + ",\"lost\":" + sum[5]
                    + ",\"duplicated\":" + sum[6] + ",\"corrupted\":" + sum[7] + ",\"reordered\":" + sum[8]
                    + (chaos ? ",\"slowest_report_ms\":" + Math.max(p2p.slowest, rma.slowest) : "")
                    + ",\"left\":" + (p2p.left.size() + rma.left.size()) + ",\"ok\":" + problems.isEmpty() + "}");
        }
        for (String p : problems) {
            err.println("ferry soak: " + p);
        }
        return problems.isEmpty() ? 0 : 1;
    }

    /** What one phase's job moved and found. */
    private record Phase(String name, long seconds, double elapsed, long[] sum, int victim, long slowest, List<String> left, List<String> problems,
                         long[] connections, java.util.SortedSet<String> rails) {
        String json(int n, int perNode, long seed, boolean chaos) {
            String c = connections == null ? "" : ",\"connections_opened\":" + connections[1] + ",\"closed_idle\":" + connections[2]
                    + ",\"evicted\":" + connections[3];
            if (!rails.isEmpty()) {
                c += ",\"rails\":\"" + String.join(" ", rails) + "\"";
            }
            return "{\"benchmark\":\"soak\",\"phase\":\"" + name + "\",\"ranks\":" + n + ",\"ranks_per_node\":" + perNode + c
                    + ",\"duration_s\":" + seconds + ",\"seed\":" + seed + ",\"chaos\":" + chaos + ",\"messages\":" + sum[3]
                    + ",\"bytes\":" + sum[4] + ",\"lost\":" + sum[5] + ",\"duplicated\":" + sum[6] + ",\"corrupted\":" + sum[7]
                    + ",\"reordered\":" + sum[8] + (chaos ? ",\"killed_rank\":" + victim + ",\"slowest_report_ms\":" + slowest : "")
                    + ",\"left\":" + left.size() + ",\"ok\":" + problems.isEmpty() + "}";
        }

        String text(int n, int perNode, long seed, boolean chaos) {
            String s = String.format("soak %s: %d ranks (%d per node), %d s, seed %d: %d %s, %d bytes (%.1f MB/s) moved; lost %d, duplicated %d, corrupted %d, reordered %d",
                    name, n, perNode, seconds, seed, sum[3], name.equals("p2p") ? "messages" : "operations", sum[4], sum[4] / elapsed / 1e6,
                    sum[5], sum[6], sum[7], sum[8]);
            if (!rails.isEmpty()) {
                s += String.format("%nsoak %s: rails %s", name, String.join(" ", rails));
            }
            if (connections != null) {
                s += String.format("%nsoak %s: connections opened %d, closed idle %d, evicted %d (all ranks)", name, connections[1], connections[2], connections[3]);
            }
            return chaos ? s + "\nsoak " + name + ": chaos killed rank " + victim + "; every survivor reported it within " + slowest
                    + " ms (bound " + REPORT_BOUND.toMillis() + " ms); left on the machine: " + left.size() : s;
        }
    }

    /** Runs one phase: a job of {@code main} ranks for {@code duration} seconds, perhaps with chaos; null when it could not start. */
    private static Phase phase(String name, Class<?> main, int n, Map<String, String> env, long duration, long seed, long maxSize,
                               boolean chaos, long quietMs, boolean closing, PrintStream err) {
        List<String> jvm = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED", "-Xss1m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), main.getName(),
                String.valueOf(duration * 1000), String.valueOf(seed), String.valueOf(maxSize), String.valueOf(quietMs)));
        Duration timeout = Duration.ofSeconds(duration + 300);
        Duration grace = chaos ? REPORT_BOUND.plusSeconds(5) : Duration.ofSeconds(10);
        Map<Integer, long[]> started = new ConcurrentHashMap<>(); // rank -> {pid, ms}
        Map<Integer, long[]> counts = new ConcurrentHashMap<>();
        Map<Integer, Long> sawAt = new ConcurrentHashMap<>();
        Map<Integer, long[]> connections = new ConcurrentHashMap<>();
        java.util.SortedSet<String> rails = new java.util.concurrent.ConcurrentSkipListSet<>();
        List<String> other = new CopyOnWriteArrayList<>();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        Consumer<String> line = l -> {
            String s = l.replaceFirst("^\\[\\d+\\] ", "");
            Matcher m;
            if ((m = STARTED.matcher(s)).matches()) {
                started.put(Integer.parseInt(m.group(1)), new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3))});
            } else if ((m = COUNTS.matcher(s)).matches()) {
                long[] c = counts(m);
                counts.put((int) c[0], c);
            } else if ((m = CONNECTIONS.matcher(s)).matches()) {
                connections.put(Integer.parseInt(m.group(1)), new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                        Long.parseLong(m.group(4)), Long.parseLong(m.group(5))});
            } else if ((m = RAILS.matcher(s)).matches()) {
                rails.addAll(List.of(m.group(2).split(" ")));
            } else if ((m = SAW.matcher(s)).matches()) {
                sawAt.merge(Integer.parseInt(m.group(1)), Long.parseLong(m.group(3)), Math::min);
            } else {
                other.add(l);
            }
        };
        Job job = new Job(new JobSpec(n, jvm, env, true, timeout, grace), new PrintStream(new Lines(line), true, StandardCharsets.UTF_8),
                new PrintStream(errors, true, StandardCharsets.UTF_8));
        int victim = -1;
        long[] killedAt = {0};
        if (chaos) {
            SplittableRandom r = new SplittableRandom(seed);
            victim = r.nextInt(n);
            long at = (long) (duration * 1000 * (0.2 + 0.6 * r.nextDouble()));
            int v = victim;
            Thread.ofPlatform().daemon().name("ferry-soak-chaos").start(() -> {
                // every rank up first: the moment is counted from the last one's start
                long until = System.nanoTime() + timeout.toNanos();
                while (started.size() < n && System.nanoTime() - until < 0) {
                    LockSupport.parkNanos(10_000_000);
                }
                LockSupport.parkNanos(at * 1_000_000);
                long[] p = started.get(v);
                if (p != null) {
                    killedAt[0] = System.currentTimeMillis();
                    ProcessHandle.of(p[0]).ifPresent(ProcessHandle::destroyForcibly);
                }
            });
        }
        long t0 = System.nanoTime();
        int status;
        try {
            status = job.run();
        } catch (IOException e) {
            err.println("ferry soak: " + e.getMessage());
            return null;
        }
        double elapsed = (System.nanoTime() - t0) / 1e9;
        long[] sum = new long[11];
        for (long[] c : counts.values()) {
            for (int k = 1; k < 11; k++) {
                sum[k] += c[k];
            }
        }
        List<String> left = leftovers(job.jobId(), started);
        List<String> problems = new ArrayList<>();
        long[] conns = null;
        if (closing && !connections.isEmpty()) {
            conns = new long[4];
            for (long[] c : connections.values()) {
                for (int k = 0; k < 4; k++) {
                    conns[k] += c[k];
                }
            }
            if (!chaos && conns[2] + conns[3] == 0) {
                problems.add(name + ": no connection was closed idle or evicted: the options were not exercised");
            }
        }
        long slowest = -1;
        if (chaos) {
            if (killedAt[0] == 0) {
                problems.add(name + ": rank " + victim + " was not killed (the job ended first)");
            }
            for (int rk = 0; rk < n; rk++) {
                if (rk == victim || killedAt[0] == 0) {
                    continue;
                }
                Long saw = sawAt.get(rk);
                if (saw == null) {
                    problems.add(name + ": rank " + rk + " never reported rank " + victim + "'s failure");
                } else {
                    slowest = Math.max(slowest, saw - killedAt[0]);
                }
            }
            if (slowest > REPORT_BOUND.toMillis()) {
                problems.add(name + ": a survivor reported the failure only after " + slowest + " ms");
            }
        } else {
            if (status != 0) {
                problems.add(name + ": the job ended with status " + status);
            }
            if (counts.size() != n) {
                problems.add(name + ": only " + counts.size() + " of " + n + " ranks reported their counts");
            }
            if (sum[1] != sum[3]) {
                problems.add(name + ": " + sum[1] + " sent, " + sum[3] + " received");
            }
        }
        for (int k = 5; k <= 8; k++) {
            if (sum[k] != 0) {
                problems.add(name + ": " + sum[k] + " " + new String[] {"lost", "duplicated", "corrupted", "reordered"}[k - 5]);
            }
        }
        if (!left.isEmpty()) {
            problems.add(name + ": left on the machine: " + left);
        }
        if (!problems.isEmpty()) {
            err.print(errors.toString(StandardCharsets.UTF_8));
            other.forEach(err::println);
        }
        return new Phase(name, duration, elapsed, sum, victim, slowest, left, problems, conns, rails);
    }

    /** A rank's counts line ({@link #COUNTS}) as numbers: rank, sent messages and bytes, received ones, lost, ... failed peers. */
    static long[] counts(Matcher m) {
        long[] c = new long[11];
        for (int k = 0; k < 11; k++) {
            c[k] = Long.parseLong(m.group(k + 1));
        }
        return c;
    }

    /** The job's rank processes still alive and its files in /dev/shm. */
    static List<String> leftovers(String jobId, Map<Integer, long[]> started) {
        List<String> left = new ArrayList<>();
        for (long[] p : started.values()) {
            if (ProcessHandle.of(p[0]).map(ProcessHandle::isAlive).orElse(false)) {
                left.add("process " + p[0]);
            }
            if (Files.exists(Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"), Long.toString(p[0])))) {
                left.add("/tmp/hsperfdata file of " + p[0]);
            }
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(Job.SHM, "ferry-" + jobId + "-*")) {
            s.forEach(p -> left.add(p.toString()));
        } catch (IOException e) {
            left.add("/dev/shm unreadable: " + e.getMessage());
        }
        return left;
    }

    /** An output stream handing each complete line to a consumer. */
    static final class Lines extends OutputStream {
        private final Consumer<String> sink;
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

        Lines(Consumer<String> sink) {
            this.sink = sink;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                sink.accept(buf.toString(StandardCharsets.UTF_8));
                buf.reset();
            } else {
                buf.write(b);
            }
        }
    }
}
