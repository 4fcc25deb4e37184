package dev.ferry;

import dev.ferry.internal.CollectiveSettings;
import dev.ferry.spi.Setting;
import dev.ferry.spi.Settings;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which algorithm each collective uses, by message size and number of ranks, as the tuned
 * components of Open MPI and MPICH choose; a setting {@code FERRY_COLL_<NAME>} (say
 * {@code FERRY_COLL_ALLREDUCE=ring}) forces one where it applies (a power-of-two algorithm on
 * another number of ranks, or an ordered one for a non-commutative operation, falls back to the
 * default). {@link #table()} lists the rules, for {@code info}.
 */
final class CollectiveTuning {
    /*
     * Node-aware bcast and allreduce through each node's shared arena (node_aware_arena) are on
     * request only: on this machine (4 ranks as 2 nodes of 2 on 2 cores, tcp between) their
     * rounds of notices within a node cost more than the two point-to-point transfers they replace
     * (1 MiB allreduce 0.95-1.13x naive, against 0.77-1.13x point-to-point, docs/performance.md;
     * measured when the arena's bcast still took two barriers).
     */

    /**
     * The pipelined bcast's chunk. The pipeline is on request only: on this machine's 2 cores the
     * chain's many small steps lost to the binomial tree at 1 MiB on 4 ranks (3.9 ms against 1.6 ms).
     */
    static final long BCAST_CHUNK = 64 << 10;
    /**
     * Blocking bcasts on one node of at least 3 members above {@link #CROWDED_LINEAR_MAX} go
     * through the node's shared arena: the root copies once and leaves, every other rank copies
     * out at once. On 3 members only up to this size: above it a binomial tree's two pulls did
     * as well (0.55-0.84x naive at 1 MiB, the arena 0.91-0.94x); on 2 the arena's two copies
     * lose to one pull (2-3x naive). docs/performance.md has the figures.
     */
    static final long BCAST_ARENA_MAX_ON_THREE = 256 << 10;
    /**
     * The arena's bcast moves its data in chunks of this size: the others copy one out while the
     * root copies the next in. On 4 ranks of this 2-core machine it took 0.9x the time of one
     * whole copy at 1 MiB and 0.7x at 4 MiB (docs/performance.md).
     */
    static final long BCAST_ARENA_CHUNK = 256 << 10;
    /**
     * Blocking allreduces among 3 or more ranks of one node from this size on go through the
     * node's shared arena. On 2 the ring did better from 64 KiB to 1 MiB (0.67-0.90x naive,
     * the arena 0.91-1.14x; docs/performance.md).
     */
    static final long ALLREDUCE_ARENA_MIN = 64 << 10;

    /**
     * Bcasts and allreduces up to this size on a crowded node (one node, more members than it has
     * cores) go linearly, to and from one rank: a tree's inner ranks would each wait to be
     * scheduled before passing the data on.
     */
    static final long CROWDED_LINEAR_MAX = 4096;
    /**
     * Allreduces (commutative, at least one element per rank) from this size on run as a ring.
     * Rabenseifner's is on request only: on this machine's 2 cores it did not beat the ring or
     * recursive doubling at 16 KiB to 1 MiB on 3 and 4 ranks (docs/performance.md).
     */
    static final long ALLREDUCE_RING_MIN = 16 << 10;
    /** Gathers and scatters whose total is below this go up or down a binomial tree; larger ones go direct. */
    static final long GATHER_BINOMIAL_MAX = 32 << 10;
    /** Allgathers whose total is below this use recursive doubling (a power of two of ranks) or Bruck's; larger ones a ring. */
    static final long ALLGATHER_DOUBLING_MAX = 64 << 10;
    /** All-to-alls whose blocks are below this post everything at once; larger ones go pairwise. */
    static final long ALLTOALL_LINEAR_MAX = 8 << 10;

    private final Map<String, String> forced = new LinkedHashMap<>();

    CollectiveTuning(Settings settings) {
        for (Map.Entry<String, List<String>> e : CollectiveSettings.ALGORITHMS.entrySet()) {
            Setting s = CollectiveSettings.SETTINGS.get(e.getKey());
            String v = settings.value(s);
            if (v != null && !v.isBlank()) {
                String a = v.trim().toLowerCase(java.util.Locale.ROOT);
                if (!e.getValue().contains(a)) {
                    throw FerryException.arg(ErrorClass.ARG, s.name() + "=" + v + ": not an algorithm of " + e.getKey() + " (one of " + e.getValue() + ")");
                }
                forced.put(e.getKey(), a);
            }
        }
    }

    /**
     * The algorithm for a collective, from the rule's choice and the setting: a forced algorithm
     * applies unless it is the arena without {@code arena} (a blocking call on one node), node-aware
     * without {@code nodeAware} (several nodes, one with several members; commutative for reductions),
     * node-aware through the nodes' arenas without {@code nodeAware} or {@code blocking}, or the ring
     * or Rabenseifner's for a non-commutative operation.
     */
    private String choose(String collective, String chosen, boolean arena, boolean nodeAware, boolean commutative, boolean blocking) {
        String f = forced.get(collective);
        if (f == null || f.equals("arena") && !arena || f.startsWith("node_aware") && !nodeAware
                || f.equals("node_aware_arena") && !blocking
                || (f.equals("ring") || f.equals("rabenseifner")) && !commutative) {
            return chosen;
        }
        return f;
    }

    /** {@code crowded}: one node running more members than it has cores (see {@link #bcast}). */
    String barrier(boolean nodeAware, boolean crowded) {
        return choose("barrier", nodeAware ? "node_aware" : crowded ? "linear" : "dissemination", false, nodeAware, true, false);
    }

    /**
     * {@code p} members; {@code arena}: a blocking call among ranks of one node, which may use the node's arena;
     * {@code crowded}: one node running more members than it has cores.
     */
    String bcast(long bytes, int p, boolean arena, boolean nodeAware, boolean crowded, boolean blocking) {
        String chosen = nodeAware ? "node_aware" : crowded && bytes <= CROWDED_LINEAR_MAX ? "linear"
                : arena && bytes > CROWDED_LINEAR_MAX && (p >= 4 || p == 3 && bytes <= BCAST_ARENA_MAX_ON_THREE) ? "arena" : "binomial";
        return choose("bcast", chosen, arena, nodeAware, true, blocking);
    }

    String reduce(boolean nodeAware, boolean commutative) {
        return choose("reduce", nodeAware && commutative ? "node_aware" : "binomial", false, nodeAware && commutative, commutative, false);
    }

    String allreduce(long bytes, long count, int p, boolean commutative, boolean arena, boolean nodeAware, boolean crowded, boolean blocking) {
        String chosen = nodeAware && commutative ? "node_aware" : arena && p >= 3 && bytes >= ALLREDUCE_ARENA_MIN ? "arena"
                : crowded && bytes <= CROWDED_LINEAR_MAX ? "linear"
                : commutative && count >= p && bytes >= ALLREDUCE_RING_MIN && p > 1 ? "ring" : "recursive_doubling";
        return choose("allreduce", chosen, arena, nodeAware && commutative, commutative, blocking);
    }

    String reduceScatter(boolean commutative) {
        return commutative ? choose("reduce_scatter", "ring", false, false, true, false) : "reduce_scatterv";
    }

    String gather(String collective, long total) {
        return choose(collective, total < GATHER_BINOMIAL_MAX ? "binomial" : "linear", false, false, true, false);
    }

    String allgather(long total, int p) {
        boolean pof2 = Integer.bitCount(p) == 1;
        String chosen = total >= ALLGATHER_DOUBLING_MAX ? "ring" : pof2 ? "recursive_doubling" : "bruck";
        String a = choose("allgather", chosen, false, false, true, false);
        return a.equals("recursive_doubling") && !pof2 ? chosen : a; // recursive doubling needs a power of two of ranks
    }

    String alltoall(long block) {
        return choose("alltoall", block < ALLTOALL_LINEAR_MAX ? "linear" : "pairwise", false, false, true, false);
    }

    /** The rules, one line per collective, and what a setting forces. */
    String table() {
        CollectiveTuning t = this;
        StringBuilder b = new StringBuilder();
        b.append("barrier         dissemination; linear (through rank 0) on a crowded node; node_aware on several nodes\n");
        b.append("bcast           binomial; linear up to ").append(CROWDED_LINEAR_MAX >> 10)
                .append(" KiB on a crowded node (more members than cores); arena (one node, blocking) above ")
                .append(CROWDED_LINEAR_MAX >> 10).append(" KiB on 4 or more members, up to ").append(BCAST_ARENA_MAX_ON_THREE >> 10)
                .append(" KiB on 3, in ").append(BCAST_ARENA_CHUNK >> 10).append(" KiB chunks; pipeline (chain, ").append(BCAST_CHUNK >> 10).append(" KiB chunks) on request\n");
        b.append("reduce          binomial (tree at rank 0 for non-commutative ops); node_aware on several nodes (commutative)\n");
        b.append("node_aware      (barrier, bcast, reduce, allreduce on a communicator over several nodes, one of them\n")
                .append("                with several members) the members of each node first, one leader per node on the network;\n")
                .append("                node_aware_arena on request: blocking bcast and allreduce within each node through\n")
                .append("                the node's shared arena\n");
        b.append("allreduce       recursive_doubling; linear up to ").append(CROWDED_LINEAR_MAX >> 10)
                .append(" KiB on a crowded node; ring (reduce-scatter + allgather) from ").append(ALLREDUCE_RING_MIN >> 10)
                .append(" KiB, commutative, count >= ranks; arena (one node's shared memory, blocking, 3 or more members) from ")
                .append(ALLREDUCE_ARENA_MIN >> 10).append(" KiB; rabenseifner and reduce_bcast on request\n");
        b.append("reduce_scatter  ring (commutative); reduce_scatterv (binomial reduce + linear scatter) otherwise\n");
        b.append("scan, exscan    recursive_doubling\n");
        b.append("gather, scatter binomial below ").append(GATHER_BINOMIAL_MAX >> 10).append(" KiB in all; linear above; v forms linear\n");
        b.append("allgather       recursive_doubling (power of two ranks) or bruck (others) below ").append(ALLGATHER_DOUBLING_MAX >> 10)
                .append(" KiB in all; ring above; allgatherv ring\n");
        b.append("alltoall        linear below ").append(ALLTOALL_LINEAR_MAX >> 10).append(" KiB per block; pairwise above; v and w forms linear\n");
        for (Map.Entry<String, String> e : t.forced.entrySet()) {
            b.append("forced          ").append(e.getKey()).append(" = ").append(e.getValue()).append('\n');
        }
        return b.toString();
    }
}
