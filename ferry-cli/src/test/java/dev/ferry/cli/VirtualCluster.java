package dev.ferry.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A virtual cluster of namespace hosts for the multi-host tests, made and removed by
 * {@code bin/ferry-cluster} (each host its own network, /dev/shm, /tmp, host name and sshd).
 * Named after this JVM, so that a cluster a user has up is left alone.
 *
 * <pre>{@code
 * try (VirtualCluster c = VirtualCluster.up(3)) {
 *     pb.environment().put("FERRY_SSH", c.ssh());
 * }
 * }</pre>
 */
final class VirtualCluster implements AutoCloseable {
    static final Path TOP = top();
    private static final Path SCRIPT = TOP.resolve("bin/ferry-cluster");

    private static final java.util.concurrent.atomic.AtomicInteger MADE = new java.util.concurrent.atomic.AtomicInteger();
    private final String name;
    private final long net;
    private final List<String> hosts;

    private VirtualCluster(String name, long net, int n) {
        this.name = name;
        this.net = net;
        List<String> h = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            h.add(name + i);
        }
        this.hosts = List.copyOf(h);
    }

    /** Why no cluster can be made here, or null when one can. */
    static String unavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "not root: namespace hosts need root";
        }
        for (String tool : new String[] {"/usr/sbin/sshd", "/usr/bin/ssh", "/usr/bin/unshare", "/usr/bin/nsenter"}) {
            if (!Files.isExecutable(Path.of(tool))) {
                return tool + " is not installed (apt-get install openssh-server util-linux; .ci/run does it)";
            }
        }
        try {
            if (run(List.of("ip", "netns", "list"), 10).exit != 0) {
                return "ip netns does not work here (iproute2)";
            }
        } catch (IOException e) {
            return "no ip (iproute2): " + e.getMessage();
        }
        return null;
    }

    static VirtualCluster up(int hosts) throws IOException {
        long pid = ProcessHandle.current().pid();
        int made = MADE.getAndIncrement();
        String name = "t" + pid % 1000 + "x" + made % 10;
        long net = 100 + (pid + made) % 150;
        VirtualCluster c = new VirtualCluster(name, net, hosts);
        Result r = run(List.of(SCRIPT.toString(), "up", "-n", String.valueOf(hosts), "--name", name,
                "--net", String.valueOf(net)), 120);
        if (r.exit != 0) {
            c.close();
            throw new IOException("ferry-cluster up failed: " + r.out);
        }
        return c;
    }

    List<String> hosts() {
        return hosts;
    }

    /** FERRY_SSH for the launcher (and Hydra's -launcher-exec): ssh with the cluster's keys and names. */
    String ssh() {
        return "/run/ferry-cluster/" + name + "/ssh";
    }

    /** The bridge the hosts hang on: the launcher's interface towards them (Hydra's -iface). */
    String bridge() {
        return "fc-" + name;
    }

    /** The launcher side's address on the hosts' network. */
    String gateway() {
        return "10.77." + net + ".1";
    }

    /** Host {@code host}'s address. */
    String address(String host) {
        return "10.77." + net + "." + (10 + hosts.indexOf(host) + 1);
    }

    /** The command that runs {@code cmd} inside {@code host} (as root, in its namespaces, no ssh). */
    List<String> command(String host, String... cmd) {
        List<String> c = new ArrayList<>(List.of(SCRIPT.toString(), "exec", host));
        c.addAll(List.of(cmd));
        return c;
    }

    /** Runs {@code cmd} inside {@code host}; its output. */
    String exec(String host, String... cmd) throws IOException {
        return run(command(host, cmd), 30).out;
    }

    /**
     * The processes inside {@code host} whose command line holds {@code marker}. The hosts share
     * this machine's process ids, so the host's are those in its network namespace.
     */
    List<ProcessHandle> processes(String host, String marker) throws IOException {
        Result r = run(List.of("ip", "netns", "pids", "ferry-" + host), 10);
        List<ProcessHandle> found = new ArrayList<>();
        for (String pid : r.out.strip().split("\\s+")) {
            if (pid.isEmpty()) {
                continue;
            }
            try {
                String cmd = Files.readString(Path.of("/proc", pid, "cmdline")).replace('\0', ' ');
                if (cmd.contains(marker)) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(found::add);
                }
            } catch (IOException gone) {
                // ended meanwhile
            }
        }
        return found;
    }

    /** What of a job is left inside {@code host}: processes whose command line holds {@code marker}, Ferry's files in its /dev/shm. */
    String leftOn(String host, String marker) throws IOException {
        StringBuilder left = new StringBuilder();
        for (ProcessHandle p : processes(host, marker)) {
            left.append(p.pid()).append(' ').append(p.info().commandLine().orElse("?")).append('\n');
        }
        left.append(exec(host, "sh", "-c", "ls /dev/shm | grep ferry- ; true"));
        return left.toString().strip();
    }

    /**
     * {@link #leftOn}, once what the job left to end by itself has ended (a node agent that a
     * rank started ends after the node's last rank, which a foreign launcher does not wait for),
     * waiting for each such process's exit at most {@code bound} in all.
     */
    String leftOnceEnded(String host, String marker, java.time.Duration bound) throws IOException {
        long deadline = System.nanoTime() + bound.toNanos();
        for (ProcessHandle p : processes(host, marker)) {
            try {
                p.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException stillThere) {
                break; // named by leftOn
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return leftOn(host, marker);
    }

    @Override
    public void close() throws IOException {
        run(List.of(SCRIPT.toString(), "down", "--name", name), 60);
    }

    record Result(int exit, String out) {
    }

    static Result run(List<String> cmd, int seconds) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + ": no end within " + seconds + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    private static Path top() {
        Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("bin/ferry-cluster"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("bin/ferry-cluster not found above " + System.getProperty("user.dir"));
        }
        return p;
    }
}
