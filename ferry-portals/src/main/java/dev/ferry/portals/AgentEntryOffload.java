package dev.ferry.portals;

import dev.ferry.core.agent.AgentOffload;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static dev.ferry.portals.DirectoryLayout.*;
import static dev.ferry.portals.Portals.*;

/**
 * The node agent's offload of the library (seed 004's offloads; the Portals reference
 * implementation's PPE does the same for its clients): an operation from a rank of another node
 * on an entry the target published in its directory ({@link Directory}: persistent, no events,
 * one range of arena memory; its count, if it counts, kept there too) is performed by the
 * target's agent as it arrives: a put or an atomic whose data travel in the request, a get,
 * fetch-atomic or swap whose reply fits one answer ({@link AgentOffload#MAX_ANSWER}). The agent then sends the ack or the reply for the
 * target. The target's library never sees the operation; it need make no call for it to
 * complete, as with a NIC that performs operations itself. What it would have to do otherwise (an
 * operation that matches nothing published, a violation to count, data sent separately, a reply
 * too large for one answer, an atomic the agent cannot do with atomic instructions) goes to it
 * as ever.
 *
 * <p>The entry is the one the target's own matching would choose: only a prefix of its priority
 * list is published, and the agent offers a message only once the rank has parsed every message
 * before it (which the library performs as it parses them). While the agent works on the entry's
 * memory it holds the initiator's hazard word of the directory, so that the owner's unlinking
 * waits for it, as for a same-node peer's direct access; its atomics are the atomic instructions
 * the owner and same-node peers use on published entries. Found by the agent through
 * {@link java.util.ServiceLoader}; not for applications. One instance serves one agent's loop.
 *
 * <pre>{@code
 * // in the agent, for a packet of rank `to` from rank `from` (AgentOffloads)
 * int n = offload.take(rank, from, header, buf, at, length, answer);
 * }</pre>
 */
public final class AgentEntryOffload implements AgentOffload {
    /** The largest reply's data: what one answer holds behind the header. */
    static final int MAX_REPLY = MAX_ANSWER - PtlWire.HEADER;

    /** The 8 bytes {@link Atomics#applyAtomically} works in. */
    private final MemorySegment atomicScratch = Arena.ofAuto().allocate(8, 8);
    /** The request's header, copied (the agent runs the client compiler alone: a view per message would be an object each). */
    private final MemorySegment p = Arena.ofAuto().allocate(PtlWire.HEADER, 8);
    /** The answer segment last given, and its header's view. */
    private MemorySegment answerGiven;
    private MemorySegment response;

    /** Whether the warm-up went as it should (a test reads it; the agent works either way). */
    final boolean warm;

    /** Made by the agent's ServiceLoader, as the agent starts; warmed up on an entry of its own. */
    public AgentEntryOffload() {
        boolean ok = false;
        try {
            ok = warmUp();
        } catch (RuntimeException e) {
            System.getLogger(AgentEntryOffload.class.getName()).log(System.Logger.Level.WARNING, "the agent's offload of Portals operations: its warm-up failed", e);
        }
        warm = ok;
    }

