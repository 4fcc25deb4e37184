package dev.ferry.portals;

import dev.ferry.core.agent.AgentOffload;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static dev.ferry.portals.DirectoryLayout.*;
import static dev.ferry.portals.Portals.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The node agent's offload of operations on published entries, on a directory laid out here as
 * the library publishes one: what it takes, what it writes or reads, the ack or reply it answers
 * with, and everything it leaves to the rank.
 */
class AgentEntryOffloadTest {
    private static final int RANKS = 4, FROM = 2, NI = 0, PT = 3, SLOT = 5, UID = 1000;
    private static final long BITS = 7, ID = 77;
    /** The entry's bytes: more than one answer holds. */
    private static final int MEM = 8192;

    private final Arena arena = Arena.ofAuto();
    private final MemorySegment dir = arena.allocate(bytes(RANKS), 8);
    private final MemorySegment memory = arena.allocate(MEM, 8);
    private final MemorySegment answer = arena.allocate(8 + AgentOffload.MAX_ANSWER, 8);
    private final AgentEntryOffload offload = new AgentEntryOffload();
    /** The rank the agent serves: its directory, and its entry's memory, which the agent maps. */
    private boolean mapped = true;
    private final AgentOffload.Rank rank = new AgentOffload.Rank() {
        @Override
        public MemorySegment table(int kind) {
            return kind == AGENT_KIND ? dir : null;
        }

        @Override
        public MemorySegment mapped(long address, long length) {
            long off = address - memory.address();
            return !mapped || off < 0 || off + length > memory.byteSize() ? null : memory.asSlice(off, length);
        }

        @Override
        public void wake() {
            wakes++;
        }
    };
    /** How often the offload asked for the rank to be woken. */
    private int wakes;

    @BeforeEach
    void publishOneEntry() {
        publishOne(dir, RANKS, NI, PT, SLOT, BITS, ME_OP_PUT | ME_OP_GET, -1, memory);
    }

    /** A put request of {@code n} bytes of 1, 2, 3... at {@code offset}, its data inline. */
    private MemorySegment put(byte type, int flags, AckReq ack, long bits, long offset, int n) {
        MemorySegment m = arena.allocate(PtlWire.HEADER + n, 8);
        PtlWire.request(m, type, NI, ack.ordinal(), 0, 0, flags, PT, UID, bits, offset, 0, n, ID, 0);
        for (int i = 0; i < n; i++) {
            m.set(ValueLayout.JAVA_BYTE, PtlWire.HEADER + i, (byte) (i + 1));
        }
        return m;
    }

    /** A get of {@code n} bytes at {@code offset}. */
    private MemorySegment get(long offset, long n) {
        MemorySegment m = arena.allocate(PtlWire.HEADER, 8);
        PtlWire.request(m, PtlWire.GET, NI, 0, 0, 0, 0, PT, UID, BITS, offset, 0, n, ID, 0);
        return m;
    }

    /** An atomic of {@code type} on the longs at {@code offset}: {@code values} as its data, {@code operand} (for a swap) before them. */
    private MemorySegment atomic(byte type, Op op, long offset, long[] values, Long operand) {
        int operandLen = operand == null ? 0 : 8;
        MemorySegment m = arena.allocate(PtlWire.HEADER + operandLen + 8L * values.length, 8);
        PtlWire.request(m, type, NI, AckReq.ACK_REQ.ordinal(), op.ordinal(), Datatype.INT64_T.ordinal(), 0, PT, UID, BITS, offset, 0,
                8L * values.length, ID, operandLen);
        if (operand != null) {
            m.set(ValueLayout.JAVA_LONG, PtlWire.HEADER, operand);
        }
        for (int i = 0; i < values.length; i++) {
            m.set(ValueLayout.JAVA_LONG, PtlWire.HEADER + operandLen + 8L * i, values[i]);
        }
        return m;
    }

    private MemorySegment response() {
        return answer.asSlice(8, PtlWire.HEADER);
    }

    private int take(MemorySegment m) {
        return offload.take(rank, FROM, PtlWire.LIBRARY, m, 0, m.byteSize(), answer);
    }

    private void setSlot(long field, int value) {
        dir.set(ValueLayout.JAVA_INT, slot(SLOT) + field, value);
    }

