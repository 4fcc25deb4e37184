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

    /** A file of {@code n} bytes in {@code dir}, mapped here shared (as the shm driver's arena is) or private. */
    private static MemorySegment mapped(java.nio.file.Path file, long n, java.nio.channels.FileChannel.MapMode mode, Arena a) throws Exception {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(0);
            ch.write(java.nio.ByteBuffer.allocate(1), n - 1);
            return ch.map(mode, 0, n, a);
        }
    }

    /** The rank's address of the bytes {@code view} shows, {@code view} being part of mapping {@code m}. */
    private static long rankAddressOf(MemorySegment view, CrossMemory.Mapping m) {
        return m.address() + (view.address() - m.here().address());
    }

    @Test
    void memoryInASharedFileMappingIsMappedByTheAgentToo(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        try (CrossMemory m = new CrossMemory(ProcessHandle.current().pid()); Arena a = Arena.ofShared()) {
            MemorySegment rank = mapped(dir.resolve("arena"), 3 * 4096, java.nio.channels.FileChannel.MapMode.READ_WRITE, a);
            MemorySegment part = rank.asSlice(100, 8000); // not page aligned: mapped from where it lies in the file
            assertTrue(m.map(part.address(), part.byteSize()));
            assertTrue(m.map(part.address(), part.byteSize()), "a second time: mapped already");
            assertEquals(1, m.mapped());
            CrossMemory.Mapping got = m.mapping(part.address() + 10, 20);
            assertNotNull(got);
            MemorySegment view = m.view(part.address() + 10, 20);
            assertEquals(part.address() + 10, rankAddressOf(view, got));
            assertEquals(20, view.byteSize());
            assertSame(view, m.view(part.address() + 10, 20), "the same bytes again: the same view, no new object");
            assertEquals(part.address() + 12, rankAddressOf(m.view(part.address() + 12, 20), got), "other bytes: another view");
            assertNull(m.view(part.address() + 7990, 11), "bytes past the mapping have no view");
            assertNull(m.view(part.address(), -1));
            assertNull(m.mapping(part.address() - 1, 2), "a byte before it is not mapped");
            assertNull(m.mapping(part.address() + 7990, 11), "a byte after it is not mapped");
            // the same bytes: what the agent writes there the rank reads, and the other way round
            got.here().set(ValueLayout.JAVA_LONG_UNALIGNED, 16, 0x1122334455667788L);
            assertEquals(0x1122334455667788L, part.get(ValueLayout.JAVA_LONG_UNALIGNED, 16));
            MemorySegment buf = a.allocate(64);
            buf.fill((byte) 7);
            m.writeAt(part.address() + 64, buf);
            assertEquals(7, part.get(ValueLayout.JAVA_BYTE, 64 + 63));
            part.set(ValueLayout.JAVA_BYTE, 200, (byte) 42);
            m.readAt(part.address() + 200, buf.asSlice(0, 1));
            assertEquals(42, buf.get(ValueLayout.JAVA_BYTE, 0));
        }
    }

    @Test
    void anonymousPrivateAndDeletedMemoryIsNotMappedButReachedAsEver(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        try (CrossMemory m = new CrossMemory(ProcessHandle.current().pid()); Arena a = Arena.ofShared()) {
            MemorySegment anonymous = a.allocate(8192, 4096);
            assertFalse(m.map(anonymous.address(), anonymous.byteSize()));
            MemorySegment copyOnWrite = mapped(dir.resolve("private"), 8192, java.nio.channels.FileChannel.MapMode.PRIVATE, a);
            assertFalse(m.map(copyOnWrite.address(), copyOnWrite.byteSize()), "a private mapping's writes would not reach the rank");
            MemorySegment gone = mapped(dir.resolve("deleted"), 8192, java.nio.channels.FileChannel.MapMode.READ_WRITE, a);
            java.nio.file.Files.delete(dir.resolve("deleted"));
            assertFalse(m.map(gone.address(), gone.byteSize()), "a file with no name cannot be opened again");
            assertEquals(0, m.mapped());
            MemorySegment buf = a.allocate(8);
            buf.fill((byte) 3);
            m.writeAt(anonymous.address(), buf); // by process_vm_writev, as ever
            assertEquals(3, anonymous.get(ValueLayout.JAVA_BYTE, 7));
            AgentException bad = assertThrows(AgentException.class, () -> m.map(anonymous.address(), 0));
            assertEquals(AgentError.BAD_ARGUMENTS, bad.error());
        }
    }
}
