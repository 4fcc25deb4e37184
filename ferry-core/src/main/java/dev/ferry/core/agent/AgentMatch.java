package dev.ferry.core.agent;

import dev.ferry.core.wire.WireHeader;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/**
 * The agent's matching of a rank's receives (seed 004's tag-matching and rendezvous offloads):
 * a packet that came for a rank and is nothing but one message is matched against the receives
 * the rank armed in its pull slots ({@link PullSlots#arm}). A rendezvous announcement (an engine
 * packet of one RTS_PULL entry) a receive accepts is claimed, and the sender's agent asked for the
 * bytes at once, straight into the receive's memory; the announcement never reaches the rank
 * (the credits its packet returns do). An eager message (one IMMEDIATE entry) is written into the
 * receive's memory there and then ({@link #deliver}). The rank learns of either from the slot's
 * answer, with the message's header and length beside it.
 *
 * <p>MPI's order holds because the agent matches only when the rank's IN ring holds no message
 * for the rank to match ({@link ByteRing#matchedAhead}: what is left of packets it matched itself
 * carries none): every earlier message from the same source (which came the same way, in order)
 * was matched by the rank or by the agent already. So a run of messages that come while the rank
 * computes are matched one after another. The rank, for its part, arms a receive only when no receive it posted
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
     * no message for the rank to match: true when a receive {@code to} armed took it, with
     * {@code ask} (of {@link #ASK_BYTES}) then holding the PULL record (header and request) to send
     * to {@code from}'s agent; false when the packet goes to the rank as it is. A packet taken is
     * left with no entry: the credits it gives, if any, still go to the rank ({@link #creditsLeft}).
     */
    static boolean offer(AgentPulls.Party to, int from, MemorySegment packet, ByteBuffer ask) {
        if (packet.byteSize() != ANNOUNCEMENT_BYTES || to.left()) {
            return false;
        }
        long word = WireHeader.packetWord(packet), entry = WireHeader.soleEntry(packet), at = WireHeader.PACKET_HEADER;
        if (WireHeader.kind(entry) != WireHeader.RTS_PULL || WireHeader.a(entry) != ChannelLayout.PULL_DATA_BYTES) {
            return false;
        }
        long header = packet.get(WireHeader.U64, at + WireHeader.B), length = packet.get(WireHeader.U64, at + WireHeader.C);
        MemorySegment pullData = packet.asSlice(at + WireHeader.RTS_BYTES, ChannelLayout.PULL_DATA_BYTES);
        long exposed = pullData.get(ValueLayout.JAVA_LONG, ChannelLayout.PD_LENGTH);
        if (length <= 0 || length != exposed) {
            return false; // an empty message, or one the rank takes only partly: the rank's own path
        }
        long claimed = claim(to.pulls(), from, header, length, false);
        if (claimed < 0) {
            return false;
        }
        int slot = (int) (claimed >>> 32), generation = (int) claimed;
        WireHeader.packetHeader(packet, 0, WireHeader.credits(word), WireHeader.asks(word), WireHeader.envelopes(word)); // what is left for the rank
        ByteBuffer b = ask.clear().limit(ASK_BYTES);
        b.putInt((int) ChannelLayout.REC_LENGTH, ChannelLayout.PULL_REQUEST_BYTES).putInt((int) ChannelLayout.REC_PEER, from)
                .putInt((int) ChannelLayout.REC_KIND, ChannelLayout.PULL).putInt((int) ChannelLayout.REC_ORIGIN, to.rank())
                .putLong((int) ChannelLayout.REC_MORE, 0);
        int r = (int) ChannelLayout.REC_HEADER;
        b.putInt(r + (int) ChannelLayout.REQ_PULL_SLOT, slot).putInt(r + (int) ChannelLayout.REQ_PULL_GENERATION, generation)
                .putInt(r + (int) ChannelLayout.REQ_EXPOSURE, pullData.get(ValueLayout.JAVA_INT, ChannelLayout.PD_EXPOSURE))
                .putInt(r + (int) ChannelLayout.REQ_EXPOSURE_GENERATION, pullData.get(ValueLayout.JAVA_INT, ChannelLayout.PD_GENERATION))
                .putLong(r + (int) ChannelLayout.REQ_LENGTH, length);
        return true;
    }

    /** Bytes of the PULL record {@link #offer} writes: a record header and a pull request. */
    static final int ASK_BYTES = (int) ChannelLayout.REC_HEADER + ChannelLayout.PULL_REQUEST_BYTES;

    /**
     * {@code packet} came for {@code to} from rank {@code from}, and {@code to}'s IN ring holds
     * no message for the rank to match ({@link ByteRing#matchedAhead}): when it is one eager
     * message (one IMMEDIATE entry, spent credits) that a receive {@code to} armed accepts, the agent claims the receive, writes the payload straight
     * into its memory, answers it DONE and marks the entry {@link WireHeader#TAKEN}: its bytes
     * (without the payload, which the rank need not parse) still go to the rank, which owes the
     * sender its credits. A write that fails answers the receive FAILED. Whether it was taken.
     */
    static boolean deliver(AgentPulls.Party to, int from, MemorySegment packet) {
        if (packet.byteSize() < TAKEN_BYTES || to.left()) {
            return false;
        }
        long entry = WireHeader.soleEntry(packet);
        long n = WireHeader.a(entry) & 0xffffffffL;
        if (WireHeader.kind(entry) != WireHeader.IMMEDIATE || WireHeader.entryFlags(entry) != 0
                || n > packet.byteSize() - TAKEN_BYTES) { // a handler's message (FREE), or not whole here
            return false;
        }
        long header = packet.get(WireHeader.U64, WireHeader.PACKET_HEADER + WireHeader.B);
        PullSlots pulls = to.pulls();
        long claimed = claim(pulls, from, header, n, true);
        if (claimed < 0) {
            return false;
        }
        int slot = (int) (claimed >>> 32), generation = (int) claimed;
        int answer = ChannelLayout.DONE;
        try {
            if (n > 0) {
                to.memory().writeAt(pulls.address(slot), packet.asSlice(TAKEN_BYTES, n));
            }
        } catch (AgentException e) {
            answer = ChannelLayout.FAILED; // the rank fails the sender's gate: nothing lost silently
        }
        if (pulls.answer(slot, generation, answer)) {
            to.answered();
        }
        packet.set(WireHeader.U64, WireHeader.PACKET_HEADER, entry | (long) WireHeader.TAKEN << 8);
        return true;
    }

    /**
     * Claims the receive armed in {@code pulls} that accepts a message from {@code from} with
     * {@code header} and {@code length} bytes: its slot << 32 | generation, or -1 when none does,
     * or the rank took it back this moment (it then matches the message itself); {@code atOnce}
     * when the agent writes the message now rather than pull it.
     */
    private static long claim(PullSlots pulls, int from, long header, long length, boolean atOnce) {
        long armed = pulls.armedFor(from, header, length);
        return armed >= 0 && pulls.claim((int) (armed >>> 32), (int) armed, from, header, length, atOnce) ? armed : -1;
    }

    /** What is left of a packet {@link #deliver} took, for the rank: the packet header and the entry's. */
    static final int TAKEN_BYTES = WireHeader.PACKET_HEADER + WireHeader.IMMEDIATE_HEADER;

    /** Whether a packet {@link #offer} took still gives the rank credits (or asks for them), and so goes to it, with no entry. */
    static boolean creditsLeft(MemorySegment packet) {
        return WireHeader.packetWord(packet) >>> 32 != 0;
    }
}
