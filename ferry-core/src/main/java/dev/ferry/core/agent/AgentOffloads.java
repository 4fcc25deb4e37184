package dev.ferry.core.agent;

import dev.ferry.core.wire.WireHeader;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ServiceLoader;

/**
 * The offloads the agent found ({@link AgentOffload}, one per kind of table), and what the agent
 * does around one: a packet that came for a rank and is nothing but one message handled on
 * arrival (one IMMEDIATE entry flagged FREE, whole) is offered to the offload of each table the
 * rank published; one that takes it has performed it, and its answer, if any, is made an engine
 * packet from that rank to the sender, in a record for the link it came on. The packet is then
 * left with no entry: the credits it gives, if any, still go to the rank. Used from the agent's
 * loop alone.
 *
 * <pre>{@code
 * if (offloads.take(rank, from, packet, link.spare())) { ... the record, when it has bytes, goes back on the link }
 * }</pre>
 */
final class AgentOffloads {
    private static final System.Logger LOG = System.getLogger("dev.ferry.agent");

    /** Bytes of the largest answer's record: a record header, a packet header, one IMMEDIATE entry. */
    static final int ANSWER_RECORD_BYTES = (int) ChannelLayout.REC_HEADER + WireHeader.PACKET_HEADER + WireHeader.immediateBytes(AgentOffload.MAX_ANSWER);

    private final AgentOffload[] byKind = new AgentOffload[AgentOffload.MAX_KIND + 1];
    /** Whether each kind's offload has thrown (said once). */
    private final boolean[] failedOnce = new boolean[AgentOffload.MAX_KIND + 1];
    /** Where an offload writes its answer: the header word, then the message. */
    private final MemorySegment answer = java.lang.foreign.Arena.ofAuto().allocate(8 + AgentOffload.MAX_ANSWER, 8);
    /** The answer's packet, made here and copied into the record (the records are buffers; this makes no view per answer). */
    private final MemorySegment packetOut = java.lang.foreign.Arena.ofAuto().allocate(ANSWER_RECORD_BYTES - ChannelLayout.REC_HEADER, 8);
    private final ByteBuffer packetOutView = packetOut.asByteBuffer();

    /** A rank as the agent serves it by its offloads. */
    interface Served extends AgentOffload.Rank {
        /** Its rank in the job. */
        int rank();

        /** Whether it published any table. */
        boolean publishedTables();

        /** Whether it has left (its memory is no longer to be touched). */
        boolean left();

        /** An offload served a message for it. */
        void served();
    }

    AgentOffloads(Iterable<AgentOffload> found) {
        for (AgentOffload o : found) {
            int k = o.kind();
            if (k < 1 || k > AgentOffload.MAX_KIND) {
                LOG.log(System.Logger.Level.WARNING, "agent: offload {0} names kind {1}, outside 1..{2}: not used", o.getClass().getName(), k, AgentOffload.MAX_KIND);
            } else if (byKind[k] != null) {
                LOG.log(System.Logger.Level.WARNING, "agent: offloads {0} and {1} both read tables of kind {2}: the first is used",
                        byKind[k].getClass().getName(), o.getClass().getName(), k);
            } else {
                byKind[k] = o;
            }
        }
    }

    /** The offloads on the agent's class path (the layers above that ship one). */
    static AgentOffloads load() {
        return new AgentOffloads(ServiceLoader.load(AgentOffload.class, AgentOffloads.class.getClassLoader()));
    }

    /** Whether an offload reads tables of {@code kind}. */
    boolean serves(int kind) {
        return kind >= 1 && kind <= AgentOffload.MAX_KIND && byKind[kind] != null;
    }

    /**
     * {@code packet} came for {@code to} from rank {@code from}, and {@code to}'s IN ring holds no
     * message for the rank to parse before it: true when an offload took its message (performed
     * it), with {@code record} (of {@link #ANSWER_RECORD_BYTES}) then holding the answer's record
     * for {@code from}, or nothing (limit 0) when there is none; false when the packet goes to the
     * rank as it is.
     */
    boolean take(Served to, int from, MemorySegment packet, ByteBuffer record) {
        if (!to.publishedTables() || to.left() || packet.byteSize() < WireHeader.PACKET_HEADER + WireHeader.IMMEDIATE_HEADER) {
            return false;
        }
        long word = WireHeader.packetWord(packet), entry = WireHeader.soleEntry(packet), at = WireHeader.PACKET_HEADER;
        long n = WireHeader.a(entry) & 0xffffffffL;
        if (WireHeader.kind(entry) != WireHeader.IMMEDIATE || WireHeader.entryFlags(entry) != WireHeader.FREE
                || n > packet.byteSize() - at - WireHeader.IMMEDIATE_HEADER) {
            return false; // a message that cost credits is the rank's to settle; or not whole here
        }
        long header = packet.get(WireHeader.U64, at + WireHeader.B);
        for (int k = 1; k <= AgentOffload.MAX_KIND; k++) {
            AgentOffload o = byKind[k];
            if (o == null || to.table(k) == null) {
                continue;
            }
            int answered;
            try {
                answered = o.take(to, from, header, packet, at + WireHeader.IMMEDIATE_HEADER, n, answer);
            } catch (RuntimeException e) {
                // a table the rank wrote wrongly must not stop the agent: the rank gets the message, as ever
                if (!failedOnce[k]) {
                    failedOnce[k] = true;
                    LOG.log(System.Logger.Level.WARNING, "agent: offload {0} failed on a message for rank {1} (its messages go to it as ever): {2}",
                            o.getClass().getName(), to.rank(), e.toString());
                }
                answered = AgentOffload.NOT_TAKEN;
            }
            if (answered == AgentOffload.NOT_TAKEN) {
                continue;
            }
            to.served();
            WireHeader.packetHeader(packet, 0, WireHeader.credits(word), WireHeader.asks(word), WireHeader.envelopes(word)); // what is left for the rank
            record.clear();
            if (answered <= 0 || answered > AgentOffload.MAX_ANSWER) {
                record.limit(0);
                return true;
            }
            int payload = WireHeader.PACKET_HEADER + WireHeader.immediateBytes(answered);
            record.limit((int) ChannelLayout.REC_HEADER + payload);
            record.putInt((int) ChannelLayout.REC_LENGTH, payload).putInt((int) ChannelLayout.REC_PEER, from)
                    .putInt((int) ChannelLayout.REC_KIND, ChannelLayout.PACKET).putInt((int) ChannelLayout.REC_ORIGIN, to.rank())
                    .putLong((int) ChannelLayout.REC_MORE, 0);
            MemorySegment p = packetOut;
            p.fill((byte) 0); // the padding too: nothing of an earlier answer leaves
            WireHeader.packetHeader(p, 1, 0);
            WireHeader.immediate(p, WireHeader.PACKET_HEADER, WireHeader.FREE, answered, answer.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
            MemorySegment.copy(answer, 8, p, WireHeader.PACKET_HEADER + WireHeader.IMMEDIATE_HEADER, answered);
            record.put((int) ChannelLayout.REC_HEADER, packetOutView, 0, payload);
            return true;
        }
        return false;
    }
}
