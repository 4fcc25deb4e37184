package dev.ferry.core.driver;

import dev.ferry.spi.Capabilities;
import dev.ferry.spi.CpuSet;
import dev.ferry.spi.Driver;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverProperties;
import dev.ferry.spi.Hints;
import dev.ferry.spi.Profile;
import dev.ferry.spi.Transport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DriverSelectionTest {
    private static DiscoveredDriver found(String name, Transport t, long bw) {
        Driver d = new Driver() {
            public String name() { return name; }
            public String description() { return name; }
            public DriverContext newContext(Hints h) { throw new IllegalStateException("selection never opens contexts"); }
        };
        Capabilities caps = Capabilities.builder().maxPacketSize(1024).transport(t).build();
        return new DiscoveredDriver(name, "test", d, new DriverProperties(caps, new Profile(1000, bw, CpuSet.all())), null);
    }

    private static final DiscoveredDriver TCP = found("tcp", Transport.REMOTE, 3000);
    private static final DiscoveredDriver UCX = found("ucx", Transport.REMOTE, 9000);
    private static final DiscoveredDriver SHM = found("shm", Transport.LOCAL, 12000);
    private static final DiscoveredDriver SELF = found("self", Transport.SELF, 8000);
    private static final List<DiscoveredDriver> ALL = List.of(TCP, UCX, SHM, SELF);

    private static List<String> names(String spec) {
        return DriverSelection.parse(spec).select(ALL).stream().map(DiscoveredDriver::name).toList();
    }

    @Test
    void unsetMeansEveryDriverNearestFirstThenFastest() {
        assertEquals(List.of("self", "shm", "ucx", "tcp"), names(null));
        assertEquals(List.of("self", "shm", "ucx", "tcp"), names(" "));
    }

    @Test
    void aListIsAnOrderOfPreference() {
        assertEquals(List.of("tcp", "shm"), names("tcp,shm"));
        assertEquals(List.of("shm"), names(" shm "));
    }

    @Test
    void caretExcludes() {
        assertEquals(List.of("self", "shm", "tcp"), names("^ucx"));
        assertEquals(List.of("shm"), names("shm,tcp,^tcp"));
    }

    @Test
    void unknownNamesAreErrorsThatNameThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> names("shm,verbs"));
        assertTrue(e.getMessage().contains("[verbs]"), e.getMessage());
        assertTrue(e.getMessage().contains("tcp"), e.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> DriverSelection.parse("shm,,tcp"));
        assertTrue(bad.getMessage().contains("''"), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DriverSelection.parse("SHM"));
    }

    @Test
    void anUnavailableDriverCannotBeAskedFor() {
        DiscoveredDriver broken = new DiscoveredDriver("ucx", "test", UCX.driver(), null, "libucp.so not found");
        List<DiscoveredDriver> found = List.of(SHM, broken);
        assertEquals(List.of(SHM), DriverSelection.ALL.select(found));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DriverSelection.parse("ucx").select(found));
        assertTrue(e.getMessage().contains("libucp.so not found"), e.getMessage());
    }
}
