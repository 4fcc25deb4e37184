package dev.ferry.launch.hosts;

import dev.ferry.launch.ChildJvm;
import dev.ferry.launch.run.Job;
import dev.ferry.launch.run.JobMonitor;
import dev.ferry.launch.run.JobSpec;
import dev.ferry.launch.run.RankOutput;
import dev.ferry.launch.run.StdinForwarder;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A job of {@code ferry run --hosts}: one proxy per host ({@link Proxy}, started over ssh, or as a
 * child on this host), which starts that host's ranks, serves their PMI and relays it here; the
 * launcher completes each fence when every host is in it, prints the ranks' output, feeds their
 * standard input, and applies {@link JobMonitor}'s rules. A host that cannot be reached, lacks
 * Java 25 or Ferry, or runs another Ferry version is named with its cause and the job is not
 * started; a host lost later ends the job. Ending the launcher ends every proxy's connection, and
 * each proxy its ranks.
 *
 * <pre>{@code
 * HostJob job = new HostJob(spec, HostList.parse("vc1:2,vc2:2"), Placement.MapBy.SLOT, 0,
 *         HostJob.Remote.fromEnvironment(), System.out, System.err);
 * int status = job.run();
 * }</pre>
 */
public final class HostJob {
    /** How long a host has to start its proxy and say hello. */
    private static final Duration HELLO_BOUND = Duration.ofSeconds(60);

    /**
     * How proxies are started: {@code agent} runs a command on a host ({@code ssh}, FERRY_SSH);
     * {@code prefix} is Ferry's directory on the hosts (null: Java and Ferry at this launcher's
     * paths); {@code sshAlways} starts even this host's proxy through the agent.
     */
    public record Remote(List<String> agent, String prefix, boolean sshAlways) {
        public Remote {
            agent = List.copyOf(agent);
        }

        /** FERRY_SSH (split at spaces) or {@code ssh -T -o BatchMode=yes}; {@code prefix}, else FERRY_HOME, as the prefix. */
        public static Remote fromEnvironment(String prefix, boolean sshAlways) {
            dev.ferry.spi.Settings env = dev.ferry.spi.Settings.fromEnvironment();
            String ssh = dev.ferry.launch.LaunchSettings.SSH.value(env);
            if (ssh.isBlank()) {
                ssh = dev.ferry.launch.LaunchSettings.SSH.defaultValue();
            }
            List<String> agent = List.of(ssh.strip().split("\\s+"));
            String p = prefix != null ? prefix : dev.ferry.launch.LaunchSettings.HOME.value(env);
            return new Remote(agent, p, sshAlways);
        }
    }

    /**
     * What every rank's environment gets on any host: this launcher's Ferry settings (as mpirun
     * forwards OMPI_MCA_*), then the job's own (--env, --drivers ...). Not what only this side
     * means (the agent, the prefix) or what each proxy sets per job and rank.
     */
    static Map<String, String> remoteEnv(Map<String, String> launcherEnv, Map<String, String> jobEnv) {
        Map<String, String> env = new java.util.TreeMap<>();
        launcherEnv.forEach((k, v) -> {
            if (k.startsWith("FERRY_") && !LOCAL_ONLY.contains(k)) {
                env.put(k, v);
            }
        });
        env.putAll(jobEnv);
        return env;
    }

    private static final java.util.Set<String> LOCAL_ONLY = java.util.Set.of(
            dev.ferry.launch.LaunchSettings.SSH.name(), dev.ferry.launch.LaunchSettings.HOME.name(),
            dev.ferry.launch.LaunchSettings.LAUNCHER_PID.name(), dev.ferry.spi.JobSettings.JOB_ID.name(),
            dev.ferry.spi.JobSettings.JOB_KEY.name(), dev.ferry.launch.LaunchSettings.NODE_ID.name());

    private final JobSpec spec;
    private final List<HostList.Host> hosts;
    private final List<List<Integer>> placement;
    private final Remote remote;
    private final PrintStream err;
    private final RankOutput output;
    private final JobMonitor monitor;
    private final String jobId = Job.newJobId();
    private final String jobKey = Job.newJobKey();
    private final String[] hostOf;
    private final List<ProxyLink> links = new ArrayList<>();
    private final Map<Integer, ProxyLink> linkOf = new HashMap<>();
    private final Map<String, String> fencePuts = new LinkedHashMap<>();
    private int fenceArrivals;
    private int fences;
    private InputStream input = InputStream.nullInputStream();
    private Consumer<Duration> wireupListener = d -> { };
    private volatile boolean finished;

    public HostJob(JobSpec spec, List<HostList.Host> hosts, Placement.MapBy mapBy, int perNode, Remote remote,
                   PrintStream out, PrintStream err) {
        this.spec = spec;
        this.hosts = List.copyOf(hosts);
        this.placement = Placement.place(hosts, spec.ranks(), mapBy, perNode);
        this.remote = remote;
        this.err = err;
        this.output = new RankOutput(spec.ranks(), out, err, spec.tagOutput());
        this.hostOf = new String[spec.ranks()];
        for (int h = 0; h < hosts.size(); h++) {
            for (int r : placement.get(h)) {
                hostOf[r] = hosts.get(h).name();
            }
        }
        this.monitor = new JobMonitor(spec.ranks(), spec.timeout(), spec.grace(), spec.continueOnFailure(), err, r -> " on host " + hostOf[r]);
    }

