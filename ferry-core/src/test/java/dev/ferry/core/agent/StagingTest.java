package dev.ferry.core.agent;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.*;

class StagingTest {
    @Test
    void aSlotKeepsItsMemoryForTheNextUseAndGrowsItWhenAsked() {
        try (Staging s = new Staging(1 << 20)) {
            MemorySegment a = s.at(3, 1000);
            assertTrue(a.byteSize() >= 1000 && a.isNative());
            s.done(3);
            assertSame(a, s.at(3, 2000), "under the bound: kept, and large enough");
            MemorySegment b = s.at(3, 200_000);
            assertTrue(b.byteSize() >= 200_000);
            assertEquals(b.byteSize(), s.bytesHeld(), "the smaller one went");
        }
    }

    @Test
    void pastTheBoundASlotsMemoryGoesWhenItsUseEndsAndOtherSlotsKeepTheirs() {
        try (Staging s = new Staging(1 << 20)) {
            long small = s.at(0, 1000).byteSize();
            s.at(1, 3 << 20);
            assertEquals(small + (3 << 20), s.bytesHeld());
            s.done(1);
            assertEquals(small, s.bytesHeld(), "one large message leaves nothing held");
            s.done(0);
            assertEquals(small, s.bytesHeld(), "under the bound again: kept");
        }
    }

    @Test
    void closingFreesEverySlot() {
        Staging s = new Staging(1 << 20);
        s.at(0, 100);
        s.at(5, 100);
        s.close();
        assertEquals(0, s.bytesHeld());
    }

    /** A real shared mapping of a file in {@code dir} (as the agent context makes), counting the calls; none past {@code refuseAfter}. */
    private static Staging.Mapper files(java.nio.file.Path dir, int[] calls, int refuseAfter) {
        return (bytes, arena) -> {
            if (calls[0]++ >= refuseAfter) {
                return null;
            }
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(dir.resolve("m" + calls[0]),
                    java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
                return ch.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
    }

    @Test
    void mappedMemoryStaysUntilCloseAndASlotThatOutgrowsItLeavesItForAnother(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        int[] calls = {0};
        try (Staging s = new Staging(1 << 20, files(dir, calls, Integer.MAX_VALUE))) {
            MemorySegment a = s.at(0, 200_000);
            assertTrue(s.mapped(0));
            MemorySegment b = s.at(0, 600_000); // outgrown: a becomes spare
            assertTrue(s.mapped(0));
            assertEquals(2, calls[0]);
            assertSame(a, s.at(7, 100_000), "the spare mapped memory, not a new mapping");
            assertTrue(s.mapped(7));
            assertEquals(2, calls[0]);
            MemorySegment c = s.at(9, 500_000); // 800,000 mapped already: past the bound, ordinary memory
            assertFalse(s.mapped(9));
            assertEquals(2, calls[0], "no mapping past the bound");
            long held = s.bytesHeld();
            s.done(0);
            s.done(7);
            s.done(9);
            assertEquals(held, s.bytesHeld(), "mapped memory is kept (the agent maps it until close), and the ordinary within its bound");
            assertSame(b, s.at(0, 1));
            assertSame(c, s.at(9, 1));
            MemorySegment d = s.at(10, 700_000); // ordinary memory past its bound now
            s.done(10);
            assertEquals(held, s.bytesHeld(), "past the bound the ordinary memory goes when its use ends");
            assertTrue(d.byteSize() >= 700_000);
        }
    }

    @Test
    void whereTheAgentCannotMapMemoryASlotTakesOrdinaryMemory(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        int[] calls = {0};
        try (Staging s = new Staging(1 << 20, files(dir, calls, 0))) {
            MemorySegment a = s.at(2, 1000);
            assertTrue(a.isNative() && a.byteSize() >= 1000);
            assertFalse(s.mapped(2));
            assertEquals(1, calls[0]);
        }
    }
}
