package dev.ferry.launch.hosts;

import dev.ferry.launch.run.Exchange;
import dev.ferry.launch.run.PmiServer;
import dev.ferry.launch.run.RankProcesses;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * A host's proxy in a multi-host job, started by {@code ferry run --hosts} over ssh (or as a
 * plain child on the launcher's own host), talking to the launcher in {@link ProxyWire} frames on
 * its standard input and output. It starts this host's ranks, serves their PMI on loopback and
 * relays their puts and fences to the launcher (one connection per host, not per rank), forwards
 * their output and exits, and feeds them the standard input the launcher sends. When the launcher
 * or its connection goes (end of the standard input), it ends its ranks: nothing is left on the
 * host.
 *
 * <pre>
 *   ssh HOST JAVA -cp CP dev.ferry.launch.hosts.Proxy
 * </pre>
 */
public final class Proxy {
    private static final System.Logger LOG = System.getLogger(Proxy.class.getName());

    private final DataInputStream in;
    private final DataOutputStream out;
    private final Map<String, String> kvs = new ConcurrentHashMap<>();
    private final Map<String, String> pending = new LinkedHashMap<>();
    private volatile Runnable fenceRelease;

    Proxy(DataInputStream in, DataOutputStream out) {
        this.in = in;
        this.out = out;
    }

