package dev.ferry.launch.hosts;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HostListTest {
    @Test
    void hostsWithAndWithoutSlots() {
        assertEquals(List.of(new HostList.Host("a", 2), new HostList.Host("b.example", 1), new HostList.Host("10.0.0.3", 4)),
                HostList.parse("a:2,b.example, 10.0.0.3:4"));
    }

    @Test
    void aHostNamedTwiceAddsItsSlots() {
        assertEquals(List.of(new HostList.Host("a", 3), new HostList.Host("b", 1)), HostList.parse("a,b,a:2"));
    }

    @Test
    void badEntriesAreNamed() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HostList.parse("a,,b")).getMessage().contains("empty entry"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HostList.parse("a:0")).getMessage().contains("'0'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HostList.parse("a:x")).getMessage().contains("'x'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HostList.parse("a b")).getMessage().contains("'a b' is not a host name"));
    }

    @Test
    void aHostFileInOpenMpisAndHydrasForms(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("hosts");
        Files.writeString(f, """
                # the cluster
                n1 slots=2 max_slots=4
                n2:3

                n3   # one slot
                """);
        assertEquals(List.of(new HostList.Host("n1", 2), new HostList.Host("n2", 3), new HostList.Host("n3", 1)), HostList.read(f));
        assertEquals(6, HostList.slots(HostList.read(f)));
    }

    @Test
    void aHostFileLineThatCannotBeReadIsNamedWithItsLine(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("hosts");
        Files.writeString(f, "n1 slots=2\nn2 cores=4\n");
        String m = assertThrows(IllegalArgumentException.class, () -> HostList.read(f)).getMessage();
        assertTrue(m.contains(f + ":2") && m.contains("cores=4"), m);
        Files.writeString(f, "# nothing\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HostList.read(f)).getMessage().contains("names no host"));
    }
}
