package dev.ferry.core.engine;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.SendRequest;
import dev.ferry.launch.pmi.InProcessJob;
import dev.ferry.launch.pmi.SingletonBootstrap;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.Hints;
import dev.ferry.spi.StridedLayout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine over drivers that take neither data layouts nor driver buffers: iovecs only, or
 * contiguous memory only ({@link RestrictedDriver}, which refuses any other form). Every message
 * size and layout still arrives whole.
 */
class RestrictedDriverEngineTest {
    private static final Duration BOUND = Duration.ofSeconds(60);

    private static DiscoveredDriver discovered(RestrictedDriver.Mode mode) {
        RestrictedDriver d = new RestrictedDriver(mode);
        try (var c = d.newContext(new Hints(1, 0, false, Map.of()))) {
            return new DiscoveredDriver(d.name(), "test", d, c.properties(), null);
        }
    }

    @ParameterizedTest
    @EnumSource(RestrictedDriver.Mode.class)
    void aJobOfThreeRanksMovesEverySize(RestrictedDriver.Mode mode) throws Exception {
        DiscoveredDriver d = discovered(mode);
        Map<Integer, String> lines = new ConcurrentHashMap<>();
        InProcessJob.run(3, BOUND, boot -> lines.put(boot.rank(), EngineRanks.sizes(new EngineConfig().bootstrap(boot).drivers(List.of(d)))));
        assertEquals(3, lines.size());
        for (String l : lines.values()) {
            assertTrue(l.startsWith("ok sizes"), l);
            assertTrue(l.contains("0=" + d.name() + " 1=" + d.name() + " 2=" + d.name()), l);
        }
    }

    private static MemorySegment pattern(long n, int seed) {
        MemorySegment m = Arena.ofAuto().allocate(Math.max(1, n));
        for (long i = 0; i < n; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + seed));
        }
        return m;
    }

    /**
     * Strided layouts on both sides, with fewer segments than the driver's iovecs take and with
     * more (through a bounce buffer), immediate and rendezvous: the bytes land where the target's
     * layout says.
     */
    @ParameterizedTest
    @EnumSource(RestrictedDriver.Mode.class)
    void stridedLayoutsArriveWhole(RestrictedDriver.Mode mode) {
        Inbox inbox = new Inbox();
        try (Engine e = Engine.init(new EngineConfig().bootstrap(new SingletonBootstrap()).drivers(List.of(discovered(mode))), inbox)) {
            inbox.attach(e);
            for (long blocks : new long[] {3, 10}) {
                for (long block : new long[] {8, 40_000}) {
                    long n = blocks * block;
                    MemorySegment src = pattern(2 * n, (int) blocks);
                    DataLayout from = new StridedLayout(src, 0, blocks, block, 2 * block);
                    SendRequest s = new SendRequest();
                    e.send(s.to(0, n, from));
                    Message m = inbox.take(BOUND);
                    assertEquals(n > e.eagerLimit(0), m.isRendezvous(), n + " bytes");
                    MemorySegment dst = Arena.ofAuto().allocate(3 * n);
                    RecvRequest r = new RecvRequest();
                    m.receive(new StridedLayout(dst, block, blocks, block, 3 * block), r);
                    r.join(BOUND);
                    s.join(BOUND);
                    assertEquals(n, r.received());
                    for (long b = 0; b < blocks; b++) {
                        long mismatch = src.asSlice(b * 2 * block, block).mismatch(dst.asSlice(block + b * 3 * block, block));
                        assertEquals(-1, mismatch, mode + ": block " + b + " of " + blocks + " x " + block + " B");
                    }
                    assertFalse(r.truncated());
                }
            }
        }
    }
}
