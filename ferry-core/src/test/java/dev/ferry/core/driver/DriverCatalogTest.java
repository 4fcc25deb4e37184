package dev.ferry.core.driver;

import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import dev.ferry.spi.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DriverCatalogTest {
    /** A real driver in a plugin jar: it delegates to the self driver under another name. */
    private static final String GOOD = """
            package plugin;
            public class RenamedSelf implements dev.ferry.spi.Driver {
                private final dev.ferry.spi.Driver inner = new dev.ferry.driver.self.SelfDriver();
                public String name() { return "plugin-self"; }
                public String description() { return "the self driver, loaded as a plugin"; }
                public dev.ferry.spi.DriverContext newContext(dev.ferry.spi.Hints h) { return inner.newContext(h); }
            }
            """;
    /** A driver whose properties throw, as one whose device is missing would. */
    private static final String THROWING = """
            package plugin;
            public class NoDevice implements dev.ferry.spi.Driver {
                public String name() { return "nodevice"; }
                public String description() { return "a driver whose device is missing"; }
                public dev.ferry.spi.DriverContext newContext(dev.ferry.spi.Hints h) {
                    return new dev.ferry.spi.DriverContext() {
                        public dev.ferry.spi.DriverProperties properties() { throw new IllegalStateException("no such device: /dev/fake0"); }
                        public dev.ferry.spi.DriverUrl init() { throw new IllegalStateException("no device"); }
                        public dev.ferry.spi.DriverInstance newInstance() { throw new IllegalStateException("no device"); }
                        public void close() { }
                    };
                }
            }
            """;

    @Test
    void findsTheClassPathDrivers() {
        DriverCatalog c = DriverCatalog.discover(getClass().getClassLoader(), List.of());
        DiscoveredDriver self = c.find("self").orElseThrow();
        assertTrue(self.available());
        assertTrue(self.source().startsWith("classpath:"), self.source());
        assertEquals(Transport.SELF, self.properties().capabilities().transport());
        assertTrue(c.warnings().isEmpty(), c.warnings().toString());
    }

    @Test
    void loadsAPluginJarBuiltAtTestTimeAndUsesIt(@TempDir Path dir) throws Exception {
        Path plugins = Files.createDirectory(dir.resolve("plugins"));
        PluginJars.build(dir, "plugins/good.jar", Map.of("plugin.RenamedSelf", GOOD), "plugin.RenamedSelf\n");
        DriverCatalog c = DriverCatalog.discover(getClass().getClassLoader(), List.of(plugins));
        DiscoveredDriver d = c.find("plugin-self").orElseThrow(() -> new AssertionError("plugin driver not found; warnings " + c.warnings()));
        assertEquals("plugin:" + plugins.resolve("good.jar"), d.source());
        assertTrue(d.available());
        assertTrue(c.find("self").isPresent(), "class path drivers are still there");

        // it is a working driver: one packet between two of its contexts
        try (DriverContext a = d.driver().newContext(Hints.single()); DriverContext b = d.driver().newContext(Hints.single())) {
            a.properties();
            b.properties();
            DriverUrl ua = a.init();
            DriverUrl ub = b.init();
            DriverInstance ia = a.newInstance();
            DriverInstance ib = b.newInstance();
            assertEquals(Status.DONE, ia.connectAsync(ub));
            assertEquals(Status.DONE, ib.connectAsync(ua));
            assertEquals(Status.DONE, ia.connectWait());
            MemorySegment m = Arena.ofAuto().allocate(8);
            m.set(ValueLayout.JAVA_LONG, 0, 77);
            Packet p = new Packet().useIov(IoVec.of(m));
            assertEquals(Status.DONE, ia.sendPost(p));
            assertEquals(Status.DONE, ia.sendPoll(p));
            MemorySegment r = Arena.ofAuto().allocate(8);
            Packet q = new Packet().useIov(IoVec.of(r));
            assertEquals(Status.DONE, ib.recvPost(q));
            assertEquals(Status.DONE, ib.recvPoll(q));
            assertEquals(77, r.get(ValueLayout.JAVA_LONG, 0));
        }
    }

    @Test
    void brokenPluginsWarnOnceByNameAndTheRestLoad(@TempDir Path dir) throws Exception {
        Path plugins = Files.createDirectory(dir.resolve("plugins"));
        PluginJars.writeGarbage(plugins.resolve("a-garbage.jar"));
        PluginJars.build(dir, "plugins/b-missing-class.jar", Map.of(), "plugin.DoesNotExist\n");
        PluginJars.build(dir, "plugins/c-throwing.jar", Map.of("plugin.NoDevice", THROWING), "plugin.NoDevice\n");
        PluginJars.build(dir, "plugins/d-good.jar", Map.of("plugin.RenamedSelf", GOOD), "plugin.RenamedSelf\n");
        PluginJars.build(dir, "plugins/e-empty.jar", Map.of(), null);

        DriverCatalog c = DriverCatalog.discover(getClass().getClassLoader(), List.of(plugins, dir.resolve("nowhere")));
        List<String> w = c.warnings();
        assertEquals(1, count(w, "a-garbage.jar"), w.toString());
        assertEquals(1, count(w, "b-missing-class.jar"), w.toString());
        assertEquals(1, count(w, "plugin.DoesNotExist"), w.toString());
        assertEquals(1, count(w, "'nodevice'"), w.toString());
        assertEquals(1, count(w, "no such device: /dev/fake0"), w.toString());
        assertEquals(1, count(w, "e-empty.jar"), w.toString());
        assertEquals(1, count(w, "nowhere"), w.toString());
        assertEquals(5, w.size(), "one warning per broken item: " + w);

        DiscoveredDriver nodevice = c.find("nodevice").orElseThrow();
        assertFalse(nodevice.available());
        assertTrue(nodevice.problem().contains("no such device"), nodevice.problem());
        assertTrue(c.find("plugin-self").orElseThrow().available());
        assertTrue(c.find("self").orElseThrow().available());
        // the class path's drivers (self, shm, tcp in this module's tests), then the working plugin
        List<String> names = c.available().stream().map(DiscoveredDriver::name).toList();
        assertEquals("plugin-self", names.get(names.size() - 1), names.toString());
        assertEquals(List.of("self", "shm", "tcp"), names.subList(0, names.size() - 1).stream().sorted().toList(), names.toString());
    }

    private static final String STANDS_ASIDE = """
            package plugin;
            public class NoRdma implements dev.ferry.spi.Driver {
                public String name() { return "nordma"; }
                public String description() { return "a driver that declines: its hardware is not here"; }
                public dev.ferry.spi.DriverContext newContext(dev.ferry.spi.Hints h) {
                    return new dev.ferry.spi.DriverContext() {
                        public dev.ferry.spi.DriverProperties properties() { throw new dev.ferry.spi.DriverException("no RDMA device here"); }
                        public dev.ferry.spi.DriverUrl init() { throw new IllegalStateException("no device"); }
                        public dev.ferry.spi.DriverInstance newInstance() { throw new IllegalStateException("no device"); }
                        public void close() { }
                    };
                }
            }
            """;

    @Test
    void aDriverThatDeclinesWithADriverExceptionIsUnavailableWithoutAWarning(@TempDir Path dir) throws Exception {
        Path plugins = Files.createDirectory(dir.resolve("plugins"));
        PluginJars.build(dir, "plugins/nordma.jar", Map.of("plugin.NoRdma", STANDS_ASIDE), "plugin.NoRdma\n");
        DriverCatalog c = DriverCatalog.discover(getClass().getClassLoader(), List.of(plugins));
        DiscoveredDriver d = c.find("nordma").orElseThrow();
        assertFalse(d.available());
        assertEquals("no RDMA device here", d.problem());
        assertTrue(c.warnings().isEmpty(), c.warnings().toString());
    }

    @Test
    void aDuplicateNameKeepsTheFirstAndWarns(@TempDir Path dir) throws Exception {
        Path plugins = Files.createDirectory(dir.resolve("plugins"));
        PluginJars.build(dir, "plugins/one.jar", Map.of("plugin.RenamedSelf", GOOD), "plugin.RenamedSelf\n");
        PluginJars.build(dir, "plugins/two.jar", Map.of("plugin.RenamedSelf", GOOD), "plugin.RenamedSelf\n");
        DriverCatalog c = DriverCatalog.discover(getClass().getClassLoader(), List.of(plugins));
        assertEquals("plugin:" + plugins.resolve("one.jar"), c.find("plugin-self").orElseThrow().source());
        assertEquals(1, c.warnings().size(), c.warnings().toString());
        assertTrue(c.warnings().get(0).contains("two.jar"));
    }

    @Test
    void pluginDirectoriesSplitOnColons() {
        assertEquals(List.of(), DriverCatalog.pluginDirectories(null));
        assertEquals(List.of(), DriverCatalog.pluginDirectories("  "));
        assertEquals(List.of(Path.of("/a"), Path.of("/b c")), DriverCatalog.pluginDirectories("/a::/b c"));
    }

    private static long count(List<String> warnings, String needle) {
        return warnings.stream().filter(s -> s.contains(needle)).count();
    }
}
