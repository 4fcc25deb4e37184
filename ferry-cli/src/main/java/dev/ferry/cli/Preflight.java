package dev.ferry.cli;

import dev.ferry.core.config.EngineSettings;
import dev.ferry.core.config.FerrySettings;
import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.core.driver.DriverSelection;
import dev.ferry.spi.Settings;
import dev.ferry.spi.Transport;

import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What {@code ferry run} checks before it starts anything, so that a job that cannot work is one
 * line from the launcher instead of a stack trace from every rank: the settings the ranks will
 * read, that the drivers they will select reach every pair of ranks, and that this host can start
 * as many ranks as asked.
 *
 * <pre>{@code
 * Preflight.settings(env, jvmOptions);                      // FERRY_RNDV_PULL=1: "FERRY_RNDV_PULL must be on or off, not '1'"
 * Preflight.drivers(env, jvmOptions, program, true, false); // FERRY_DRIVERS=^shm,^tcp,^self: no driver reaches ranks of one node
 * Preflight.ranks(100_000, false);                          // more than this host can start
 * }</pre>
 */
final class Preflight {
    /** Ranks per core this host starts without {@code --oversubscribe}: JVMs wait their turn beyond that. */
    static final int RANKS_PER_CORE = 32;
    /** The least a rank's JVM takes (heap committed at start, metaspace, code, thread stacks). */
    static final long BYTES_PER_RANK = 48L << 20;
    /** Threads a rank's JVM runs (compiler, GC, Ferry's): what counts against the process limit. */
    static final int THREADS_PER_RANK = 24;

    private Preflight() {
    }

    /** The settings the ranks will read: this environment, the job's --env and --drivers, and -Dferry.* JVM options. */
    static Settings of(Map<String, String> env, List<String> jvm) {
        Settings s = Settings.fromEnvironment();
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().startsWith("FERRY_")) {
                s = s.with(e.getKey(), e.getValue());
            }
        }
        for (String o : jvm) {
            int eq = o.indexOf('=');
            if (o.startsWith("-Dferry.") && eq > 8) {
                s = s.with(o.substring(2, eq).toUpperCase(Locale.ROOT).replace('.', '_'), o.substring(eq + 1));
            }
        }
        return s;
    }

    /** Every engine setting understood and consistent with the others, else the one line that says which is not. */
    static void settings(Map<String, String> env, List<String> jvm) {
        try {
            EngineSettings.validate(of(env, jvm));
        } catch (IllegalArgumentException e) {
            throw new Program.UsageError(e.getMessage(), e);
        }
    }

    /**
     * The drivers the ranks will find and select (Ferry's, the program's class path,
     * FERRY_DRIVER_PATH) reach every pair the job has: ranks of one node ({@code sameNode}) and of
     * different nodes ({@code acrossNodes}). On this host alone ({@code here}) a driver that is
     * unavailable here counts for nothing; across hosts only the selection is checked.
     */
    static void drivers(Map<String, String> env, List<String> jvm, Program program, boolean sameNode, boolean acrossNodes, boolean here) {
        Settings s = of(env, jvm);
        List<DiscoveredDriver> found;
        try (URLClassLoader loader = new URLClassLoader(program.urls(), Preflight.class.getClassLoader())) {
            found = DriverCatalog.discover(loader, DriverCatalog.pluginDirectories(s.value(FerrySettings.DRIVER_PATH)), s).all();
        } catch (IOException e) {
            throw new Program.UsageError("cannot read the class path: " + e.getMessage());
        }
        String spec = s.value(FerrySettings.DRIVERS);
        DriverSelection selection;
        List<DiscoveredDriver> selected;
        try {
            selection = DriverSelection.parse(spec);
            selected = selection.select(found);
        } catch (IllegalArgumentException e) {
            throw new Program.UsageError(e.getMessage(), e);
        }
        if (!here) { // the hosts' own drivers decide; the names at least must select something
            selected = found.stream().filter(d -> !selection.exclude().contains(d.name())
                    && (selection.include().isEmpty() || selection.include().contains(d.name()))).toList();
        }
        Set<Transport> reach = EnumSet.noneOf(Transport.class);
        for (DiscoveredDriver d : selected) {
            if (d.properties() != null) {
                reach.add(d.properties().capabilities().transport());
            } else if (!here) {
                reach.add(Transport.REMOTE); // unknown here: assume the hosts have it
            }
        }
        String missing = null;
        if (acrossNodes && !reach.contains(Transport.REMOTE)) {
            missing = "ranks on different nodes";
        } else if (sameNode && !reach.contains(Transport.LOCAL) && !reach.contains(Transport.REMOTE)) {
            missing = "ranks on the same node";
        }
        if (missing != null) {
            String why = found.stream().filter(d -> !d.available() && !selection.exclude().contains(d.name()))
                    .map(d -> d.problem().startsWith(d.name() + ":") ? d.problem() : d.name() + ": " + d.problem())
                    .collect(Collectors.joining("; "));
            throw new Program.UsageError("no selected driver reaches " + missing
                    + (spec != null ? " (FERRY_DRIVERS=" + spec + ")" : "")
                    + "; selected: " + (selected.isEmpty() ? "none" : selected.stream().map(DiscoveredDriver::name).collect(Collectors.joining(",")))
                    + (why.isEmpty() ? "" : "; unavailable here: " + why));
        }
    }

    /**
     * {@code n} ranks on this host: within its memory and process limit always, and within
     * {@link #RANKS_PER_CORE} per core unless {@code oversubscribe}.
     */
    static void ranks(int n, boolean oversubscribe) {
        int cores = Runtime.getRuntime().availableProcessors();
        long memory = memAvailable();
        if (memory > 0 && n * BYTES_PER_RANK > memory) {
            throw new Program.UsageError("-n " + n + " is more than this host can start: " + (memory >> 20)
                    + " MiB of memory available, and a rank's JVM takes at least " + (BYTES_PER_RANK >> 20) + " MiB (at most "
                    + memory / BYTES_PER_RANK + " ranks)");
        }
        long processes = processLimit();
        if (processes > 0 && (long) n * THREADS_PER_RANK > processes) {
            throw new Program.UsageError("-n " + n + " is more than this host can start: the process limit (ulimit -u) is "
                    + processes + " threads, and a rank's JVM runs about " + THREADS_PER_RANK + " (at most "
                    + processes / THREADS_PER_RANK + " ranks)");
        }
        if (!oversubscribe && n > RANKS_PER_CORE * cores) {
            throw new Program.UsageError("-n " + n + " is more than " + RANKS_PER_CORE + " ranks per core on this host's "
                    + cores + " cores (" + RANKS_PER_CORE * cores + "); --oversubscribe starts them anyway");
        }
    }

    /** MemAvailable of /proc/meminfo in bytes, or -1 where there is none. */
    static long memAvailable() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemAvailable:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) << 10;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /** The soft "Max processes" limit of this process (threads count against it), or -1 for unlimited or unknown. */
    static long processLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max processes")) {
                    String[] f = line.substring("Max processes".length()).strip().split("\\s+");
                    return f[0].equals("unlimited") ? -1 : Long.parseLong(f[0]);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
