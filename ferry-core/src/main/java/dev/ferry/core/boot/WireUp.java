package dev.ferry.core.boot;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.launch.pmi.Bootstrap;
import dev.ferry.launch.pmi.KeyValues;
import dev.ferry.launch.pmi.NodeId;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverProperties;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.Settings;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bootstrap exchange: every rank opens a context of each driver, publishes its URLs and its
 * node identity through the launcher's key-value space and fences. A peer's URLs, node and process
 * are read when first asked for (PMIx's direct modex, PMI-2's {@code kvs-get} on demand), and only
 * its node is kept: a peer never contacted costs a few bytes. URLs longer than the launcher's
 * values are split ({@link KeyValues}); wide URLs only where the launcher supports them. The
 * engine builds its gates from what this returns.
 *
 * <pre>{@code
 * try (Bootstrap boot = Bootstraps.fromEnvironment();
 *      WireUp w = WireUp.exchange(boot, DriverSelection.parse(FerrySettings.DRIVERS.value()).select(catalog.all()))) {
 *     String node = w.node(peer);
 *     DriverUrl url = w.url(peer, "tcp");
 * }
 * }</pre>
 */
public final class WireUp implements AutoCloseable {
    private static final System.Logger LOG = dev.ferry.spi.LazyLogger.of(WireUp.class);

