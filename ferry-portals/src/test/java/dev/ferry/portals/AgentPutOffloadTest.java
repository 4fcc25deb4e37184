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
 * The node agent's offload of puts, on a directory laid out here as the library publishes one:
 * what it takes, what it writes, the ack it answers with, and everything it leaves to the rank.
 */
class AgentPutOffloadTest {
    private static final int RANKS = 4, FROM = 2, NI = 0, PT = 3, SLOT = 5, UID = 1000;
    private static final long BITS = 7, ID = 77;

    private final Arena arena = Arena.ofAuto();
    private final MemorySegment dir = arena.allocate(bytes(RANKS), 8);
    private final MemorySegment memory = arena.allocate(64, 8);
    private final MemorySegment answer = arena.allocate(8 + AgentOffload.MAX_ANSWER, 8);
    private final AgentPutOffload offload = new AgentPutOffload();
    /** The rank the agent serves: its directory, and its entry's memory, which the agent maps. */
    private boolean mapped = true;
    private final AgentOffload.Rank rank = new AgentOffload.Rank() {
        @Override
        public MemorySegment table(int kind) {
            return kind == AGENT_KIND ? dir : null;
        }

        @Override
        public boolean writeMapped(long address, MemorySegment from, long at, long n) {
            long off = address - memory.address();
            if (!mapped || off < 0 || off + n > memory.byteSize()) {
                return false;
            }
            assertNotEquals(0L, dir.get(ValueLayout.JAVA_LONG, hazard(FROM)), "the initiator's hazard word names the slot while its memory is written");
            MemorySegment.copy(from, at, memory, off, n);
            return true;
        }
    };

    @BeforeEach
    void publishOneEntry() {
        dir.set(ValueLayout.JAVA_LONG, MAGIC_OFFSET, MAGIC);
        dir.set(ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION);
        dir.set(ValueLayout.JAVA_INT, OPEN_OFFSET, 1);
        dir.set(ValueLayout.JAVA_INT, RANKS_OFFSET, RANKS);
        long list = list(NI, PT);
        dir.set(ValueLayout.JAVA_LONG, list + LIST_SEQ, 2);
        dir.set(ValueLayout.JAVA_INT, list + LIST_COUNT, 1);
        dir.set(ValueLayout.JAVA_INT, list + LIST_SLOTS, SLOT);
        long at = slot(SLOT);
        dir.set(ValueLayout.JAVA_LONG, at + SLOT_STATE, 3); // generation 1, live
        dir.set(ValueLayout.JAVA_LONG, at + SLOT_MATCH_BITS, BITS);
        dir.set(ValueLayout.JAVA_LONG, at + SLOT_IGNORE_BITS, 0);
        dir.set(ValueLayout.JAVA_INT, at + SLOT_MATCH_RANK, -1);
        dir.set(ValueLayout.JAVA_INT, at + SLOT_UID, UID_ANY);
        dir.set(ValueLayout.JAVA_INT, at + SLOT_OPTIONS, ME_OP_PUT | ME_OP_GET);
        dir.set(ValueLayout.JAVA_LONG, at + SLOT_LENGTH, memory.byteSize());
        dir.set(ValueLayout.JAVA_LONG, at + SLOT_ADDRESS, memory.address());
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

    private int take(MemorySegment m) {
        return offload.take(rank, FROM, PtlWire.LIBRARY, m, 0, m.byteSize(), answer);
    }

    private void setSlot(long field, int value) {
        dir.set(ValueLayout.JAVA_INT, slot(SLOT) + field, value);
    }

    @Test
    void aPutThatMatchesAPublishedEntryLandsAndIsAcknowledgedForTheRank() {
        assertEquals(PtlWire.HEADER, take(put(PtlWire.PUT, 0, AckReq.CT_ACK_REQ, BITS, 8, 16)));
        for (int i = 0; i < 16; i++) {
            assertEquals(i + 1, memory.get(ValueLayout.JAVA_BYTE, 8 + i));
        }
        assertEquals(0, memory.get(ValueLayout.JAVA_BYTE, 7), "nothing before the offset");
        assertEquals(0, memory.get(ValueLayout.JAVA_BYTE, 24), "nothing past the data");
        assertEquals(0L, dir.get(ValueLayout.JAVA_LONG, hazard(FROM)), "the hazard word is cleared");

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
        assertEquals(PtlWire.HEADER, take(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 56, 16)));
        assertEquals(8, PtlWire.length(answer.asSlice(8, PtlWire.HEADER)));
        assertEquals(8, memory.get(ValueLayout.JAVA_BYTE, 63));
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
        assertNotTaken(put(PtlWire.GET, 0, AckReq.ACK_REQ, BITS, 0, 0), "a get");
        assertNotTaken(put(PtlWire.ATOMIC, 0, AckReq.ACK_REQ, BITS, 0, 8), "an atomic");
        MemorySegment cut = put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 16);
        assertEquals(AgentOffload.NOT_TAKEN, offload.take(rank, FROM, PtlWire.LIBRARY, cut, 0, PtlWire.HEADER + 8, answer), "not whole");
        assertEquals(AgentOffload.NOT_TAKEN, offload.take(rank, FROM, PtlWire.LIBRARY | PtlWire.DATA | ID, cut, 0, cut.byteSize(), answer), "a data message");
        assertEquals(AgentOffload.NOT_TAKEN, offload.take(rank, RANKS, PtlWire.LIBRARY, cut, 0, cut.byteSize(), answer), "a rank past the job's size");

        setSlot(SLOT_UID, UID + 1);
        assertNotTaken(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 8), "a uid the entry does not admit: the rank counts the violation");
        setSlot(SLOT_UID, UID_ANY);
        setSlot(SLOT_OPTIONS, ME_OP_GET);
        assertNotTaken(put(PtlWire.PUT, 0, AckReq.ACK_REQ, BITS, 0, 8), "an entry that takes no puts");
        setSlot(SLOT_OPTIONS, ME_OP_PUT);

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
        assertEquals(-1, memory.mismatch(arena.allocate(64)), why + ": nothing written");
    }

    @Test
    void theAgentFindsItAsTheOffloadOfTheDirectory() {
        var found = java.util.ServiceLoader.load(AgentOffload.class).stream().map(java.util.ServiceLoader.Provider::get).toList();
        assertEquals(1, found.size(), found.toString());
        assertEquals(AGENT_KIND, found.get(0).kind());
    }
}
