package dev.ferry.internal;

import dev.ferry.spi.Setting;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The collectives' algorithms and the settings that force one ({@code FERRY_COLL_<NAME>}),
 * declared once for the collectives and for {@code ferry info}. Not part of the application API
 * (package {@code dev.ferry}): tools read it.
 *
 * <pre>{@code
 * for (Setting s : CollectiveSettings.all()) System.out.println(s.name());   // FERRY_COLL_BARRIER, ...
 * }</pre>
 */
public final class CollectiveSettings {
    /** Each collective's algorithms, the default first, by collective name. */
    public static final Map<String, List<String>> ALGORITHMS;
    /** {@code FERRY_COLL_<NAME>} by collective name. */
    public static final Map<String, Setting> SETTINGS;

    static {
        Map<String, List<String>> a = new LinkedHashMap<>();
        a.put("barrier", List.of("dissemination", "linear", "node_aware"));
        a.put("bcast", List.of("binomial", "linear", "pipeline", "arena", "node_aware", "node_aware_arena"));
        a.put("reduce", List.of("binomial", "node_aware"));
        a.put("allreduce", List.of("recursive_doubling", "linear", "rabenseifner", "ring", "reduce_bcast", "arena", "node_aware",
                "node_aware_arena"));
        a.put("reduce_scatter", List.of("ring", "reduce_scatterv"));
        a.put("scan", List.of("recursive_doubling"));
        a.put("gather", List.of("binomial", "linear"));
        a.put("scatter", List.of("binomial", "linear"));
        a.put("allgather", List.of("recursive_doubling", "bruck", "ring"));
        a.put("alltoall", List.of("linear", "pairwise"));
        ALGORITHMS = Collections.unmodifiableMap(a);
        Map<String, Setting> s = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : a.entrySet()) {
            s.put(e.getKey(), new Setting("FERRY_COLL_" + e.getKey().toUpperCase(java.util.Locale.ROOT), null,
                    "forces the " + e.getKey() + " algorithm where it applies: " + String.join(", ", e.getValue()) + "; unset: by size and ranks",
                    Setting.Type.CHOICE, "collectives (api)"));
        }
        SETTINGS = Collections.unmodifiableMap(s);
    }

    private CollectiveSettings() {
    }

    /** Every FERRY_COLL_ setting, in the collectives' order. */
    public static List<Setting> all() {
        return List.copyOf(SETTINGS.values());
    }
}
