package dev.ferry.core.agent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The probes of an agent's links closed in order ({@link AgentNetwork}): while a rank is attached
 * here, each such link with ranks behind it is probed once it has been closed a second, and
 * again each second after, no two probes within {@link #PROBE_NANOS} (the engine's pace for its
 * dormant gates). A probe is a connection to the other agent's listener, begun without waiting
 * and ended by a greeting flagged {@link AgentLinkHello#PROBE}, which the other answers by
 * closing it. Refused, or not made within the setup bound, the agent is gone: the link breaks and
 * every rank behind it with it. Without the probes an agent that died behind a closed link would
 * go unheard of while its ranks wait with nothing to send. One probe is under way at a time.
 * Used from the agent's loop alone.
 *
 * <pre>{@code
 * probes.closed(link);                   // closed in order: probed from a second on
 * work |= probes.step(now);              // each pass
 * long sleep = probes.untilDue(now);     // how long a quiet agent may sleep
 * }</pre>
 */
final class LinkProbes {
    /** A link closed in order is probed once closed this long, and again each time as long after. */
    static final long DORMANT_NANOS = 1_000_000_000L;
    /** No two probes start within this. */
    static final long PROBE_NANOS = 100_000_000L;

    /** What the probes need of their network. */
    interface Network {
        /** This agent's greeting to another, with {@code flags}. */
        ByteBuffer hello(int flags);

        /** {@code l} broke for {@code why}: every rank behind it is gone. */
        void broke(AgentLink l, String why);

        /** Whether any rank of the node is attached here (someone to tell of a link that broke). */
        boolean anyAttached();
    }

    private final Network network;
    private final java.nio.channels.Selector selector;
    /** Links closed in order, probed in turn; the next one's index; the last probe's start. */
    private final List<AgentLink> dormant = new ArrayList<>();
    private int next;
    private long last;
    /** The one probe under way: the link probed (null: none), its connection, since when. */
    private AgentLink probing;
    private SocketChannel probe;
    private long since;
    private volatile long started; // written by the loop alone

    LinkProbes(Network network, java.nio.channels.Selector selector) {
        this.network = network;
        this.selector = selector;
    }

    /** Probes started so far. */
    long started() {
        return started;
    }

    /** {@code l} was closed in order: it is probed from {@link #DORMANT_NANOS} on. */
    void closed(AgentLink l) {
        if (!dormant.contains(l)) {
            dormant.add(l);
        }
    }

    /** {@code l} broke: a probe of it ends (the link itself has told), and it is probed no more. */
    void broke(AgentLink l) {
        if (probing == l) {
            end();
        }
        dormant.remove(l);
    }

    /** Whether a probe is under way. */
    boolean underWay() {
        return probing != null;
    }

    /** Moves the probe under way on, or starts the next one when due: whether anything happened. */
    boolean step(long now) {
        if (probing != null) {
            return step(probing, now);
        }
        if (!dormant.isEmpty() && now - last > PROBE_NANOS) {
            last = now;
            start(now);
        }
        return false;
    }

    /** Nanoseconds from {@code t} until a probe is due or its bound passes; {@code Long.MAX_VALUE} when none is. */
    long untilDue(long t) {
        if (probing != null) {
            return since + AgentNetwork.SETUP_NANOS - t; // its connection's end wakes the agent sooner
        }
        if (dormant.isEmpty() || !network.anyAttached()) {
            return Long.MAX_VALUE;
        }
        long due = Long.MAX_VALUE;
        for (int i = 0; i < dormant.size(); i++) {
            AgentLink l = dormant.get(i);
            due = Math.min(due, Math.max(l.closedAt, l.probedAt) + DORMANT_NANOS);
        }
        return Math.max(due, last + PROBE_NANOS) - t;
    }

    /** Forgets every link (the job has ended here). */
    void clear() {
        end();
        dormant.clear();
        next = 0;
    }

    /**
     * Begins a probe of the next link closed in order for a second, whose ranks someone here may
     * wait for: a connection to its agent's listener, no more.
     */
    private void start(long now) {
        if (!network.anyAttached()) {
            return; // nobody here to tell
        }
        for (int n = dormant.size(); n > 0; n--) {
            if (next >= dormant.size()) {
                next = 0;
            }
            AgentLink l = dormant.get(next);
            if (l.state != AgentLink.State.NEW || l.ranks.isEmpty()) {
                dormant.remove(next); // open again, broken, or nobody behind it: closing again adds it back
                continue;
            }
            next++;
            if (now - Math.max(l.closedAt, l.probedAt) < DORMANT_NANOS) {
                continue;
            }
            started++;
            l.probedAt = now;
            try {
                probing = l;
                since = now;
                probe = AgentNetwork.connect(l.address);
                probe.register(selector, java.nio.channels.SelectionKey.OP_CONNECT); // its end wakes a sleeping agent
                step(l, now);
            } catch (IOException e) {
                failed(l, "a probe found the agent at " + l.address + " gone: " + e.getMessage());
            }
            return;
        }
    }

    /** Moves {@code l}'s probe on: made, it greets (so the other agent knows it for a probe) and ends. Whether it ended. */
    private boolean step(AgentLink l, long now) {
        if (l.state != AgentLink.State.NEW) {
            end(); // opened again meanwhile: the link itself tells now
            return true;
        }
        try {
            if (!probe.finishConnect()) {
                if (now - since > AgentNetwork.SETUP_NANOS) {
                    failed(l, "a probe found no agent at " + l.address + " within " + AgentNetwork.SETUP_NANOS / 1_000_000_000L + " s");
                    return true;
                }
                return false;
            }
            probe.write(network.hello(AgentLinkHello.PROBE)); // a few bytes into a new connection's empty buffer
            end();
        } catch (IOException e) {
            failed(l, "a probe found the agent at " + l.address + " gone: " + e.getMessage());
        }
        return true;
    }

    /** The probe of {@code l} found its agent gone: so is the link, and every rank behind it. */
    private void failed(AgentLink l, String why) {
        end();
        dormant.remove(l);
        network.broke(l, why);
    }

    /** Ends the probe under way, if any. */
    private void end() {
        if (probe != null) {
            try {
                probe.close();
            } catch (IOException ignored) {
                // closed anyway
            }
            probe = null;
        }
        probing = null;
    }

    /** Closes the probe under way (the agent ends). */
    void close() {
        end();
    }
}
