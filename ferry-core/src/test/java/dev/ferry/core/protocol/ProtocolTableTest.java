package dev.ferry.core.protocol;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.engine.EngineConfig;
import dev.ferry.core.engine.Inbox;
import dev.ferry.core.rail.Rail;
import dev.ferry.core.request.SendRequest;
import dev.ferry.core.wire.PacketWriter;
import dev.ferry.launch.pmi.InProcessJob;
import dev.ferry.spi.Settings;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The table of protocols by message length: its look-ups, and the tables gates build from their rails and settings. */
class ProtocolTableTest {
    private static final Duration BOUND = Duration.ofSeconds(60);

    /** A protocol that only has a name: the table never calls anything else. */
    private static Protocol named(String name) {
        return new Protocol(null) {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String describe() {
                return "how " + name + " goes";
            }

            @Override
            public byte[] kinds() {
                return new byte[0];
            }

            @Override
            public void send(SendRequest s) {
                throw new AssertionError();
            }

            @Override
            public int entryBytes(SendRequest s) {
                throw new AssertionError();
            }

            @Override
            public int pack(Rail rail, PacketWriter w, SendRequest s) {
                throw new AssertionError();
            }

            @Override
            public long parse(Rail rail, MemorySegment p, long at, long len, long word) {
                throw new AssertionError();
            }
        };
    }

    @Test
    void eachLengthFindsTheRowItFallsInBoundsIncluded() {
        Protocol a = named("a"), b = named("b"), c = named("c");
        ProtocolTable t = new ProtocolTable.Builder().upTo(100, a).upTo(5000, b).rest(c);
        assertEquals(3, t.size());
        assertSame(a, t.lookup(0));
        assertSame(a, t.lookup(100));
        assertSame(b, t.lookup(101));
        assertSame(b, t.lookup(5000));
        assertSame(c, t.lookup(5001));
        assertSame(c, t.lookup(Long.MAX_VALUE));
        assertEquals(101, t.from(1));
        assertEquals(Long.MAX_VALUE, t.to(2));
        String d = t.describe("  ");
        assertTrue(d.contains("0 .. 100 B:") && d.contains("101 .. 5000 B:") && d.contains(">= 5001 B:"), d);
        assertTrue(d.contains("how b goes"), d);
    }

    @Test
    void aRowWhoseRangeIsEmptyIsLeftOut() {
        Protocol a = named("a"), b = named("b"), c = named("c");
        ProtocolTable t = new ProtocolTable.Builder().upTo(8000, a).upTo(4096, b).rest(c); // b's bound below a's: no length for it
        assertEquals(2, t.size());
        assertSame(c, t.lookup(8001));
    }

    /** The gates of an in-process job over shm (pull on rail 0), each table as one line per row: "from..to name". */
    private static Map<Integer, String> tables(Settings settings) throws Exception {
        Map<Integer, String> tables = new ConcurrentHashMap<>();
        InProcessJob.run(2, BOUND, boot -> {
            try (Engine e = Engine.init(new EngineConfig().bootstrap(boot).settings(settings), new Inbox())) {
                StringBuilder b = new StringBuilder();
                for (int peer = 0; peer < 2; peer++) {
                    ProtocolTable t = e.gate(peer).table();
                    b.append(peer).append(':');
                    for (int i = 0; i < t.size(); i++) {
                        b.append(' ').append(t.from(i)).append("..").append(t.to(i) == Long.MAX_VALUE ? "" : t.to(i)).append(' ').append(t.protocol(i).name());
                    }
                    b.append(" |eager ").append(e.eagerLimit(peer)).append(" max ").append(e.gate(peer).rails()[0].ec.caps().maxPacketSize()).append('\n');
                }
                tables.put(e.rank(), b.toString());
            }
        });
        return tables;
    }

    @Test
    void aShmGateRowsEagerThenPullUpToTheDriversLargestPacketThenPut() throws Exception {
        Settings shm = Settings.fromEnvironment().with("FERRY_SAME_PROCESS", "node").with("FERRY_DRIVERS", "self,shm");
        String t = tables(shm).get(0);
        String[] lines = t.split("\n");
        long eager = Long.parseLong(lines[1].replaceAll(".*\\|eager (\\d+) .*", "$1"));
        long max = Long.parseLong(lines[1].replaceAll(".* max (\\d+)$", "$1"));
        assertEquals("1: 0.." + eager + " eager " + (eager + 1) + ".." + max + " rendezvous-pull " + (max + 1) + ".. rendezvous-put",
                lines[1].replaceAll(" \\|.*", ""), t);
        assertTrue(lines[0].matches("0: 0\\.\\.\\d+ eager \\d+\\.\\. rendezvous-put .*"), "self has no pull: " + t);

        String off = tables(shm.with("FERRY_RNDV_PULL", "off")).get(1);
        assertTrue(off.split("\n")[0].matches("0: 0\\.\\.\\d+ eager \\d+\\.\\. rendezvous-put .*"), "FERRY_RNDV_PULL=off: no pull row: " + off);
    }

    @Test
    void infoPrintsTheGatesTables() throws Exception {
        Settings shm = Settings.fromEnvironment().with("FERRY_SAME_PROCESS", "node").with("FERRY_DRIVERS", "self,shm");
        Map<Integer, String> described = new ConcurrentHashMap<>();
        InProcessJob.run(2, BOUND, boot -> {
            try (Engine e = Engine.init(new EngineConfig().bootstrap(boot).settings(shm), new Inbox())) {
                described.put(e.rank(), e.describe() + "\n--\n" + e.gate(1 - e.rank()).table().describe("      "));
            }
        });
        String d = described.get(0);
        String[] parts = d.split("\n--\n");
        assertTrue(parts[0].contains("same node (1 peer): rails shm\n" + parts[1]), d);
        assertTrue(parts[1].contains("rendezvous-pull") && parts[1].contains("eager") && parts[1].contains("rendezvous-put"), d);
    }
}
