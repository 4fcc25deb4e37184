package dev.ferry.driver.tcp;

import dev.ferry.spi.Capabilities;
import dev.ferry.spi.ConnectRequest;
import dev.ferry.spi.ContextLifecycle;
import dev.ferry.spi.CpuSet;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverException;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverProperties;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.Profile;
import dev.ferry.spi.Status;
import dev.ferry.spi.Transport;
import jdk.net.ExtendedSocketOptions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A tcp driver context: a listening socket on the chosen interfaces, an acceptor thread that
 * checks handshakes, the connections accepted but not yet claimed by an instance, and one
 * selector over all connected instances for probe-any and wait-any.
 *
 * <p>Which side of a connection connects is decided by comparing the two context URLs: the
 * smaller one connects, the larger one waits for it, so two contexts that call
 * {@code connectAsync} on each other at once end with exactly one connection.
 */
final class TcpContext implements DriverContext {
    private static final System.Logger LOG = dev.ferry.spi.LazyLogger.of(TcpContext.class);
    static final long MAX_PACKET_SIZE = 1L << 30;
    static final int MAX_IOVEC = 1024;

    private final Hints hints;
    private final JobSecret secret;
    /** TLS for every connection, or null: plain bytes after the handshake. */
    private final JobTls tls;
    private final long connectTimeoutNanos;
    private final int sndbuf;
    private final int rcvbuf;
    private final int keepaliveSeconds;
    private final ContextLifecycle<TcpInstance> life = new ContextLifecycle<>("tcp driver context", TcpInstance[]::new);
    /** One listener per advertised address, bound to exactly that address. */
    private final List<ServerSocketChannel> listeners = new ArrayList<>();
    private Selector selector;
    private volatile boolean selecting;
    private SetupThread setup;
    private Thread setupThread;
    private DriverUrl url;
    private byte[] urlBytes;
    private InetAddress bindAddress;
    /** Accepted connections no instance has asked for yet, by the sender's URL. */
    private final Map<ByteBuffer, ArrayDeque<Link>> unclaimed = new HashMap<>();
    /** Instances waiting for their peer to connect, by the peer's URL. */
    private final Map<ByteBuffer, ArrayDeque<TcpInstance>> awaiting = new HashMap<>();
    /** Peers that asked to be connected (acceptProbe), oldest first. */
    private final ArrayDeque<byte[]> requests = new ArrayDeque<>();
    private volatile int requestCount;
    /** Connection requests that came, and how many of them wait-any has reported (each once); under the lock. */
    private long requestsArrived;
    private long requestsWaitSeen;
    private final boolean directCalls;

    TcpContext(Hints hints) {
        this.hints = Objects.requireNonNull(hints, "hints");
        String key = hints.attribute(Hints.JOB_KEY, TcpSettings.JOB_KEY.value(hints.settings()));
        this.secret = new JobSecret(key == null ? new byte[0] : key.getBytes(StandardCharsets.UTF_8));
        String tlsSetting = TcpSettings.TLS.value(hints.settings());
        if (!tlsSetting.equals("on") && !tlsSetting.equals("off")) {
            throw new dev.ferry.spi.SettingException(TcpSettings.TLS.name() + " is '" + tlsSetting + "'; it must be on or off");
        }
        this.tls = tlsSetting.equals("on") ? new JobTls(secret) : null;
        this.connectTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(TcpSettings.CONNECT_TIMEOUT_MS.longValue(hints.settings()));
        this.sndbuf = (int) TcpSettings.SNDBUF.longValue(hints.settings());
        this.rcvbuf = (int) TcpSettings.RCVBUF.longValue(hints.settings());
        this.keepaliveSeconds = (int) TcpSettings.KEEPALIVE_S.longValue(hints.settings());
        String calls = TcpSettings.SOCKET_CALLS.value(hints.settings());
        if (!calls.equals("direct") && !calls.equals("nio")) {
            throw new DriverException(TcpSettings.SOCKET_CALLS.name() + " is '" + calls + "'; it must be direct or nio");
        }
        this.directCalls = calls.equals("direct");
    }

    /** Whether connections make their small reads and writes straight on the descriptor ({@link SocketCalls}). */
    boolean directCalls() {
        return directCalls;
    }

