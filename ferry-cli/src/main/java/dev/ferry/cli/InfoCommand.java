package dev.ferry.cli;

import dev.ferry.core.config.FerrySettings;
import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.core.driver.DriverSelection;
import dev.ferry.core.util.Json;
import dev.ferry.internal.KnownSettings;
import dev.ferry.spi.Capabilities;
import dev.ferry.spi.Profile;
import dev.ferry.spi.Setting;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code ferry info [--format text|json]}: every driver found, where it came from, its
 * capabilities and profile (like {@code ucx_info -d} and {@code fi_info}), the drivers
 * FERRY_DRIVERS selects, and every FERRY_* setting with its current value.
 */
final class InfoCommand {
    private InfoCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        String format = "text";
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--format") && i + 1 < args.size()) {
                format = args.get(++i);
                if (!format.equals("text") && !format.equals("json")) {
                    err.println("ferry info: --format takes text or json, not '" + format + "'");
                    return 2;
                }
            } else if (a.equals("--format")) {
                err.println("ferry info: option --format needs a value");
                return 2;
            } else {
                err.println("ferry info: unknown option '" + a + "'");
                return 2;
            }
        }
        if (System.getenv("PMI_PORT") != null || System.getenv("PMI_FD") != null) {
            return inJob(out);
        }
        Map<String, Object> info = collect(DriverCatalog.discover());
        if (format.equals("json")) {
            out.println(Json.write(info));
        } else {
            printText(info, out);
        }
        return 0;
    }

    /**
     * Inside a job ({@code ferry run -n 4 --ranks-per-node 2 info}): starts Ferry like any
     * program and prints, from rank 0, the rails and protocols chosen for each kind of peer and
     * the algorithm each collective takes.
     */
    private static int inJob(PrintStream out) {
        try (dev.ferry.Ferry f = dev.ferry.Ferry.init()) {
            if (f.rank() == 0) {
                out.print(f.describe());
                out.flush();
            }
        }
        return 0;
    }

    static Map<String, Object> collect(DriverCatalog catalog) {
        Map<String, Object> root = new LinkedHashMap<>();
        List<Object> drivers = new ArrayList<>();
        List<Setting> settings = KnownSettings.all(catalog);
        for (DiscoveredDriver d : catalog.all()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", d.name());
            m.put("source", d.source());
            m.put("description", safe(() -> d.driver().description()));
            m.put("available", d.available());
            if (d.available()) {
                m.put("capabilities", capabilities(d.properties().capabilities()));
                m.put("profile", profile(d.properties().profile()));
            } else {
                m.put("problem", d.problem());
            }
            m.put("settings", KnownSettings.settingsOf(d).stream().map(Setting::name).toList());
            drivers.add(m);
        }
        root.put("drivers", drivers);
        try {
            root.put("selected", DriverSelection.parse(FerrySettings.DRIVERS.value()).select(catalog.all())
                    .stream().map(DiscoveredDriver::name).toList());
        } catch (IllegalArgumentException e) {
            root.put("selected", List.of());
            root.put("selection_error", e.getMessage());
        }
        Map<String, Object> sm = new LinkedHashMap<>();
        for (Setting s : settings) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("value", s.value());
            v.put("source", s.source());
            v.put("default", s.defaultValue());
            v.put("type", s.type().name().toLowerCase(java.util.Locale.ROOT));
            v.put("owner", s.reader());
            v.put("description", s.description());
            sm.put(s.name(), v);
        }
        root.put("settings", sm);
        Set<String> known = sm.keySet();
        Map<String, Object> unknown = new TreeMap<>();
        System.getenv().forEach((k, v) -> {
            if (k.startsWith("FERRY_") && !known.contains(k)) {
                unknown.put(k, v);
            }
        });
        System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith("ferry."))
                .filter(k -> settings.stream().noneMatch(s -> s.propertyName().equals(k)))
                .forEach(k -> unknown.put(k, System.getProperty(k)));
        root.put("unknown_settings", unknown);
        root.put("warnings", catalog.warnings());
        return root;
    }

    private static Map<String, Object> capabilities(Capabilities c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("supports_data", c.supportsData());
        m.put("supports_buf_send", c.supportsBufSend());
        m.put("supports_buf_recv", c.supportsBufRecv());
        m.put("supports_iovec", c.supportsIovec());
        m.put("max_iovec_segments", c.maxIovecSegments());
        m.put("has_recv_any", c.hasRecvAny());
        m.put("supports_wait_any", c.supportsWaitAny());
        m.put("supports_prefetch", c.supportsPrefetch());
        m.put("max_packet_size", c.maxPacketSize());
        m.put("max_buffer_size", c.maxBufferSize());
        m.put("transport", c.transport().name().toLowerCase(java.util.Locale.ROOT));
        return m;
    }

    private static Map<String, Object> profile(Profile p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("latency_ns", p.latencyNs());
        m.put("bandwidth_mb_per_s", p.bandwidthMBps());
        m.put("nearest_cpus", p.nearestCpus().toString());
        return m;
    }

    private static String safe(java.util.function.Supplier<String> s) {
        try {
            return s.get();
        } catch (RuntimeException e) {
            return "(description failed: " + e + ")";
        }
    }

    @SuppressWarnings("unchecked")
    private static void printText(Map<String, Object> info, PrintStream out) {
        List<Map<String, Object>> drivers = (List<Map<String, Object>>) info.get("drivers");
        out.println("Drivers (" + drivers.size() + " found):");
        for (Map<String, Object> d : drivers) {
            out.println();
            out.println("  " + d.get("name") + "  -  " + d.get("description"));
            out.println("    source:        " + d.get("source"));
            if (!(Boolean) d.get("available")) {
                out.println("    UNAVAILABLE:   " + d.get("problem"));
                continue;
            }
            Map<String, Object> c = (Map<String, Object>) d.get("capabilities");
            out.println("    capabilities:  " + c.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" ")));
            Map<String, Object> p = (Map<String, Object>) d.get("profile");
            out.println("    profile:       latency " + p.get("latency_ns") + " ns, bandwidth " + p.get("bandwidth_mb_per_s")
                    + " MB/s, nearest CPUs " + p.get("nearest_cpus"));
        }
        out.println();
        if (info.containsKey("selection_error")) {
            out.println("Selected by FERRY_DRIVERS: error: " + info.get("selection_error"));
        } else {
            out.println("Selected by FERRY_DRIVERS, in order of preference: " + String.join(", ", (List<String>) info.get("selected")));
        }
        out.println();
        out.println("Settings (environment FERRY_X_Y, or system property ferry.x.y; where the value came from; who reads it; [type]):");
        Map<String, Map<String, Object>> settings = (Map<String, Map<String, Object>>) info.get("settings");
        settings.forEach((name, s) -> out.printf("  %-24s = %-12s (%s; %s) %s [%s]%n", name,
                s.get("value") == null ? "(unset)" : s.get("value"), s.get("source"), s.get("owner"), s.get("description"), s.get("type")));
        Map<String, Object> unknown = (Map<String, Object>) info.get("unknown_settings");
        if (!unknown.isEmpty()) {
            out.println();
            out.println("Unknown FERRY settings (no driver or layer reads these; a typo?):");
            unknown.forEach((k, v) -> out.println("  " + k + " = " + v));
        }
        List<String> warnings = (List<String>) info.get("warnings");
        if (!warnings.isEmpty()) {
            out.println();
            out.println("Warnings:");
            warnings.forEach(w -> out.println("  " + w));
        }
    }
}
