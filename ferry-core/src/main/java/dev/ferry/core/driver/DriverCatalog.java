package dev.ferry.core.driver;

import dev.ferry.core.config.FerrySettings;
import dev.ferry.spi.Driver;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverProperties;
import dev.ferry.spi.Hints;
import dev.ferry.spi.Settings;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * Finds the drivers of this process (seed 002): with {@link ServiceLoader} on the class path, then
 * in every jar of the plugin directories named by {@code FERRY_DRIVER_PATH}, each jar in a class
 * loader of its own. Each driver's properties are asked on a probe context; a driver whose jar is
 * broken, whose class cannot load, or whose properties throw gives one warning naming it, and the
 * others still load.
 *
 * <pre>{@code
 * DriverCatalog catalog = DriverCatalog.discover();
 * for (DiscoveredDriver d : catalog.all()) System.out.println(d.name() + " from " + d.source());
 * }</pre>
 */
public final class DriverCatalog {
    private static final System.Logger LOG = dev.ferry.spi.LazyLogger.of(DriverCatalog.class);

    private final Map<String, DiscoveredDriver> drivers = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();

    /** The settings each driver is probed with (they decide, e.g., whether a setting is understood). */
    private final Settings settings;

    private DriverCatalog(Settings settings) {
        this.settings = settings;
    }

    /** Drivers on this class path and in {@code FERRY_DRIVER_PATH}, probed with the environment's settings. */
    public static DriverCatalog discover() {
        return discover(Settings.fromEnvironment());
    }

    /** Drivers on this class path and in the {@code FERRY_DRIVER_PATH} of {@code settings}, probed with them. */
    public static DriverCatalog discover(Settings settings) {
        return discover(DriverCatalog.class.getClassLoader(), pluginDirectories(settings.value(FerrySettings.DRIVER_PATH)), settings);
    }

    /** Drivers visible to {@code classPath}, then those in the plugin jars of {@code pluginDirs}. */
    public static DriverCatalog discover(ClassLoader classPath, List<Path> pluginDirs) {
        return discover(classPath, pluginDirs, Settings.fromEnvironment());
    }

    /** Drivers visible to {@code classPath}, then those in the plugin jars of {@code pluginDirs}, probed with {@code settings}. */
    public static DriverCatalog discover(ClassLoader classPath, List<Path> pluginDirs, Settings settings) {
        DriverCatalog c = new DriverCatalog(settings);
        c.load(ServiceLoader.load(Driver.class, classPath), null, null);
        for (Path dir : pluginDirs) {
            c.loadPluginDirectory(dir);
        }
        return c;
    }