    @Override
    public DriverProperties properties() {
        life.beginProperties();
        // FERRY_TCP_INTERFACES that matches nothing here leaves tcp unavailable, said at discovery
        // (a launcher's check before the job starts), not first when an instance opens
        String spec = hints.attributes().get(TcpDriver.INTERFACE_ATTRIBUTE) != null ? null : TcpSettings.INTERFACES.value(hints.settings());
        if (spec != null) {
            try {
                if (Interfaces.usable(spec).isEmpty()) {
                    throw new DriverException("tcp: no usable network interface matches '" + spec + "'");
                }
            } catch (IllegalArgumentException e) {
                throw new dev.ferry.spi.SettingException(e.getMessage(), e);
            }
        }
        Capabilities caps = Capabilities.builder()
                .supportsData(true)
                .supportsIovec(true)
                .supportsBufSend(true)
                .maxBufferSize(TcpInstance.COPY_LIMIT)
                .maxIovecSegments(MAX_IOVEC)
                .hasRecvAny(true)
                .supportsWaitAny(true)
                .maxPacketSize(MAX_PACKET_SIZE)
                .transport(Transport.REMOTE)
                .supportsReconnect(true)
                .build();
        // Orders measured with `ferry bench driver-latency|driver-bandwidth --driver tcp` over
        // loopback on the 2-core development machine (docs/architecture.md).
        return new DriverProperties(caps, new Profile(4_500, 6_000, CpuSet.all()));
    }

    @Override
    public synchronized DriverUrl init() {
        life.beginInit();
        String bound = hints.attributes().get(TcpDriver.INTERFACE_ATTRIBUTE);
        String spec = bound != null ? bound : TcpSettings.INTERFACES.value(hints.settings());
        List<InetAddress> addresses;
        try {
            addresses = Interfaces.usable(spec);
        } catch (IllegalArgumentException e) {
            throw new dev.ferry.spi.SettingException(e.getMessage(), e);
        }
        if (addresses.isEmpty()) {
            throw new DriverException("tcp: no usable network interface" + (spec != null ? " matches '" + spec + "'" : " is up"));
        }
        if (bound != null) {
            addresses = List.of(addresses.get(0));
            bindAddress = addresses.get(0);
        }
        try {
            // A listener on each address asked for, never the wildcard: FERRY_TCP_INTERFACES=lo
            // must not open the port on every interface. A URL that does not go wide advertises
            // the first address alone, so only that one listens then.
            boolean wide = hints.wideUrlSupport();
            List<byte[]> parts = new ArrayList<>();
            IOException failed = null;
            for (InetAddress a : addresses) {
                ServerSocketChannel l = ServerSocketChannel.open();
                try {
                    l.bind(new InetSocketAddress(a, 0), 256);
                } catch (IOException e) { // e.g. an IPv6 address not usable yet: the others serve
                    l.close();
                    failed = e;
                    LOG.log(System.Logger.Level.DEBUG, "tcp: cannot listen on {0}: {1}", a, e.getMessage());
                    continue;
                }
                listeners.add(l);
                parts.add(new TcpAddress(new InetSocketAddress(a, ((InetSocketAddress) l.getLocalAddress()).getPort()), hints.rank()).encode());
                if (!wide) {
                    break;
                }
            }
            if (listeners.isEmpty()) {
                throw failed;
            }
            selector = Selector.open();
            url = parts.size() > 1 ? DriverUrl.wide(parts) : DriverUrl.single(parts.get(0));
            urlBytes = url.encoded();
            setup = new SetupThread(this, listeners);
            int port = ((InetSocketAddress) listeners.get(0).getLocalAddress()).getPort();
            setupThread = Thread.ofPlatform().daemon().name("ferry-tcp-setup-" + port).start(setup);
            life.initialized();
        } catch (IOException e) {
            closeQuietly();
            throw new DriverException("tcp: cannot listen: " + e.getMessage(), e);
        }
        return url;
    }

    @Override
    public DriverInstance newInstance() {
        return life.add(() -> new TcpInstance(this));
    }

    // ---- for instances and the acceptor -----------------------------------------------------

    byte[] urlBytes() {
        return urlBytes;
    }

    JobSecret secret() {
        return secret;
    }

    /** TLS over a new connection (the connecting side is the client), or null when TLS is off. */
    TlsChannel tls(SocketChannel ch, boolean client) throws javax.net.ssl.SSLException {
        return tls == null ? null : new TlsChannel(ch, tls.engine(client));
    }

    /** A connection that passed its handshakes: its channel, and its TLS when on. */
    record Link(SocketChannel channel, TlsChannel tls) {
    }

    int rank() {
        return hints.rank();
    }

