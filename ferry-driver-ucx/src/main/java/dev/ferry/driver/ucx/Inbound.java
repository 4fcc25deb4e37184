package dev.ferry.driver.ucx;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucs.UcsConstants;

/**
 * An instance's receiving side: the {@link ReceiveRing} of its DATA messages (in order), the
 * buffer handed out by a buffer-based receive, and the posted receive with its {@link Pull} when
 * the head message is a rendezvous descriptor. {@link UcxInstance} takes the context's lock and
 * calls in; every method here runs with it held.
 */
final class Inbound {
    private final UcxInstance owner;
    private final UcxContext ctx;
    private ReceiveRing ring;
    private UcpEndpoint ep;
    private ControlChannel control;
    private boolean handed;
    private long dataReceived;
    private Packet posted;
    private Status postedResult;
    private final DataCursor cursor = new DataCursor();
    private Pull pull;

    Inbound(UcxInstance owner, UcxContext ctx) {
        this.owner = owner;
        this.ctx = ctx;
    }

    /** The endpoint is made: its receives are posted. */
    void start(UcpEndpoint ep, ReceiveRing ring, ControlChannel control) {
        this.ep = ep;
        this.ring = ring;
        this.control = control;
    }

    /** For probe-any: a receive posted now completes at once. */
    boolean hasData() {
        if (posted != null) {
            return postedResult != null || (pull != null && pull.done());
        }
        return !handed && headReady() && ring.status() == Ucp.OK;
    }

    /** The instance shuts down: receives and a running pull are cancelled. */
    void cancel() {
        if (ring != null) {
            ring.cancel();
        }
        if (pull != null) {
            pull.abandon(ctx);
            pull = null;
        }
    }

    /** Some receive is still in UCX's hands. */
    boolean busy() {
        return ring != null && ring.busy();
    }

    /** The receive status when no data is there: NOT_YET, or why none will come. */
    private Status idleStatus() {
        return switch (owner.state()) {
            case BROKEN -> Status.BROKEN;
            case CLOSED -> Status.CLOSED;
            case NEW -> Status.INVALID;
            default -> control.peerClosed && dataReceived >= control.peerDataSent ? Status.CLOSED : Status.NOT_YET;
        };
    }

    private boolean headReady() {
        return ring != null && ring.ready();
    }

    /** recvPoll: the posted receive's completion, or with none posted a buffer-based receive. */
    Status poll(Packet packet) {
        if (posted != null) {
            if (packet != posted) {
                return Status.INVALID;
            }
            return pollPosted();
        }
        if (packet.form() != Packet.Form.NONE || handed) {
            return Status.INVALID;
        }
        if (!headReady()) {
            ctx.progress();
            owner.pump();
            if (!headReady()) {
                return idleStatus();
            }
        }
        if (ring.status() != Ucp.OK) {
            return receiveFailed(ring.status());
        }
        if (UcxWire.isRts(ring.message())) {
            return Status.INVALID; // larger than a buffer: post a receive for it
        }
        long len = UcxWire.dataLength(ring.message());
        if (len > ctx.bufferSize) {
            owner.fail("the peer sent a DATA header of " + len + " bytes, more than a buffer");
            return Status.BROKEN;
        }
        handed = true;
        packet.driverBuffer(ring.payload(), len);
        packet.driverData = this;
        return Status.DONE;
    }

    private Status receiveFailed(int s) {
        if (s == Ucp.ERR_CANCELED) {
            return idleStatus();
        }
        // our peers never send more than a buffer: a truncated or failed receive is a broken peer
        owner.fail("receive failed with UCS status " + s);
        return Status.BROKEN;
    }

    /** recvBufRelease: the handed buffer goes back. */
    Status release(Packet packet) {
        if (!handed || packet.driverData != this || packet.buffer() != ring.payload()) {
            return Status.INVALID;
        }
        handed = false;
        packet.driverData = null;
        consumeHead();
        return Status.DONE;
    }

    private void consumeHead() {
        dataReceived++;
        UcxInstance.State s = owner.state();
        ring.advance(s == UcxInstance.State.UP || s == UcxInstance.State.CONNECTING);
    }

    /** recvPost. */
    Status post(Packet packet) {
        if (posted != null || handed) {
            return Status.INVALID;
        }
        Status idle = idleStatus();
        if (idle != Status.NOT_YET && !headReady()) {
            return idle;
        }
        posted = packet;
        postedResult = null;
        packet.length(0);
        match();
        return Status.DONE;
    }

    /** A posted receive takes the head message, if any. */
    private void match() {
        if (pull != null || postedResult != null || !headReady()) {
            return;
        }
        if (ring.status() != Ucp.OK) {
            postedResult = receiveFailed(ring.status());
            if (postedResult == Status.NOT_YET) {
                postedResult = null;
            }
            return;
        }
        DataLayout into = posted.layout();
        long room = into.size();
        long len = UcxWire.dataLength(ring.message());
        if (len > ctx.bufferSize) {
            owner.fail("the peer sent a DATA header of " + len + " bytes, more than a buffer");
            postedResult = Status.BROKEN;
            return;
        }
        if (!UcxWire.isRts(ring.message())) {
            cursor.reset(into).copyFrom(ring.payload(), 0, Math.min(len, room));
            posted.length(len);
            postedResult = len > room ? Status.INVALID : Status.DONE;
            consumeHead();
            return;
        }
        try {
            pull = Pull.start(ep, ring.payload().asSlice(0, len), into, ctx);
        } catch (UcxException | IllegalArgumentException e) {
            owner.fail("rendezvous from the peer could not be pulled: " + e.getMessage());
            postedResult = Status.BROKEN;
        }
        consumeHead(); // the descriptor was read: the buffer goes back to UCX
    }

    private Status pollPosted() {
        ctx.progress();
        owner.pump();
        match();
        if (postedResult == null && pull != null) {
            int s = pull.poll();
            if (s == UcsConstants.STATUS.UCS_INPROGRESS) {
                if (owner.state() == UcxInstance.State.BROKEN) {
                    pull.abandon(ctx);
                    pull = null;
                    postedResult = Status.BROKEN;
                } else {
                    return Status.NOT_YET;
                }
            } else if (s != Ucp.OK) {
                pull.abandon(ctx);
                pull = null;
                owner.fail("the pull (UCP gets or the BULK receive) failed with UCS status " + s);
                postedResult = Status.BROKEN;
            } else {
                posted.length(pull.total);
                postedResult = pull.total > pull.room ? Status.INVALID : Status.DONE;
                pull.finish(ctx);
                if (pull.needsFin()) {
                    control.owe();
                }
                pull = null;
                owner.pump();
            }
        }
        if (postedResult == null) {
            Status idle = idleStatus();
            if (idle != Status.NOT_YET) {
                posted = null;
                return idle;
            }
            return Status.NOT_YET;
        }
        Status s = postedResult;
        posted = null;
        postedResult = null;
        return s;
    }

    /** recvCancel: withdraws the posted receive unless its data is already on its way in. */
    Status cancel(Packet packet) {
        if (posted == null || posted != packet) {
            return Status.INVALID;
        }
        if (pull != null || postedResult != null) {
            return Status.NOT_YET; // the data is already on its way in: poll it
        }
        posted = null;
        return Status.DONE;
    }
}