    /** Splits a FERRY_DRIVER_PATH value on ':'; null or blank gives none. */
    public static List<Path> pluginDirectories(String value) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        List<Path> dirs = new ArrayList<>();
        for (String p : value.split(":")) {
            if (!p.isBlank()) {
                dirs.add(Path.of(p.strip()));
            }
        }
        return dirs;
    }

    private void loadPluginDirectory(Path dir) {
        if (!Files.isDirectory(dir)) {
            warn("FERRY_DRIVER_PATH names '" + dir + "', which is not a directory; no plugins loaded from it");
            return;
        }
        List<Path> jars;
        try (Stream<Path> s = Files.list(dir)) {
            jars = s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        } catch (IOException e) {
            warn("cannot list plugin directory '" + dir + "': " + e.getMessage());
            return;
        }
        for (Path jar : jars) {
            loadPluginJar(jar);
        }
    }

    private void loadPluginJar(Path jar) {
        try (ZipFile z = new ZipFile(jar.toFile())) {
            if (z.getEntry("META-INF/services/" + Driver.class.getName()) == null) {
                warn("plugin jar '" + jar + "' declares no driver (no META-INF/services/" + Driver.class.getName() + "); skipped");
                return;
            }
        } catch (IOException e) {
            warn("plugin jar '" + jar + "' is not a readable jar (" + e.getMessage() + "); skipped");
            return;
        }
        URLClassLoader loader;
        try {
            // Never closed: the driver's classes are used for the life of the process.
            loader = new URLClassLoader("ferry-plugin:" + jar.getFileName(), new URL[] {jar.toUri().toURL()}, Driver.class.getClassLoader());
        } catch (MalformedURLException e) {
            warn("plugin jar '" + jar + "' has no usable URL: " + e.getMessage());
            return;
        }
        load(ServiceLoader.load(Driver.class, loader), loader, "plugin:" + jar);
    }

    /**
     * Loads the providers of {@code sl}; with {@code only} set, just those defined by that loader
     * (a plugin's loader also sees the class path through its parent).
     */
    private void load(ServiceLoader<Driver> sl, ClassLoader only, String source) {
        Iterator<ServiceLoader.Provider<Driver>> it = sl.stream().iterator();
        while (true) {
            ServiceLoader.Provider<Driver> provider;
            try {
                if (!it.hasNext()) {
                    return;
                }
                provider = it.next();
            } catch (ServiceConfigurationError e) {
                warn("driver provider of " + (source != null ? source : "the class path") + " cannot load: " + e.getMessage());
                continue;
            }
            if (only != null && provider.type().getClassLoader() != only) {
                continue;
            }
            String from = source != null ? source : "classpath:" + location(provider.type());
            Driver d;
            try {
                d = provider.get();
            } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
                warn("driver " + provider.type().getName() + " from " + from + " cannot be created: " + rootMessage(e));
                continue;
            }
            add(d, from);
        }
    }

    private void add(Driver d, String from) {
        String name;
        try {
            name = d.name();
        } catch (RuntimeException | LinkageError e) {
            warn("driver " + d.getClass().getName() + " from " + from + " has no name: " + rootMessage(e));
            return;
        }
        DiscoveredDriver existing = drivers.get(name);
        if (existing != null) {
            warn("driver '" + name + "' from " + from + " ignored: the one from " + existing.source() + " was found first");
            return;
        }
        DriverProperties props = null;
        String problem = null;
        boolean quiet = false;
        boolean badSetting = false;
        try (DriverContext probe = d.newContext(new Hints(1, 0, true, java.util.Map.of(), settings))) {
            props = probe.properties();
            if (props == null) {
                problem = "properties() returned null";
            }
        } catch (dev.ferry.spi.DriverException e) {
            problem = e.getMessage(); // the driver says it cannot work here: ordinary, not a warning
            quiet = true;
            badSetting = e instanceof dev.ferry.spi.SettingException;
        } catch (RuntimeException | LinkageError e) {
            problem = "properties failed: " + rootMessage(e);
        }
        if (problem != null && quiet) {
            // A driver without its hardware or library here (ucx without RDMA) is ordinary:
            // `ferry info` lists it with the reason, and FERRY_DRIVERS naming it is an error.
            LOG.log(System.Logger.Level.DEBUG, "driver '" + name + "' from " + from + " is unavailable: " + problem);
        } else if (problem != null) {
            warn("driver '" + name + "' from " + from + " is unavailable: " + problem);
        }
        drivers.put(name, new DiscoveredDriver(name, from, d, props, problem, badSetting));
    }

    private static String location(Class<?> type) {
        CodeSource cs = type.getProtectionDomain().getCodeSource();
        if (cs == null || cs.getLocation() == null) {
            return type.getName();
        }
        try {
            return Path.of(cs.getLocation().toURI()).toString();
        } catch (Exception e) {
            return cs.getLocation().toString();
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e) : e + " (cause: " + t + ")";
    }

    private void warn(String message) {
        warnings.add(message);
        LOG.log(System.Logger.Level.WARNING, message);
    }

    /** Every driver found, available or not, in discovery order. */
    public List<DiscoveredDriver> all() {
        return List.copyOf(drivers.values());
    }

    /** The drivers whose properties could be read. */
    public List<DiscoveredDriver> available() {
        return drivers.values().stream().filter(DiscoveredDriver::available).toList();
    }

    public Optional<DiscoveredDriver> find(String name) {
        return Optional.ofNullable(drivers.get(name));
    }

    /** The warnings of this discovery, each naming the jar or driver at fault. */
    public List<String> warnings() {
        return Collections.unmodifiableList(warnings);
    }
}
