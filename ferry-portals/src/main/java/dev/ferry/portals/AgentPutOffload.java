package dev.ferry.portals;

import dev.ferry.core.agent.AgentOffload;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static dev.ferry.portals.DirectoryLayout.*;
import static dev.ferry.portals.Portals.*;

/**
 * The node agent's offload of the library (seed 004's offloads; the Portals reference
 * implementation's PPE does the same for its clients): a put from a rank of another node that
 * travels whole in its request and matches an entry the target published in its directory
 * ({@link Directory}: persistent, no events, no counts, one range of arena memory) is performed by
 * the target's agent as it arrives, which also sends the ack for the target. The target's library
 * never sees it; it need make no call for the put to land and complete, as with a NIC that
 * performs puts itself. What it would have to do otherwise (a put that matches nothing published,
 * a violation to count, data sent separately, an atomic, a get) goes to it as ever.
 *
 * <p>The entry is the one the target's own matching would choose: only a prefix of its priority
 * list is published, and the agent offers a message only once the rank has parsed every message
 * before it (which the library performs as it parses them). While the agent writes the entry's
 * memory it holds the initiator's hazard word of the directory, so that the owner's unlinking waits
 * for it, as for a same-node peer's direct access. Found by the agent through
 * {@link java.util.ServiceLoader}; not for applications.
 *
 * <pre>{@code
 * // in the agent, for a packet of rank `to` from rank `from` (AgentOffloads)
 * int n = offload.take(rank, from, header, buf, at, length, answer);
 * }</pre>
 */
public final class AgentPutOffload implements AgentOffload {
    /** Made by the agent's ServiceLoader. */
    public AgentPutOffload() {
    }

    @Override
    public int kind() {
        return AGENT_KIND;
    }

    @Override
    public int take(Rank rank, int from, long header, MemorySegment buf, long at, long n, MemorySegment answer) {
        if (header != PtlWire.LIBRARY || n < PtlWire.HEADER) {
            return NOT_TAKEN; // the library's data messages and other layers' are not requests
        }
        MemorySegment d = rank.table(AGENT_KIND);
        if (d == null || d.byteSize() < HEADER_BYTES || d.get(ValueLayout.JAVA_LONG, MAGIC_OFFSET) != MAGIC
                || d.get(ValueLayout.JAVA_INT, VERSION_OFFSET) != VERSION) {
            return NOT_TAKEN;
        }
        int ranks = DirectoryLayout.ranks(d);
        if (from < 0 || from >= ranks || d.byteSize() < bytes(ranks)) {
            return NOT_TAKEN;
        }
        MemorySegment p = buf.asSlice(at, n);
        long rlength = PtlWire.length(p), offset = PtlWire.offset(p);
        if (PtlWire.type(p) != PtlWire.PUT || PtlWire.flags(p) != 0 || PtlWire.operandLen(p) != 0 || rlength < 0 || offset < 0
                || rlength > n - PtlWire.HEADER) {
            return NOT_TAKEN; // separate data, an operand, or not whole: the library's
        }
        int ni = PtlWire.ni(p), pt = PtlWire.pt(p);
        long found = PublishedEntries.first(d, ni, pt, PtlWire.matchBits(p), from, offset, rlength);
        if (found < 0) {
            return NOT_TAKEN;
        }
        long slot = slot(PublishedEntries.slotOf(found));
        int options = d.get(ValueLayout.JAVA_INT, slot + SLOT_OPTIONS), uid = d.get(ValueLayout.JAVA_INT, slot + SLOT_UID);
        if ((options & ME_OP_PUT) == 0 || uid != UID_ANY && uid != PtlWire.uid(p)) {
            return NOT_TAKEN; // a violation: the target counts it
        }
        long entryLength = d.get(ValueLayout.JAVA_LONG, slot + SLOT_LENGTH), address = d.get(ValueLayout.JAVA_LONG, slot + SLOT_ADDRESS);
        long mlength = Math.min(rlength, Math.max(0, entryLength - offset));
        long hazardWord = hazard(from);
        if (!PublishedEntries.enter(d, hazardWord, found)) {
            return NOT_TAKEN;
        }
        try {
            if (mlength > 0 && !rank.writeMapped(address + offset, p, PtlWire.HEADER, mlength)) {
                return NOT_TAKEN; // memory the agent does not map: nothing written, the library's
            }
        } finally {
            PublishedEntries.leave(d, hazardWord);
        }
        int ack = PtlWire.ack(p);
        boolean asked = (ack & ~PtlWire.ORDERED) != AckReq.NO_ACK_REQ.ordinal();
        if (!asked && (ack & PtlWire.ORDERED) == 0) {
            return 0;
        }
        // what the target's library answers (Target.delivered): an ack the entry disables is still answered, silently
        boolean due = asked && (options & ME_ACK_DISABLE) == 0;
        answer.set(ValueLayout.JAVA_LONG, 0, PtlWire.LIBRARY);
        PtlWire.response(answer.asSlice(8, PtlWire.HEADER), PtlWire.ACK, ni, due ? 0 : PtlWire.SILENT, 0, ListKind.PRIORITY_LIST.ordinal(), pt,
                offset, mlength, PtlWire.id(p));
        return PtlWire.HEADER;
    }
}