    /**
     * An entry that counts: each operation the agent performs adds 1 to the counter word the slot
     * names, or its bytes with ME_EVENT_CT_BYTES (the length that landed, not the one asked);
     * what it leaves to the rank is counted by the rank, not here.
     */
    @Test
    void anEntryThatCountsHasEachOperationCountedInItsWord() {
        int word = 9;
        setSlot(SLOT_OPTIONS, ME_OP_PUT | ME_OP_GET | ME_EVENT_CT_COMM);
        setSlot(SLOT_COUNTER, word + 1);
        assertEquals(PtlWire.HEADER, take(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 16)));
        assertEquals(PtlWire.HEADER + 8, take(get(0, 8)));
        assertEquals(PtlWire.HEADER, take(atomic(PtlWire.ATOMIC, Op.SUM, 0, new long[] {5}, null)));
        assertEquals(3L, dir.get(ValueLayout.JAVA_LONG, counter(word)), "a put, a get and an atomic");
        assertEquals(3, wakes, "each count rings the rank's bell: it may wait for it");
        assertEquals(AgentOffload.NOT_TAKEN, take(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS + 1, 0, 16)));
        assertEquals(3L, dir.get(ValueLayout.JAVA_LONG, counter(word)), "what matches nothing published is the rank's to count");
        setSlot(SLOT_OPTIONS, ME_OP_PUT | ME_OP_GET | ME_EVENT_CT_COMM | ME_EVENT_CT_BYTES);
        assertEquals(PtlWire.HEADER, take(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, MEM - 10, 16)));
        assertEquals(13L, dir.get(ValueLayout.JAVA_LONG, counter(word)), "in bytes: the 10 that landed");
        assertEquals(0L, dir.get(ValueLayout.JAVA_LONG, counter(word - 1)) + dir.get(ValueLayout.JAVA_LONG, counter(word + 1)), "no other word");
        setSlot(SLOT_COUNTER, 0);
        assertEquals(PtlWire.HEADER, take(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 16)));
        assertEquals(13L, dir.get(ValueLayout.JAVA_LONG, counter(word)), "a slot naming no word counts nothing");
        assertEquals(4, wakes, "and wakes no one");
    }

    /** The offload warms up on an entry of its own as the agent makes it: its three operations went as they should. */
    @Test
    void itsWarmUpServedItsOwnEntry() {
        assertTrue(offload.warm);
    }

    @Test
    void aPutThatMatchesAPublishedEntryLandsAndIsAcknowledgedForTheRank() {
        assertEquals(PtlWire.HEADER, take(put(PtlWire.PUT, 0, AckReq.CT_ACK_REQ, BITS, 8, 16)));
        for (int i = 0; i < 16; i++) {
            assertEquals(i + 1, memory.get(ValueLayout.JAVA_BYTE, 8 + i));
        }
        assertEquals(0, memory.get(ValueLayout.JAVA_BYTE, 7), "nothing before the offset");
        assertEquals(0, memory.get(ValueLayout.JAVA_BYTE, 24), "nothing past the data");
        assertEquals(0L, dir.get(ValueLayout.JAVA_LONG, hazard(FROM)), "the hazard word is cleared after");

        assertEquals(PtlWire.LIBRARY, answer.get(ValueLayout.JAVA_LONG, 0), "a library message");
        MemorySegment ack = answer.asSlice(8, PtlWire.HEADER);
        assertEquals(PtlWire.ACK, PtlWire.type(ack));
        assertEquals(NI, PtlWire.ni(ack));
        assertEquals(0, PtlWire.flags(ack), "an ack due: not silent");
        assertEquals(0, PtlWire.fail(ack));
        assertEquals(ListKind.PRIORITY_LIST.ordinal(), PtlWire.list(ack));
        assertEquals(PT, PtlWire.pt(ack));
        assertEquals(8, PtlWire.offset(ack));
        assertEquals(16, PtlWire.length(ack), "mlength");
        assertEquals(ID, PtlWire.id(ack), "the initiator's operation");
    }

    @Test
    void whatLiesBeyondTheEntryIsTruncatedAndTheAckSaysSo() {
        assertEquals(PtlWire.HEADER, take(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, MEM - 8, 16)));
        assertEquals(8, PtlWire.length(answer.asSlice(8, PtlWire.HEADER)));
        assertEquals(8, memory.get(ValueLayout.JAVA_BYTE, MEM - 1));
    }

    @Test
    void anAckTheEntryDisablesIsAnsweredSilentlyAndNoneAskedForIsNotAnswered() {
        setSlot(SLOT_OPTIONS, ME_OP_PUT | ME_ACK_DISABLE);
        assertEquals(PtlWire.HEADER, take(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 8)));
        assertEquals(PtlWire.SILENT, PtlWire.flags(answer.asSlice(8, PtlWire.HEADER)), "its operation still ends at the initiator");
        assertEquals(0, take(put(PtlWire.PUT, 0, AckReq.NO_ACK_REQ, BITS, 8, 8)), "performed, with nothing to send");
        assertEquals(8, memory.get(ValueLayout.JAVA_BYTE, 15));
    }

    @Test
    void aGetIsAnsweredWithTheEntrysBytes() {
        for (int i = 0; i < 64; i++) {
            memory.set(ValueLayout.JAVA_BYTE, MEM - 64 + i, (byte) (100 + i));
        }
        assertEquals(PtlWire.HEADER + 40, take(get(MEM - 40, 100)), "what lies beyond the entry is truncated");
        assertEquals(PtlWire.LIBRARY, answer.get(ValueLayout.JAVA_LONG, 0));
        assertEquals(PtlWire.REPLY, PtlWire.type(response()));
        assertEquals(0, PtlWire.flags(response()), "its data inline");
        assertEquals(40, PtlWire.length(response()));
        assertEquals(MEM - 40, PtlWire.offset(response()));
        assertEquals(ID, PtlWire.id(response()));
        for (int i = 0; i < 40; i++) {
            assertEquals((byte) (124 + i), answer.get(ValueLayout.JAVA_BYTE, 8 + PtlWire.HEADER + i));
        }
    }

    @Test
    void atomicsAreDoneWithAtomicInstructionsAndFetchesReplyWithTheOldValues() {
        memory.set(ValueLayout.JAVA_LONG, 8, 40);
        memory.set(ValueLayout.JAVA_LONG, 16, 7);
        assertEquals(PtlWire.HEADER, take(atomic(PtlWire.ATOMIC, Op.SUM, 8, new long[] {2, 3}, null)), "an atomic is acknowledged");
        assertEquals(PtlWire.ACK, PtlWire.type(response()));
        assertEquals(16, PtlWire.length(response()));
        assertEquals(42, memory.get(ValueLayout.JAVA_LONG, 8));
        assertEquals(10, memory.get(ValueLayout.JAVA_LONG, 16));

        assertEquals(PtlWire.HEADER + 8, take(atomic(PtlWire.FETCH, Op.SUM, 8, new long[] {1}, null)));
        assertEquals(PtlWire.REPLY, PtlWire.type(response()));
        assertEquals(42, answer.get(ValueLayout.JAVA_LONG, 8 + PtlWire.HEADER), "the value before");
        assertEquals(43, memory.get(ValueLayout.JAVA_LONG, 8));

        assertEquals(PtlWire.HEADER + 8, take(atomic(PtlWire.SWAP, Op.CSWAP, 8, new long[] {100}, 43L)));
        assertEquals(43, answer.get(ValueLayout.JAVA_LONG, 8 + PtlWire.HEADER));
        assertEquals(100, memory.get(ValueLayout.JAVA_LONG, 8), "swapped: the operand matched");
        assertEquals(PtlWire.HEADER + 8, take(atomic(PtlWire.SWAP, Op.CSWAP, 8, new long[] {5}, 43L)));
        assertEquals(100, memory.get(ValueLayout.JAVA_LONG, 8), "not swapped: it did not");
    }

    @Test
    void anOffsetPastTheEntryMovesNothingAndIsAnswered() {
        assertEquals(PtlWire.HEADER, take(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, MEM + 100, 8)));
        assertEquals(0, PtlWire.length(response()), "mlength 0, as the library's own matching gives");
        assertEquals(PtlWire.HEADER, take(get(MEM + 100, 8)));
        assertEquals(0, PtlWire.length(response()));
        assertEquals(-1, memory.mismatch(arena.allocate(MEM)), "nothing written");
    }

    @Test
    void theEntryMayNameTheInitiator() {
        setSlot(SLOT_MATCH_RANK, FROM + 1);
        assertEquals(AgentOffload.NOT_TAKEN, take(put(PtlWire.PUT, 0, AckReq.NO_ACK_REQ, BITS, 0, 8)), "another rank's entry");
        setSlot(SLOT_MATCH_RANK, FROM);
        assertEquals(0, take(put(PtlWire.PUT, 0, AckReq.NO_ACK_REQ, BITS, 0, 8)));
    }

    @Test
    void everythingTheRankMustDoItselfIsLeftToItUntouched() {
        assertNotTaken(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS + 1, 0, 8), "matches no published entry");
        assertNotTaken(put(PtlWire.PUT, PtlWire.SEPARATE, AckReq.ACK_REQ, BITS, 0, 0), "its data comes separately");
        assertNotTaken(get(0, AgentEntryOffload.MAX_REPLY + 1), "a reply too large for one answer: it goes as a message of its own");
        MemorySegment complex = atomic(PtlWire.ATOMIC, Op.SUM, 0, new long[] {1, 2}, null);
        complex.set(ValueLayout.JAVA_BYTE, 4, (byte) Datatype.DOUBLE_COMPLEX.ordinal());
        assertNotTaken(complex, "an atomic of a type no atomic instruction does");
        assertNotTaken(atomic(PtlWire.ATOMIC, Op.SUM, 4, new long[] {1}, null), "an atomic out of alignment");
        MemorySegment bad = atomic(PtlWire.ATOMIC, Op.SUM, 0, new long[] {1}, null);
        bad.set(ValueLayout.JAVA_BYTE, 3, (byte) 99);
        assertNotTaken(bad, "an operation the library does not know: it says so");
        MemorySegment unknown = put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 8);
        unknown.set(ValueLayout.JAVA_BYTE, 0, PtlWire.ACK);
        assertNotTaken(unknown, "not a request");
        MemorySegment cut = put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 16);
        assertEquals(AgentOffload.NOT_TAKEN, offload.take(rank, FROM, PtlWire.LIBRARY, cut, 0, PtlWire.HEADER + 8, answer), "not whole");
        assertEquals(AgentOffload.NOT_TAKEN, offload.take(rank, FROM, PtlWire.LIBRARY | PtlWire.DATA | ID, cut, 0, cut.byteSize(), answer), "a data message");
        assertEquals(AgentOffload.NOT_TAKEN, offload.take(rank, RANKS, PtlWire.LIBRARY, cut, 0, cut.byteSize(), answer), "a rank past the job's size");

        setSlot(SLOT_UID, UID + 1);
        assertNotTaken(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 8), "a uid the entry does not admit: the rank counts the violation");
        setSlot(SLOT_UID, UID_ANY);
        setSlot(SLOT_OPTIONS, ME_OP_GET);
        assertNotTaken(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 8), "an entry that takes no puts");
        assertNotTaken(atomic(PtlWire.FETCH, Op.SUM, 0, new long[] {1}, null), "nor fetching atomics");
        setSlot(SLOT_OPTIONS, ME_OP_PUT);
        assertNotTaken(get(0, 8), "an entry that takes no gets");

        mapped = false;
        assertNotTaken(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 8), "memory the agent does not map");
        assertEquals(0L, dir.get(ValueLayout.JAVA_LONG, hazard(FROM)), "the hazard word is cleared");
        mapped = true;

        dir.set(ValueLayout.JAVA_LONG, slot(SLOT) + SLOT_STATE, 4);
        assertNotTaken(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 8), "a retired entry");
        dir.set(ValueLayout.JAVA_LONG, slot(SLOT) + SLOT_STATE, 3);
        dir.set(ValueLayout.JAVA_LONG, list(NI, PT) + LIST_SEQ, 3);
        assertNotTaken(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 8), "a list being rewritten");
        dir.set(ValueLayout.JAVA_LONG, list(NI, PT) + LIST_SEQ, 4);
        dir.set(ValueLayout.JAVA_INT, OPEN_OFFSET, 0);
        assertNotTaken(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 8), "a library that finished");
        dir.set(ValueLayout.JAVA_INT, OPEN_OFFSET, 1);
        dir.set(ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION - 1);
        assertNotTaken(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 8), "a directory of another version");
    }

    private void assertNotTaken(MemorySegment m, String why) {
        assertEquals(AgentOffload.NOT_TAKEN, take(m), why);
        assertEquals(-1, memory.mismatch(arena.allocate(MEM)), why + ": nothing written");
    }

    @Test
    void theAgentFindsItAsTheOffloadOfTheDirectory() {
        var found = java.util.ServiceLoader.load(AgentOffload.class).stream().map(java.util.ServiceLoader.Provider::get).toList();
        assertEquals(1, found.size(), found.toString());
        assertEquals(AGENT_KIND, found.get(0).kind());
    }
}
