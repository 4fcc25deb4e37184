package dev.ferry;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a program can learn of its job: the launcher, each peer's route, and memory that moves fastest. */
class IntrospectionTest {
    static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void routesNameLocalityRailsAndProtocol() {
        Ferry.runInProcess(3, BOUND, f -> {
            Comm w = f.world();
            assertEquals("in-process", f.launcher());
            Route me = w.route(w.rank());
            assertEquals(Route.Locality.SELF, me.locality());
            Route next = w.route((w.rank() + 1) % 3);
            assertEquals(Route.Locality.SAME_PROCESS, next.locality());
            assertEquals(List.of("self"), next.rails());
            assertEquals(me.node(), next.node());
            assertEquals("immediate", next.protocol(8));
            assertEquals("rendezvous", next.protocol(next.eagerLimit() + 1));
            assertEquals("immediate", next.protocol(next.eagerLimit()));
            // a sub-communicator numbers its own ranks
            Comm pair = w.split(w.rank() == 2 ? Ferry.UNDEFINED : 0, -w.rank());
            if (pair != null) {
                assertEquals(Route.Locality.SELF, pair.route(pair.rank()).locality());
                assertEquals(1, pair.route(1).rank());
                assertEquals(Route.Locality.SAME_PROCESS, pair.route(1 - pair.rank()).locality());
                pair.free();
            }
            FerryException bad = assertThrows(FerryException.class, () -> w.route(3));
            assertEquals(ErrorClass.RANK, bad.errorClass());
            assertTrue(bad.getMessage().contains("route: 3 is outside the communicator's ranks 0..2"), bad.getMessage());
        });
    }

    @Test
    void allocatedMemoryCarriesMessagesAndRefusesNonsense() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            MemorySegment buf = f.allocate(1 << 20);
            assertTrue(buf.byteSize() >= 1 << 20);
            assertEquals(0, buf.address() % 4096, "page aligned");
            if (w.rank() == 0) {
                for (long i = 0; i < 1 << 20; i += 8) {
                    buf.set(ValueLayout.JAVA_LONG, i, i * 31);
                }
                w.send(buf, 0, 1 << 20, Datatype.BYTE, 1, 5);
            } else {
                w.recv(buf, 0, 1 << 20, Datatype.BYTE, 0, 5);
                for (long i = 0; i < 1 << 20; i += 8) {
                    assertEquals(i * 31, buf.get(ValueLayout.JAVA_LONG, i));
                }
            }
            FerryException bad = assertThrows(FerryException.class, () -> f.allocate(0));
            assertEquals(ErrorClass.ARG, bad.errorClass());
        });
    }
}
