package dev.ferry.core.wire;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The packet header's credits field and an immediate entry's flags, written and read back. */
class WireHeaderTest {
    private final MemorySegment p = Arena.ofAuto().allocate(64, 8);

    @Test
    void creditsTheAskAndTheEnvelopesAnswerShareTheCreditsField() {
        WireHeader.packetHeader(p, 7, WireHeader.MAX_CREDITS, true, false);
        long w = WireHeader.packetWord(p);
        assertEquals(WireHeader.MAGIC, WireHeader.magic(w));
        assertEquals(7, WireHeader.count(w));
        assertEquals(WireHeader.MAX_CREDITS, WireHeader.credits(w), "the largest grant is not mistaken for a flag");
        assertTrue(WireHeader.asks(w));
        assertFalse(WireHeader.envelopes(w));

        WireHeader.packetHeader(p, 0, 0, false, true);
        w = WireHeader.packetWord(p);
        assertEquals(0, WireHeader.credits(w));
        assertFalse(WireHeader.asks(w));
        assertTrue(WireHeader.envelopes(w));

        WireHeader.packetHeader(p, 65535, 4096);
        w = WireHeader.packetWord(p);
        assertEquals(65535, WireHeader.count(w));
        assertEquals(4096, WireHeader.credits(w));
        assertFalse(WireHeader.asks(w) || WireHeader.envelopes(w));
    }

    @Test
    void anImmediateEntryCarriesItsFreeFlag() {
        WireHeader.immediate(p, 8, WireHeader.FREE, 1234, 0xfeedL);
        long e = WireHeader.entryWord(p, 8);
        assertEquals(WireHeader.IMMEDIATE, WireHeader.kind(e));
        assertEquals(WireHeader.FREE, WireHeader.entryFlags(e));
        assertEquals(1234, WireHeader.a(e) & 0xffffffffL);
        assertEquals(0xfeedL, p.get(WireHeader.U64, 8 + WireHeader.B));

        WireHeader.immediate(p, 8, 0, 9, 1);
        assertEquals(0, WireHeader.entryFlags(WireHeader.entryWord(p, 8)));
    }
}
