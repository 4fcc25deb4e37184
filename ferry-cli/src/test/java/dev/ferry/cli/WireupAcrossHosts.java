package dev.ferry.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The figure of wire-up across hosts (docs/performance.md), not a test: makes a virtual cluster of
 * 3 hosts and a Slurm across them, then, in interleaved rounds, times 4 ranks per host under
 * {@code ferry run --hosts}, Hydra's {@code mpiexec -hosts} and {@code srun -N 3} (PMI-2, PMIx):
 * from the launcher's start to rank 0's line after the bootstrap exchange ({@code --example
 * wireup}). As root, after {@code mvn install}:
 *
 * <pre>{@code
 * mvn -q -o dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test -pl ferry-cli
 * java -cp $PWD/ferry-cli/target/test-classes:$PWD/ferry-cli/target/classes:$(cat /tmp/cp.txt) dev.ferry.cli.WireupAcrossHosts 3
 * }</pre>
 * With {@code show} instead of a number of rounds, it prints each launcher's command and the
 * output of {@code --example hello} once.
 */
public final class WireupAcrossHosts {
    private static final int PER_HOST = 4;

    private WireupAcrossHosts() {
    }

    public static void main(String[] args) throws Exception {
        boolean show = args.length > 0 && args[0].equals("show");
        int rounds = args.length > 0 && !show ? Integer.parseInt(args[0]) : 3;
        String why = VirtualCluster.unavailable();
        if (why != null) {
            throw new IllegalStateException(why);
        }
        try (VirtualCluster cluster = VirtualCluster.up(3); SlurmCluster slurm = SlurmCluster.start(cluster)) {
            int n = PER_HOST * cluster.hosts().size();
            Map<String, List<String>> launchers = new LinkedHashMap<>();
            List<String> jvm = List.of(dev.ferry.launch.ChildJvm.javaExecutable().toString(), "--enable-native-access=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"), Main.class.getName());
            List<String> ferryRun = new ArrayList<>(jvm);
            ferryRun.addAll(List.of("run", "--hosts", String.join(",", cluster.hosts().stream().map(h -> h + ":" + PER_HOST).toList()),
                    "--example", "wireup"));
            launchers.put("ferry run --hosts", ferryRun);
            List<String> rank = new ArrayList<>(jvm);
            rank.addAll(List.of("exec", "--example", "wireup"));
            List<String> hydra = new ArrayList<>(List.of("mpiexec.hydra", "-hosts", String.join(",", cluster.hosts()), "-n", String.valueOf(n),
                    "-ppn", String.valueOf(PER_HOST), "-launcher", "ssh", "-launcher-exec", cluster.ssh(), "-iface", cluster.bridge()));
            hydra.addAll(rank);
            launchers.put("mpiexec.hydra -hosts", hydra);
            for (String mpi : List.of("pmi2", "pmix")) {
                List<String> srun = new ArrayList<>(List.of("env", "SLURM_CONF=" + slurm.conf(), "srun", "-N", "3", "-n", String.valueOf(n),
                        "-O", "-K", "--mpi=" + mpi));
                srun.addAll(rank);
                launchers.put("srun -N 3 -O --mpi=" + mpi, cluster.command(cluster.hosts().get(0), srun.toArray(String[]::new)));
            }
            if (show) { // each launcher's command and output once, the example hello instead of wireup
                for (var e : launchers.entrySet()) {
                    List<String> cmd = e.getValue().stream().map(w -> w.equals("wireup") ? "hello" : w).toList();
                    System.out.println("$ " + String.join(" ", cmd));
                    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
                    pb.environment().put("FERRY_SSH", cluster.ssh());
                    pb.environment().remove("FERRY_TCP_INTERFACES");
                    Process p = pb.start();
                    System.out.print(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                    System.out.println("(exit " + p.waitFor() + ")");
                }
                return;
            }
            Map<String, double[]> seconds = new LinkedHashMap<>();
            launchers.keySet().forEach(k -> seconds.put(k, new double[rounds]));
            for (int r = 0; r < rounds; r++) {
                List<String> order = new ArrayList<>(launchers.keySet());
                if (r % 2 == 1) {
                    java.util.Collections.reverse(order);
                }
                for (String name : order) {
                    seconds.get(name)[r] = once(launchers.get(name), cluster.ssh(), n);
                }
            }
            for (var e : seconds.entrySet()) {
                double[] s = e.getValue().clone();
                Arrays.sort(s);
                System.out.printf("%-32s %d ranks on 3 hosts: median %.2f s (rounds %s)%n", e.getKey(), n, s[s.length / 2],
                        Arrays.toString(Arrays.stream(e.getValue()).mapToObj(x -> String.format("%.2f", x)).toArray()));
            }
        }
    }

    /** Seconds from the launcher's start to the line rank 0 prints after the exchange. */
    private static double once(List<String> cmd, String ssh, int n) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("FERRY_SSH", ssh);
        pb.environment().remove("FERRY_TCP_INTERFACES");
        long start = System.nanoTime();
        Process p = pb.start();
        double at = -1;
        StringBuilder all = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                all.append(line).append('\n');
                if (at < 0 && line.contains("wired up " + n + " ranks on 3 node(s)")) {
                    at = (System.nanoTime() - start) / 1e9;
                }
            }
        }
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0 || at < 0) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", cmd.subList(0, Math.min(4, cmd.size()))) + " failed: " + all);
        }
        return at;
    }
}
