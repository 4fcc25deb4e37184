package dev.ferry.launch.pmi;

/**
 * What a rank learns from the process manager that started it, and the key-value space it shares
 * with the other ranks: PMI-1, PMI-2 or PMIx as the launcher speaks it, or a job of one when no launcher
 * is there. Keys become visible to others after a {@link #fence()}.
 *
 * <pre>{@code
 * try (Bootstrap boot = Bootstraps.fromEnvironment()) {
 *     boot.put("node." + boot.rank(), NodeId.current());
 *     boot.fence();
 *     String other = boot.get("node." + (boot.rank() + 1) % boot.size());
 * }
 * }</pre>
 */
public interface Bootstrap extends AutoCloseable {
    int rank();

    int size();

    /** The job's name in the key-value space (PMI's kvsname or jobid). */
    String jobId();

    /** "pmi-1", "pmi-2", "pmix" or "singleton". */
    String protocol();

    /**
     * The launcher's own name of this rank's node where it gives one (PMIx's host name), which
     * then stands for this node in locality; null when it gives none (PMI-1, PMI-2).
     */
    default String node() {
        return null;
    }

    /** Longest value one key holds; longer values are split by {@link KeyValues}. */
    int maxValueLength();

    /** Longest key. */
    int maxKeyLength();

    /**
     * Whether the launcher carries wide URLs (seed 000's wide_url_support): PMI-1 and a job of one
     * do; PMI-2 is the non-scalable kind the seed names, so drivers give it a single URL.
     */
    boolean wideUrlSupport();

    void put(String key, String value);

    /** Collective: everything put before it by any rank is visible to every rank after it. */
    void fence();

    /** The value, or null when no rank put that key. */
    String get(String key);

    /** Ends the whole job with {@code exitCode}. Does not return normally. */
    void abort(int exitCode, String message);

    /** Finalizes the PMI session. */
    @Override
    void close();
}
