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
 * node identity through the launcher's key-value space, fences, and reads everyone else's. URLs
 * longer than the launcher's values are split ({@link KeyValues}); wide URLs only where the
 * launcher supports them. The engine builds its gates from what this returns.
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
    private final String[] nodes;
    private final String[] processes;
    private final List<Map<String, DriverUrl>> urls;
    private final String jobKey;

    private WireUp(Bootstrap boot, Map<String, DriverContext> contexts, Map<String, DriverProperties> properties,
                   Map<String, DiscoveredDriver> driverOf, String[] nodes, String[] processes, List<Map<String, DriverUrl>> urls, String jobKey) {
        this.boot = boot;
        this.contexts = contexts;
        this.properties = properties;
        this.driverOf = driverOf;
        this.nodes = nodes;
        this.processes = processes;
        this.urls = urls;
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
        KeyValues.put(boot, "ferry.node." + rank, NodeId.of(rank, nodeId, settings.value(dev.ferry.launch.LaunchSettings.RANKS_PER_NODE)));
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
                    ctx = d.driver().newContext(new Hints(boot.size(), rank, boot.wideUrlSupport(),
                            Map.of(Hints.JOB_ID, jobId, Hints.JOB_KEY, jobKey), settings));
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
        String[] nodes = new String[boot.size()];
        String[] processes = new String[boot.size()];
        List<Map<String, DriverUrl>> urls = new ArrayList<>();
        for (int r = 0; r < boot.size(); r++) {
            nodes[r] = KeyValues.get(boot, "ferry.node." + r);
            if (nodes[r] == null) {
                throw new IllegalStateException("rank " + r + " published no node identity");
            }
            processes[r] = KeyValues.get(boot, "ferry.process." + r);
            Map<String, DriverUrl> m = new HashMap<>();
            for (String name : driverOf.keySet()) {
                String u = KeyValues.get(boot, "ferry.url." + r + "." + name);
                if (u != null) {
                    m.put(name, DriverUrl.parse(u));
                }
            }
            urls.add(m);
        }
        return new WireUp(boot, contexts, properties, driverOf, nodes, processes, urls, jobKey);
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

    /** The node identity of {@code rank}. */
    public String node(int rank) {
        return nodes[rank];
    }

    /** How many ranks of the job run on {@code node}. */
    public int ranksOnNode(String node) {
        int n = 0;
        for (String x : nodes) {
            n += x.equals(node) ? 1 : 0;
        }
        return n;
    }

    /** Whether {@code rank} lives in this process (an in-process job's ranks are threads of one JVM). */
    public boolean sameProcess(int rank) {
        return processes[rank] != null && processes[rank].equals(processes[boot.rank()]);
    }

    /** The URL of {@code driver}'s context on {@code rank}, or null when it has none. */
    public DriverUrl url(int rank, String driver) {
        return urls.get(rank).get(driver);
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

    /** Number of distinct nodes in the job. */
    public long nodeCount() {
        return java.util.Arrays.stream(nodes).distinct().count();
    }

    public String jobKey() {
        return jobKey;
    }

    @Override
    public void close() {
        contexts.values().forEach(DriverContext::close);
    }
}
