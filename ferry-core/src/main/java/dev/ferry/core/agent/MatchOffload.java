package dev.ferry.core.agent;

import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;

/**
 * A driver instance that matches receives for the engine (seed 004's tag-matching offload, done
 * by the node agent): the engine arms a receive for a message from the instance's peer (or, on
 * a driver context that is one, from any peer it reaches) whose engine header word equals given
 * bits outside given ignore bits; the agent matches the peer's
 * rendezvous announcement against it and pulls the bytes straight into the receive's memory,
 * with no call from the rank. The engine takes an armed receive back before matching a message
 * to it itself; one compare-and-set decides whether the agent or the rank matched it. Used in the
 * engine's thread of control, like every driver call.
 *
 * <pre>{@code
 * if (instance.matchPost(p.reset().useData(layout), bits, ignore) == Status.DONE) {
 *     ...                                      // later, each progress pass:
 *     if (instance.matchPoll(p) == Status.DONE) complete(p.length(), instance.matchHeader(p));
 * }
 * }</pre>
 */
public interface MatchOffload {
    /**
     * Arms a receive into the packet's memory (where the agent cannot reach it, into memory of the
     * driver's that the message is copied from once placed): DONE when armed, INVALID for an empty
     * layout, NOT_YET when no slot is free now.
     */
    Status matchPost(Packet packet, long bits, long ignore);

    /** Takes an armed receive back: DONE when it was not matched (the caller matches by itself), NOT_YET when the agent matched it (poll it). */
    Status matchCancel(Packet packet);

    /** NOT_YET while armed or its bytes come; DONE once the matched message is in place ({@code packet.length()} its length); a failure status if it could not be. */
    Status matchPoll(Packet packet);

    /** The header word of the message matched, once {@link #matchPoll} said DONE (before the next {@link #matchPost}). */
    long matchHeader(Packet packet);

    /** The rank the message matched came from, once {@link #matchPoll} said DONE (before the next {@link #matchPost}). */
    int matchSource(Packet packet);

    /**
     * Whether the message matched was written into the receive at the match (an eager one), not
     * pulled as a rendezvous, once {@link #matchPoll} said DONE (before the next {@link #matchPost}).
     */
    boolean matchPlacedAtOnce(Packet packet);

    /** A driver context whose instances share one matcher, which also takes receives of any source. */
    interface AnySource {
        /** The matcher of receives of any peer this context reaches; null when there is none now. */
        MatchOffload anySourceMatcher();
    }
}
