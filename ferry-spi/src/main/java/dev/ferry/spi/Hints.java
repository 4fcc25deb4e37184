package dev.ferry.spi;

import java.util.Map;
import java.util.Objects;

/**
 * What the layers above tell a driver before it reports its properties (seed 000's 'hints' and
 * context attributes: {@code session_size}, {@code rank}, {@code wide_url_support}), plus free-form
 * string attributes for what a particular launcher or driver needs (a job id, a job key).
 *
 * <pre>{@code
 * Hints h = new Hints(4, 1, true, Map.of(Hints.JOB_ID, "job-42"));
 * DriverContext ctx = driver.newContext(h);
 * }</pre>
 *
 * @param sessionSize    number of processes in the session (job), at least 1
 * @param rank           this process's rank in the session, 0-based
 * @param wideUrlSupport whether the launcher can carry a wide URL (several URLs packed as one)
 * @param attributes     further attributes, never null
 * @param settings       where the driver reads its {@link Setting}s: the configuration of the engine that opens it
 */
public record Hints(int sessionSize, int rank, boolean wideUrlSupport, Map<String, String> attributes, Settings settings) {
    /**
     * Attribute: the job's identifier, unique on the node while the job runs. Drivers may put it
     * in file names as it is when it holds only {@code [A-Za-z0-9_.]} (what {@code ferry run} gives),
     * and must replace any other character by {@code _}, so that a launcher can find a job's files.
     */
    public static final String JOB_ID = "job.id";
    /** Attribute: the job's secret key, for drivers that authenticate their peers. */
    public static final String JOB_KEY = "job.key";
    /** Attribute: this rank's node identity (ranks with the same one share a machine). */
    public static final String NODE = "node.id";
    /** Attribute, where known: how many ranks of the job run on this node (a transport-selection hint). */
    public static final String RANKS_ON_NODE = "node.ranks";
    /** Attribute: how many peers this rank expects to be connected to at once (the job's size less one, or the connection cap). */
    public static final String PEERS_EXPECTED = "peers.expected";
    /** Attribute: which context of its driver this is, 0 for the first (FERRY_RAILS=tcp:2 opens contexts 0 and 1, each a rail). */
    public static final String RAIL = "rail";

    public Hints {
        if (sessionSize < 1) {
            throw new IllegalArgumentException("sessionSize must be at least 1: " + sessionSize);
        }
        if (rank < 0 || rank >= sessionSize) {
            throw new IllegalArgumentException("rank " + rank + " outside the session of size " + sessionSize);
        }
        attributes = Map.copyOf(Objects.requireNonNull(attributes, "attributes"));
        Objects.requireNonNull(settings, "settings");
    }

    /** Hints whose settings come from the environment. */
    public Hints(int sessionSize, int rank, boolean wideUrlSupport, Map<String, String> attributes) {
        this(sessionSize, rank, wideUrlSupport, attributes, Settings.fromEnvironment());
    }

    /** Hints for a process alone in its session, with wide URLs granted. */
    public static Hints single() {
        return new Hints(1, 0, true, Map.of());
    }

    /** The attribute's value, or {@code fallback} when absent. */
    public String attribute(String key, String fallback) {
        return attributes.getOrDefault(key, fallback);
    }
}