    long connectTimeoutNanos() {
        return connectTimeoutNanos;
    }

    InetAddress bindAddress() {
        return bindAddress;
    }

    Selector selector() {
        return selector;
    }

    /** Socket options of every connection: no Nagle, keepalive tuned to notice silent deaths, buffer sizes. */
    void configure(SocketChannel ch) throws IOException {
        ch.configureBlocking(false);
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        try {
            ch.setOption(ExtendedSocketOptions.TCP_KEEPIDLE, keepaliveSeconds);
            ch.setOption(ExtendedSocketOptions.TCP_KEEPINTERVAL, 2);
            ch.setOption(ExtendedSocketOptions.TCP_KEEPCOUNT, 3);
        } catch (UnsupportedOperationException e) {
            // a platform without them keeps the system's keepalive timing
        }
        if (sndbuf > 0) {
            ch.setOption(StandardSocketOptions.SO_SNDBUF, sndbuf);
        }
        if (rcvbuf > 0) {
            ch.setOption(StandardSocketOptions.SO_RCVBUF, rcvbuf);
        }
    }

    /** From the set-up thread: a connection with a valid handshake from the context at {@code senderUrl}. */
    synchronized void accepted(Link ch, byte[] senderUrl) {
        if (life.isClosed()) {
            closeChannel(ch.channel());
            return;
        }
        ByteBuffer key = ByteBuffer.wrap(senderUrl);
        ArrayDeque<TcpInstance> q = awaiting.get(key);
        TcpInstance inst = q == null ? null : q.poll();
        if (inst != null) {
            inst.established(ch.channel(), ch.tls());
        } else {
            unclaimed.computeIfAbsent(key, k -> new ArrayDeque<>()).add(ch);
            requested(senderUrl); // nobody here connected to that peer yet: report it
        }
    }

    /**
     * An instance that waits for the context at {@code remoteUrl} to connect: given its connection
     * now (true) or when it comes (false).
     */
    synchronized boolean await(TcpInstance inst, byte[] remoteUrl) {
        ByteBuffer key = ByteBuffer.wrap(remoteUrl);
        ArrayDeque<Link> q = unclaimed.get(key);
        Link ch = q == null ? null : q.poll();
        if (ch != null) {
            inst.established(ch.channel(), ch.tls());
            return true;
        }
        awaiting.computeIfAbsent(key, k -> new ArrayDeque<>()).add(inst);
        return false;
    }

    /** From the set-up thread: the context at {@code senderUrl} asks us to connect to it. */
    synchronized void requested(byte[] senderUrl) {
        if (!life.isClosed()) {
            requests.add(senderUrl);
            requestCount++;
            if (served(senderUrl)) {
                return; // the answer of a peer we connected to: nothing for a sleeping engine to do
            }
            requestsArrived++;
            if (selector != null) {
                selector.wakeup(); // a wait-any reports it, so that a sleeping engine takes the peer up now
            }
        }
    }

    /** Whether a connection request came that wait-any has not reported yet; marks it reported. */
    private synchronized boolean newRequestForWait() {
        if (requestsArrived == requestsWaitSeen) {
            return false;
        }
        requestsWaitSeen = requestsArrived;
        return true;
    }

    @Override
    public Status acceptProbe(ConnectRequest request) {
        if (life.isClosed()) {
            return Status.CLOSED;
        }
        if (requestCount == 0) { // the common case, without the lock
            return Status.NOT_YET;
        }
        synchronized (this) {
            byte[] url;
            while ((url = requests.poll()) != null) {
                requestCount--;
                if (!served(url)) {
                    request.url = DriverUrl.decode(url);
                    request.rank = rankOf(request.url);
                    return Status.DONE;
                }
            }
            return Status.NOT_YET;
        }
    }

