package dev.ferry.core.agent;

import dev.ferry.core.wire.WireHeader;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * What the agent does around an offload: which packets it offers, what is left of one taken for
 * the rank, and the answer's record for the sender.
 */
class AgentOffloadsTest {
    private static final int KIND = 3, RANK = 5, SENDER = 9;
    private static final long MINE = 0x99, ANSWER_WORD = 1L << 63 | 7;

    /** Takes messages with header {@link #MINE}: writes their payload at address 4096, answers with {@code answer} bytes of 0x5a. */
    private static class Scripted implements AgentOffload {
        final int kind;
        int answer = 16;
        final List<String> offered = new ArrayList<>();

        Scripted(int kind) {
            this.kind = kind;
        }

        @Override
        public int kind() {
            return kind;
        }

        @Override
        public int take(Rank rank, int from, long header, MemorySegment buf, long at, long n, MemorySegment out) {
            offered.add(from + ":" + Long.toHexString(header) + ":" + n);
            MemorySegment m = header == MINE ? rank.mapped(4096, n) : null;
            if (m == null) {
                return NOT_TAKEN;
            }
            MemorySegment.copy(buf, at, m, 0, n);
            out.set(ValueLayout.JAVA_LONG, 0, ANSWER_WORD);
            out.asSlice(8, answer).fill((byte) 0x5a);
            return answer;
        }
    }

    /** A rank with a table of {@link #KIND} (or none) whose memory at 4096.. is {@code memory}. */
    private static final class Rank implements AgentOffloads.Served {
        final MemorySegment table, memory;
        int served;
        boolean left;

        Rank(MemorySegment table, MemorySegment memory) {
            this.table = table;
            this.memory = memory;
        }

        @Override
        public int rank() {
            return RANK;
        }

        @Override
        public boolean publishedTables() {
            return table != null;
        }

        @Override
        public boolean left() {
            return left;
        }

        @Override
        public void served() {
            served++;
        }

        @Override
        public MemorySegment table(int kind) {
            return kind == KIND ? table : null;
        }

        @Override
        public MemorySegment mapped(long address, long length) {
            return address < 4096 || address - 4096 + length > memory.byteSize() ? null : memory.asSlice(address - 4096, length);
        }

        @Override
        public void wake() {
        }
    }

    /** A packet of one immediate message with {@code flags}, giving {@code credits}. */
    private static MemorySegment packet(Arena a, int flags, long header, int n, long credits) {
        MemorySegment p = a.allocate(WireHeader.PACKET_HEADER + WireHeader.immediateBytes(n), 8);
        WireHeader.packetHeader(p, 1, credits);
        WireHeader.immediate(p, WireHeader.PACKET_HEADER, flags, n, header);
        for (int i = 0; i < n; i++) {
            p.set(ValueLayout.JAVA_BYTE, WireHeader.PACKET_HEADER + WireHeader.IMMEDIATE_HEADER + i, (byte) (i + 1));
        }
        return p;
    }

