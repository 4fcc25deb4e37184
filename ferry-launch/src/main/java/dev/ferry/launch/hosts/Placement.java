package dev.ferry.launch.hosts;

import java.util.ArrayList;
import java.util.List;

/**
 * Which host runs which rank. {@code slot} (the default, as Open MPI's {@code --map-by slot} and
 * Hydra's): ranks fill each host's slots in turn, 0..s1-1 on the first host, and so on; with more
 * ranks than slots they go round again (Hydra's rule). {@code node}: one rank per host in turn.
 * A fixed number per host ({@code --ranks-per-node K}) fills K on each host in turn.
 *
 * <pre>{@code
 * List<List<Integer>> ranks = Placement.place(hosts, 6, Placement.MapBy.SLOT, 0);   // per host
 * }</pre>
 */
public final class Placement {
    /** How ranks are spread over the hosts. */
    public enum MapBy {
        SLOT, NODE;

        public static MapBy parse(String s) {
            return switch (s) {
                case "slot", "core" -> SLOT;
                case "node", "host" -> NODE;
                default -> throw new IllegalArgumentException("--map-by takes slot or node, not '" + s + "'");
            };
        }
    }

    private Placement() {
    }

    /**
     * The ranks of each host, in the hosts' order; {@code perNode} above 0 overrides the slots.
     * Hosts that get no rank have an empty list.
     */
    public static List<List<Integer>> place(List<HostList.Host> hosts, int ranks, MapBy by, int perNode) {
        List<List<Integer>> out = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            out.add(new ArrayList<>());
        }
        if (by == MapBy.NODE) {
            for (int r = 0; r < ranks; r++) {
                out.get(r % hosts.size()).add(r);
            }
            return out;
        }
        int r = 0;
        while (r < ranks) {
            for (int h = 0; h < hosts.size() && r < ranks; h++) {
                int take = perNode > 0 ? perNode : hosts.get(h).slots();
                for (int k = 0; k < take && r < ranks; k++) {
                    out.get(h).add(r++);
                }
            }
        }
        return out;
    }
}
