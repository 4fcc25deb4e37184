package dev.ferry.core.agent;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.*;

/** The agent's reach into another process: within what it registered, and nowhere else. */
class CrossMemoryTest {
    private static long[] where(Peer p) throws Exception {
        String[] f = p.line().split(" ");
        return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])};
    }

    @Test
    void readsAndWritesAnotherProcessWithinWhatItRegistered() throws Exception {
        try (Peer p = new Peer("hold"); CrossMemory m = new CrossMemory(p.pid()); Arena a = Arena.ofConfined()) {
            long[] w = where(p);
            assertEquals(p.pid(), w[0]);
            long h = m.register(w[1], w[2]);
            MemorySegment got = a.allocate(w[2]);
            m.read(h, 0, got);
            for (long i = 0; i < w[2]; i++) {
                assertEquals(AgentPeers.pattern(i), got.get(ValueLayout.JAVA_BYTE, i), "byte " + i);
            }
            got.fill((byte) 0x5a);
            m.write(h, 0, got);
            assertEquals("ok", p.ask("same " + 0x5a));
            // a copy within the registration: the first half onto the second
            got.asSlice(0, w[2] / 2).fill((byte) 1);
            m.write(h, 0, got.asSlice(0, w[2] / 2));
            assertEquals(w[2] / 2, m.copy(h, 0, h, w[2] / 2, w[2] / 2));
            assertEquals("ok", p.ask("same 1"));
        }
    }

    @Test
    void unknownHandlesAndBytesPastARegistrationTouchNothing() throws Exception {
        try (Peer p = new Peer("hold"); CrossMemory m = new CrossMemory(p.pid()); Arena a = Arena.ofConfined()) {
            long[] w = where(p);
            long half = m.register(w[1], w[2] / 2);
            MemorySegment junk = a.allocate(w[2]);
            junk.fill((byte) 9);
            AgentException past = assertThrows(AgentException.class, () -> m.write(half, 0, junk));
            assertEquals(AgentError.OUT_OF_BOUNDS, past.error());
            assertTrue(past.getMessage().contains("of a registration of " + w[2] / 2), past.getMessage());
            assertEquals(AgentError.OUT_OF_BOUNDS, assertThrows(AgentException.class, () -> m.write(half, w[2] / 2 - 1, junk.asSlice(0, 2))).error());
            assertEquals(AgentError.OUT_OF_BOUNDS, assertThrows(AgentException.class, () -> m.read(half, -1, junk.asSlice(0, 1))).error());
            assertEquals(AgentError.NOT_REGISTERED, assertThrows(AgentException.class, () -> m.write(half + 1, 0, junk.asSlice(0, 1))).error());
            assertEquals(AgentError.OUT_OF_BOUNDS, assertThrows(AgentException.class, () -> m.copy(half, 0, half, 1, w[2] / 2)).error());
            assertTrue(m.deregister(half));
            assertEquals(AgentError.NOT_REGISTERED, assertThrows(AgentException.class, () -> m.read(half, 0, junk.asSlice(0, 1))).error());
            assertEquals("ok", p.ask("pattern"), "nothing was written");
        }
    }

    @Test
    void aProcessThatEndedIsUnreachable() throws Exception {
        Peer p = new Peer("hold");
        try (CrossMemory m = new CrossMemory(p.pid()); Arena a = Arena.ofConfined()) {
            long[] w = where(p);
            long h = m.register(w[1], w[2]);
            p.kill();
            AgentException gone = assertThrows(AgentException.class, () -> m.read(h, 0, a.allocate(8)));
            assertEquals(AgentError.UNREACHABLE, gone.error());
            assertTrue(gone.getMessage().contains("process " + p.pid()), gone.getMessage());
        }
    }
}
