package dev.ferry.core.agent;

import dev.ferry.core.wire.WireHeader;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The agent's matching of a rank's receives (seed 004's tag-matching and rendezvous offloads):
 * a packet that came for a rank and is nothing but one rendezvous announcement (an engine
 * packet of one RTS_PULL entry) is matched against the receives the rank
 * armed in its pull slots ({@link PullSlots#arm}); when one accepts it, the agent claims it and
 * asks the sender's agent for the bytes at once, straight into the receive's memory, and the
 * announcement never reaches the rank (the credits its packet returns do). The rank learns of it from the slot's answer, with the
 * message's header and length beside it.
 *
 * <p>MPI's order holds because the agent matches only when the rank's IN ring is empty: every
 * earlier message from the same source (which came the same way, in order) was parsed and matched
 * by the rank already. The rank, for its part, arms a receive only when no receive it posted
 * earlier accepts the same messages, and takes an armed one back (a compare-and-set against the
 * agent's claim) before it matches a message to it itself. Used from the agent's loop alone.
 */
final class AgentMatch {
    /** The one shape matched: the packet header, one RTS_PULL entry, its pull data. */
    static final int ANNOUNCEMENT_BYTES = WireHeader.PACKET_HEADER + WireHeader.RTS_BYTES + ChannelLayout.PULL_DATA_BYTES;

    private AgentMatch() {
    }

    /**
     * {@code packet} came for {@code to} from rank {@code from}, and {@code to}'s IN ring holds
     * nothing else: the PULL record (header and request) to send to {@code from}'s agent when a
     * receive {@code to} armed took it, or null when the packet goes to the rank as it is. A
     * packet taken is left with no entry: the credits it gives, if any, still go to the rank
     * ({@link #creditsLeft}).
     */
    static ByteBuffer offer(AgentPulls.Party to, int from, MemorySegment packet) {
        if (packet.byteSize() != ANNOUNCEMENT_BYTES || to.left()) {
            return null;
        }
        long word = WireHeader.packetWord(packet);
        if (WireHeader.magic(word) != WireHeader.MAGIC || WireHeader.count(word) != 1) {
            return null;
        }
        long at = WireHeader.PACKET_HEADER;
        long entry = WireHeader.entryWord(packet, at);
        if (WireHeader.kind(entry) != WireHeader.RTS_PULL || WireHeader.a(entry) != ChannelLayout.PULL_DATA_BYTES) {
            return null;
        }
        long header = packet.get(WireHeader.U64, at + WireHeader.B), length = packet.get(WireHeader.U64, at + WireHeader.C);
        MemorySegment pullData = packet.asSlice(at + WireHeader.RTS_BYTES, ChannelLayout.PULL_DATA_BYTES);
        long exposed = pullData.get(ValueLayout.JAVA_LONG, ChannelLayout.PD_LENGTH);
        if (length <= 0 || length != exposed) {
            return null; // an empty message, or one the rank takes only partly: the rank's own path
        }
        PullSlots pulls = to.pulls();
        long armed = pulls.armedFor(from, header, length);
        if (armed < 0) {
            return null;
        }
        int slot = (int) (armed >>> 32), generation = (int) armed;
        if (!pulls.claim(slot, generation, from, header, length)) {
            return null; // the rank took it back this moment: it matches the packet itself
        }
        WireHeader.packetHeader(packet, 0, WireHeader.credits(word), WireHeader.asks(word), WireHeader.envelopes(word)); // what is left for the rank
        ByteBuffer b = ByteBuffer.allocateDirect((int) ChannelLayout.REC_HEADER + ChannelLayout.PULL_REQUEST_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt((int) ChannelLayout.REC_LENGTH, ChannelLayout.PULL_REQUEST_BYTES).putInt((int) ChannelLayout.REC_PEER, from)
                .putInt((int) ChannelLayout.REC_KIND, ChannelLayout.PULL).putInt((int) ChannelLayout.REC_ORIGIN, to.rank())
                .putLong((int) ChannelLayout.REC_MORE, 0);
        int r = (int) ChannelLayout.REC_HEADER;
        b.putInt(r + (int) ChannelLayout.REQ_PULL_SLOT, slot).putInt(r + (int) ChannelLayout.REQ_PULL_GENERATION, generation)
                .putInt(r + (int) ChannelLayout.REQ_EXPOSURE, pullData.get(ValueLayout.JAVA_INT, ChannelLayout.PD_EXPOSURE))
                .putInt(r + (int) ChannelLayout.REQ_EXPOSURE_GENERATION, pullData.get(ValueLayout.JAVA_INT, ChannelLayout.PD_GENERATION))
                .putLong(r + (int) ChannelLayout.REQ_LENGTH, length);
        return b;
    }

    /** Whether a packet {@link #offer} took still gives the rank credits (or asks for them), and so goes to it, with no entry. */
    static boolean creditsLeft(MemorySegment packet) {
        return WireHeader.packetWord(packet) >>> 32 != 0;
    }
}
