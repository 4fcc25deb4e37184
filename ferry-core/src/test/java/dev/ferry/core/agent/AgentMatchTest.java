package dev.ferry.core.agent;

import dev.ferry.core.wire.WireHeader;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The agent's matching of armed receives, two ranks played by this process: an announcement a
 * receive accepts is claimed and pulled straight into it; one it does not accept, or that the rank
 * took back first, goes to the rank untouched.
 */
class AgentMatchTest {
    /** {@link AgentMatch#offer}'s PULL record when a receive took the packet, else null. */
    private static ByteBuffer offer(AgentPulls.Party to, int from, MemorySegment packet) {
        ByteBuffer ask = ByteBuffer.allocateDirect(AgentMatch.ASK_BYTES).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        return AgentMatch.offer(to, from, packet, ask) ? ask : null;
    }

    private static final int SENDER = 0, RECEIVER = 1;
    /** The bits the API ignores: a SYNC message's kind bit and its id. */
    static final long IGNORE = 1L << 48 | 0x1fffL << 50;
    static final long HEADER = 7L << 32 | 42;

    /** The packet a sender's engine sends for a rendezvous by pull: one RTS_PULL entry and the agent's pull data. */
    static MemorySegment announcement(Arena a, long header, long length, int exposure, int generation, long credits) {
        MemorySegment p = a.allocate(AgentMatch.ANNOUNCEMENT_BYTES, 8);
        WireHeader.packetHeader(p, 1, credits);
        WireHeader.entry(p, WireHeader.PACKET_HEADER, WireHeader.RTS_PULL, ChannelLayout.PULL_DATA_BYTES, header, length, 0);
        MemorySegment d = p.asSlice(WireHeader.PACKET_HEADER + WireHeader.RTS_BYTES);
        d.set(ValueLayout.JAVA_INT, ChannelLayout.PD_EXPOSURE, exposure);
        d.set(ValueLayout.JAVA_INT, ChannelLayout.PD_GENERATION, generation);
        d.set(ValueLayout.JAVA_LONG, ChannelLayout.PD_LENGTH, length);
        return p;
    }

    @Test
    void anArmedReceiveTakesTheAnnouncementAndItsBytesLandInIt() {
        try (Arena a = Arena.ofConfined()) {
            PlayedRank sender = new PlayedRank(SENDER, a), receiver = new PlayedRank(RECEIVER, a);
            long n = 600_000; // three chunks
            MemorySegment src = a.allocate(n, 8), dst = a.allocate(1 << 20, 8);
            for (long i = 0; i < n; i++) {
                src.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + 7));
            }
            int e = sender.exposures.take(), eg = sender.exposures.post(e, src.address(), n, RECEIVER);
            int slot = receiver.pulls.take(), g = receiver.pulls.arm(slot, dst.address(), dst.byteSize(), SENDER, HEADER, IGNORE);
            long syncHeader = HEADER | 1L << 48 | 5L << 50; // a synchronous send's: kind and id are ignored
            MemorySegment packet = announcement(a, syncHeader, n, e, eg, 0);

            ByteBuffer ask = offer(receiver, SENDER, packet);
            assertNotNull(ask, "the armed receive accepts it");
            assertEquals(ChannelLayout.PULL, ask.getInt((int) ChannelLayout.REC_KIND));
            assertEquals(SENDER, ask.getInt((int) ChannelLayout.REC_PEER), "to the exposing rank");
            assertEquals(RECEIVER, ask.getInt((int) ChannelLayout.REC_ORIGIN));
            assertEquals(0, WireHeader.count(WireHeader.packetWord(packet)), "the announcement is taken out of the packet");
            assertFalse(AgentMatch.creditsLeft(packet), "nothing is left for the rank");
            assertEquals(PullSlots.word(g, ChannelLayout.POSTED), receiver.pulls.word(slot), "claimed and posted as a pull");
            assertEquals(n, receiver.pulls.length(slot), "of the message's length");
            assertEquals(syncHeader, receiver.pulls.matchedHeader(slot));
            assertEquals(n, receiver.pulls.matchedLength(slot));
            assertFalse(receiver.pulls.placedAtOnce(slot), "pulled, not written at the match");
            assertFalse(receiver.pulls.reclaim(slot, g), "the rank cannot take back what the agent matched");

