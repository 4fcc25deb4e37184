package dev.ferry.core.gate;

import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.core.engine.Engine;
import dev.ferry.core.rail.EngineContext;
import dev.ferry.core.request.MessageHandler;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.wire.WireHeader;
import dev.ferry.launch.pmi.SingletonBootstrap;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Random and mutated engine packets into the gate's parser (seed 003's lib_parse): whatever a peer
 * sends may fail its gate ("protocol error from rank ..."), never throw into the rank. Valid
 * packets of every entry kind are mutated a few bytes at a time, so that most get past the magic
 * and reach the entries. Seeded, so a failure repeats.
 */
class GateParseFuzzTest {
    private static final int ROUNDS = 200_000;

    /** A valid packet: a header and a few entries of random kinds with plausible fields. */
    private static long validPacket(MemorySegment p, SplittableRandom r) {
        long at = WireHeader.PACKET_HEADER;
        int count = r.nextInt(1, 5);
        for (int i = 0; i < count; i++) {
            switch (r.nextInt(4)) {
                case 0 -> {
                    int n = r.nextInt(0, 64);
                    WireHeader.entry(p, at, WireHeader.IMMEDIATE, n, r.nextLong(), 0, 0);
                    at += WireHeader.immediateBytes(n);
                }
                case 1 -> {
                    WireHeader.entry(p, at, WireHeader.RTS, 0, r.nextLong(), r.nextLong(0, 1 << 20), r.nextLong(0, 8));
                    at += WireHeader.RTS_BYTES;
                }
                case 2 -> {
                    int chunks = r.nextInt(0, 3);
                    WireHeader.entry(p, at, WireHeader.CTS, chunks, r.nextLong(0, 8), r.nextLong(0, 8), r.nextLong(0, 1 << 16));
                    for (int c = 0; c < chunks; c++) {
                        WireHeader.ctsChunk(p, at + WireHeader.CTS_FIXED + (long) c * WireHeader.CTS_CHUNK, r.nextInt(0, 2), r.nextLong(0, 4096), r.nextLong(1, 4096));
                    }
                    at += WireHeader.ctsBytes(chunks);
                }
                default -> {
                    WireHeader.entry(p, at, WireHeader.DATA, 0, r.nextLong(0, 8), r.nextLong(0, 4096), r.nextLong(1, 4096));
                    at += WireHeader.DATA_BYTES;
                    i = count; // DATA ends a packet
                    WireHeader.packetHeader(p, i, r.nextInt(0, 4096));
                    return at;
                }
            }
        }
        WireHeader.packetHeader(p, count, r.nextInt(0, 4096));
        return at;
    }

    /** The engine's reports counted, not printed: a warning per failed gate, thousands of them. */
    private static final class CountingLogger implements System.Logger {
        int protocolErrors;

        @Override
        public String getName() {
            return "counting";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, java.util.ResourceBundle bundle, String msg, Throwable thrown) {
        }

        @Override
        public void log(Level level, java.util.ResourceBundle bundle, String format, Object... params) {
            if (level == Level.WARNING && params != null && java.text.MessageFormat.format(format, params).contains("protocol error from rank 0")) {
                protocolErrors++;
            }
        }
    }

    @Test
    void noPacketThrowsIntoTheRank() {
        List<String> failures = new ArrayList<>();
        int[] delivered = new int[1];
        MemorySegment into = Arena.ofAuto().allocate(1 << 16);
        // Every other message is received (immediate: copied; rendezvous: planned or pulled), the rest dropped.
        MessageHandler handler = m -> {
            if (delivered[0]++ % 2 == 0) {
                m.receive(into.asSlice(0, Math.min(into.byteSize(), (delivered[0] * 977L) % (1 << 16))), new RecvRequest());
            }
        };
        CountingLogger log = new CountingLogger();
        try (Engine e = Engine.init(new dev.ferry.core.engine.EngineConfig().bootstrap(new SingletonBootstrap())
                .drivers(List.of(DriverCatalog.discover().find("self").orElseThrow())).logger(log), handler)) {
            Gate template = e.gate(0);
            List<EngineContext> contexts = Arrays.stream(template.rails).map(rl -> rl.ec).toList();
            SplittableRandom r = new SplittableRandom(29);
            MemorySegment p = Arena.ofAuto().allocate(4096);
            Gate g = null;
            int failed = 0;
            for (int i = 0; i < ROUNDS; i++) {
                if (g == null) {
                    GatePolicy d = GatePolicy.of(e.settings());
                    g = new Gate(e, 0, "fuzz", contexts, Arrays.asList(template.urls),
                            new GatePolicy(template.eagerLimit, 1 << 20, 0, d.multirail(), d.multirailMin(), d.rendezvousPull(), d.sameProcessBySelf(), 0, 0));
                    g.connect();
                    assertEquals(Gate.OPEN, g.state, g.failure);
                } else if (g.state != Gate.OPEN) {
                    // Reopened rather than replaced: a gate's rails hold driver instances until the
                    // context closes, and thousands of them would fill the direct memory.
                    g.state = Gate.OPEN;
                    g.failure = null;
                    g.failStatus = null;
                }
                p.fill((byte) 0);
                long len;
                if (i % 8 == 0) { // plain noise
                    len = r.nextInt(0, 256);
                    for (long b = 0; b < len; b++) {
                        p.set(ValueLayout.JAVA_BYTE, b, (byte) r.nextInt());
                    }
                } else {
                    len = validPacket(p, r);
                    for (int k = r.nextInt(0, 4); k > 0; k--) {
                        p.set(ValueLayout.JAVA_BYTE, r.nextLong(len), (byte) r.nextInt());
                    }
                    if (r.nextInt(8) == 0) {
                        len = r.nextLong(len + 1); // truncated
                    }
                }
                try {
                    g.parse(g.rails[0], p, len);
                } catch (RuntimeException | Error ex) {
                    throw new AssertionError("round " + i + ": a packet of " + len + " bytes threw into the rank", ex);
                }
                if (g.state != Gate.OPEN) {
                    failed++;
                    assertNotNull(g.failure);
                    if (!g.failure.startsWith("protocol error from rank 0")) {
                        failures.add(g.failure);
                    }
                }
            }
            if (g != null) {
                g.close();
            }
            assertTrue(failed > 0 && failed < ROUNDS, failed + " of " + ROUNDS + " packets failed their gate");
            assertEquals(failed, log.protocolErrors, "each failed gate is reported once, naming the protocol error");
            assertTrue(delivered[0] > 0, "no packet got as far as a message");
        }
        if (!failures.isEmpty()) {
            fail("gates failed for other reasons than a protocol error: " + failures.subList(0, Math.min(5, failures.size())));
        }
    }
}
