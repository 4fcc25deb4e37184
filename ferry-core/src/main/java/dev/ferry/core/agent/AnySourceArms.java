package dev.ferry.core.agent;

import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;

/**
 * A rank's receives of any source armed in its pull slots ({@link ChannelLayout#ANY_PEER}): the
 * agent matches an announcement from any rank of another node against them, writes that rank
 * into the slot as it claims it, and pulls the bytes. No instance owns such a slot, so a peer
 * that goes gives none of them back: the agent answers FAILED a pull it claimed from a rank
 * that is gone (it left, or the link to its node broke), and the agent's own failure fails the
 * rest. A packet's
 * {@link Packet#driverState} is its slot and generation throughout; the slot's match fields and
 * peer still hold the message's header and source after it is freed, until the rank takes the
 * slot again. A receive into memory the agent cannot reach is armed with the slot's staging
 * ({@link ReceiveArms}). Used in the engine's thread of control, like every driver call.
 */
final class AnySourceArms implements MatchOffload {
    private final AgentContext ctx;
    /** Where a staged message's bytes go. */
    private final dev.ferry.spi.DataCursor cursor = new dev.ferry.spi.DataCursor();

    AnySourceArms(AgentContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Status matchPost(Packet packet, long bits, long ignore) {
        if (ctx.agentFailure != null || ctx.pulls == null) {
            return Status.BROKEN;
        }
        if (!ReceiveArms.armable(packet)) {
            return Status.INVALID;
        }
        return ReceiveArms.arm(ctx, packet, ChannelLayout.ANY_PEER, bits, ignore) < 0 ? Status.NOT_YET : Status.DONE;
    }

    @Override
    public Status matchCancel(Packet packet) {
        if (!ReceiveArms.armed(packet)) {
            return Status.DONE;
        }
        return ReceiveArms.reclaim(ctx, packet) ? Status.DONE : Status.NOT_YET;
    }

    @Override
    public Status matchPoll(Packet packet) {
        if (!ReceiveArms.armed(packet)) {
            return Status.INVALID;
        }
        int slot = (int) packet.driverState;
        int state = PullSlots.state(ctx.pulls.word(slot));
        if (state == ChannelLayout.ARMED || state == ChannelLayout.CLAIMED || state == ChannelLayout.POSTED) {
            if (ctx.agentFailure == null) {
                return Status.NOT_YET;
            }
            state = ChannelLayout.FAILED; // no agent will answer: the slot is freed (one mid-claim is never used again)
        }
        if (state == ChannelLayout.DONE) {
            ReceiveArms.land(ctx, packet, slot, ctx.pulls.matchedLength(slot), cursor);
        }
        ctx.pullEnded(slot);
        packet.driverData = null; // armed no more; its header and source stay readable
        if (state != ChannelLayout.DONE) {
            return Status.BROKEN;
        }
        packet.length(ctx.pulls.matchedLength(slot));
        return Status.DONE;
    }

    @Override
    public long matchHeader(Packet packet) {
        return ctx.pulls.matchedHeader((int) packet.driverState);
    }

    @Override
    public int matchSource(Packet packet) {
        return ctx.pulls.peer((int) packet.driverState);
    }

    @Override
    public boolean matchPlacedAtOnce(Packet packet) {
        return ctx.pulls.placedAtOnce((int) packet.driverState);
    }
}
