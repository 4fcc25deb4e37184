package dev.ferry;

import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Objects as messages, their large arrays out of band. */
class ObjectMessagesTest {
    static final Duration BOUND = Duration.ofSeconds(60);

    record Graph(String name, double[] big, double[] same, byte[] small, List<Object> more) implements Serializable {
    }

    /** A graph with a large array referenced twice, small ones in band, nested lists: it arrives equal, the shared array shared. */
    @Test
    void aGraphArrivesWholeWithItsSharingKept() {
        Ferry.runInProcess(3, BOUND, f -> {
            Comm w = f.world();
            if (w.rank() > 0) {
                double[] big = new double[100_000]; // 800 KB: out of band
                for (int i = 0; i < big.length; i++) {
                    big[i] = i * 0.5 + w.rank();
                }
                List<Object> more = new ArrayList<>(List.of("x", 42, new long[20_000], List.of(new int[] {1, 2, 3})));
                ObjectMessages.send(w, new Graph("g" + w.rank(), big, big, new byte[] {1, 2, 3}, more), 0, 5);
            } else {
                for (int k = 0; k < 2; k++) {
                    ObjectMessages.Received r = ObjectMessages.recv(w, Ferry.ANY_SOURCE, 5);
                    Graph g = (Graph) r.object();
                    assertEquals("g" + r.source(), g.name());
                    assertSame(g.big(), g.same(), "one array, sent once");
                    assertEquals(99_999 * 0.5 + r.source(), g.big()[99_999]);
                    assertArrayEquals(new byte[] {1, 2, 3}, g.small());
                    assertEquals(20_000, ((long[]) g.more().get(2)).length);
                    assertArrayEquals(new int[] {1, 2, 3}, (int[]) ((List<?>) g.more().get(3)).get(0));
                    assertTrue(r.bytes() > 800_000 + 160_000, "stream and arrays: " + r.bytes());
                    assertEquals(5, r.tag());
                }
            }
        });
    }

    /** What cannot be serialized is refused before anything is sent: the next object is the one received. */
    @Test
    void anObjectThatCannotBeSerializedSendsNothing() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            if (w.rank() == 0) {
                FerryException e = assertThrows(FerryException.class, () -> ObjectMessages.send(w, List.of(new Object()), 1, 0));
                assertEquals(ErrorClass.TYPE, e.errorClass());
                ObjectMessages.send(w, "next", 1, 0);
            } else {
                assertEquals("next", ObjectMessages.recv(w, 0, 0).object());
            }
        });
    }
}