            MemorySegment request = a.allocate(ChannelLayout.PULL_REQUEST_BYTES, 8);
            MemorySegment.copy(MemorySegment.ofBuffer(ask), ChannelLayout.REC_HEADER, request, 0, ChannelLayout.PULL_REQUEST_BYTES);
            AgentPulls.Serve s = AgentPulls.requested(sender, RECEIVER, request);
            MemorySegment chunk = a.allocate(ChannelLayout.REC_HEADER + ChannelLayout.PULL_DATA_HEADER + AgentPulls.CHUNK, 8);
            for (int i = 0; ; i++) {
                assertTrue(i < 10, "the pull ends");
                int bytes = AgentPulls.fill(s, chunk);
                AgentPulls.arrived(receiver, SENDER, chunk.get(ValueLayout.JAVA_LONG, ChannelLayout.REC_MORE),
                        chunk.asSlice(ChannelLayout.REC_HEADER, bytes - ChannelLayout.REC_HEADER));
                if (AgentPulls.sent(s)) {
                    break;
                }
            }
            assertEquals(ChannelLayout.DONE, PullSlots.state(receiver.pulls.word(slot)));
            assertEquals(ChannelLayout.DONE, PullSlots.state(sender.exposures.word(e)));
            assertEquals(-1, dst.asSlice(0, n).mismatch(src), "every byte in the receive's memory");
        }
    }

    @Test
    void anAnnouncementTheReceiveDoesNotAcceptGoesToTheRank() {
        try (Arena a = Arena.ofConfined()) {
            PlayedRank receiver = new PlayedRank(RECEIVER, a);
            MemorySegment dst = a.allocate(4096, 8);
            int slot = receiver.pulls.take(), g = receiver.pulls.arm(slot, dst.address(), dst.byteSize(), SENDER, HEADER, IGNORE);
            assertNull(offer(receiver, 3, announcement(a, HEADER, 100, 0, 1, 0)), "another source");
            assertNull(offer(receiver, SENDER, announcement(a, HEADER + 1, 100, 0, 1, 0)), "another tag");
            assertNull(offer(receiver, SENDER, announcement(a, HEADER | 1L << 49, 100, 0, 1, 0)), "an ACK's kind");
            assertNull(offer(receiver, SENDER, announcement(a, HEADER, 4097, 0, 1, 0)), "longer than the receive: the rank truncates it");
            assertNull(offer(receiver, SENDER, announcement(a, HEADER, 0, 0, 1, 0)), "empty");
            MemorySegment two = announcement(a, HEADER, 100, 0, 1, 0);
            WireHeader.packetHeader(two, 2, 0);
            assertNull(offer(receiver, SENDER, two), "a packet of more than the announcement");
            assertEquals(PullSlots.word(g, ChannelLayout.ARMED), receiver.pulls.word(slot), "still armed");

            assertTrue(receiver.pulls.reclaim(slot, g), "taken back by the rank");
            assertNull(offer(receiver, SENDER, announcement(a, HEADER, 100, 0, 1, 0)), "nothing armed");
            assertEquals(PullSlots.word(g, ChannelLayout.FREE), receiver.pulls.word(slot));
        }
    }

    /**
     * A receive armed for any peer takes an announcement from whichever rank sends it, and the
     * claim writes that rank into the slot: the pull goes to it, and its data is accepted from it
     * alone. A receive of one peer armed beside it takes that peer's messages only.
     */
    @Test
    void aReceiveOfAnySourceTakesAnyRanksAnnouncementAndLearnsItsSource() {
        try (Arena a = Arena.ofConfined()) {
            PlayedRank receiver = new PlayedRank(RECEIVER, a);
            MemorySegment dst = a.allocate(4096, 8), other = a.allocate(4096, 8);
            int only = receiver.pulls.take(), og = receiver.pulls.arm(only, other.address(), other.byteSize(), SENDER, HEADER + 1, 0);
            int any = receiver.pulls.take(), g = receiver.pulls.arm(any, dst.address(), dst.byteSize(), ChannelLayout.ANY_PEER, HEADER, IGNORE);
            assertNull(offer(receiver, 3, announcement(a, HEADER + 1, 100, 0, 1, 0)), "the tag of the receive of rank 0 alone, from rank 3");

            ByteBuffer ask = offer(receiver, 3, announcement(a, HEADER, 100, 2, 9, 0));
            assertNotNull(ask, "a receive of any source accepts rank 3's message");
            assertEquals(3, ask.getInt((int) ChannelLayout.REC_PEER), "the pull goes to rank 3");
            assertEquals(PullSlots.word(g, ChannelLayout.POSTED), receiver.pulls.word(any));
            assertEquals(3, receiver.pulls.peer(any), "the claim names the source");
            assertEquals(HEADER, receiver.pulls.matchedHeader(any));
            MemorySegment request = a.allocate(ChannelLayout.PULL_REQUEST_BYTES, 8);
            MemorySegment.copy(MemorySegment.ofBuffer(ask), ChannelLayout.REC_HEADER, request, 0, ChannelLayout.PULL_REQUEST_BYTES);
            assertTrue(AgentPulls.own(receiver, 3, request), "the agent serves the pull as one the rank posted for rank 3");
            assertNull(offer(receiver, 4, announcement(a, HEADER, 100, 2, 9, 0)), "claimed once: rank 4's next goes to the rank");

            assertEquals(PullSlots.word(og, ChannelLayout.ARMED), receiver.pulls.word(only), "the receive of rank 0 alone is still armed");
            assertNotNull(offer(receiver, SENDER, announcement(a, HEADER + 1, 100, 0, 1, 0)), "and takes rank 0's message");
        }
    }

    @Test
    void theCreditsOfAPacketTakenStillGoToTheRank() {
        try (Arena a = Arena.ofConfined()) {
            PlayedRank receiver = new PlayedRank(RECEIVER, a);
            MemorySegment dst = a.allocate(4096, 8);
            int slot = receiver.pulls.take();
            receiver.pulls.arm(slot, dst.address(), dst.byteSize(), SENDER, HEADER, IGNORE);
            MemorySegment packet = announcement(a, HEADER, 100, 0, 1, 24);
            assertNotNull(offer(receiver, SENDER, packet));
            assertTrue(AgentMatch.creditsLeft(packet));
            long word = WireHeader.packetWord(packet);
            assertEquals(WireHeader.MAGIC, WireHeader.magic(word));
            assertEquals(0, WireHeader.count(word), "no entry left");
            assertEquals(24, WireHeader.credits(word), "the credits as they came");
        }
    }

    /** A packet of one eager message: the packet header, one IMMEDIATE entry with {@code flags}, the payload. */
    static MemorySegment eager(Arena a, long header, int flags, byte[] payload, long credits) {
        MemorySegment p = a.allocate(WireHeader.PACKET_HEADER + WireHeader.immediateBytes(payload.length), 8);
        WireHeader.packetHeader(p, 1, credits);
        WireHeader.immediate(p, WireHeader.PACKET_HEADER, flags, payload.length, header);
        MemorySegment.copy(payload, 0, p, ValueLayout.JAVA_BYTE, WireHeader.PACKET_HEADER + WireHeader.IMMEDIATE_HEADER, payload.length);
        return p;
    }

    /**
     * An eager message an armed receive accepts is written into the receive there and then: the
     * slot answered DONE with the header, length and source, the rank's bell due, and the entry
     * marked TAKEN, its credits for the rank to owe all the same.
     */
    @Test
    void anEagerMessageAnArmedReceiveAcceptsIsWrittenIntoIt() {
        try (Arena a = Arena.ofConfined()) {
            PlayedRank receiver = new PlayedRank(RECEIVER, a);
            MemorySegment dst = a.allocate(4096, 8);
            int slot = receiver.pulls.take(), g = receiver.pulls.arm(slot, dst.address(), dst.byteSize(), ChannelLayout.ANY_PEER, HEADER, IGNORE);
            byte[] payload = "forty-two, eagerly".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            long syncHeader = HEADER | 1L << 48 | 5L << 50;
            MemorySegment packet = eager(a, syncHeader, 0, payload, 40);

            assertTrue(AgentMatch.deliver(receiver, 3, packet));
            assertEquals(PullSlots.word(g, ChannelLayout.DONE), receiver.pulls.word(slot), "answered at once");
            assertEquals(1, receiver.answered, "its bell is due");
            assertEquals(syncHeader, receiver.pulls.matchedHeader(slot), "the header as sent: the rank acknowledges a synchronous send");
            assertEquals(payload.length, receiver.pulls.matchedLength(slot));
            assertTrue(receiver.pulls.placedAtOnce(slot), "written at the match");
            assertEquals(3, receiver.pulls.peer(slot), "the source");
            assertArrayEquals(payload, dst.asSlice(0, payload.length).toArray(ValueLayout.JAVA_BYTE));
            long entry = WireHeader.entryWord(packet, WireHeader.PACKET_HEADER);
            assertEquals(WireHeader.TAKEN, WireHeader.entryFlags(entry), "marked taken");
            assertEquals(payload.length, WireHeader.a(entry), "its length kept: the rank owes its credits");
            assertEquals(40, WireHeader.credits(WireHeader.packetWord(packet)), "the credits it gives as they came");
            assertFalse(AgentMatch.deliver(receiver, 3, eager(a, HEADER, 0, payload, 0)), "the receive is used up");
        }
    }

    @Test
    void anEagerMessageTheReceiveDoesNotAcceptGoesToTheRankUntouched() {
        try (Arena a = Arena.ofConfined()) {
            PlayedRank receiver = new PlayedRank(RECEIVER, a);
            MemorySegment dst = a.allocate(16, 8);
            int slot = receiver.pulls.take(), g = receiver.pulls.arm(slot, dst.address(), dst.byteSize(), SENDER, HEADER, IGNORE);
            byte[] small = new byte[8], large = new byte[17];
            assertFalse(AgentMatch.deliver(receiver, 3, eager(a, HEADER, 0, small, 0)), "another source");
            assertFalse(AgentMatch.deliver(receiver, SENDER, eager(a, HEADER + 1, 0, small, 0)), "another tag");
            assertFalse(AgentMatch.deliver(receiver, SENDER, eager(a, HEADER, 0, large, 0)), "longer than the receive: the rank truncates it");
            assertFalse(AgentMatch.deliver(receiver, SENDER, eager(a, HEADER, WireHeader.FREE, small, 0)), "a handler's message");
            MemorySegment two = eager(a, HEADER, 0, small, 0);
            WireHeader.packetHeader(two, 2, 0);
            assertFalse(AgentMatch.deliver(receiver, SENDER, two), "a packet of more than one message");
            MemorySegment cut = eager(a, HEADER, 0, small, 0);
            assertFalse(AgentMatch.deliver(receiver, SENDER, cut.asSlice(0, cut.byteSize() - 8)), "a payload not all here");
            assertEquals(PullSlots.word(g, ChannelLayout.ARMED), receiver.pulls.word(slot), "still armed");
            assertEquals(0, receiver.answered);
            MemorySegment taken = eager(a, HEADER, 0, small, 0);
            assertTrue(AgentMatch.deliver(receiver, SENDER, taken), "the one it accepts");
            assertFalse(AgentMatch.deliver(receiver, SENDER, taken), "a packet taken already goes to the rank");
        }
    }
}
