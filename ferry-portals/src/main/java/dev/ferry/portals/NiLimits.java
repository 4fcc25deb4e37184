package dev.ferry.portals;

/**
 * ptl_ni_limits_t: what a network interface provides (niInit's actual limits), or what a
 * program would like (its desired limits).
 *
 * <pre>{@code
 * NiInitResult r = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null);
 * long maxAtomic = r.actual().maxAtomicSize;
 * }</pre>
 */
public final class NiLimits {
    public int maxEntries;
    public int maxUnexpectedHeaders;
    public int maxMds;
    public int maxCts;
    public int maxEqs;
    public int maxPtIndex;
    public int maxIovecs;
    public int maxListSize;
    public int maxTriggeredOps;
    public long maxMsgSize;
    public long maxAtomicSize;
    public long maxFetchAtomicSize;
    public long maxWawOrderedSize;
    public long maxWarOrderedSize;
    public long maxVolatileSize;
    public int features;

    NiLimits copy() {
        NiLimits l = new NiLimits();
        l.maxEntries = maxEntries;
        l.maxUnexpectedHeaders = maxUnexpectedHeaders;
        l.maxMds = maxMds;
        l.maxCts = maxCts;
        l.maxEqs = maxEqs;
        l.maxPtIndex = maxPtIndex;
        l.maxIovecs = maxIovecs;
        l.maxListSize = maxListSize;
        l.maxTriggeredOps = maxTriggeredOps;
        l.maxMsgSize = maxMsgSize;
        l.maxAtomicSize = maxAtomicSize;
        l.maxFetchAtomicSize = maxFetchAtomicSize;
        l.maxWawOrderedSize = maxWawOrderedSize;
        l.maxWarOrderedSize = maxWarOrderedSize;
        l.maxVolatileSize = maxVolatileSize;
        l.features = features;
        return l;
    }

    @Override
    public String toString() {
        return "max_entries " + maxEntries + ", max_unexpected_headers " + maxUnexpectedHeaders + ", max_mds " + maxMds
                + ", max_cts " + maxCts + ", max_eqs " + maxEqs + ", max_pt_index " + maxPtIndex + ", max_iovecs " + maxIovecs
                + ", max_list_size " + maxListSize + ", max_triggered_ops " + maxTriggeredOps + ", max_msg_size " + maxMsgSize
                + ", max_atomic_size " + maxAtomicSize + ", max_fetch_atomic_size " + maxFetchAtomicSize
                + ", max_waw_ordered_size " + maxWawOrderedSize + ", max_war_ordered_size " + maxWarOrderedSize
                + ", max_volatile_size " + maxVolatileSize + ", features " + features;
    }
}
