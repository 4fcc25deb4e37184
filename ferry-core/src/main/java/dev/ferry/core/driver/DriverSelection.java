package dev.ferry.core.driver;

import dev.ferry.spi.Transport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Run-time driver selection (seed 002, like UCX_TLS and FI_PROVIDER): {@code FERRY_DRIVERS} is an
 * ordered, comma-separated list, the first preferred; {@code ^name} excludes a driver. A list
 * of exclusions only keeps every other driver, in the default order; unset means every
 * available driver in the default order: same process first, then same node, then network, and
 * within each the higher profile bandwidth first.
 *
 * <pre>{@code
 * DriverSelection sel = DriverSelection.parse("shm,tcp");
 * List<DiscoveredDriver> use = sel.select(catalog.available());   // shm first, then tcp
 * DriverSelection.parse("^tcp").select(catalog.available());      // everything but tcp
 * }</pre>
 *
 * @param include names to use, in order of preference (empty: all)
 * @param exclude names never to use
 */
public record DriverSelection(List<String> include, Set<String> exclude) {
    /** Every available driver, in the default order. */
    public static final DriverSelection ALL = new DriverSelection(List.of(), Set.of());

    public DriverSelection {
        include = List.copyOf(include);
        exclude = Set.copyOf(exclude);
    }

    /** Parses a FERRY_DRIVERS value; null or blank selects all. */
    public static DriverSelection parse(String spec) {
        if (spec == null || spec.isBlank()) {
            return ALL;
        }
        Set<String> include = new LinkedHashSet<>();
        Set<String> exclude = new LinkedHashSet<>();
        for (String raw : spec.split(",")) {
            String item = raw.strip();
            boolean not = item.startsWith("^");
            String name = not ? item.substring(1).strip() : item;
            if (!name.matches("[a-z][a-z0-9-]*")) {
                throw new IllegalArgumentException("FERRY_DRIVERS: '" + item + "' is not a driver name (in '" + spec + "')");
            }
            (not ? exclude : include).add(name);
        }
        return new DriverSelection(new ArrayList<>(include), exclude);
    }

    /** The default preference: SELF, LOCAL, REMOTE; then higher bandwidth; then name. */
    public static final Comparator<DiscoveredDriver> DEFAULT_ORDER = Comparator
            .comparing((DiscoveredDriver d) -> d.properties().capabilities().transport(), Comparator.comparingInt(Transport::ordinal))
            .thenComparing(d -> -d.properties().profile().bandwidthMBps())
            .thenComparing(DiscoveredDriver::name);

    /**
     * The drivers to use, in order of preference. A named driver that was not found, or is
     * unavailable, is an error naming it and the drivers that are there.
     */
    public List<DiscoveredDriver> select(List<DiscoveredDriver> found) {
        Set<String> known = found.stream().map(DiscoveredDriver::name).collect(Collectors.toCollection(LinkedHashSet::new));
        List<String> unknown = new ArrayList<>();
        for (String n : include) {
            if (!known.contains(n)) {
                unknown.add(n);
            }
        }
        for (String n : exclude) {
            if (!known.contains(n)) {
                unknown.add(n);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("FERRY_DRIVERS names unknown driver(s) " + unknown + "; drivers found: " + known);
        }
        for (DiscoveredDriver d : found) { // a typing error in a setting must not quietly drop a driver
            if (d.badSetting() && !exclude.contains(d.name()) && (include.isEmpty() || include.contains(d.name()))) {
                throw new IllegalArgumentException("driver " + d.name() + ": " + d.problem());
            }
        }
        if (include.isEmpty()) {
            return found.stream().filter(DiscoveredDriver::available).filter(d -> !exclude.contains(d.name()))
                    .sorted(DEFAULT_ORDER).toList();
        }
        List<DiscoveredDriver> out = new ArrayList<>();
        for (String n : include) {
            if (exclude.contains(n)) {
                continue;
            }
            DiscoveredDriver d = found.stream().filter(x -> x.name().equals(n)).findFirst().orElseThrow();
            if (!d.available()) {
                throw new IllegalArgumentException("FERRY_DRIVERS names driver '" + n + "', which is unavailable here: " + d.problem());
            }
            out.add(d);
        }
        return out;
    }
}
