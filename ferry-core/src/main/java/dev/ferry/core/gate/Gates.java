package dev.ferry.core.gate;

import dev.ferry.core.boot.WireUp;
import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.core.rail.EngineContext;
import dev.ferry.core.rail.Rail;
import dev.ferry.spi.ConnectRequest;
import dev.ferry.spi.DriverProperties;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Status;
import dev.ferry.spi.Transport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's gates, one per rank of the job, made on first use (a peer never contacted costs a
 * slot in an array), and their connections. A gate's rails are chosen
 * by locality (seed 001: self for this rank and, in an in-process job, for ranks of this JVM;
 * the local driver for the node's other ranks, overriding the remote one; the remote driver for
 * the rest); several contexts of one class are several rails (FERRY_RAILS). A gate connects on
 * first use, or when the peer's connection request arrives; a driver that cannot announce
 * requests has its gates connected up front. Only connected gates are {@linkplain #active() active}:
 * the progress pass walks those alone. Where the drivers reconnect, a gate unused for
 * FERRY_IDLE_CLOSE, or the least recently used past FERRY_MAX_CONNECTIONS, is closed by agreement
 * with its peer ({@link CloseHandshake}) and is new again until its next use.
 *
 * <pre>{@code
 * Gates gates = new Gates(engine, wire, contexts, GatePolicy.of(settings));
 * gates.listen();                       // after the engine can take packets
 * Gate g = gates.get(peer); gates.connect(g);
 * }</pre>
 */
public final class Gates {
    private final GateOwner engine;
    private final WireUp wire;
    private final List<EngineContext> contexts;
    private final Gate[] gates;
    private final GatePolicy policy;
    /** Per context, every rank by URL: built only for a driver that does not tell a requesting peer's rank. */
    private final Map<String, Map<ByteBuffer, Integer>> rankByUrl = new HashMap<>();
    private final List<EngineContext> accepting = new ArrayList<>();
    private final ConnectRequest request = new ConnectRequest();
    private volatile Gate[] active = new Gate[0];
    /** Connections opened, closed idle and evicted (by the cap) so far; written by the thread of control. */
    private long opened, closedIdle, evicted;
    /**
     * Gates closed by agreement and not used since, oldest first (some may have reopened: skipped).
     * A peer that dies while no connection is open to it breaks nothing: these are reconnected in
     * turn, one every {@link #PROBE_NANOS} once closed for {@link #DORMANT_NANOS}, so that a peer's
     * death is still heard of by those who may wait for it.
     */
    private final java.util.ArrayDeque<Gate> dormant = new java.util.ArrayDeque<>();
    private long nextProbe;
    static final long PROBE_NANOS = 100_000_000L;
    static final long DORMANT_NANOS = 1_000_000_000L;

    public Gates(GateOwner engine, WireUp wire, List<EngineContext> contexts, GatePolicy policy) {
        this.engine = engine;
        this.wire = wire;
        this.contexts = contexts;
        this.policy = policy;
        this.gates = new Gate[wire.size()];
        this.pool = policy.eagerPool() > 0 ? new EagerPool(policy.eagerPool()) : null;
    }

    /** FERRY_EAGER_POOL: the credits all peers together may be granted; null when each has its own. */
    private final EagerPool pool;

    /** The eager credits granted to peers now (with FERRY_EAGER_POOL; else 0). */
    public long creditsGranted() {
        return pool == null ? 0 : pool.granted();
    }

    /** The engine's driver contexts, as the wire-up opened them, numbered in order. */
    public static List<EngineContext> contexts(WireUp wire) {
        List<EngineContext> contexts = new ArrayList<>();
        for (String name : wire.contextNames()) {
            DiscoveredDriver d = wire.driver(name);
            DriverProperties p = wire.properties(name);
            contexts.add(new EngineContext(contexts.size(), name, d.name(), d.driver().description(), wire.context(name), p.capabilities(), p.profile()));
        }
        return contexts;
    }

    /** Starts taking connection requests; connects up front the gates whose driver cannot announce them. */
    public void listen() {
        int rank = engine.rank();
        for (EngineContext c : contexts) {
            Status s = c.context().acceptProbe(request);
            if (s == Status.NOT_IMPLEMENTED) {
                // The driver cannot tell us that a peer connects: connect its gates up front.
                for (int r = 0; r < gates.length; r++) {
                    Gate g = r == rank ? null : get(r);
                    if (g != null && uses(g, c)) {
                        connect(g);
                    }
                }
            } else {
                accepting.add(c);
                if (s == Status.DONE) {
                    accepted(c, request);
                }
                if (c.caps().transport() == Transport.SELF && "in-process".equals(wire.bootstrap().protocol())) {
                    // Ranks of one process: connected up front, so that a rank's death (Engine.crash) is
                    // heard by all at once, as a process's would be by its node's watchers; cheap in a JVM.
                    for (int r = 0; r < gates.length; r++) {
                        if (r != rank && wire.sameProcess(r) && uses(get(r), c)) {
                            connect(get(r));
                        }
                    }
                }
            }
        }
    }

    /** FERRY_CONNECT=eager: starts connecting to every peer now (set-up then completes as the engine makes progress). */
    public void connectAll() {
        for (int r = 0; r < gates.length; r++) {
            if (r != engine.rank()) {
                connect(get(r));
            }
        }
    }

    private static boolean uses(Gate g, EngineContext c) {
        for (Rail r : g.rails) {
            if (r.ec == c) {
                return true;
            }
        }
        return false;
    }

    /**
     * How {@code peer} is reached, by locality, without reading its URLs: "self", "remote", "same
     * node", or "same process" where a self context would join two ranks of this JVM (a gate made
     * for it falls back to "same node" when self has no URL for the peer).
     */
    private String kindOf(int peer) {
        if (peer == engine.rank()) {
            return "self";
        }
        if (!wire.node(peer).equals(wire.node(engine.rank()))) {
            return "remote";
        }
        boolean self = contexts.stream().anyMatch(c -> c.caps().transport() == Transport.SELF);
        return self && policy.sameProcessBySelf() && wire.sameProcess(peer) ? "same process" : "same node";
    }

    /** Which contexts reach {@code peer}, by locality (seed 001: local overrides remote). */
    private Gate newGate(int peer) {
        String kind = kindOf(peer);
        List<EngineContext> chosen = new ArrayList<>();
        List<DriverUrl> urls = new ArrayList<>();
        if (kind.equals("self")) {
            pick(peer, Transport.SELF, chosen, urls);
        } else {
            if (kind.equals("same process")) {
                // a rank of an in-process job: the self driver joins two contexts of one JVM (with
                // FERRY_SAME_PROCESS=node, or without self, the node's drivers serve these peers)
                pick(peer, Transport.SELF, chosen, urls);
                kind = chosen.isEmpty() ? "same node" : kind;
            }
            if (chosen.isEmpty() && kind.equals("same node")) {
                pick(peer, Transport.LOCAL, chosen, urls);
            }
            if (chosen.isEmpty()) {
                pick(peer, Transport.REMOTE, chosen, urls);
            }
        }
        if (!policy.multirail() && chosen.size() > 1) {
            chosen.subList(1, chosen.size()).clear();
            urls.subList(1, urls.size()).clear();
        }
        return new Gate(engine, peer, kind, chosen, urls, policy, pool);
    }

    private void pick(int peer, Transport t, List<EngineContext> chosen, List<DriverUrl> urls) {
        for (EngineContext c : contexts) {
            DriverUrl u = wire.url(peer, c.name());
            if (c.caps().transport() == t && u != null) {
                chosen.add(c);
                urls.add(u);
            }
        }
    }

    /** The gate to {@code peer}, made now if it was not yet. */
    public Gate get(int peer) {
        Gate g = gates[peer];
        return g != null ? g : make(peer);
    }

    private synchronized Gate make(int peer) {
        Gate g = gates[peer];
        if (g == null) {
            g = newGate(peer);
            g.home = this;
            gates[peer] = g;
        }
        return g;
    }

    /** Every gate, by rank, null where none was made yet (the engine indexes it directly on each send). */
    public Gate[] all() {
        return gates;
    }

    /** Whether the gate to {@code peer} is open now (none is made for the asking). */
    public boolean isOpen(int peer) {
        Gate g = gates[peer];
        return g != null && g.state == Gate.OPEN;
    }

    /** The connected gates, for the progress pass (read without the thread of control by reports). */
    public Gate[] active() {
        return active;
    }

    /** Connects {@code g} on first use; an open gate joins the active ones. */
    public void connect(Gate g) {
        if (g.state != Gate.NEW) {
            return;
        }
        g.connect();
        if (g.state == Gate.OPEN) {
            Gate[] a = active;
            Gate[] b = java.util.Arrays.copyOf(a, a.length + 1);
            b[a.length] = g;
            active = b;
            if (g.rank != engine.rank()) {
                opened++;
                dev.ferry.core.jfr.ConnectionEvent.opened(engine.rank(), g.rank, g.rails.length > 0 ? g.rails[0].ec.name() : "", b.length);
            }
            if (policy.maxConnections() > 0 && g.reconnects) {
                evictBeyondCap(g.rails[0].ec, g);
            }
        }
    }

    /** {@code g} closed by agreement with its peer: no longer active; connected anew at once when {@code again}. */
    void closed(Gate g, int why, boolean again) {
        Gate[] a = active;
        Gate[] b = new Gate[a.length - 1];
        int n = 0;
        for (Gate x : a) {
            if (x != g && n < b.length) {
                b[n++] = x;
            }
        }
        active = b;
        if (why == CloseHandshake.EVICTED) {
            evicted++;
        } else {
            closedIdle++; // also when the peer asked: the connection was idle at both ends
        }
        dev.ferry.core.jfr.ConnectionEvent.closed(engine.rank(), g.rank, why == CloseHandshake.EVICTED ? "evicted" : "idle", g.messagesSent, g.bytesSent);
        if (again) {
            connect(g);
        } else {
            g.idle.idleSince = System.nanoTime(); // closed since
            if (!g.idle.dormant) {
                g.idle.dormant = true;
                dormant.add(g);
            }
        }
    }

    /** Reconnects the gate closed longest ago, when it has been closed long enough: a dead peer fails it. */
    private void probeDormant(long now) {
        Gate g;
        while ((g = dormant.peek()) != null && g.state != Gate.NEW) {
            dormant.poll().idle.dormant = false; // reopened by use, or failed
        }
        if (g == null) {
            return;
        }
        if (now - g.idle.idleSince < DORMANT_NANOS) {
            dormant.add(dormant.poll()); // closed again lately: the others' turn first
            return;
        }
        dormant.poll();
        g.idle.dormant = false;
        engine.logger().log(System.Logger.Level.DEBUG, "rank {0}: reconnects to rank {1}, closed idle for {2} ms, to learn it still lives",
                engine.rank(), g.rank, (now - g.idle.idleSince) / 1_000_000);
        connect(g);
    }

    /** Whether gates are ever closed before the end (FERRY_IDLE_CLOSE or FERRY_MAX_CONNECTIONS). */
    public boolean closesConnections() {
        return policy.idleCloseNanos() > 0 || policy.maxConnections() > 0;
    }

    /**
     * Looks at the connected gates now and then ({@code now} from System.nanoTime): asks to close
     * those unused for FERRY_IDLE_CLOSE, and the least recently used beyond FERRY_MAX_CONNECTIONS.
     */
    public void sweep(long now) {
        long limit = policy.idleCloseNanos();
        for (Gate g : active) {
            CloseHandshake h = g.idle;
            if (g.state != Gate.OPEN || !g.reconnects || h.under()) {
                continue;
            }
            if (h.touched) {
                h.touched = false;
                h.idleSince = now;
            } else if (limit > 0 && now - h.idleSince >= limit && g.canClose()) {
                g.askClose(CloseHandshake.IDLE);
            }
        }
        if (policy.maxConnections() > 0) {
            for (EngineContext c : contexts) {
                evictBeyondCap(c, null);
            }
        }
        if (!dormant.isEmpty() && now - nextProbe >= 0) {
            nextProbe = now + PROBE_NANOS;
            probeDormant(now);
        }
    }

    /**
     * While more reconnecting gates over context {@code c} are open than the cap, asks the least
     * recently used quiet one (not {@code keep}) to close.
     */
    private void evictBeyondCap(EngineContext c, Gate keep) {
        int open = 0;
        for (Gate g : active) {
            if (g.state == Gate.OPEN && g.reconnects && !g.idle.under() && g.rails[0].ec == c) {
                open++;
            }
        }
        int now = engine.passes();
        while (open > policy.maxConnections()) {
            Gate lru = null;
            for (Gate g : active) {
                if (g != keep && g.rails[0].ec == c && g.canClose() && (lru == null || now - g.idle.lastUse > now - lru.idle.lastUse)) {
                    lru = g;
                }
            }
            if (lru == null) {
                return; // every other connection is busy: the next sweep tries again
            }
            lru.askClose(CloseHandshake.EVICTED);
            open--;
        }
    }

    /**
     * Heap of one gate made (its rails, protocols and their tables; its packet buffers are native
     * and counted apart), over shm or tcp: measured by {@code ferry bench scale}, which makes 10,000.
     */
    static final long GATE_HEAP_BYTES = 6_900;

    /**
     * What the gates hold, by kind: the rails' packet buffers (native), the gates made and the
     * peer table (heap). Any thread; a snapshot.
     */
    public void bytesHeld(java.util.function.ObjLongConsumer<String> into) {
        long buffers = 0;
        long made = 0;
        for (Gate g : gates) {
            if (g != null) {
                made++;
                for (Rail r : g.rails) {
                    buffers += 2L * r.packetLimit; // staging and receive buffer
                }
            }
        }
        long table = 16 + 4L * gates.length + wire.bytesHeld();
        synchronized (this) {
            for (Map<ByteBuffer, Integer> m : rankByUrl.values()) {
                table += m.size() * 160L; // an entry, its key and the URL's bytes
            }
        }
        into.accept("engine buffers", buffers);
        into.accept("engine gates", made * GATE_HEAP_BYTES);
        into.accept("engine peer table", table);
    }

    /** Connections open now, and opened, closed idle and evicted so far (read from any thread: a snapshot). */
    public ConnectionCounts connectionCounts() {
        int open = 0;
        for (Gate g : active) {
            if (g.state == Gate.OPEN && g.rank != engine.rank()) {
                open++;
            }
        }
        return new ConnectionCounts(open, opened, closedIdle, evicted);
    }

    /** Takes the peers' connection requests that arrived; true when there was one. */
    public boolean pollAccepts() {
        boolean any = false;
        for (int i = 0; i < accepting.size(); i++) {
            EngineContext c = accepting.get(i);
            while (c.context().acceptProbe(request) == Status.DONE) {
                accepted(c, request);
                any = true;
            }
        }
        return any;
    }

    private void accepted(EngineContext c, ConnectRequest req) {
        DriverUrl url = req.url;
        int claimed = req.rank;
        req.rank = -1;
        Integer peer;
        if (claimed >= 0 && claimed < gates.length && claimed != engine.rank() && url.equals(knownUrl(claimed, c))) {
            peer = claimed; // the URL names its rank: one look-up of that rank's URL to check it
        } else {
            Map<ByteBuffer, Integer> all = null;
            if (!engine.closing()) { // a closing rank reads no URL (WireUp.freeze)
                synchronized (this) {
                    all = rankByUrl.computeIfAbsent(c.name(), this::everyRankByUrl);
                }
            }
            peer = all == null ? null : all.get(ByteBuffer.wrap(url.encoded()));
        }
        if (peer == null) {
            engine.logger().log(engine.closing() ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING,
                    "rank {0}: a connection request on {1} from {2}, which is no rank of this job{3}",
                    engine.rank(), c.name(), url, engine.closing() ? " that this closing rank knows" : "");
            return;
        }
        Gate g = get(peer);
        if (g.state == Gate.OPEN && g.idle.under()) {
            g.idle.reconnectWanted = true; // the peer closed its end and connects anew: so do we, once closed
        } else {
            connect(g);
        }
    }

    /** The URL of {@code peer}'s context {@code c}: its gate's, when it has one, else read now. */
    private DriverUrl knownUrl(int peer, EngineContext c) {
        Gate g = gates[peer];
        if (g != null) {
            for (Rail r : g.rails) {
                if (r.ec == c) {
                    return g.urls[r.index];
                }
            }
        }
        return wire.url(peer, c.name());
    }

    /** Every rank's URL on {@code context}, read once, for a driver whose requests do not name the rank. */
    private Map<ByteBuffer, Integer> everyRankByUrl(String context) {
        Map<ByteBuffer, Integer> m = new HashMap<>();
        for (int r = 0; r < gates.length; r++) {
            DriverUrl u = wire.url(r, context);
            if (u != null && r != engine.rank()) {
                m.put(ByteBuffer.wrap(u.encoded()), r);
            }
        }
        return m;
    }

    /** Nothing is waiting to leave or in flight on any open gate. */
    public boolean quiet() {
        for (Gate g : active) {
            if (g.state == Gate.OPEN && !g.quiet()) {
                return false;
            }
        }
        return true;
    }

    /** At close: each open gate that sent waits until its peer took its connections up. */
    public void awaitTakenUp() {
        for (Gate g : active) {
            if (g.state == Gate.OPEN && g.sentAny) {
                g.awaitTakenUp();
            }
        }
    }

    /** At close: disconnects every gate. */
    public void closeAll() {
        for (Gate g : gates) {
            if (g != null) {
                g.close();
            }
        }
    }

    /** The state of every connected gate, one per line (a snapshot that may be a moment old). */
    public void stateReport(StringBuilder b) {
        for (Gate g : active) {
            b.append("\n  gate to ").append(g.stateReport());
        }
    }

    /** The names of the contexts (rails) the gate to {@code peer} uses, in order. */
    /** How {@code peer} is reached: "self", "same process", "same node" or "remote". */
    public String kind(int peer) {
        return get(peer).kind;
    }

    public List<String> rails(int peer) {
        List<String> l = new ArrayList<>();
        for (Rail r : get(peer).rails) {
            l.add(r.ec.name());
        }
        return l;
    }

    /**
     * One block per kind of peer (self, same node, remote), in the order the kinds first appear:
     * the rails of its gates and their protocol table, read from one gate of the kind (gates of a
     * kind are built alike), like UCX_PROTO_INFO.
     *
     * <pre>{@code
     *   same node (1 peer): rails shm
     *       0 .. 8144 B:           eager           in the packet; ...
     *       8145 .. 1073741824 B:  rendezvous-pull RTS with shm's pull data; ...
     * }</pre>
     */
    public String byKindOfPeer() {
        StringBuilder b = new StringBuilder();
        Map<String, List<Integer>> byKind = new LinkedHashMap<>();
        for (int r = 0; r < gates.length; r++) {
            Gate made = gates[r];
            byKind.computeIfAbsent(made != null ? made.kind : kindOf(r), k -> new ArrayList<>()).add(r);
        }
        for (Map.Entry<String, List<Integer>> e : byKind.entrySet()) {
            Gate g = get(e.getValue().get(0)); // one gate of the kind, made if need be
            int peers = e.getValue().size();
            b.append(String.format("  %-9s (%d peer%s): ", e.getKey(), peers, peers == 1 ? "" : "s"));
            if (g.rails.length == 0) {
                b.append("unreachable: no selected driver\n");
                continue;
            }
            b.append("rails ");
            for (Rail r : g.rails) {
                b.append(r.index == 0 ? "" : ", ").append(r.ec.name());
            }
            b.append('\n').append(g.table.describe("      "));
        }
        return b.toString();
    }
}