    private static ByteBuffer record() {
        return ByteBuffer.allocateDirect(AgentLink.CONTROL_BYTES).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void aMessageTakenLeavesTheRankItsCreditsAndItsAnswerGoesBackAsAPacketFromTheRank() {
        try (Arena a = Arena.ofConfined()) {
            Scripted o = new Scripted(KIND);
            AgentOffloads offloads = new AgentOffloads(List.of(o));
            Rank r = new Rank(a.allocate(64), a.allocate(64));
            MemorySegment p = packet(a, WireHeader.FREE, MINE, 12, 4000);
            ByteBuffer rec = record();

            assertTrue(offloads.take(r, SENDER, p, rec));
            assertEquals(1, r.served);
            for (int i = 0; i < 12; i++) {
                assertEquals(i + 1, r.memory.get(ValueLayout.JAVA_BYTE, i), "the message was performed on the rank's memory");
            }
            long word = WireHeader.packetWord(p);
            assertEquals(0, WireHeader.count(word), "no message is left for the rank");
            assertEquals(4000, WireHeader.credits(word), "the credits it gives still go to the rank");
            assertTrue(AgentMatch.creditsLeft(p));

            int payload = WireHeader.PACKET_HEADER + WireHeader.immediateBytes(16);
            assertEquals((int) ChannelLayout.REC_HEADER + payload, rec.limit());
            assertEquals(payload, rec.getInt((int) ChannelLayout.REC_LENGTH));
            assertEquals(SENDER, rec.getInt((int) ChannelLayout.REC_PEER), "to the sender");
            assertEquals(ChannelLayout.PACKET, rec.getInt((int) ChannelLayout.REC_KIND));
            assertEquals(RANK, rec.getInt((int) ChannelLayout.REC_ORIGIN), "from the rank served");
            assertEquals(0, rec.getLong((int) ChannelLayout.REC_MORE));
            MemorySegment answer = MemorySegment.ofBuffer(rec).asSlice(ChannelLayout.REC_HEADER, payload);
            long aw = WireHeader.packetWord(answer);
            assertEquals(WireHeader.MAGIC, WireHeader.magic(aw));
            assertEquals(1, WireHeader.count(aw));
            assertEquals(0, WireHeader.credits(aw), "the agent gives no credits of the rank's");
            long entry = WireHeader.entryWord(answer, WireHeader.PACKET_HEADER);
            assertEquals(WireHeader.IMMEDIATE, WireHeader.kind(entry));
            assertEquals(WireHeader.FREE, WireHeader.entryFlags(entry), "it costs the sender no credits");
            assertEquals(16, WireHeader.a(entry));
            assertEquals(ANSWER_WORD, answer.get(WireHeader.U64, WireHeader.PACKET_HEADER + WireHeader.B));
            for (int i = 0; i < 16; i++) {
                assertEquals(0x5a, answer.get(ValueLayout.JAVA_BYTE, WireHeader.PACKET_HEADER + WireHeader.IMMEDIATE_HEADER + i));
            }
        }
    }

    @Test
    void aMessageTakenWithoutAnAnswerMakesNoRecord() {
        try (Arena a = Arena.ofConfined()) {
            Scripted o = new Scripted(KIND);
            o.answer = 0;
            Rank r = new Rank(a.allocate(64), a.allocate(64));
            MemorySegment p = packet(a, WireHeader.FREE, MINE, 8, 0);
            ByteBuffer rec = record();
            assertTrue(new AgentOffloads(List.of(o)).take(r, SENDER, p, rec));
            assertEquals(0, rec.limit(), "nothing to send");
            assertFalse(AgentMatch.creditsLeft(p), "and nothing left for the rank: the record is dropped");
        }
    }

    @Test
    void onlyAWholeMessageHandledOnArrivalIsOfferedAndOnlyForARankWithATable() {
        try (Arena a = Arena.ofConfined()) {
            Scripted o = new Scripted(KIND);
            AgentOffloads offloads = new AgentOffloads(List.of(o));
            Rank r = new Rank(a.allocate(64), a.allocate(64));
            // it cost credits: the rank owes them back, and its engine settles that
            assertFalse(offloads.take(r, SENDER, packet(a, 0, MINE, 8, 0), record()));
            // delivered into a receive already
            assertFalse(offloads.take(r, SENDER, packet(a, WireHeader.FREE | WireHeader.TAKEN, MINE, 8, 0), record()));
            // not whole here
            assertFalse(offloads.take(r, SENDER, packet(a, WireHeader.FREE, MINE, 8, 0).asSlice(0, WireHeader.PACKET_HEADER + WireHeader.IMMEDIATE_HEADER + 4), record()));
            // two messages
            MemorySegment two = packet(a, WireHeader.FREE, MINE, 8, 0);
            WireHeader.packetHeader(two, 2, 0);
            assertFalse(offloads.take(r, SENDER, two, record()));
            assertEquals(List.of(), o.offered, "none of them reached the offload");

            assertFalse(offloads.take(new Rank(null, a.allocate(64)), SENDER, packet(a, WireHeader.FREE, MINE, 8, 0), record()), "no table published");
            Rank gone = new Rank(a.allocate(64), a.allocate(64));
            gone.left = true;
            assertFalse(offloads.take(gone, SENDER, packet(a, WireHeader.FREE, MINE, 8, 0), record()), "a rank that left");
            assertEquals(List.of(), o.offered);

            MemorySegment other = packet(a, WireHeader.FREE, 0x42, 8, 0);
            assertFalse(offloads.take(r, SENDER, other, record()), "the offload leaves it");
            assertEquals(List.of(SENDER + ":42:8"), o.offered);
            assertEquals(1, WireHeader.count(WireHeader.packetWord(other)), "untouched, for the rank");
            assertEquals(0, r.served);
        }
    }

    @Test
    void anOffloadOfAKindOutOfRangeOrTakenIsNotUsed() {
        Scripted first = new Scripted(KIND), second = new Scripted(KIND), outside = new Scripted(AgentOffload.MAX_KIND + 1);
        AgentOffloads offloads = new AgentOffloads(List.of(first, second, outside));
        assertTrue(offloads.serves(KIND));
        assertFalse(offloads.serves(AgentOffload.MAX_KIND + 1));
        assertFalse(offloads.serves(1));
        try (Arena a = Arena.ofConfined()) {
            assertTrue(offloads.take(new Rank(a.allocate(64), a.allocate(64)), SENDER, packet(a, WireHeader.FREE, MINE, 8, 0), record()));
        }
        assertEquals(1, first.offered.size(), "the first of a kind serves it");
        assertEquals(List.of(), second.offered);
    }

    @Test
    void anOffloadThatThrowsLeavesTheMessageToTheRankAndTheAgentGoesOn() {
        AgentOffload throwing = new Scripted(KIND) {
            @Override
            public int take(Rank rank, int from, long header, MemorySegment buf, long at, long n, MemorySegment out) {
                throw new IndexOutOfBoundsException("a table written wrongly");
            }
        };
        try (Arena a = Arena.ofConfined()) {
            Rank r = new Rank(a.allocate(64), a.allocate(64));
            MemorySegment p = packet(a, WireHeader.FREE, MINE, 8, 0);
            AgentOffloads offloads = new AgentOffloads(List.of(throwing));
            assertFalse(offloads.take(r, SENDER, p, record()));
            assertFalse(offloads.take(r, SENDER, p, record()), "and again");
            assertEquals(1, WireHeader.count(WireHeader.packetWord(p)), "untouched, for the rank");
            assertEquals(0, r.served);
        }
    }

    @Test
    void theAgentFindsTheOffloadsOnItsClassPath() {
        // ferry-core ships none: the layers above do (the library's puts, on its class path)
        assertFalse(AgentOffloads.load().serves(1));
    }
}