    /** This JVM, unique on the machine and over time: pid plus a nonce (unique, not secret). */
    private static final String PROCESS = ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime() ^ System.currentTimeMillis() << 20);

    private final Bootstrap boot;
    private final Map<String, DriverContext> contexts;
    private final Map<String, DriverProperties> properties;
    private final Map<String, DiscoveredDriver> driverOf;
    /** Each rank's node, once read (equal nodes share one string). */
    private final String[] nodes;
    private final Map<String, String> nodeNames = new HashMap<>();
    /** Whether each rank lives in this process: 0 not read yet, 1 yes, 2 no. */
    private final byte[] sameProcess;
    private final String jobKey;

    private WireUp(Bootstrap boot, Map<String, DriverContext> contexts, Map<String, DriverProperties> properties,
                   Map<String, DiscoveredDriver> driverOf, String jobKey) {
        this.boot = boot;
        this.contexts = contexts;
        this.properties = properties;
        this.driverOf = driverOf;
        this.nodes = new String[boot.size()];
        this.sameProcess = new byte[boot.size()];
        this.jobKey = jobKey;
    }

    /** Runs the exchange (collective: every rank calls it), one context per driver. */
    public static WireUp exchange(Bootstrap boot, List<DiscoveredDriver> drivers) {
        return exchange(boot, drivers, Map.of());
    }

    /**
     * Runs the exchange with {@code contextsPerDriver} contexts of the drivers it names (one of
     * every other): the first context of a driver is named as the driver, further ones
     * {@code NAME.1}, {@code NAME.2}, ... (rails).
     */
    public static WireUp exchange(Bootstrap boot, List<DiscoveredDriver> drivers, Map<String, Integer> contextsPerDriver) {
        return exchange(boot, drivers, contextsPerDriver, Settings.fromEnvironment());
    }

    /**
     * The exchange with the drivers' contexts configured by {@code settings}, which also give the
     * job's id and key where a launcher set them ({@code FERRY_JOB_ID}, {@code FERRY_JOB_KEY}) and
     * the node identity ({@code FERRY_NODE_ID}, {@code FERRY_RANKS_PER_NODE}).
     */
    public static WireUp exchange(Bootstrap boot, List<DiscoveredDriver> drivers, Map<String, Integer> contextsPerDriver, Settings settings) {
        String jobKey = jobKey(boot, settings.value(dev.ferry.spi.JobSettings.JOB_KEY));
        String id = settings.value(dev.ferry.spi.JobSettings.JOB_ID);
        String jobId = id != null ? id : boot.jobId();
        Map<String, DriverContext> contexts = new LinkedHashMap<>();
        Map<String, DriverProperties> properties = new HashMap<>();
        Map<String, DiscoveredDriver> driverOf = new LinkedHashMap<>();
        int rank = boot.rank();
        String nodeId = settings.value(dev.ferry.launch.LaunchSettings.NODE_ID) != null ? settings.value(dev.ferry.launch.LaunchSettings.NODE_ID) : boot.node();
        String node = NodeId.of(rank, nodeId, settings.value(dev.ferry.launch.LaunchSettings.RANKS_PER_NODE));
        KeyValues.put(boot, "ferry.node." + rank, node);
        KeyValues.put(boot, "ferry.process." + rank, PROCESS);
        for (DiscoveredDriver d : drivers) {
            if (!d.available()) {
                continue;
            }
            int count = contextsPerDriver.getOrDefault(d.name(), 1);
            for (int i = 0; i < count; i++) {
                String name = i == 0 ? d.name() : d.name() + "." + i;
                driverOf.put(name, d);
                DriverContext ctx = null;
                try {
                    Map<String, String> attributes = attributes(boot, jobId, jobKey, node, settings);
                    attributes.put(Hints.RAIL, String.valueOf(i));
                    ctx = d.driver().newContext(new Hints(boot.size(), rank, boot.wideUrlSupport(), attributes, settings));
                    DriverProperties p = ctx.properties();
                    DriverUrl url = ctx.init();
                    contexts.put(name, ctx);
                    properties.put(name, p);
                    KeyValues.put(boot, "ferry.url." + rank + "." + name, url.toText());
                } catch (dev.ferry.spi.SettingException | IllegalArgumentException e) {
                    // a setting not understood (FERRY_SHM_SINGLE_COPY=xyz, FERRY_TCP_SNDBUF=abc): an
                    // error, not a reason to go on without the driver
                    if (ctx != null) {
                        ctx.close();
                    }
                    throw new IllegalArgumentException("driver " + name + ": " + e.getMessage(), e);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "driver {0} could not start on rank {1}: {2}", name, rank, e.getMessage());
                    if (ctx != null) {
                        ctx.close();
                    }
                }
            }
        }
        boot.fence();
        WireUp w = new WireUp(boot, contexts, properties, driverOf, jobKey);
        w.node(rank); // ours, read back: the key-value space works
        return w;
    }

    /** Set for the closing fence: the bootstrap is busy with it (a read would wait for its end), so nothing more is read. */
    private volatile boolean frozen;

    /**
     * From now on no key is read (the closing fence holds the bootstrap, and a read would wait for
     * the other ranks): a peer first met now is unknown, its URLs null. Work is over when a rank
     * closes, so only a peer's probe of a closed connection can come to a peer never met before.
     */
    public void freeze() {
        frozen = true;
    }

    /** A key every rank published before the fence, read now (one reader at a time: the bootstrap is one connection); null once frozen. */
    private String read(String key) {
        if (frozen) {
            return null;
        }
        synchronized (boot) {
            return KeyValues.get(boot, key);
        }
    }

    /**
     * What a driver is told beside the job's size and rank: the job's id and key, its node, the peers this
     * rank expects at once (the job less one, or FERRY_MAX_CONNECTIONS), and the ranks per node
     * where FERRY_RANKS_PER_NODE says it (UCX chooses DC or RC by them); the caller adds which rail.
     */
    static Map<String, String> attributes(Bootstrap boot, String jobId, String jobKey, String node, Settings settings) {
        Map<String, String> a = new HashMap<>();
        a.put(Hints.NODE, node);
        a.put(Hints.JOB_ID, jobId);
        a.put(Hints.JOB_KEY, jobKey);
        int cap = dev.ferry.core.config.EngineSettings.maxConnections(settings);
        int peers = Math.max(1, boot.size() - 1);
        a.put(Hints.PEERS_EXPECTED, String.valueOf(cap > 0 ? Math.min(cap, peers) : peers));
        String perNode = settings.value(dev.ferry.launch.LaunchSettings.RANKS_PER_NODE);
        if (perNode != null && perNode.strip().matches("\\d{1,6}")) {
            a.put(Hints.RANKS_ON_NODE, String.valueOf(Math.min(boot.size(), Integer.parseInt(perNode.strip()))));
        }
        return a;
    }

    /** The job key: FERRY_JOB_KEY from ferry run; under a foreign launcher, one rank 0 draws and shares. */
    private static String jobKey(Bootstrap boot, String key) {
        if (key != null && !key.isBlank()) {
            return key;
        }
        if (boot.size() == 1) {
            return HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        }
        if (boot.rank() == 0) {
            boot.put("ferry.jobkey", HexFormat.of().formatHex(new SecureRandom().generateSeed(16)));
        }
        boot.fence();
        String shared = boot.get("ferry.jobkey");
        if (shared == null) {
            throw new IllegalStateException("rank 0 published no job key");
        }
        return shared;
    }

    public int rank() {
        return boot.rank();
    }

    public int size() {
        return boot.size();
    }

    /** The node identity of {@code rank} (read on first use). */
    public String node(int rank) {
        String n = nodes[rank];
        if (n == null) {
            String read = read("ferry.node." + rank);
            if (read == null) {
                if (frozen) {
                    return "(unknown: the job is closing)";
                }
                throw new IllegalStateException("rank " + rank + " published no node identity");
            }
            synchronized (nodeNames) {
                n = nodeNames.computeIfAbsent(read, x -> x);
            }
            nodes[rank] = n;
        }
        return n;
    }

    /** How many ranks of the job run on {@code node} (reads every rank's node). */
    public int ranksOnNode(String node) {
        int n = 0;
        for (int r = 0; r < nodes.length; r++) {
            n += node(r).equals(node) ? 1 : 0;
        }
        return n;
    }

    /** Whether {@code rank} lives in this process (an in-process job's ranks are threads of one JVM). */
    public boolean sameProcess(int rank) {
        if (sameProcess[rank] == 0) {
            String p = read("ferry.process." + rank);
            sameProcess[rank] = (byte) (p != null && p.equals(PROCESS) ? 1 : 2);
        }
        return sameProcess[rank] == 1;
    }

    /** The URL of {@code driver}'s context on {@code rank}, or null when it has none: read from the launcher each call (a gate asks once). */
    public DriverUrl url(int rank, String driver) {
        if (!driverOf.containsKey(driver)) {
            return null;
        }
        String u = read("ferry.url." + rank + "." + driver);
        return u == null ? null : DriverUrl.parse(u);
    }

    /** This rank's context of {@code driver}, or null. */
    public DriverContext context(String driver) {
        return contexts.get(driver);
    }

    /** The names of this rank's open contexts, in order of preference. */
    public List<String> contextNames() {
        return List.copyOf(contexts.keySet());
    }

    /** The properties {@code context} gave at start (they are asked only once). */
    public DriverProperties properties(String context) {
        return properties.get(context);
    }

    /** The driver behind {@code context}. */
    public DiscoveredDriver driver(String context) {
        return driverOf.get(context);
    }

    /** The bootstrap the exchange ran on (for collective steps of the layers above, like a closing fence). */
    public Bootstrap bootstrap() {
        return boot;
    }

    /** Number of distinct nodes in the job (reads every rank's node). */
    public long nodeCount() {
        java.util.Set<String> distinct = new java.util.HashSet<>();
        for (int r = 0; r < nodes.length; r++) {
            distinct.add(node(r));
        }
        return distinct.size();
    }

    /** Bytes this table holds for the job's peers (a reference and a flag per rank, plus the node names read). */
    public long bytesHeld() {
        long b = 16L + 4L * nodes.length + 16L + sameProcess.length;
        synchronized (nodeNames) {
            for (String n : nodeNames.keySet()) {
                b += 40 + n.length() + 48; // the string and its map entry
            }
        }
        return b;
    }

    public String jobKey() {
        return jobKey;
    }

    @Override
    public void close() {
        contexts.values().forEach(DriverContext::close);
    }
}