    /**
     * Takes a put, a get and a fetch-add on a counting entry of a directory of its own, so that the
     * agent's first operation for a rank does not pay for loading these classes and linking their
     * variable handles (the agent runs the client compiler alone): the first put to a published
     * entry after 100 ms of quiet took some 24 ms against 12 ms when the target's rank served it.
     */
    private boolean warmUp() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment d = a.allocate(bytes(1), 8), mem = a.allocate(64, 8), req = a.allocate(PtlWire.HEADER + 8, 8);
            MemorySegment out = a.allocate(8 + MAX_ANSWER, 8);
            publishOne(d, 1, 0, 0, 0, 0, ME_OP_PUT | ME_OP_GET | ME_EVENT_CT_COMM, 0, mem);
            Rank own = new Rank() {
                @Override
                public MemorySegment table(int kind) {
                    return kind == AGENT_KIND ? d : null;
                }

                @Override
                public MemorySegment mapped(long address, long length) {
                    return address == mem.address() && length == mem.byteSize() ? mem : null;
                }

                @Override
                public void wake() {
                }
            };
            int ack = AckReq.ACK_REQ.ordinal();
            PtlWire.request(req, PtlWire.PUT, 0, ack, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0);
            int n = take(own, 0, PtlWire.LIBRARY, req, 0, PtlWire.HEADER + 8, out);
            PtlWire.request(req, PtlWire.GET, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0);
            n += take(own, 0, PtlWire.LIBRARY, req, 0, PtlWire.HEADER, out);
            PtlWire.request(req, PtlWire.FETCH, 0, 0, Op.SUM.ordinal(), Datatype.INT64_T.ordinal(), 0, 0, 0, 0, 0, 0, 8, 0, 0);
            n += take(own, 0, PtlWire.LIBRARY, req, 0, PtlWire.HEADER + 8, out);
            return n == 3 * PtlWire.HEADER + 16 && d.get(ValueLayout.JAVA_LONG, counter(0)) == 3 && mem.get(ValueLayout.JAVA_LONG, 0) == 0;
        } finally {
            answerGiven = null; // the warm-up's answer is gone with its arena
            response = null;
        }
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
        MemorySegment.copy(buf, at, p, 0, PtlWire.HEADER);
        byte type = PtlWire.type(p);
        Op op = null;
        Datatype dt = null;
        int operandLen = PtlWire.operandLen(p);
        switch (type) {
            case PtlWire.PUT, PtlWire.GET -> {
                if (operandLen != 0) {
                    return NOT_TAKEN;
                }
            }
            case PtlWire.ATOMIC, PtlWire.FETCH, PtlWire.SWAP -> {
                op = Op.fromWire(PtlWire.op(p));
                dt = Datatype.fromWire(PtlWire.datatype(p));
                if (op == null || dt == null || operandLen < 0 || operandLen > PtlWire.MAX_OPERAND || operandLen < Atomics.operandSize(op, dt)
                        || !Atomics.coherent(dt)) {
                    return NOT_TAKEN; // malformed (the library says so), or not for atomic instructions
                }
            }
            default -> {
                return NOT_TAKEN;
            }
        }
        long rlength = PtlWire.length(p), offset = PtlWire.offset(p), dataAt = at + PtlWire.HEADER + operandLen;
        if (PtlWire.flags(p) != 0 || rlength < 0 || offset < 0 || type != PtlWire.GET && rlength > n - PtlWire.HEADER - operandLen) {
            return NOT_TAKEN; // separate data, or not whole: the library's
        }
        int ni = PtlWire.ni(p), pt = PtlWire.pt(p);
        long found = PublishedEntries.first(d, ni, pt, PtlWire.matchBits(p), from, offset, rlength);
        if (found < 0) {
            return NOT_TAKEN;
        }
        long slot = slot(PublishedEntries.slotOf(found));
        int options = d.get(ValueLayout.JAVA_INT, slot + SLOT_OPTIONS), uid = d.get(ValueLayout.JAVA_INT, slot + SLOT_UID);
        boolean allowed = switch (type) {
            case PtlWire.PUT, PtlWire.ATOMIC -> (options & ME_OP_PUT) != 0;
            case PtlWire.GET -> (options & ME_OP_GET) != 0;
            default -> (options & ME_OP_PUT) != 0 && (options & ME_OP_GET) != 0;
        };
        if (!allowed || uid != UID_ANY && uid != PtlWire.uid(p)) {
            return NOT_TAKEN; // a violation: the target counts it
        }
        long entryLength = d.get(ValueLayout.JAVA_LONG, slot + SLOT_LENGTH), address = d.get(ValueLayout.JAVA_LONG, slot + SLOT_ADDRESS);
        long mlength = Math.min(rlength, Math.max(0, entryLength - offset));
        if (dt != null) {
            mlength = dt.wholeElements(mlength);
        }
        boolean reply = type != PtlWire.PUT && type != PtlWire.ATOMIC;
        if (reply && mlength > MAX_REPLY) {
            return NOT_TAKEN; // its reply goes as a message of its own: the library's
        }
        MemorySegment mem = rank.mapped(address, entryLength);
        if (mem == null || dt != null && !dt.divides(mem.address() + offset)) {
            return NOT_TAKEN; // memory the agent does not map, or an atomic out of alignment: the library's
        }
        long hazardWord = hazard(from);
        if (!PublishedEntries.enter(d, hazardWord, found)) {
            return NOT_TAKEN;
        }
        long replyAt = 8 + PtlWire.HEADER;
        try {
            switch (type) {
                case PtlWire.PUT -> {
                    if (mlength > 0) { // an offset past the entry moves nothing (and names no byte of it)
                        MemorySegment.copy(buf, dataAt, mem, offset, mlength);
                    }
                }
                case PtlWire.GET -> {
                    if (mlength > 0) {
                        MemorySegment.copy(mem, offset, answer, replyAt, mlength);
                    }
                }
                default -> Atomics.applyAtomically(op, dt, mem, offset, buf, dataAt, mlength, operandLen > 0 ? buf : null, at + PtlWire.HEADER,
                        reply ? answer : null, replyAt, atomicScratch);
            }
            if (DirectoryLayout.count(d, slot, options, mlength)) {
                rank.wake(); // a wait on the count sees it now
            }
        } finally {
            PublishedEntries.leave(d, hazardWord);
        }
        answer.set(ValueLayout.JAVA_LONG, 0, PtlWire.LIBRARY);
        if (answer != answerGiven) {
            answerGiven = answer;
            response = answer.asSlice(8, PtlWire.HEADER);
        }
        if (reply) {
            PtlWire.response(response, PtlWire.REPLY, ni, 0, 0, ListKind.PRIORITY_LIST.ordinal(), pt, offset, mlength, PtlWire.id(p));
            return (int) (PtlWire.HEADER + mlength);
        }
        // what the target's library answers (Target.delivered): an ack the entry disables is still answered, silently
        int ack = PtlWire.ack(p);
        boolean asked = (ack & ~PtlWire.ORDERED) != AckReq.NO_ACK_REQ.ordinal();
        if (!asked && (ack & PtlWire.ORDERED) == 0) {
            return 0;
        }
        boolean due = asked && (options & ME_ACK_DISABLE) == 0;
        PtlWire.response(response, PtlWire.ACK, ni, due ? 0 : PtlWire.SILENT, 0, ListKind.PRIORITY_LIST.ordinal(), pt, offset, mlength, PtlWire.id(p));
        return PtlWire.HEADER;
    }
}
