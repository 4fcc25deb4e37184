package dev.ferry.core.agent;

import dev.ferry.core.wire.WireHeader;
import dev.ferry.spi.IdleStrategy;
import org.agrona.collections.Int2ObjectHashMap;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An agent's side of the network: it listens for the other nodes' agents and holds exactly one
 * link to each ({@link AgentLinkHello} says who dials), opened when a rank first sends there. It
 * routes the ranks' records by the rank they go to, writes them from the sending rank's ring
 * straight to the link and reads arriving ones straight into the receiving rank's ring. A link
 * that breaks makes every rank behind it GONE to the node's ranks. A link idle for the idle-close
 * time, or the least recently used one when a new link would pass the cap, is closed in order
 * (a CLOSE handshake: one side asks when it has nothing half written or queued, the other agrees
 * when it has not either, or refuses), and opened again when a rank next sends there. Used from
 * the agent's loop alone.
 */
final class AgentNetwork implements AutoCloseable, LinkProbes.Network {
    private static final System.Logger LOG = System.getLogger(AgentNetwork.class.getName());
    /** How long a dial, a greeting, or a wait to be called may take. */
    static final long SETUP_NANOS = 10_000_000_000L;
    /** How often the links are looked at for closing. */
    private static final long SWEEP_NANOS = 10_000_000L;
    /** How often a busy agent looks for other agents' calls (a sleeping one is woken by them). */
    private static final long ACCEPT_NANOS = 1_000_000L;
    /** When the listener was last looked at; whether the next pass looks at it (the agent slept). */
    private long lastAcceptLook;
    private boolean acceptDue = true;

    /** What the network needs of the agent's ranks. */
    interface Locals {
        /** The IN ring of the node's rank {@code rank}, or null when no such rank is here. */
        ByteRing inRing(int rank);

        /** Tells the node's rank {@code to} (every rank of the node: -1) that {@code rank} is gone. */
        void gone(int to, int rank);

        /** The node's rank {@code rank} as pulls see it, or null when no such rank is here. */
        AgentPulls.Party party(int rank);

        /** Whether any rank of the node is attached here (someone to tell of a link that broke). */
        boolean anyAttached();

        /**
         * {@code packet} came for the node's rank {@code to} from {@code from}, behind no message
         * for the rank to parse: true when an offload served it ({@link AgentOffloads#take}), with
         * {@code record} then holding its answer's record for {@code from}, or nothing.
         */
        boolean offloaded(int to, int from, java.lang.foreign.MemorySegment packet, ByteBuffer record);
    }

    /** SHA-256 of the job key; null until an agent started without one is keyed by its first rank. */
    private byte[] keyHash;
    private final ServerSocketChannel listener;
    private final String address;
    private final Locals locals;
    private final Map<String, AgentLink> links = new HashMap<>();
    private final List<AgentLink> open = new ArrayList<>();
    /** Links that asked to be called and wait for the call (bounded by {@link #SETUP_NANOS}). */
    private final List<AgentLink> awaiting = new ArrayList<>();
    private final Int2ObjectHashMap<AgentLink> routes = new Int2ObjectHashMap<>();
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(64 * 1024);
    /** Close a link idle this long (0: never), and keep at most this many open (0: any number). */
    private final long idleCloseNanos;
    private final int maxLinks;
    /** The time at the start of this pass; when the links were last looked at for closing. */
    private long now = System.nanoTime(), lastSweep;
    /** Links closed for being idle, and for the cap. */
    private long closedIdle, evicted;

    /** Where the listener and the open links are registered: their calls and data wake a sleeping agent. */
    private final java.nio.channels.Selector selector;
    /** The probes of links closed in order. */
    private final LinkProbes probes;

    AgentNetwork(String jobKey, InetAddress bind, long idleCloseNanos, int maxLinks, Locals locals, java.nio.channels.Selector selector) {
        if (idleCloseNanos < 0 || maxLinks < 0) {
            throw new IllegalArgumentException("link idle close " + idleCloseNanos + " ns and cap " + maxLinks + " must not be negative");
        }
        this.idleCloseNanos = idleCloseNanos;
        this.maxLinks = maxLinks;
        this.keyHash = jobKey == null ? null : hash(jobKey);
        this.locals = locals;
        this.selector = selector;
        this.probes = new LinkProbes(this, selector);
        try {
            listener = ServerSocketChannel.open();
            listener.bind(new InetSocketAddress(bind != null ? bind : defaultAddress(), 0), 64);
            listener.configureBlocking(false);
            listener.register(selector, java.nio.channels.SelectionKey.OP_ACCEPT);
            InetSocketAddress a = (InetSocketAddress) listener.getLocalAddress();
            address = a.getAddress().getHostAddress() + ":" + a.getPort();
        } catch (IOException e) {
            throw new AgentException("the agent cannot listen for other nodes' agents: " + e.getMessage());
        }
    }

    /** The node's first address up that is not loopback (IPv4), else loopback: what other nodes reach. */
    static InetAddress defaultAddress() {
        return railAddress(0);
    }

