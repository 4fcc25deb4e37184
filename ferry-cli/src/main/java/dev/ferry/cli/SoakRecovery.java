package dev.ferry.cli;

import dev.ferry.launch.run.Job;
import dev.ferry.launch.run.JobSpec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code recover} phase of {@code ferry soak --chaos --recover}: a job of {@link SoakRecover}
 * ranks that goes on when ranks die ({@link JobSpec#continueOnFailure}), while this kills
 * {@code kills} of them (SIGKILL) at random moments, the later ones soon after the earlier (so
 * some land while the survivors recover). It checks that the survivors reach the end, that they
 * all counted the same rounds as held, that nothing in those rounds was corrupted or reordered,
 * that every survivor saw every death, and that nothing of the job is left; and it measures,
 * per death, the time until every survivor worked on a communicator without the dead rank.
 */
final class SoakRecovery {
    private static final Pattern SAW = Pattern.compile("soak rank (\\d+) saw rank (\\d+) fail at (\\d+)");
    private static final Pattern RECOVERED = Pattern.compile("soak rank (\\d+) recovered at (\\d+) with (\\d+) survivors \\(from (\\d+)\\)");
    private static final Pattern ROUNDS = Pattern.compile("soak rank (\\d+) rounds (\\d+) dropped (\\d+) survivors (\\d+)");

    /** What the phase found: totals, the deaths' recovery times (ms), and the problems. */
    record Outcome(long messages, long bytes, long corrupted, long reordered, int rounds, int dropped, List<Integer> killed,
                   List<Long> recoveryMs, List<String> left, List<String> problems) {
        String text(int n, long seconds, long seed) {
            List<Long> sorted = recoveryMs.stream().sorted().toList();
            return String.format("soak recover: %d ranks, %d s, seed %d: killed ranks %s; %d rounds held, %d dropped; %d messages, %d bytes "
                            + "between survivors; corrupted %d, reordered %d; death to a working shrunk communicator on every survivor: %s ms "
                            + "(median %s); left on the machine: %d",
                    n, seconds, seed, killed, rounds, dropped, messages, bytes, corrupted, reordered, recoveryMs,
                    sorted.isEmpty() ? "-" : sorted.get(sorted.size() / 2), left.size());
        }

        String json(int n, long seconds, long seed) {
            List<Long> sorted = recoveryMs.stream().sorted().toList();
            return "{\"benchmark\":\"soak\",\"phase\":\"recover\",\"ranks\":" + n + ",\"duration_s\":" + seconds + ",\"seed\":" + seed
                    + ",\"killed\":" + killed + ",\"rounds_held\":" + rounds + ",\"rounds_dropped\":" + dropped + ",\"messages\":" + messages
                    + ",\"bytes\":" + bytes + ",\"corrupted\":" + corrupted + ",\"reordered\":" + reordered + ",\"recovery_ms\":" + recoveryMs
                    + ",\"median_recovery_ms\":" + (sorted.isEmpty() ? -1 : sorted.get(sorted.size() / 2))
                    + ",\"left\":" + left.size() + ",\"ok\":" + problems.isEmpty() + "}";
        }
    }

    private SoakRecovery() {
    }

    static Outcome run(int n, int kills, Map<String, String> env, long duration, long seed, long maxSize, PrintStream err) throws IOException {
        List<String> jvm = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED", "-Xss1m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), SoakRecover.class.getName(),
                String.valueOf(duration * 1000), String.valueOf(seed), String.valueOf(maxSize)));
        Duration timeout = Duration.ofSeconds(duration + 300);
        Map<Integer, Long> pids = new ConcurrentHashMap<>();
        Map<Integer, long[]> counts = new ConcurrentHashMap<>();
        Map<Integer, int[]> rounds = new ConcurrentHashMap<>();
        Map<Integer, List<Integer>> saw = new ConcurrentHashMap<>();
        List<long[]> recovered = new CopyOnWriteArrayList<>(); // {rank, ms, survivors}
        List<String> other = new CopyOnWriteArrayList<>();
        Consumer<String> line = l -> {
            String s = l.replaceFirst("^\\[\\d+\\] ", "");
            Matcher m;
            if ((m = SoakCommand.STARTED.matcher(s)).matches()) {
                pids.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
            } else if ((m = SoakCommand.COUNTS.matcher(s)).matches()) {
                long[] c = SoakCommand.counts(m);
                counts.put((int) c[0], c);
            } else if ((m = SAW.matcher(s)).matches()) {
                saw.computeIfAbsent(Integer.parseInt(m.group(1)), k -> new CopyOnWriteArrayList<>()).add(Integer.parseInt(m.group(2)));
            } else if ((m = RECOVERED.matcher(s)).matches()) {
                recovered.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))});
            } else if ((m = ROUNDS.matcher(s)).matches()) {
                rounds.put(Integer.parseInt(m.group(1)), new int[] {Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4))});
            } else {
                other.add(l);
            }
        };
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        Job job = new Job(new JobSpec(n, jvm, env, true, timeout, Duration.ofSeconds(10), JobSpec.STDIN_NONE, true),
                new PrintStream(new SoakCommand.Lines(line), true, StandardCharsets.UTF_8), new PrintStream(errors, true, StandardCharsets.UTF_8));
        // the victims and moments: the first between 20% and 50% of the time, each next 0.05 to 1.5 s after the one before
        SplittableRandom r = new SplittableRandom(seed);
        List<Integer> victims = new ArrayList<>();
        while (victims.size() < kills) {
            int v = r.nextInt(n);
            if (!victims.contains(v)) {
                victims.add(v);
            }
        }
        long[] after = new long[kills];
        after[0] = (long) (duration * 1000 * (0.2 + 0.3 * r.nextDouble()));
        for (int i = 1; i < kills; i++) {
            after[i] = 50 + r.nextLong(1450);
        }
        long[] killedAt = new long[kills];
        Thread.ofPlatform().daemon().name("ferry-soak-recover-chaos").start(() -> {
            long until = System.nanoTime() + timeout.toNanos();
            while (pids.size() < n && System.nanoTime() - until < 0) {
                LockSupport.parkNanos(10_000_000);
            }
            for (int i = 0; i < kills; i++) {
                LockSupport.parkNanos(after[i] * 1_000_000);
                Long pid = pids.get(victims.get(i));
                if (pid != null) {
                    killedAt[i] = System.currentTimeMillis();
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        });
        int status = job.run();
        List<String> problems = new ArrayList<>();
        List<Integer> survivors = new ArrayList<>();
        for (int rk = 0; rk < n; rk++) {
            if (!victims.contains(rk)) {
                survivors.add(rk);
            }
        }
        for (int i = 0; i < kills; i++) {
            if (killedAt[i] == 0) {
                problems.add("recover: rank " + victims.get(i) + " was not killed (the job ended first)");
            }
        }
        long messages = 0, bytes = 0, corrupted = 0, reordered = 0;
        int held = -1, dropped = 0;
        for (int rk : survivors) {
            long[] c = counts.get(rk);
            int[] rd = rounds.get(rk);
            if (c == null || rd == null) {
                problems.add("recover: survivor rank " + rk + " did not reach the end");
                continue;
            }
            messages += c[3];
            bytes += c[4];
            corrupted += c[7];
            reordered += c[8];
            if (held >= 0 && rd[0] != held) {
                problems.add("recover: the survivors counted different rounds as held (" + held + ", and " + rd[0] + " at rank " + rk + ")");
            }
            held = rd[0];
            dropped = Math.max(dropped, rd[1]);
            if (rd[2] != survivors.size()) {
                problems.add("recover: rank " + rk + " ended on a communicator of " + rd[2] + ", not the " + survivors.size() + " survivors");
            }
            for (int v : victims) {
                if (!saw.getOrDefault(rk, List.of()).contains(v)) {
                    problems.add("recover: rank " + rk + " never reported rank " + v + "'s failure");
                }
            }
        }
        if (status != 0) {
            problems.add("recover: the job ended with status " + status);
        }
        if (corrupted + reordered != 0) {
            problems.add("recover: " + corrupted + " corrupted and " + reordered + " reordered messages between survivors");
        }
        // per death: until every survivor printed a recovery after it to a communicator without as many ranks
        List<Long> recoveryMs = new ArrayList<>();
        for (int i = 0; i < kills; i++) {
            if (killedAt[i] == 0) {
                continue;
            }
            int bound = n - (i + 1);
            long worst = -1;
            for (int rk : survivors) {
                long first = Long.MAX_VALUE;
                for (long[] rec : recovered) {
                    if (rec[0] == rk && rec[1] >= killedAt[i] && rec[2] <= bound) {
                        first = Math.min(first, rec[1]);
                    }
                }
                worst = first == Long.MAX_VALUE ? -1 : Math.max(worst, first - killedAt[i]);
                if (first == Long.MAX_VALUE) {
                    break;
                }
            }
            if (worst >= 0) {
                recoveryMs.add(worst);
            }
        }
        Map<Integer, long[]> started = new java.util.HashMap<>();
        pids.forEach((rk, pid) -> started.put(rk, new long[] {pid, 0}));
        List<String> left = SoakCommand.leftovers(job.jobId(), started);
        if (!left.isEmpty()) {
            problems.add("recover: left on the machine: " + left);
        }
        if (!problems.isEmpty()) {
            err.print(errors.toString(StandardCharsets.UTF_8));
            other.forEach(err::println);
        }
        return new Outcome(messages, bytes, corrupted, reordered, Math.max(0, held), dropped, victims, recoveryMs, left, problems);
    }
}