    private boolean served(byte[] url) {
        for (TcpInstance i : life.instances()) {
            if (i.servesPeer(url)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void bytesHeld(java.util.function.ObjLongConsumer<String> into) {
        into.accept("tcp buffers", (long) life.instances().length * 2 * TcpInstance.BUFFER_BYTES); // staging and inbound, direct
    }

    /** A disconnected instance: no longer among the context's instances. */
    void retire(TcpInstance inst) {
        life.remove(inst);
    }

    /** The rank a tcp URL names (every address carries it), or -1 when it does not parse. */
    static int rankOf(DriverUrl url) {
        try {
            return TcpAddress.parse(url.parts().get(0)).rank();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** An instance no longer waits (it failed, or was disconnected or closed). */
    synchronized void forget(TcpInstance inst) {
        for (ArrayDeque<TcpInstance> q : awaiting.values()) {
            q.remove(inst);
        }
    }

    /** Hands an outgoing connection to the set-up thread. */
    void connect(SetupThread.Outgoing o) {
        setup.connect(o);
    }

    /** Hands a connection this side disconnected to the set-up thread, which drains it until the peer closes. */
    void linger(SocketChannel ch) {
        setup.linger(ch);
    }

    // ---- probe-any, wait-any ----------------------------------------------------------------

    @Override
    public Status recvProbeAny(InstanceRef ready) {
        if (life.isClosed()) {
            return Status.CLOSED;
        }
        try {
            selector.selectNow(markReady);
        } catch (IOException | java.nio.channels.ClosedSelectorException e) {
            return life.isClosed() ? Status.CLOSED : Status.BROKEN;
        }
        return pick(ready);
    }

    /**
     * Marks an instance the selector found readable. The consumer form of select keeps no
     * selected-key set, so a probe allocates nothing.
     */
    private final java.util.function.Consumer<SelectionKey> markReady = k -> {
        TcpInstance i = (TcpInstance) k.attachment();
        int ops = k.readyOps();
        if ((ops & ~SelectionKey.OP_WRITE) != 0) {
            i.readyHint = true;
        }
        if ((ops & SelectionKey.OP_WRITE) != 0) {
            i.writableHint = true;
        }
    };

    /** Serves the instances marked ready, or holding buffered bytes, round robin. */
    private Status pick(InstanceRef ready) {
        return life.probeAny(ready, TcpInstance::takeReady);
    }

    @Override
    public Status recvWaitAny(InstanceRef ready) {
        while (true) {
            if (life.isClosed()) {
                return Status.CLOSED;
            }
            if (life.takeCancel()) {
                return Status.CANCELED;
            }
            Status s = recvProbeAny(ready);
            if (s != Status.NOT_YET) {
                return s;
            }
            if (newRequestForWait()) {
                return Status.NOT_YET; // a peer asks to connect: acceptProbe reports it
            }
            boolean room = false;
            for (TcpInstance i : life.instances()) {
                boolean blocked = i.writeBlocked();
                i.writableHint = false;
                i.watchRoom(blocked);
                room |= blocked;
            }
            selecting = true;
            try {
                // Sleeps in epoll_wait; woken by data, room for a sender whose socket was full, a
                // new connection, cancel or close. The bound only limits how late a connection
                // claimed during the wait is watched.
                selector.select(markReady, 1000);
            } catch (IOException | java.nio.channels.ClosedSelectorException e) {
                return life.isClosed() ? Status.CLOSED : Status.BROKEN;
            } finally {
                selecting = false;
            }
            boolean roomCame = room && roomCame();
            s = pick(ready);
            if (s != Status.NOT_YET) {
                return s;
            }
            if (newRequestForWait() || roomCame) {
                return Status.NOT_YET; // a connection request, or room for bytes that waited: the engine writes them
            }
        }
    }

    /** Whether a wait-any is in its select, watching what it set up to watch (tests wait for it). */
    boolean selecting() {
        return selecting;
    }

    /** Whether the wait's select saw room on a connection it watched for room; stops watching for room. */
    private boolean roomCame() {
        boolean came = false;
        for (TcpInstance i : life.instances()) {
            if (i.writableHint) {
                i.writableHint = false;
                came = true;
            }
            i.watchRoom(false);
        }
        return came;
    }

    @Override
    public Status recvCancelAny() {
        return life.cancelAny(selector::wakeup);
    }

    @Override
    public void close() {
        if (life.closeEach(TcpInstance::contextClosed)) {
            closeQuietly();
        }
    }

    private void closeQuietly() {
        if (setup != null) {
            setup.stop();
            try {
                setupThread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            for (ArrayDeque<Link> q : unclaimed.values()) {
                q.forEach(l -> closeChannel(l.channel()));
            }
            unclaimed.clear();
            awaiting.clear();
        }
        try {
            for (ServerSocketChannel l : listeners) {
                l.close();
            }
            if (selector != null) {
                selector.close();
            }
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    static void closeChannel(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    @Override
    public String toString() {
        return "tcp context rank " + hints.rank() + (url != null ? " " + new String(url.first(), StandardCharsets.US_ASCII) : "");
    }
}