    /**
     * The address rail {@code rail} listens on: the first IPv4 address of the node's
     * {@code rail}-th interface up that is not loopback (in the order the JDK lists them), counting
     * round when the node has fewer; loopback on a node with none.
     */
    static InetAddress railAddress(int rail) {
        List<InetAddress> nics = new ArrayList<>();
        try {
            for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (nif.isUp() && !nif.isLoopback()) {
                    Collections.list(nif.getInetAddresses()).stream().filter(a -> a instanceof Inet4Address).findFirst().ifPresent(nics::add);
                }
            }
        } catch (IOException e) {
            // loopback then
        }
        return nics.isEmpty() ? InetAddress.getLoopbackAddress() : nics.get(rail % nics.size());
    }

    private static byte[] hash(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The job's key, learnt from the first rank (no link opens before a rank attached: none is routed). */
    void key(String jobKey) {
        keyHash = hash(jobKey);
    }

    /**
     * The job this network served has ended here (an agent serving one job at a time): its links
     * are closed and forgotten, with its routes, probes and key; the next job's first rank keys it.
     */
    void forgetJob() {
        probes.clear();
        for (AgentLink l : links.values()) {
            if (l.channel != null) {
                closeQuietly(l.channel);
            }
            if (l.nextChannel != null) {
                closeQuietly(l.nextChannel);
            }
        }
        links.clear();
        open.clear();
        awaiting.clear();
        routes.clear();
        keyHash = null;
    }

    @Override
    public boolean anyAttached() {
        return locals.anyAttached();
    }

    /** Where other agents reach this one: "host:port". */
    String address() {
        return address;
    }

    /** Links open now. */
    int openLinks() {
        return open.size();
    }

    /** Probes of links closed in order started so far. */
    long probes() {
        return probes.started();
    }

    /** Links closed in order for being idle, and for the cap, so far. */
    long closedIdle() {
        return closedIdle;
    }

    long evicted() {
        return evicted;
    }

    /** Routes {@code rank} to the agent at {@code remote} (a rank of the job on that node). */
    void route(int rank, String remote) {
        AgentLink l = links.computeIfAbsent(remote, AgentLink::new);
        routes.put(rank, l);
        l.ranks.add(rank);
    }

    /** The link {@code rank} is routed over, or null. */
    AgentLink linkOf(int rank) {
        return routes.get(rank);
    }

    /**
     * Writes record {@code record} of {@code ring} (a rank's OUT ring, its origin set) to
     * {@code link}: true once all of it is written (the caller releases it), false while the link
     * is not open yet, busy with another rank's record, or full. A link that cannot open
     * throws, and the caller tells the rank.
     */
    boolean send(AgentLink link, int from, ByteRing ring, ByteBuffer view, long record) {
        if (link.state != AgentLink.State.OPEN) {
            open(link);
            if (link.state != AgentLink.State.OPEN) {
                if (link.state == AgentLink.State.BROKEN) {
                    throw new AgentException(AgentError.UNREACHABLE, link.toString());
                }
                return false;
            }
        }
        if (link.writingFor != -1 && link.writingFor != from) {
            return false;
        }
        if (link.writingFor == -1) {
            if (!flushControl(link)) {
                return false;
            }
            int len = (int) ChannelLayout.REC_HEADER + ring.length(record);
            view.limit((int) record + len).position((int) record);
            link.writingFor = from;
        }
        try {
            int n = link.channel.write(view);
            link.bytesOut += n;
            link.lastActive = now;
        } catch (IOException e) {
            broke(link, e.getMessage());
            throw new AgentException(AgentError.UNREACHABLE, link.toString());
        }
        if (view.hasRemaining()) {
            return false;
        }
        link.writingFor = -1;
        link.recordsOut++;
        return true;
    }

    /**
     * Says to every other node this agent has linked with that {@code rank} (of this node) is
     * gone: on open links at once, and a link closed in order is opened again to say it (its
     * ranks may wait for that rank with nothing to send).
     */
    void sayGone(int rank) {
        for (AgentLink l : links.values()) {
            if (l.state == AgentLink.State.OPEN || l.state == AgentLink.State.CLOSING) {
                sayGone(l, -1, rank);
            } else if (l.state == AgentLink.State.NEW && !l.ranks.isEmpty()) {
                sayGone(l, -1, rank);
                open(l);
            }
        }
    }

    /** Says on {@code l} that {@code rank} is gone: to the rank {@code to} of the other node, or to all (-1). */
    private void sayGone(AgentLink l, int to, int rank) {
        ByteBuffer b = l.spare().clear().limit((int) ChannelLayout.REC_HEADER);
        b.putInt((int) ChannelLayout.REC_LENGTH, 0).putInt((int) ChannelLayout.REC_PEER, to).putInt((int) ChannelLayout.REC_KIND, ChannelLayout.GONE)
                .putInt((int) ChannelLayout.REC_ORIGIN, rank).putLong((int) ChannelLayout.REC_MORE, 0);
        l.queueSpare();
        if (l.writingFor == -1 && l.state == AgentLink.State.OPEN) {
            flushControl(l);
        }
    }

    private boolean flushControl(AgentLink l) {
        try {
            while (!l.control.isEmpty()) {
                ByteBuffer b = l.control.peek();
                l.channel.write(b);
                if (b.hasRemaining()) {
                    return false;
                }
                l.written(l.control.poll());
            }
            return true;
        } catch (IOException e) {
            broke(l, e.getMessage());
            return false;
        }
    }

    /** Bytes read from the open links so far. */
    long bytesIn() {
        long n = 0;
        for (AgentLink l : open) {
            n += l.bytesIn;
        }
        return n;
    }

    /**
     * Whether the network has nothing to do until something comes: no link half read, half
     * written, queued, being set up or closed, no call awaited. Only then may the agent sleep
     * ({@link AgentBell}): what comes then wakes it.
     */
    boolean quiet() {
        if (!awaiting.isEmpty()) {
            return false;
        }
        for (int i = 0; i < open.size(); i++) { // a closing link is open until it has closed; one not open has nothing queued
            AgentLink l = open.get(i);
            if (l.state != AgentLink.State.OPEN || !quiescent(l)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Nanoseconds from {@code t} until this network has something to do by the clock (an idle
     * link to close), however quiet: how long the agent may sleep. {@code Long.MAX_VALUE} when
     * nothing is timed.
     */
    long untilTimer(long t) {
        long probeDue = probes.untilDue(t);
        if (idleCloseNanos == 0) {
            return probeDue;
        }
        long first = Long.MAX_VALUE;
        for (int i = 0; i < open.size(); i++) {
            AgentLink l = open.get(i);
            if (l.state == AgentLink.State.OPEN) {
                first = Math.min(first, l.lastActive + idleCloseNanos);
            }
        }
        // the sweep looks at most once in SWEEP_NANOS
        return Math.min(probeDue, first == Long.MAX_VALUE ? first : Math.max(first, lastSweep + SWEEP_NANOS) - t);
    }

    /** The next {@link #poll} looks for other agents' calls: the agent slept, and a call may have woken it. */
    void acceptDue() {
        acceptDue = true;
    }

    /** Accepts other agents' calls and reads what came on every open link. Whether anything happened. */
    boolean poll() {
        now = System.nanoTime();
        boolean work = false;
        if (acceptDue || now - lastAcceptLook > ACCEPT_NANOS) { // an accept is a system call: not on every pass
            acceptDue = false;
            lastAcceptLook = now;
            work = accept();
        }
        for (int i = open.size() - 1; i >= 0; i--) {
            AgentLink l = open.get(i);
            work |= read(l);
            if (l.writingFor == -1 && !l.control.isEmpty() && l.state == AgentLink.State.OPEN) {
                flushControl(l);
            }
            if (l.state == AgentLink.State.OPEN) {
                work |= writeOwn(l);
            }
        }
        if ((idleCloseNanos > 0 || maxLinks > 0) && now - lastSweep > SWEEP_NANOS) {
            lastSweep = now;
            sweep();
        }
        work |= probes.step(now);
        for (int i = awaiting.size() - 1; i >= 0; i--) {
            AgentLink l = awaiting.get(i);
            if (l.state != AgentLink.State.AWAITING_CALL) {
                awaiting.remove(i);
            } else if (System.nanoTime() - l.awaitingSince > SETUP_NANOS) {
                awaiting.remove(i);
                broke(l, "the agent at " + l.address + " did not call back within " + SETUP_NANOS / 1_000_000_000L + " s");
            }
        }
        return work;
    }

    private boolean accept() {
        boolean any = false;
        while (true) {
            SocketChannel c;
            try {
                c = listener.accept();
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "agent: accepting another agent failed: {0}", e.toString());
                return any;
            }
            if (c == null) {
                return any;
            }
            any = true;
            try {
                greeted(c);
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "agent: a call from another agent failed: {0}", e.toString());
                closeQuietly(c);
            }
        }
    }

    /** Reads a dialing agent's greeting and answers it. */
    private void greeted(SocketChannel c) throws IOException {
        c.configureBlocking(false);
        long end = System.nanoTime() + SETUP_NANOS;
        ByteBuffer h = readFully(c, AgentLinkHello.ADDRESS, end);
        int len = h.getInt(AgentLinkHello.ADDRESS_LENGTH);
        if (h.getInt(AgentLinkHello.MAGIC_AT) != AgentLinkHello.MAGIC || len <= 0 || len > AgentLinkHello.MAX_ADDRESS) {
            throw new IOException("a malformed greeting");
        }
        String remote = StandardCharsets.UTF_8.decode(readFully(c, len, end)).toString();
        byte[] theirs = new byte[AgentLinkHello.KEY_HASH_BYTES];
        h.get(AgentLinkHello.KEY_HASH, theirs);
        boolean ok = keyHash != null && MessageDigest.isEqual(theirs, keyHash);
        if ((h.getInt(AgentLinkHello.FLAGS) & AgentLinkHello.PROBE) != 0) {
            closeQuietly(c); // listening was the answer
            return;
        }
        if ((h.getInt(AgentLinkHello.FLAGS) & AgentLinkHello.CALL_ME) != 0) {
            // no answer: the caller does not wait for one (it may be this agent's own dial's peer, busy answering it)
            closeQuietly(c);
            if (!ok) {
                LOG.log(System.Logger.Level.WARNING, "agent: refused to call back the agent at {0}: another job (its key differs)", remote);
                return;
            }
            AgentLink l = links.computeIfAbsent(remote, AgentLink::new);
            if (l.state == AgentLink.State.CLOSING) {
                // it agreed to close and wants the link again: what it wrote before agreeing is still to be
                // read from the old connection, so the call back waits until that one has ended
                l.callBack = true;
                return;
            }
            if (l.state != AgentLink.State.OPEN) {
                l.state = AgentLink.State.NEW;
                open(l); // this agent's address sorts first: it dials
            }
            return;
        }
        ByteBuffer answer = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, ok ? AgentLinkHello.OK : AgentLinkHello.WRONG_JOB);
        writeFully(c, answer, end);
        if (!ok) {
            LOG.log(System.Logger.Level.WARNING, "agent: refused the agent at {0}: another job (its key differs)", remote);
            closeQuietly(c);
            return;
        }
        AgentLink l = links.computeIfAbsent(remote, AgentLink::new);
        if (l.state == AgentLink.State.CLOSING) {
            // it agreed, closed, and calls again: the new call waits until the old connection is read to its end
            if (l.nextChannel != null) {
                closeQuietly(l.nextChannel);
            }
            l.nextChannel = c;
            return;
        } else if (l.state == AgentLink.State.OPEN) { // the other side lost the old one: the new one replaces it
            broke(l, "replaced by a new call");
        }
        use(l, c);
    }

    /** Opens a NEW link: dials when this agent's address sorts first, else asks the other to dial. */
    private void open(AgentLink l) {
        if (l.state != AgentLink.State.NEW) {
            return;
        }
        boolean dial = address.compareTo(l.address) < 0;
        SocketChannel c = null;
        try {
            long end = System.nanoTime() + SETUP_NANOS;
            c = dial(l.address, end);
            writeFully(c, hello(dial ? 0 : AgentLinkHello.CALL_ME), end);
            if (!dial) {
                // asks to be called, and waits for the call, not for an answer: the other may be waiting
                // for this agent's answer to its own dial, and neither loop would come round to answer
                closeQuietly(c);
                l.state = AgentLink.State.AWAITING_CALL;
                l.awaitingSince = System.nanoTime();
                awaiting.add(l);
                return;
            }
            int status = readFully(c, 4, end).getInt(0);
            if (status != AgentLinkHello.OK) {
                closeQuietly(c);
                broke(l, "the agent at " + l.address + " serves another job");
                return;
            }
            use(l, c);
        } catch (IOException | RuntimeException e) {
            if (c != null) {
                closeQuietly(c);
            }
            broke(l, "cannot reach the agent at " + l.address + ": " + e.getMessage());
        }
    }

    /** This agent's greeting to another, with {@code flags}. */
    @Override
    public ByteBuffer hello(int flags) {
        byte[] me = address.getBytes(StandardCharsets.UTF_8);
        ByteBuffer h = ByteBuffer.allocate(AgentLinkHello.ADDRESS + me.length).order(ByteOrder.LITTLE_ENDIAN);
        return h.putInt(AgentLinkHello.MAGIC_AT, AgentLinkHello.MAGIC).putInt(AgentLinkHello.FLAGS, flags)
                .put(AgentLinkHello.KEY_HASH, keyHash).putInt(AgentLinkHello.ADDRESS_LENGTH, me.length).put(AgentLinkHello.ADDRESS, me);
    }

    /** A connection to {@code address} begun, not waited for. */
    static SocketChannel connect(String address) throws IOException {
        int colon = address.lastIndexOf(':');
        SocketChannel c = SocketChannel.open();
        try {
            c.configureBlocking(false);
            c.connect(new InetSocketAddress(InetAddress.getByName(address.substring(0, colon)), Integer.parseInt(address.substring(colon + 1))));
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    private static SocketChannel dial(String address, long end) throws IOException {
        SocketChannel c = connect(address);
        long start = System.nanoTime();
        while (!c.finishConnect()) {
            long now = System.nanoTime();
            if (now > end) {
                c.close();
                throw new IOException("no answer within " + SETUP_NANOS / 1_000_000_000L + " s");
            }
            IdleStrategy.DEFAULT.idle(now - start, end - now);
        }
        return c;
    }

    private void use(AgentLink l, SocketChannel c) throws IOException {
        c.setOption(StandardSocketOptions.TCP_NODELAY, true);
        c.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
        c.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
        c.register(selector, java.nio.channels.SelectionKey.OP_READ);
        l.channel = c;
        l.state = AgentLink.State.OPEN;
        l.header.clear();
        l.readingPayload = false;
        l.writingFor = -1;
        l.lastActive = System.nanoTime();
        open.add(l);
        LOG.log(System.Logger.Level.DEBUG, "agent: linked to the agent at {0}", l.address);
        if (maxLinks > 0 && open.size() > maxLinks) {
            evictOne(l);
        }
        if (l.writingFor == -1 && !l.control.isEmpty()) {
            flushControl(l); // what waited for the link to open again
        }
    }

    // ---- closing in order: idle, or over the cap ------------------------------------------------

    /** Whether {@code l} has nothing half written, half read or queued on this side. */
    private static boolean quiescent(AgentLink l) {
        return l.writingFor == -1 && l.control.isEmpty() && l.serves.isEmpty() && l.refusals.isEmpty() && !l.readingPayload
                && l.header.position() == 0;
    }

    /** Asks idle links to close; closes links whose ask got no answer within the setup bound. */
    private void sweep() {
        for (int i = open.size() - 1; i >= 0; i--) {
            AgentLink l = open.get(i);
            if (l.state == AgentLink.State.CLOSING && now - l.closingSince > SETUP_NANOS) {
                closed(l); // no answer: the other side lost it; closed all the same
            } else if (idleCloseNanos > 0 && l.state == AgentLink.State.OPEN && now - l.lastActive > idleCloseNanos && quiescent(l)) {
                if (ask(l)) {
                    closedIdle++;
                }
            }
        }
    }

    /** Asks the least recently used quiescent link other than {@code keep} to close: the cap is passed. */
    private void evictOne(AgentLink keep) {
        AgentLink victim = null;
        for (AgentLink l : open) {
            if (l != keep && l.state == AgentLink.State.OPEN && quiescent(l) && (victim == null || l.lastActive < victim.lastActive)) {
                victim = l;
            }
        }
        if (victim != null && ask(victim)) { // none quiescent now: over the cap until one is
            evicted++;
        }
    }

    /** Sends CLOSE_ASK on a quiescent link; from now on nothing else is written on it. Whether it was sent. */
    private boolean ask(AgentLink l) {
        if (!handshake(l, ChannelLayout.CLOSE_ASK)) {
            return false;
        }
        l.state = AgentLink.State.CLOSING;
        l.closingSince = now;
        return true;
    }

    /** Writes a handshake step on a link with nothing half written (a few bytes: the bound is a formality). */
    private boolean handshake(AgentLink l, int step) {
        try {
            writeFully(l.channel, closeRecord(step), System.nanoTime() + SETUP_NANOS);
            return true;
        } catch (IOException e) {
            broke(l, e.getMessage());
            return false;
        }
    }

    private static ByteBuffer closeRecord(int step) {
        ByteBuffer b = ByteBuffer.allocate((int) ChannelLayout.REC_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt((int) ChannelLayout.REC_LENGTH, 0).putInt((int) ChannelLayout.REC_PEER, step).putInt((int) ChannelLayout.REC_KIND, ChannelLayout.CLOSE)
                .putInt((int) ChannelLayout.REC_ORIGIN, -1).putLong((int) ChannelLayout.REC_MORE, 0);
        return b;
    }

    /** A CLOSE record came on {@code l}. */
    private void closeStep(AgentLink l, int step) {
        switch (step) {
            case ChannelLayout.CLOSE_ASK -> {
                if (l.state == AgentLink.State.CLOSING) {
                    closed(l); // both asked: each closes, neither writes again
                } else if (quiescent(l)) {
                    if (handshake(l, ChannelLayout.CLOSE_AGREE)) {
                        closed(l);
                    }
                } else { // between records, once the one half written is done
                    l.spare().clear().put(closeRecord(ChannelLayout.CLOSE_REFUSE)).flip();
                    l.queueSpare();
                }
            }
            case ChannelLayout.CLOSE_AGREE -> {
                if (l.state == AgentLink.State.CLOSING) {
                    closed(l);
                }
            }
            case ChannelLayout.CLOSE_REFUSE -> {
                if (l.state == AgentLink.State.CLOSING) {
                    l.state = AgentLink.State.OPEN;
                    l.lastActive = now;
                }
            }
            default -> broke(l, "a close record of step " + step + " from the agent at " + l.address);
        }
    }

    /**
     * Closes {@code l} in order: not broken, its ranks not gone; a rank's next record there opens
     * it again. What this side still has to send on it (pull data asked for before the close)
     * opens it again at once.
     */
    private void closed(AgentLink l) {
        closeQuietly(l.channel);
        open.remove(l);
        l.state = AgentLink.State.NEW;
        l.channel = null;
        l.header.clear();
        l.readingPayload = false;
        dropPartial(l);
        l.readView = null;
        l.writingFor = -1;
        l.closedAt = now;
        probes.closed(l);
        LOG.log(System.Logger.Level.DEBUG, "agent: closed the link to {0} in order", l.address);
        SocketChannel next = l.nextChannel;
        l.nextChannel = null;
        boolean callBack = l.callBack;
        l.callBack = false;
        if (next != null) { // the other called again while this side closed: its call is the link now
            try {
                use(l, next);
            } catch (IOException e) {
                closeQuietly(next);
                broke(l, "the new call from " + l.address + " failed: " + e.getMessage());
            }
        } else if (callBack || !l.serves.isEmpty() || !l.refusals.isEmpty() || !l.control.isEmpty()) {
            open(l);
        }
    }

    /** Reads what arrived on {@code l}: records go straight into the receiving ranks' rings. */
    private boolean read(AgentLink l) {
        boolean any = false;
        l.reading = true;
        try {
            for (int records = 0; records < 64 && (l.state == AgentLink.State.OPEN || l.state == AgentLink.State.CLOSING); records++) {
                if (!l.readingPayload) {
                    int n = l.channel.read(l.header);
                    if (n < 0) {
                        if (l.state == AgentLink.State.CLOSING && l.header.position() == 0) {
                            closed(l); // it agreed and closed before its answer was read
                        } else {
                            broke(l, "the agent at " + l.address + " hung up");
                        }
                        return true;
                    }
                    l.bytesIn += Math.max(0, n);
                    if (n > 0) {
                        l.lastActive = now;
                    }
                    any |= n > 0;
                    if (l.header.hasRemaining()) {
                        return any;
                    }
                    if (!startRecord(l)) {
                        return any; // the receiving rank's ring is full: read on later
                    }
                }
                while (l.payloadLeft > 0) {
                    ByteBuffer into = l.readView != null ? l.readView : scratch.clear().limit((int) Math.min(scratch.capacity(), l.payloadLeft));
                    int n = l.channel.read(into);
                    if (n < 0) {
                        broke(l, "the agent at " + l.address + " hung up");
                        return true;
                    }
                    l.bytesIn += n;
                    l.payloadLeft -= n;
                    any |= n > 0;
                    if (l.pullHead && l.payloadLeft > 0 && !into.hasRemaining()) {
                        pullBody(l); // the data header is in: read the bytes where they go
                        continue;
                    }
                    if (l.payloadLeft > 0) {
                        return any;
                    }
                }
                endRecord(l);
            }
        } catch (IOException e) {
            if (l.state == AgentLink.State.CLOSING && !l.readingPayload && l.header.position() == 0) {
                closed(l);
            } else {
                broke(l, e.getMessage());
            }
        } finally {
            l.reading = false;
        }
        return any;
    }

    /**
     * A header has come: claims room for its payload in the receiving rank's ring. False: no room
     * yet, or another link's record is still coming into that ring (its bytes may come in pieces,
     * over several passes).
     */
    private boolean startRecord(AgentLink l) {
        ByteBuffer h = l.header;
        int length = h.getInt((int) ChannelLayout.REC_LENGTH), peer = h.getInt((int) ChannelLayout.REC_PEER),
                kind = h.getInt((int) ChannelLayout.REC_KIND), origin = h.getInt((int) ChannelLayout.REC_ORIGIN);
        if (length < 0 || kind < ChannelLayout.PACKET || kind > ChannelLayout.CLOSE || kind == ChannelLayout.PAD
                || kind == ChannelLayout.CLOSE && length != 0) {
            broke(l, "a malformed record from the agent at " + l.address + " (kind " + kind + ", " + length + " bytes)");
            return false;
        }
        if (kind == ChannelLayout.GONE || kind == ChannelLayout.CLOSE) {
            l.readInto = null;
            l.readView = null;
            l.payloadLeft = length;
            l.readingPayload = true;
            return true;
        }
        l.ranks.add(origin);
        if (kind == ChannelLayout.PULL || kind == ChannelLayout.PULL_DATA) { // the agent's to handle: read where it can
            if (kind == ChannelLayout.PULL ? length != ChannelLayout.PULL_REQUEST_BYTES
                    : length < ChannelLayout.PULL_DATA_HEADER || length > ChannelLayout.PULL_DATA_HEADER + AgentPulls.CHUNK) {
                broke(l, "a malformed pull record from the agent at " + l.address + " (kind " + kind + ", " + length + " bytes)");
                return false;
            }
            if (l.incoming == null) {
                ByteBuffer b = ByteBuffer.allocateDirect(ChannelLayout.PULL_DATA_HEADER + AgentPulls.CHUNK).order(ByteOrder.LITTLE_ENDIAN);
                l.incomingView = b;
                l.incoming = java.lang.foreign.MemorySegment.ofBuffer(b);
            }
            l.readInto = null;
            // PULL_DATA: its data header first, which says where its bytes go (pullBody)
            l.pullHead = kind == ChannelLayout.PULL_DATA && length > ChannelLayout.PULL_DATA_HEADER;
            l.landing = false;
            l.readView = l.incomingView.clear().limit(l.pullHead ? ChannelLayout.PULL_DATA_HEADER : length);
            l.payloadLeft = length;
            l.readingPayload = true;
            return true;
        }
        ByteRing in = locals.inRing(peer);
        l.payloadLeft = length;
        l.readingPayload = true;
        if (in == null) { // the rank has gone (or never was here): its records are dropped, and the sender told
            l.readInto = null;
            l.readView = null;
            if (kind == ChannelLayout.HELLO) {
                sayGone(l, origin, peer);
            }
            return true;
        }
        if (length > in.maxPayload()) {
            broke(l, "a record of " + length + " bytes from the agent at " + l.address + " (at most " + in.maxPayload() + ")");
            return false;
        }
        boolean matchedAhead = in.matchedAhead(); // before the claim: the rank has parsed all that came before this, but what the agent matched
        // a record another link is still reading into the ring holds it: one claim, one view at a time
        long at = in.claimed() ? -1 : in.claim(length);
        if (at < 0) {
            l.readingPayload = false;
            return false;
        }
        l.matchable = matchedAhead && kind == ChannelLayout.PACKET && length >= AgentMatch.TAKEN_BYTES;
        l.readAt = at;
        l.readInto = in;
        l.readView = view(in).limit((int) (at + length)).position((int) at);
        return true;
    }

    private void endRecord(AgentLink l) {
        ByteBuffer h = l.header;
        int length = h.getInt((int) ChannelLayout.REC_LENGTH), kind = h.getInt((int) ChannelLayout.REC_KIND), origin = h.getInt((int) ChannelLayout.REC_ORIGIN);
        if (kind == ChannelLayout.GONE) {
            l.ranks.remove(origin);
            locals.gone(h.getInt((int) ChannelLayout.REC_PEER), origin);
        } else if (kind == ChannelLayout.CLOSE) {
            int step = h.getInt((int) ChannelLayout.REC_PEER);
            l.readingPayload = false;
            h.clear();
            l.recordsIn++;
            closeStep(l, step);
            return;
        } else if (kind == ChannelLayout.PULL) {
            pullAsked(l, h.getInt((int) ChannelLayout.REC_PEER), origin, l.incoming.asSlice(0, length));
        } else if (kind == ChannelLayout.PULL_DATA) {
            AgentPulls.Party to = locals.party(h.getInt((int) ChannelLayout.REC_PEER));
            if (to != null && l.landing) {
                AgentPulls.landed(to, h.getLong((int) ChannelLayout.REC_MORE), l.incoming.asSlice(0, ChannelLayout.PULL_DATA_HEADER),
                        length - ChannelLayout.PULL_DATA_HEADER);
            } else if (to != null) {
                AgentPulls.arrived(to, origin, h.getLong((int) ChannelLayout.REC_MORE), l.incoming.asSlice(0, length));
            }
            l.landing = false;
        } else if (l.readInto != null) {
            long more = h.getLong((int) ChannelLayout.REC_MORE);
            if (!l.matchable || more != 0 || !matched(l, h.getInt((int) ChannelLayout.REC_PEER), origin, length)) {
                l.readInto.commit(origin, origin, kind, more, length);
            }
        }
        l.recordsIn++;
        l.readInto = null;
        l.readView = null;
        l.readingPayload = false;
        h.clear();
    }

    /**
     * A PULL_DATA record's data header is in: its bytes are read straight into the pulling
     * rank's memory where the agent mapped it and the header names a pull that holds them, else
     * behind the header, for {@link AgentPulls#arrived}.
     */
    private void pullBody(AgentLink l) {
        ByteBuffer h = l.header;
        int length = h.getInt((int) ChannelLayout.REC_LENGTH);
        l.pullHead = false;
        l.readView = l.incomingView.limit(length); // its position is past the data header
        AgentPulls.Party to = locals.party(h.getInt((int) ChannelLayout.REC_PEER));
        ByteBuffer direct = to == null ? null : AgentPulls.landing(to, h.getInt((int) ChannelLayout.REC_ORIGIN), h.getLong((int) ChannelLayout.REC_MORE),
                l.incoming.asSlice(0, ChannelLayout.PULL_DATA_HEADER), length - ChannelLayout.PULL_DATA_HEADER, l.landed);
        if (direct != null) {
            l.readView = direct;
            l.landing = true;
        }
    }

    /**
     * A packet for this node's rank {@code to} from {@code from} came into its ring, behind no
     * message for the rank to match: true
     * when a receive it armed took it ({@link AgentMatch}). An eager message is then delivered,
     * what is left of its packet committed for the credits; an announcement's pull request is on
     * its way back on {@code l}, the record committed only for the credits it gives.
     */
    private boolean matched(AgentLink l, int to, int from, int length) {
        AgentPulls.Party p = locals.party(to);
        if (p == null || l.state != AgentLink.State.OPEN) {
            return false;
        }
        java.lang.foreign.MemorySegment packet = l.readInto.memory().asSlice(l.readAt, length);
        if (AgentMatch.deliver(p, from, packet)) {
            l.readInto.commitMatched(from, from, ChannelLayout.PACKET, 0, AgentMatch.TAKEN_BYTES); // for the credits
            return true;
        }
        if (!AgentMatch.offer(p, from, packet, l.spare())) {
            return offloaded(l, to, from, packet);
        }
        if (AgentMatch.creditsLeft(packet)) {
            l.readInto.commitMatched(from, from, ChannelLayout.PACKET, 0, WireHeader.PACKET_HEADER);
        } else {
            l.readInto.abandon();
        }
        l.queueSpare();
        if (l.writingFor == -1) {
            flushControl(l);
        }
        return true;
    }

    /** {@link #matched}'s last resort: an offload of the agent's serves the message, and its answer goes back on {@code l}. */
    private boolean offloaded(AgentLink l, int to, int from, java.lang.foreign.MemorySegment packet) {
        ByteBuffer answer = l.spare();
        if (!locals.offloaded(to, from, packet, answer)) {
            return false;
        }
        if (AgentMatch.creditsLeft(packet)) {
            l.readInto.commitMatched(from, from, ChannelLayout.PACKET, 0, WireHeader.PACKET_HEADER);
        } else {
            l.readInto.abandon();
        }
        if (answer.limit() > 0) {
            l.queueSpare();
            if (l.writingFor == -1) {
                flushControl(l);
            }
        }
        return true;
    }

    /** Rank {@code to} of the other node asks to pull from this node's rank {@code from}: a serve queued, or a refusal. */
    private void pullAsked(AgentLink l, int from, int to, java.lang.foreign.MemorySegment request) {
        AgentPulls.Party p = locals.party(from);
        try {
            if (p == null) {
                throw new AgentException(AgentError.UNREACHABLE, "rank " + from + " is not here");
            }
            AgentPulls.Serve s = AgentPulls.requested(p, to, request);
            if (s != null) {
                l.serves.add(s);
            }
        } catch (AgentException e) {
            // a stale request (the exposure withdrawn as its send failed) or a wrong one: the puller hears it failed
            LOG.log(System.Logger.Level.DEBUG, "agent: refused a pull: {0}", e.getMessage());
            long pull = AgentPulls.pullOf(request);
            if (pull >= 0) {
                l.refusals.addLong((long) to << 32 | from & 0xffffffffL);
                l.refusals.addLong(pull);
            }
        }
    }

    /**
     * Writes the agent's own records on {@code l} between the ranks' records: refusals, then the
     * first serve's data a chunk at a time (a few chunks per pass, so the ranks' records take
     * turns with a large pull). Whether anything was written.
     */
    private boolean writeOwn(AgentLink l) {
        boolean any = false;
        for (int chunks = 0; chunks < 4; chunks++) {
            if (l.writingFor == -1) {
                if (!l.control.isEmpty() && !flushControl(l) || l.refusals.isEmpty() && l.serves.isEmpty()) {
                    return any;
                }
                if (l.own == null) {
                    ByteBuffer b = ByteBuffer.allocateDirect((int) ChannelLayout.REC_HEADER + ChannelLayout.PULL_DATA_HEADER + AgentPulls.CHUNK)
                            .order(ByteOrder.LITTLE_ENDIAN);
                    l.ownView = b;
                    l.own = java.lang.foreign.MemorySegment.ofBuffer(b);
                }
                int n;
                if (!l.refusals.isEmpty()) {
                    long who = l.refusals.pollLong(), pull = l.refusals.pollLong();
                    n = AgentPulls.failure(l.own, (int) (who >>> 32), (int) who, pull);
                    l.ownServe = null;
                } else {
                    l.ownServe = l.serves.peek();
                    n = l.ownServe.data != null ? AgentPulls.fillMapped(l.ownServe, l.own) : AgentPulls.fill(l.ownServe, l.own);
                }
                l.ownView.clear().limit(n);
                l.ownMapped = l.ownServe != null && l.ownServe.data != null && l.ownServe.chunk > 0;
                l.ownPair[0] = l.ownView;
                l.ownPair[1] = l.ownMapped ? l.ownServe.data : null;
                l.writingFor = AgentLink.OWN;
            }
            if (l.writingFor != AgentLink.OWN) {
                return any;
            }
            try {
                long w = l.ownMapped ? l.channel.write(l.ownPair) : l.channel.write(l.ownView);
                l.bytesOut += w;
                any |= w > 0;
                l.lastActive = now;
            } catch (IOException e) {
                broke(l, e.getMessage());
                return true;
            }
            if (l.ownView.hasRemaining() || l.ownMapped && l.ownPair[1].hasRemaining()) {
                return any;
            }
            l.ownMapped = false;
            l.ownPair[1] = null;
            l.writingFor = -1;
            l.recordsOut++;
            AgentPulls.Serve s = l.ownServe;
            l.ownServe = null;
            if (s != null && AgentPulls.sent(s)) {
                l.serves.poll();
            }
        }
        return any;
    }

    /** A ring's memory as a buffer, made once per ring. */
    private final Map<ByteRing, ByteBuffer> views = new java.util.IdentityHashMap<>();

    ByteBuffer view(ByteRing ring) {
        ByteBuffer b = views.get(ring);
        if (b == null) {
            b = ring.memory().asByteBuffer();
            views.put(ring, b);
        }
        return b;
    }

    /**
     * Stops using the mapped memory of a rank that leaves, before it is unmapped: a chunk being
     * written from it is copied out first (its record is half on the wire), and a record being
     * read into it is read on into the scratch and dropped.
     */
    void release(CrossMemory memory) {
        for (AgentLink l : open) {
            if (l.ownMapped && l.ownServe != null && l.ownServe.from.memory() == memory) {
                ByteBuffer rest = ByteBuffer.allocate(l.ownPair[1].remaining());
                rest.put(l.ownPair[1]).flip();
                l.ownPair[1] = rest;
            }
            for (AgentPulls.Serve s : l.serves) {
                if (s.from.memory() == memory) {
                    s.data = null; // any chunk still to go fails: its exposure is withdrawn
                }
            }
            if (l.landing && l.landed.to != null && l.landed.to.memory() == memory) {
                l.readView = null;
                l.landing = false;
            }
            l.landed.forget(memory);
        }
    }

    /**
     * Rank {@code jobRank} of this node leaves with a record half written to a link (from
     * {@code outView}, its OUT ring's view, which goes with it): the rest is copied and written
     * ahead of anything else, so the other agent reads a whole record and the link is free again
     * for the node's other ranks, which would otherwise wait for good behind it.
     */
    void leaving(int jobRank, ByteBuffer outView) {
        if (jobRank < 0) { // never attached: it wrote nothing (and -1 is every idle link's mark)
            return;
        }
        for (AgentLink l : open) {
            if (l.writingFor == jobRank) {
                ByteBuffer rest = ByteBuffer.allocate(outView.remaining());
                rest.put(outView).flip();
                l.control.addFirst(rest);
                l.writingFor = -1;
            }
        }
    }

    /** Whether a link holds a record of {@code jobRank}'s half written (for tests). */
    boolean halfWritten(int jobRank) {
        for (AgentLink l : open) {
            if (l.writingFor == jobRank) {
                return true;
            }
        }
        return false;
    }

    /** Forgets a ring that is gone (its rank left). */
    void forget(ByteRing ring) {
        views.remove(ring);
        for (AgentLink l : open) {
            if (l.readInto == ring) {
                l.readInto = null;
                l.readView = null; // the rest of its payload is read and dropped
            }
        }
    }

    /** A record {@code l} was reading into a rank's ring will not end: its claim is given up, so the ring takes others' again. */
    private static void dropPartial(AgentLink l) {
        l.pullHead = false;
        l.landing = false;
        l.ownMapped = false; // a record half written is not finished on a connection that ends
        l.ownPair[1] = null;
        if (l.readInto != null) {
            l.readInto.abandon();
            l.readInto = null;
            l.readView = null;
        }
    }

    @Override
    public void broke(AgentLink l, String why) {
        if (l.state == AgentLink.State.BROKEN || l.draining) {
            return;
        }
        if (!l.reading && l.channel != null && l.state == AgentLink.State.OPEN) {
            // a write failed: what the other agent wrote before it went is still to be read (its
            // ranks' records, and the GONEs that say they left in order)
            l.draining = true;
            try {
                for (int i = 0; i < 16 && l.state == AgentLink.State.OPEN && read(l); i++) {
                    // each read takes up to 64 records; it stops at the end or a full ring
                }
            } finally {
                l.draining = false;
            }
        }
        // the other agent ending after its ranks all left (the job's end there) is no fault, nor a
        // link that breaks when this node's ranks have all left: their GONEs may cross its end
        boolean harmless = l.ranks.isEmpty() || !locals.anyAttached();
        LOG.log(harmless ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING,
                "agent: the link to {0} broke: {1}; its {2} ranks are gone", l.address, why, l.ranks.size());
        l.state = AgentLink.State.BROKEN;
        open.remove(l);
        probes.broke(l);
        dropPartial(l);
        for (AgentPulls.Serve s : l.serves) {
            AgentPulls.abandon(s);
        }
        l.serves.clear();
        l.refusals.clear();
        l.ownServe = null;
        l.writingFor = -1;
        if (l.nextChannel != null) {
            closeQuietly(l.nextChannel);
            l.nextChannel = null;
        }
        l.callBack = false;
        if (l.channel != null) {
            closeQuietly(l.channel);
        }
        l.control.clear();
        for (int r : l.ranks.toArray(new Integer[0])) {
            locals.gone(-1, r);
        }
        l.ranks.clear();
    }

    private static ByteBuffer readFully(SocketChannel c, int n, long end) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        long start = System.nanoTime();
        while (b.hasRemaining()) {
            if (c.read(b) < 0) {
                throw new IOException("hung up during the greeting");
            }
            long now = System.nanoTime();
            if (b.hasRemaining()) {
                if (now > end) {
                    throw new IOException("the greeting did not come within " + SETUP_NANOS / 1_000_000_000L + " s");
                }
                IdleStrategy.DEFAULT.idle(now - start, end - now);
            }
        }
        return b.flip();
    }

    private static void writeFully(SocketChannel c, ByteBuffer b, long end) throws IOException {
        long start = System.nanoTime();
        while (b.hasRemaining()) {
            c.write(b);
            long now = System.nanoTime();
            if (b.hasRemaining()) {
                if (now > end) {
                    throw new IOException("the greeting could not be written within " + SETUP_NANOS / 1_000_000_000L + " s");
                }
                IdleStrategy.DEFAULT.idle(now - start, end - now);
            }
        }
    }

    private static void closeQuietly(SocketChannel c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        for (AgentLink l : links.values()) {
            if (l.channel != null) {
                closeQuietly(l.channel);
            }
        }
        probes.close();
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