    /** Which host runs each rank. */
    public List<List<Integer>> placement() {
        return placement;
    }

    public HostJob onWireup(Consumer<Duration> listener) {
        this.wireupListener = listener;
        return this;
    }

    public HostJob withInput(InputStream in) {
        this.input = in;
        return this;
    }

    /** Runs the job to its end; returns the exit status for the launcher. */
    public int run() throws IOException {
        Instant launcherStart = Job.launcherStart();
        Thread reaper = new Thread(() -> {
            if (!finished) {
                monitor.signalled();
                err.println("ferry run: signalled (SIGTERM, SIGINT or SIGHUP); ending the job's " + spec.ranks() + " ranks on "
                        + links.size() + " hosts");
                synchronized (links) {
                    links.forEach(ProxyLink::kill);
                }
            }
        }, "ferry-run-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        try {
            String failure = startProxies();
            if (failure != null) {
                err.println("ferry run: " + failure + "; the job was not started");
                return 1;
            }
            for (ProxyLink l : links) {
                List<Integer> in = l.ranks.stream().filter(spec::takesInput).toList();
                JobPart part = new JobPart(jobId, jobKey, spec.ranks(), l.ranks, in, spec.javaArgs(), remoteEnv(System.getenv(), spec.env()));
                l.send(ProxyWire.SPEC, -1, part.encode());
            }
            for (ProxyLink l : links) {
                Thread.ofPlatform().daemon().name("ferry-run-proxy-" + l.host).start(() -> serve(l, launcherStart));
            }
            StdinForwarder.start(input, spec, this::stdin);
            return monitor.await(new JobMonitor.Ranks() {
                @Override
                public void terminate(boolean kill) {
                    for (ProxyLink l : links) {
                        l.send(ProxyWire.TERMINATE, kill ? 1 : 0, new byte[0]);
                    }
                }

                @Override
                public void dumpThreads() {
                    for (ProxyLink l : links) {
                        l.send(ProxyWire.DUMP, 0, new byte[0]);
                    }
                }

                @Override
                public String cause(int rank) {
                    String u = output.uncaught(rank);
                    return u == null ? "" : " after an uncaught exception in " + u;
                }
            });
        } finally {
            finished = true;
            for (ProxyLink l : links) {
                l.close();
            }
            for (ProxyLink l : links) {
                l.awaitEnd(10_000);
            }
            try {
                Runtime.getRuntime().removeShutdownHook(reaper);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
    }

    /**
     * Starts every host's proxy at once and waits for each to say hello with this Ferry's version;
     * the first failure in host order, or null when all are ready.
     */
    private String startProxies() {
        String version = Version.current();
        List<String> problems = new ArrayList<>();
        for (int h = 0; h < hosts.size(); h++) {
            if (placement.get(h).isEmpty()) {
                continue;
            }
            String name = hosts.get(h).name();
            try {
                ProxyLink l = new ProxyLink(name, placement.get(h), command(name));
                synchronized (links) {
                    links.add(l);
                }
                for (int r : l.ranks) {
                    linkOf.put(r, l);
                }
            } catch (IOException e) {
                problems.add(e.getMessage());
            }
        }
        CountDownLatch hellos = new CountDownLatch(links.size());
        String[] answers = new String[links.size()];
        for (int i = 0; i < links.size(); i++) {
            ProxyLink l = links.get(i);
            int at = i;
            Thread.ofPlatform().daemon().name("ferry-run-hello-" + l.host).start(() -> {
                try {
                    ProxyWire.Frame f = l.read();
                    if (f == null || f.type() != ProxyWire.HELLO) {
                        answers[at] = f != null && f.type() == ProxyWire.FAILED
                                ? "host " + l.host + ": " + f.text() : "host " + l.host + ": " + l.failure(proxyProgram());
                    } else {
                        List<String> hello = ProxyWire.strings(f.payload());
                        if (!hello.get(0).equals(version)) {
                            answers[at] = "host " + l.host + " runs Ferry " + hello.get(0) + ", this launcher Ferry " + version;
                        }
                    }
                } catch (IOException e) {
                    answers[at] = "host " + l.host + ": " + l.failure(proxyProgram()) + " (" + e.getMessage() + ")";
                }
                hellos.countDown();
            });
        }
        try {
            if (!hellos.await(HELLO_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
                for (int i = 0; i < links.size(); i++) {
                    if (answers[i] == null && hellos.getCount() > 0) {
                        problems.add("host " + links.get(i).host + " did not start Ferry's proxy within " + HELLO_BOUND.toSeconds() + " s");
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problems.add("interrupted while the hosts started");
        }
        for (String a : answers) {
            if (a != null) {
                problems.add(a);
            }
        }
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    /** The command that starts a host's proxy: the proxy itself here, else through the agent. */
    private List<String> command(String host) {
        List<String> proxy;
        if (remote.prefix() != null) {
            proxy = List.of(remote.prefix() + "/bin/ferry", "proxy");
        } else {
            List<String> p = new ArrayList<>(List.of(javaPath()));
            p.addAll(dev.ferry.launch.ChildJvm.RELAY_OPTIONS);
            p.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Proxy.class.getName()));
            proxy = p;
        }
        // the proxy's JVM starts from the ranks' ahead-of-time cache when its host has one (same class path)
        String cache = dev.ferry.launch.run.AotCache.linkUnderHome(System.getProperty("java.class.path"));
        boolean aot = remote.prefix() == null && dev.ferry.launch.run.AotCache.on();
        if (!remote.sshAlways() && isThisHost(host)) {
            if (aot) {
                List<String> local = new ArrayList<>(proxy);
                local.addAll(1, dev.ferry.launch.run.AotCache.jvmOptions(Path.of(System.getProperty("user.home")).resolve(cache).toString()));
                return local;
            }
            return proxy;
        }
        List<String> cmd = new ArrayList<>(remote.agent());
        cmd.add(host);
        // One string for the remote shell: the ranks start where the launcher was started, if it
        // exists there (ssh sessions start in the home directory).
        StringBuilder s = new StringBuilder("cd ").append(quote(System.getProperty("user.dir"))).append(" 2>/dev/null; exec");
        for (int i = 0; i < proxy.size(); i++) {
            s.append(' ').append(quote(proxy.get(i)));
            if (i == 0 && aot) { // under the remote home, which the remote shell expands (in double quotes)
                for (String o : dev.ferry.launch.run.AotCache.jvmOptions("$HOME/" + cache)) {
                    s.append(" \"").append(o).append('"');
                }
            }
        }
        cmd.add(s.toString());
        return cmd;
    }

    /** What starts a proxy on a host: Ferry's script under the prefix, or the java executable. */
    private String proxyProgram() {
        return remote.prefix() != null ? remote.prefix() + "/bin/ferry" : javaPath();
    }

    private static String javaPath() {
        return ChildJvm.javaExecutable().toString();
    }

    static boolean isThisHost(String host) {
        return host.equals("localhost") || host.equals("127.0.0.1") || host.equals("::1")
                || host.equals(dev.ferry.launch.pmi.NodeId.hostName());
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private OutputStream stdin(int rank) {
        ProxyLink l = linkOf.get(rank);
        return l == null ? OutputStream.nullOutputStream() : l.stdin(rank);
    }

    /** Reads one proxy's frames to the end of its connection. */
    private void serve(ProxyLink l, Instant launcherStart) {
        java.util.Set<Integer> running = new java.util.HashSet<>(l.ranks);
        String why = null;
        try {
            ProxyWire.Frame f;
            while ((f = l.read()) != null) {
                switch (f.type()) {
                    case ProxyWire.OUT, ProxyWire.ERR -> output.write(f.rank(), f.type() == ProxyWire.ERR, f.payload(), f.payload().length);
                    case ProxyWire.EXIT -> {
                        output.ended(f.rank(), false);
                        output.ended(f.rank(), true);
                        running.remove(f.rank());
                        monitor.exited(f.rank(), f.payloadInt());
                    }
                    case ProxyWire.ABORT -> monitor.aborted(f.rank(), f.payloadInt());
                    case ProxyWire.FENCE_IN -> fenceIn(ProxyWire.map(f.payload()), launcherStart);
                    case ProxyWire.FAILED -> why = "host " + l.host + ": " + f.text();
                    case ProxyWire.TRAINING -> l.training();
                    case ProxyWire.NOTE -> err.println("ferry run: host " + l.host + ": " + f.text());
                    default -> throw new IOException("host " + l.host + " sent a frame of type " + f.type());
                }
            }
        } catch (IOException e) {
            why = "host " + l.host + ": " + e.getMessage();
        }
        if (!running.isEmpty()) {
            if (why == null) {
                why = "host " + l.host + " lost (" + l.failure(proxyProgram()) + ")";
            }
            monitor.lost(running.size(), why + ": its ranks " + new java.util.TreeSet<>(running) + " ended with it");
        }
    }

    /** One host is in the fence: when all are, every host hears every put. */
    private void fenceIn(Map<String, String> puts, Instant launcherStart) {
        byte[] all = null;
        int number = 0;
        synchronized (fencePuts) {
            fencePuts.putAll(puts);
            if (++fenceArrivals == links.size()) {
                all = ProxyWire.map(fencePuts);
                fencePuts.clear();
                fenceArrivals = 0;
                number = ++fences;
            }
        }
        if (all != null) {
            if (number == 1) {
                wireupListener.accept(Duration.between(launcherStart, Instant.now()));
            }
            for (ProxyLink l : links) {
                l.send(ProxyWire.FENCE_OUT, -1, all);
            }
        }
    }
}
