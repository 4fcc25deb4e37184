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

    private SlurmCluster(Path dir) {
        this.dir = dir;
        this.conf = dir.resolve("slurm.conf");
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
        SlurmCluster c = new SlurmCluster(Files.createTempDirectory("ferry-slurm-"));
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
        Files.createDirectories(dir.resolve("state"));
        Files.createDirectories(dir.resolve("spool"));
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
                "SlurmdSpoolDir=" + dir.resolve("spool"),
                "SlurmctldPidFile=" + dir.resolve("slurmctld.pid"),
                "SlurmdPidFile=" + dir.resolve("slurmd.pid"),
                "SlurmctldLogFile=" + dir.resolve("slurmctld.log"),
                "SlurmdLogFile=" + dir.resolve("slurmd.log"),
                "SchedulerType=sched/builtin",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_Core",
                "MpiDefault=none",
                "ReturnToService=2",
                "JobCompType=jobcomp/none",
                "AccountingStorageType=accounting_storage/none",
                "NodeName=" + host + " " + node + " State=UNKNOWN",
                "PartitionName=ferry Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE",
                ""));
        pidFiles.add(0, dir.resolve("slurmctld.pid"));
        pidFiles.add(0, dir.resolve("slurmd.pid"));
        check(run(List.of("/usr/sbin/slurmctld", "-f", conf.toString())), "slurmctld");
        check(run(List.of("/usr/sbin/slurmd", "-f", conf.toString())), "slurmd");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            ProcessBuilder pb = new ProcessBuilder("sinfo", "-h", "-o", "%T");
            configure(pb);
            String state = read(pb).strip();
            if (state.equals("idle")) {
                return;
            }
            if (System.nanoTime() - end > 0) {
                throw new IllegalStateException("the test Slurm's node is '" + state + "' after 60 s, not idle; slurmd.log: "
                        + tail(dir.resolve("slurmd.log")) + "; slurmctld.log: " + tail(dir.resolve("slurmctld.log")));
            }
            Thread.onSpinWait();
            Thread.yield();
        }
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
        return "slurmd.log: " + tail(dir.resolve("slurmd.log")) + "\nslurmctld.log: " + tail(dir.resolve("slurmctld.log"));
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
