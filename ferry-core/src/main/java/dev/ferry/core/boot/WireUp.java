package dev.ferry.core.boot;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.launch.pmi.Bootstrap;
import dev.ferry.launch.pmi.KeyValues;
import dev.ferry.launch.pmi.NodeId;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;

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
    private static final System.Logger LOG = System.getLogger(WireUp.class.getName());

    private final Bootstrap boot;
    private final Map<String, DriverContext> contexts;
    private final String[] nodes;
    private final List<Map<String, DriverUrl>> urls;
    private final String jobKey;

    private WireUp(Bootstrap boot, Map<String, DriverContext> contexts, String[] nodes, List<Map<String, DriverUrl>> urls, String jobKey) {
        this.boot = boot;
        this.contexts = contexts;
        this.nodes = nodes;
        this.urls = urls;
        this.jobKey = jobKey;
    }

    /** Runs the exchange (collective: every rank calls it). */
    public static WireUp exchange(Bootstrap boot, List<DiscoveredDriver> drivers) {
        String jobKey = jobKey(boot);
        String jobId = System.getenv().getOrDefault("FERRY_JOB_ID", boot.jobId());
        Map<String, DriverContext> contexts = new LinkedHashMap<>();
        int rank = boot.rank();
        KeyValues.put(boot, "ferry.node." + rank, NodeId.current());
        for (DiscoveredDriver d : drivers) {
            if (!d.available()) {
                continue;
            }
            DriverContext ctx = null;
            try {
                ctx = d.driver().newContext(new Hints(boot.size(), rank, boot.wideUrlSupport(),
                        Map.of(Hints.JOB_ID, jobId, Hints.JOB_KEY, jobKey)));
                ctx.properties();
                DriverUrl url = ctx.init();
                contexts.put(d.name(), ctx);
                KeyValues.put(boot, "ferry.url." + rank + "." + d.name(), url.toText());
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "driver {0} could not start on rank {1}: {2}", d.name(), rank, e.getMessage());
                if (ctx != null) {
                    ctx.close();
                }
            }
        }
        boot.fence();
        String[] nodes = new String[boot.size()];
        List<Map<String, DriverUrl>> urls = new ArrayList<>();
        for (int r = 0; r < boot.size(); r++) {
            nodes[r] = KeyValues.get(boot, "ferry.node." + r);
            if (nodes[r] == null) {
                throw new IllegalStateException("rank " + r + " published no node identity");
            }
            Map<String, DriverUrl> m = new HashMap<>();
            for (DiscoveredDriver d : drivers) {
                String u = KeyValues.get(boot, "ferry.url." + r + "." + d.name());
                if (u != null) {
                    m.put(d.name(), DriverUrl.parse(u));
                }
            }
            urls.add(m);
        }
        return new WireUp(boot, contexts, nodes, urls, jobKey);
    }

    /** The job key: FERRY_JOB_KEY from ferry run; under a foreign launcher, one rank 0 draws and shares. */
    private static String jobKey(Bootstrap boot) {
        String key = System.getenv("FERRY_JOB_KEY");
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

    /** The URL of {@code driver}'s context on {@code rank}, or null when it has none. */
    public DriverUrl url(int rank, String driver) {
        return urls.get(rank).get(driver);
    }

    /** This rank's context of {@code driver}, or null. */
    public DriverContext context(String driver) {
        return contexts.get(driver);
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
