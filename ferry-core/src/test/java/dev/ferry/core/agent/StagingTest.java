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
}
