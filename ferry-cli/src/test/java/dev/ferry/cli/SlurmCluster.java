package dev.ferry.cli;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A single-node Slurm on this machine for the launcher tests (Debian's slurm-wlm and munge,
 * which .ci/run installs): munged if none runs, then slurmctld and slurmd as root with a
 * generated configuration in a directory of their own (this node's CPUs, OverSubscribe=FORCE,
 * free ports), so that a Slurm already configured here is left alone. {@link #close} stops what
 * it started (munged too, when it started it) and removes the directory.
 *
 * <pre>{@code
 * try (SlurmCluster slurm = SlurmCluster.start()) {
 *     ProcessBuilder pb = new ProcessBuilder("srun", "-O", "--mpi=pmi2", "-n", "2", "hostname");
 *     slurm.configure(pb);
 * }
 * }</pre>
 */
final class SlurmCluster implements AutoCloseable {
    private final Path dir;
    private final Path conf;
    private final List<Path> pidFiles = new ArrayList<>();
    private static final Path MUNGED_PID = Path.of("/run/munge/munged.pid");
    /** The hosts that run a slurmd each, or null: one slurmd on this machine. */
    private final VirtualCluster hosts;

    private SlurmCluster(Path dir, VirtualCluster hosts) {
        this.dir = dir;
        this.conf = dir.resolve("slurm.conf");
        this.hosts = hosts;
    }

    /** Why Slurm cannot be started here, or null when it can. */
    static String unavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "not root: a test Slurm needs slurmctld and slurmd as root";
        }
        for (String tool : new String[] {"/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/srun", "/usr/sbin/munged"}) {
            if (!Files.isExecutable(Path.of(tool))) {
                return tool + " is not installed (apt-get install slurm-wlm munge; .ci/run does it)";
            }
        }
        return null;
    }

    static SlurmCluster start() throws Exception {
        return start(null);
    }

    /**
     * A Slurm across the hosts of {@code hosts}: slurmctld here, on the hosts' network, and one
     * slurmd inside each host; its files under /run, which the hosts share (their /tmp is their own).
     */
    static SlurmCluster start(VirtualCluster hosts) throws Exception {
        Path dir = hosts == null ? Files.createTempDirectory("ferry-slurm-") : Files.createTempDirectory(Path.of("/run"), "ferry-slurm-");
        SlurmCluster c = new SlurmCluster(dir, hosts);
        try {
            c.boot();
            return c;
        } catch (Exception | Error e) {
            c.close();
            throw e;
        }
    }

    private void boot() throws Exception {
        if (run(List.of("sh", "-c", "munge -n | unmunge >/dev/null 2>&1")) != 0) {
            Files.createDirectories(Path.of("/run/munge"));
            run(List.of("chown", "munge:munge", "/run/munge"));
            if (!Files.exists(Path.of("/etc/munge/munge.key"))) {
                check(run(List.of("sh", "-c", "dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 2>/dev/null"
                        + " && chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key")), "munge key");
            }
            check(run(List.of("runuser", "-u", "munge", "--", "/usr/sbin/munged")), "munged");
            pidFiles.add(MUNGED_PID); // it daemonizes: stopped by its pid file, after the Slurm daemons
        }
        String host = read(List.of("hostname", "-s")).strip();
        String node = read(List.of("/usr/sbin/slurmd", "-C")).lines().findFirst().orElseThrow()
                .replaceFirst("^NodeName=\\S+\\s*", "");
        List<String> nodes = new ArrayList<>();
        if (hosts == null) {
            nodes.add("NodeName=" + host + " " + node + " State=UNKNOWN");
        } else {
            host = host + "(" + hosts.gateway() + ")"; // the controller on the hosts' network
            for (String h : hosts.hosts()) {
                nodes.add("NodeName=" + h + " NodeAddr=" + hosts.address(h) + " " + node + " State=UNKNOWN");
            }
        }
        Files.createDirectories(dir.resolve("state"));
        Files.writeString(conf, String.join("\n",
                "ClusterName=ferrytest",
                "SlurmctldHost=" + host,
                "SlurmctldPort=" + freePort(),
                "SlurmdPort=" + freePort(),
                "AuthType=auth/munge",
                "CredType=cred/munge",
                "ProctrackType=proctrack/linuxproc",
                "TaskPlugin=task/none",
                "SlurmUser=root",
                "SlurmdUser=root",
                "StateSaveLocation=" + dir.resolve("state"),
                "SlurmdSpoolDir=" + dir.resolve("spool-%n"),
                "SlurmctldPidFile=" + dir.resolve("slurmctld.pid"),
                "SlurmdPidFile=" + dir.resolve("slurmd-%n.pid"),
                "SlurmctldLogFile=" + dir.resolve("slurmctld.log"),
                "SlurmdLogFile=" + dir.resolve("slurmd-%n.log"),
                "SchedulerType=sched/builtin",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_Core",
                "MpiDefault=none",
                "ReturnToService=2",
                "JobCompType=jobcomp/none",
                "AccountingStorageType=accounting_storage/none",
                String.join("\n", nodes),
                "PartitionName=ferry Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE",
                ""));
        pidFiles.add(0, dir.resolve("slurmctld.pid"));
        check(run(List.of("/usr/sbin/slurmctld", "-f", conf.toString())), "slurmctld");
        if (hosts == null) {
            Files.createDirectories(dir.resolve("spool-" + host));
            pidFiles.add(0, dir.resolve("slurmd-" + host + ".pid"));
            check(run(List.of("/usr/sbin/slurmd", "-f", conf.toString())), "slurmd");
        } else {
            for (String h : hosts.hosts()) {
                Files.createDirectories(dir.resolve("spool-" + h));
                pidFiles.add(0, dir.resolve("slurmd-" + h + ".pid"));
                check(run(hosts.command(h, "/usr/sbin/slurmd", "-f", conf.toString(), "-N", h)), "slurmd on " + h);
            }
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            ProcessBuilder pb = new ProcessBuilder("sinfo", "-h", "-o", "%T");
            configure(pb);
            String state = read(pb).strip();
            if (!state.isEmpty() && state.lines().allMatch(l -> l.equals("idle"))) {
                return;
            }
            if (System.nanoTime() - end > 0) {
                throw new IllegalStateException("the test Slurm's nodes are '" + state + "' after 60 s, not idle; " + logs());
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /** The configuration file (SLURM_CONF for client commands). */
    Path conf() {
        return conf;
    }

    /** Points a Slurm client command at this cluster. */
    void configure(ProcessBuilder pb) {
        pb.environment().put("SLURM_CONF", conf.toString());
    }

    @Override
    public void close() throws Exception {
        for (Path pid : pidFiles) {
            if (Files.exists(pid)) {
                long p = Long.parseLong(Files.readString(pid).strip());
                ProcessHandle.of(p).ifPresent(h -> {
                    h.destroy();
                    try {
                        h.onExit().get(30, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        h.destroyForcibly();
                    }
                });
            }
        }
        run(List.of("rm", "-rf", dir.toString()));
    }

    String logs() {
        StringBuilder b = new StringBuilder();
        try (var files = Files.newDirectoryStream(dir, "slurmd-*.log")) {
            for (Path f : files) {
                b.append(f.getFileName()).append(": ").append(tail(f)).append('\n');
            }
        } catch (IOException e) {
            b.append("(no slurmd log)\n");
        }
        return b + "slurmctld.log: " + tail(dir.resolve("slurmctld.log"));
    }

    private static String tail(Path p) {
        try {
            List<String> lines = Files.readAllLines(p);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(none)";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void check(int rc, String what) {
        if (rc != 0) {
            throw new IllegalStateException(what + " did not start (exit " + rc + ")");
        }
    }

    private static int run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(cmd + " did not end within 60 s");
        }
        return p.exitValue();
    }

    private static String read(List<String> cmd) throws Exception {
        return read(new ProcessBuilder(cmd));
    }

    private static String read(ProcessBuilder pb) throws Exception {
        Process p = pb.redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(pb.command() + " did not end within 60 s");
        }
        return out;
    }
}
