package dev.ferry.core.engine;

import dev.ferry.core.agent.MatchOffload;
import dev.ferry.core.rail.EngineContext;
import dev.ferry.core.rail.EngineStats;
import dev.ferry.core.request.Matched;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.RequestHost;
import dev.ferry.spi.Status;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's receives of any source handed to a driver context that matches them (the node
 * agent's: {@link MatchOffload.AnySource}): a message from any rank that context reaches, whose
 * header word the receive accepts, lands in it with no call from this rank. No gate holds such a
 * receive (its source is not known until the match), so the engine polls them itself. Used in
 * the engine's thread of control.
 *
 * <pre>{@code
 * if (offload.offloads(bytes) && offload.offload(r, into, bits, ignore, onMatch)) { ... } // later, each pass:
 * offload.poll();
 * }</pre>
 */
final class AnySourceOffload {
    /** Fails the gate of a rank whose matched message could not be placed. */
    @FunctionalInterface
    interface FailedPeer {
        void failed(int rank, Status status, String why);
    }

    private final RequestHost host;
    private final FailedPeer failedPeer;
    private final EngineStats stats;
    /** The context that matches, and its matcher; null when no context does. */
    private final EngineContext context;
    private final MatchOffload matcher;
    /** Receives armed there, in any order of completion. */
    private final ArrayList<RecvRequest> armed = new ArrayList<>();

    AnySourceOffload(RequestHost host, EngineStats stats, List<EngineContext> contexts, FailedPeer failedPeer) {
        this.host = host;
        this.failedPeer = failedPeer;
        this.stats = stats;
        EngineContext found = null;
        MatchOffload m = null;
        for (EngineContext ec : contexts) {
            if (ec.context() instanceof MatchOffload.AnySource s && (m = s.anySourceMatcher()) != null) {
                found = ec;
                break;
            }
        }
        this.context = found;
        this.matcher = found == null ? null : m;
    }

    /** Whether a context matches for this rank: a node agent carries its traffic between nodes. */
    boolean present() {
        return matcher != null;
    }

    /** Whether a receive of {@code bytes} could be matched there: a context matches, and the receive holds some bytes. */
    boolean offloads(long bytes) {
        return matcher != null && bytes > 0;
    }

    /** Arms {@code r} into {@code into} for a message whose header word is {@code bits} outside {@code ignore}; false when not taken. */
    boolean offload(RecvRequest r, dev.ferry.spi.DataLayout into, long bits, long ignore, Matched onMatch) {
        if (!offloads(into.size())) {
            return false;
        }
        if (matcher.matchPost(r.pullInto(into), bits, ignore) != Status.DONE) {
            return false;
        }
        r.armedBy = RecvRequest.ARMED_ANY_SOURCE;
        r.onMatch = onMatch;
        armed.add(r);
        stats.armed();
        return true;
    }

    /** Takes {@code r} back: true when it was not matched; false when it was, and completes by itself. */
    boolean reclaim(RecvRequest r) {
        if (matcher.matchCancel(r.pull) != Status.DONE) {
            return false;
        }
        armed.remove(r);
        r.armedBy = -1;
        return true;
    }

    boolean any() {
        return !armed.isEmpty();
    }

    /** Completes the receives matched and placed; true when any was answered. */
    boolean poll() {
        boolean work = false;
        for (int i = armed.size() - 1; i >= 0; i--) {
            RecvRequest r = armed.get(i);
            Status s = matcher.matchPoll(r.pull);
            if (s == Status.NOT_YET) {
                continue;
            }
            work = true;
            armed.remove(i);
            r.armedBy = -1;
            int source = matcher.matchSource(r.pull);
            if (s != Status.DONE) {
                // Unmatched (the agent failed before it matched): the receive stays posted, for the
                // rank to match. Matched but not placed: that message is lost, so its sender's
                // gate fails, and with it the receives that involve it, this one included.
                if (source >= 0) {
                    failedPeer.failed(source, s, "the agent matched a message from rank " + source + " on " + context.name()
                            + " for a receive of any source but could not place it: " + s);
                }
                continue;
            }
            long n = r.pull.length();
            stats.agentMatched();
            if (!matcher.matchPlacedAtOnce(r.pull)) {
                stats.rendezvousBytes(context, n); // an eager message the agent wrote was counted as such by its sender
            }
            r.placed(host, source, matcher.matchHeader(r.pull), n);
            r.onMatch.matched(r);
        }
        return work;
    }

    /** Receives armed now (a snapshot when read off the thread of control). */
    int armedCount() {
        return armed.size();
    }

    /** Takes every armed receive back, as the engine closes; one the agent claimed already is left to it. */
    void cancelAll() {
        for (RecvRequest r : armed) {
            if (matcher.matchCancel(r.pull) == Status.DONE) {
                r.armedBy = -1;
            }
        }
        armed.clear();
    }
}