    public static void main(String[] args) {
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "ferry proxy: %4$s: %5$s%6$s%n");
        }
        // The frames own the standard output: nothing else may print there.
        DataOutputStream frames = ProxyWire.output(new java.io.FileOutputStream(java.io.FileDescriptor.out));
        System.setOut(System.err);
        int status = new Proxy(ProxyWire.input(System.in), frames).serve();
        System.exit(status);
    }

    /** Runs this host's part of the job to its end; the exit status for the proxy. */
    int serve() {
        RankProcesses ranks = null;
        try {
            ProxyWire.write(out, ProxyWire.HELLO, -1, ProxyWire.strings(List.of(Version.current(), dev.ferry.launch.pmi.NodeId.hostName())));
            ProxyWire.Frame first = ProxyWire.read(in);
            if (first == null) {
                return 0; // the launcher only asked who we are
            }
            if (first.type() != ProxyWire.SPEC) {
                throw new IOException("the launcher's first frame is of type " + first.type() + ", not the job");
            }
            JobPart part = JobPart.decode(first.payload());
            ranks = start(part);
            pumpCommands(ranks);
            ranks.end(); // at once: the launcher has gone, or every rank has ended already
            Thread d = doneWatcher;
            if (d != null) {
                d.join(DECIDE_MILLIS); // it decides whether to train once the last rank's exit is sent
            }
            if (training) {
                ranks.trainArchive(); // the launcher was told, and waits for this proxy's end longer
            }
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "ferry proxy: ended: {0}", e.toString());
            try {
                ProxyWire.write(out, ProxyWire.FAILED, -1, String.valueOf(e.getMessage()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            } catch (IOException gone) {
                // the launcher is gone too
            }
            return 1;
        } finally {
            if (ranks != null) {
                ranks.end();
            }
            if (services != null) {
                services.close();
            }
        }
    }

    /** How long the end waits for the watcher of the ranks' exits to decide about training. */
    private static final long DECIDE_MILLIS = 5_000;
    /** Whether a rank of this host ended badly (then no cache is made from the job's end). */
    private volatile boolean anyFailed;
    /** Whether this proxy makes its host's ahead-of-time cache before it exits. */
    private volatile boolean training;
    private volatile Thread doneWatcher;
    /** What this host runs for the job beside its ranks (agent mode's agent), ended after them. */
    private volatile dev.ferry.launch.run.NodeService.Running services;

    private RankProcesses start(JobPart part) throws IOException {
        CountDownLatch done = new CountDownLatch(part.ranks().size());
        Map<Integer, CountDownLatch> outputs = new ConcurrentHashMap<>();
        for (int r : part.ranks()) {
            outputs.put(r, new CountDownLatch(2));
        }
        RankProcesses ranks = new RankProcesses(part.javaArgs(), part.env(), new RankProcesses.Listener() {
            @Override
            public void output(int rank, boolean err, byte[] bytes, int len) {
                send(err ? ProxyWire.ERR : ProxyWire.OUT, rank, java.util.Arrays.copyOf(bytes, len));
            }

            @Override
            public void outputEnded(int rank, boolean err) {
                outputs.get(rank).countDown();
            }

            @Override
            public void exited(int rank, int status) {
                // after its output, so that the launcher prints all of it before it reports the end
                try {
                    outputs.get(rank).await(2, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (status != 0) {
                    anyFailed = true;
                }
                send(ProxyWire.EXIT, rank, ProxyWire.ByteArrays.ofInt(status));
                done.countDown();
            }
        });
        PmiServer pmi = new PmiServer(part.size(), part.ranks().size(), "kvs_" + part.jobId(), new PmiServer.Events() {
            @Override
            public void aborted(int rank, int exitCode) {
                send(ProxyWire.ABORT, rank, ProxyWire.ByteArrays.ofInt(exitCode));
            }

            @Override
            public void barrierCompleted(int number) {
            }
        }, new RelayExchange());
        var env = new RankProcesses.JobEnvironment(pmi.address(), part.size(), part.jobId(), part.jobKey(), ProcessHandle.current().pid());
        services = dev.ferry.launch.run.NodeService.startAll(ranks.nodeJob(part.jobId(), part.jobKey(), part.ranks()));
        for (String line : services.report()) {
            send(ProxyWire.NOTE, -1, line.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        for (int r : part.ranks()) {
            ranks.start(r, env, part.inputRanks().contains(r));
        }
        // Once every rank has ended and said so, the proxy's work is done: closing its output
        // tells the launcher. A host without an ahead-of-time cache for these ranks makes one after
        // a job that ended well, as ferry run does on its own host; the launcher hears of it first.
        doneWatcher = Thread.ofPlatform().daemon().name("ferry-proxy-done").start(() -> {
            try {
                done.await();
                if (!anyFailed && ranks.wantsArchive()) {
                    training = true;
                    send(ProxyWire.TRAINING, -1, new byte[0]);
                }
                pmi.close();
                synchronized (out) {
                    out.close();
                }
            } catch (InterruptedException | IOException e) {
                // ending anyway
            }
        });
        return ranks;
    }

    /** Reads the launcher's frames until its end (or the connection's): then the ranks end. */
    private void pumpCommands(RankProcesses ranks) throws IOException {
        ProxyWire.Frame f;
        while ((f = ProxyWire.read(in)) != null) {
            switch (f.type()) {
                case ProxyWire.STDIN -> {
                    OutputStream o = ranks.stdin(f.rank());
                    try {
                        if (f.payload().length == 0) {
                            o.close();
                        } else {
                            o.write(f.payload());
                            o.flush();
                        }
                    } catch (IOException gone) {
                        // that rank has ended
                    }
                }
                case ProxyWire.FENCE_OUT -> {
                    kvs.putAll(ProxyWire.map(f.payload()));
                    Runnable release = fenceRelease;
                    fenceRelease = null;
                    if (release != null) {
                        release.run();
                    }
                }
                case ProxyWire.TERMINATE -> ranks.terminate(f.rank() == 1);
                case ProxyWire.DUMP -> {
                    ranks.dumpThreads();
                    dev.ferry.launch.run.NodeService.Running s = services;
                    for (String line : s == null ? java.util.List.<String>of() : s.dumpThreads()) {
                        send(ProxyWire.NOTE, -1, line.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    }
                }
                default -> throw new IOException("the launcher sent a frame of type " + f.type());
            }
        }
    }

    private void send(byte type, int rank, byte[] payload) {
        try {
            ProxyWire.write(out, type, rank, payload);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "ferry proxy: the launcher is gone: {0}", e.getMessage());
        }
    }

    /** The ranks' puts kept here and sent up with each fence; the others' come down when it ends. */
    private final class RelayExchange implements Exchange {
        @Override
        public void put(String key, String value) {
            kvs.put(key, value);
            synchronized (pending) {
                pending.put(key, value);
            }
        }

        @Override
        public String get(String key) {
            return kvs.get(key);
        }

        @Override
        public void fence(Runnable release) {
            byte[] puts;
            synchronized (pending) {
                puts = ProxyWire.map(pending);
                pending.clear();
            }
            fenceRelease = release;
            send(ProxyWire.FENCE_IN, -1, puts);
        }
    }
}
