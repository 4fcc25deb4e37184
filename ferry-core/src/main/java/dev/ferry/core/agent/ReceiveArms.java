package dev.ferry.core.agent;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.Packet;

/**
 * Arming a pull slot with a receive, and landing the message the agent matched to it: shared by
 * a peer's instance and the matcher of receives of any source. The agent reaches only native
 * memory of the rank: a receive into anything else (a heap array, a scattered layout) is armed
 * with the slot's staging memory ({@link AgentContext#pullStaging}), into which the agent pulls while
 * the rank computes, and the rank copies it in once, when it sees the slot answered.
 */
final class ReceiveArms {
    /** A packet's {@link Packet#driverData} while armed into its own memory, or into the slot's staging. */
    static final Object ARMED = "armed", ARMED_STAGED = "armed, staged";
    /** A packet's {@link Packet#driverData} once answered DONE for a message the agent wrote at the match (an eager one). */
    static final Object PLACED_AT_ONCE = "placed at once";

    private ReceiveArms() {
    }

    /** Whether {@code packet} is armed (either way). */
    static boolean armed(Packet packet) {
        return packet.driverData == ARMED || packet.driverData == ARMED_STAGED;
    }

    /**
     * Arms a free pull slot with the receive into the packet's memory for a message from
     * {@code peer} (or {@link ChannelLayout#ANY_PEER}): its slot, with the packet's
     * {@link Packet#driverState} its generation and slot; or -1 when no slot is free now.
     */
    static int arm(AgentContext ctx, Packet packet, int peer, long bits, long ignore) {
        long size = packet.layout().size();
        long address = AgentInstance.nativeRange(packet.layout());
        int slot = ctx.pulls.take();
        if (slot < 0) {
            return -1;
        }
        boolean staged = address == 0;
        if (staged) {
            address = ctx.pullStaging.at(slot, size).address();
        }
        int g = ctx.pulls.arm(slot, address, size, peer, bits, ignore);
        packet.driverData = staged ? ARMED_STAGED : ARMED;
        packet.driverState = (long) g << 32 | slot;
        return slot;
    }

    /** Takes armed {@code packet}'s slot back from the agent: false when the agent matched it first. */
    static boolean reclaim(AgentContext ctx, Packet packet) {
        if (!ctx.pulls.reclaim((int) packet.driverState, (int) (packet.driverState >>> 32))) {
            return false;
        }
        ctx.pullStaging.done((int) packet.driverState);
        packet.driverData = null;
        return true;
    }

    /** Whether the packet's layout is one a receive may be armed with: some bytes, in any memory. */
    static boolean armable(Packet packet) {
        return packet.layout() != null && packet.layout().size() != 0;
    }

    /** The matched message's {@code n} bytes, answered DONE in {@code slot}, into the packet's memory where they were staged. */
    static void land(AgentContext ctx, Packet packet, int slot, long n, DataCursor cursor) {
        if (packet.driverData == ARMED_STAGED && n > 0) {
            cursor.reset(packet.layout()).copyFrom(ctx.pullStaging.at(slot, n), 0, n);
        }
    }
}
