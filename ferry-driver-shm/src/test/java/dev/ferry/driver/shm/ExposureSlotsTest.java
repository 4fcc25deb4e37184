package dev.ferry.driver.shm;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Exposure slots over one channel's memory: side A exposes, side B marks pulls. */
class ExposureSlotsTest {
    private final Arena arena = Arena.ofAuto();
    private final MemorySegment map = arena.allocate(ShmLayout.CHANNEL_BYTES, 4096);
    private final Channel exposer = channel(0);
    private final Channel puller = channel(1);

    private Channel channel(int side) {
        return new Channel(null, map, side, arena.allocate(ShmLayout.CONTEXT_BYTES, 8), Native.errnoCapture(arena));
    }

    @Test
    void aSlotSentWithoutTheMarkIsExposedAgainOnlyOnceThePullerMarksIt() {
        ExposureSlots slots = new ExposureSlots(exposer);
        int[] taken = new int[ShmLayout.EXPOSURES];
        for (int i = 0; i < ShmLayout.EXPOSURES; i++) {
            taken[i] = slots.next();
            slots.take(taken[i], slots.generation(taken[i]) + 1);
        }
        assertEquals(-1, slots.next(), "all taken");
        int a = taken[5], b = taken[9];
        puller.markPulled(a, 1);
        assertTrue(slots.marked(a));
        slots.sent(a, true);
        assertEquals(a, slots.next(), "a marked slot is free at once");
        slots.take(a, 2);
        assertFalse(slots.marked(b), "not yet marked: a split pull the puller still reads");
        slots.sent(b, false);
        assertEquals(-1, slots.next(), "held until the puller marks it");
        puller.markPulled(b, 1);
        assertEquals(b, slots.next(), "free once marked");
        assertEquals(1, slots.generation(b));
        assertEquals(2, slots.generation(a));
    }
}
