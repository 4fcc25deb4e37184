package dev.ferry.driver.tcp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * A context's connection set-up thread, so that set-up is fully asynchronous (seed 000): nothing
 * but {@code connectAsync} has to be called for a connection to come up. With its own selector it
 * <ul>
 *   <li>accepts connections and drives their handshakes (TLS first when it is on, then the
 *       {@link Handshake}), handing the accepted ones to the context; closes at once any that sends
 *       garbage, cannot prove the job key, names the wrong rank, or stays silent past
 *       {@link #HANDSHAKE_TIMEOUT_NANOS}, with a warning at most every 10 s ({@link WarningLimit}:
 *       outsiders may open any number);</li>
 *   <li>connects outgoing instances: connect and handshake, trying the URL's addresses in order,
 *       within the instance's deadline;</li>
 *   <li>drains connections this side disconnected until their peer closes, so that closing never
 *       resets a connection whose last frame is still in flight.</li>
 * </ul>
 */
final class SetupThread implements Runnable {
    private static final System.Logger LOG = dev.ferry.spi.LazyLogger.of(SetupThread.class);
    static final long HANDSHAKE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);
    static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final TcpContext ctx;
    private final Selector selector;
    /** Warnings about incoming connections: outsiders may cause any number of them. */
    private final WarningLimit incomingWarnings = new WarningLimit(LOG, WarningLimit.DEFAULT_INTERVAL_NANOS);
    private final ConcurrentLinkedQueue<SocketChannel> toLinger = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Outgoing> toConnect = new ConcurrentLinkedQueue<>();
    private volatile boolean stopping;

    /** One connection's handshakes: TLS's (when on), then Ferry's. */
    private static final class Exchange {
        final SocketChannel channel;
        final TlsChannel tls;
        final Handshake handshake;
        boolean tlsDone;

        Exchange(SocketChannel channel, TlsChannel tls, Handshake handshake) {
            this.channel = channel;
            this.tls = tls;
            this.handshake = handshake;
        }

        int read(ByteBuffer dst) throws IOException {
            return tls != null ? tls.read(dst) : channel.read(dst);
        }

        void write(ByteBuffer src) throws IOException {
            if (tls != null) {
                tls.write(src);
            } else {
                channel.write(src);
            }
        }

        boolean unwritten(ByteBuffer src) {
            return src.hasRemaining() || tls != null && tls.pending();
        }
    }

    /** An incoming connection being set up (its exchange), or one lingering after our BYE (none). */
    private record Incoming(long deadline, Exchange exchange, String remote) {
    }

    /** An outgoing connection being set up for an instance. */
    static final class Outgoing {
        final TcpInstance instance;
        final List<TcpAddress> targets;
        final long deadline;
        /** A connection request only: closed after the reply, the instance keeps waiting. */
        final boolean request;
        int index = -1;
        SocketChannel channel;
        Exchange exchange;

        Outgoing(TcpInstance instance, List<TcpAddress> targets, long deadline, boolean request) {
            this.instance = instance;
            this.targets = targets;
            this.deadline = deadline;
            this.request = request;
        }

        InetSocketAddress target() {
            return targets.get(index).socket();
        }
    }

    SetupThread(TcpContext ctx, List<ServerSocketChannel> listeners) throws IOException {
        this.ctx = ctx;
        this.selector = Selector.open();
        for (ServerSocketChannel l : listeners) {
            l.configureBlocking(false);
            l.register(selector, SelectionKey.OP_ACCEPT, l);
        }
    }

    /** Starts setting up an outgoing connection. */
    void connect(Outgoing o) {
        toConnect.add(o);
        selector.wakeup();
    }

    /** Takes over a connection after our BYE: read and discard until the peer closes. */
    void linger(SocketChannel ch) {
        toLinger.add(ch);
        selector.wakeup();
    }

    void stop() {
        stopping = true;
        selector.wakeup();
    }

    @Override
    public void run() {
        ByteBuffer sink = ByteBuffer.allocateDirect(16384);
        try {
            while (!stopping) {
                // deadlines are looked at every 200 ms while a connection is being set up or
                // lingers; with only the listening socket, it sleeps until a peer or a call wakes it
                selector.select(anyDeadline() ? 200 : 0);
                SocketChannel l;
                while ((l = toLinger.poll()) != null) {
                    l.register(selector, SelectionKey.OP_READ, new Incoming(System.nanoTime() + LINGER_NANOS, null, "lingering"));
                }
                Outgoing o;
                while ((o = toConnect.poll()) != null) {
                    nextAddress(o);
                }
                Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey k = it.next();
                    it.remove();
                    if (!k.isValid()) {
                        continue;
                    }
                    if (k.isAcceptable()) {
                        accept((ServerSocketChannel) k.channel());
                    } else if (k.attachment() instanceof Outgoing out) {
                        progress(k, out);
                    } else if (k.isReadable() || k.isWritable()) {
                        read(k, sink);
                    }
                }
                expire();
            }
        } catch (IOException | ClosedSelectorException e) {
            if (!stopping) {
                LOG.log(System.Logger.Level.ERROR, "tcp: connection set-up thread of " + ctx + " stopped: " + e, e);
            }
        } finally {
            for (SelectionKey k : selector.keys()) {
                if (!(k.channel() instanceof ServerSocketChannel)) {
                    if (k.attachment() instanceof Outgoing out) {
                        out.instance.setupFailed("the context closed during connection set-up");
                    }
                    close(k);
                }
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    /** Whether a connection being set up, or lingering, has a deadline to watch. */
    private boolean anyDeadline() {
        for (SelectionKey k : selector.keys()) {
            if (k.isValid() && !(k.channel() instanceof ServerSocketChannel)) {
                return true;
            }
        }
        return false;
    }

    private void expire() {
        long now = System.nanoTime();
        for (SelectionKey k : selector.keys()) {
            if (k.attachment() instanceof Incoming p && now - p.deadline() > 0) {
                if (p.exchange() != null) {
                    incomingWarnings.warn("tcp: closed a connection from {0}: no complete handshake within {1} s",
                            p.remote(), TimeUnit.NANOSECONDS.toSeconds(HANDSHAKE_TIMEOUT_NANOS));
                }
                close(k);
            } else if (k.attachment() instanceof Outgoing out && now - out.deadline > 0) {
                close(k);
                out.instance.setupFailed("connection to " + out.target() + " not established within "
                        + ctx.connectTimeoutNanos() / 1_000_000 + " ms");
            }
        }
    }

    // ---- outgoing ---------------------------------------------------------------------------

    /** Connects to the next address of the URL; fails the instance when none is left. */
    private void nextAddress(Outgoing o) {
        while (++o.index < o.targets.size()) {
            SocketChannel ch = null;
            try {
                ch = SocketChannel.open();
                ctx.configure(ch);
                if (ctx.bindAddress() != null) {
                    ch.bind(new InetSocketAddress(ctx.bindAddress(), 0));
                }
                o.channel = ch;
                o.exchange = null;
                boolean connected = ch.connect(o.target());
                ch.register(selector, connected ? SelectionKey.OP_WRITE : SelectionKey.OP_CONNECT, o);
                return;
            } catch (IOException e) {
                LOG.log(System.Logger.Level.DEBUG, "tcp: connect to {0} failed: {1}", o.target(), e.getMessage());
                if (ch != null) {
                    TcpContext.closeChannel(ch);
                }
            }
        }
        o.instance.setupFailed("no address of the peer's URL could be reached: " + o.targets);
    }

    private void progress(SelectionKey k, Outgoing o) {
        try {
            if (k.isConnectable()) {
                try {
                    if (!o.channel.finishConnect()) {
                        return;
                    }
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.DEBUG, "tcp: connect to {0} failed: {1}", o.target(), e.getMessage());
                    close(k);
                    nextAddress(o);
                    return;
                }
            }
            if (o.exchange == null) {
                o.exchange = new Exchange(o.channel, ctx.tls(o.channel, true),
                        new Handshake.Connector(ctx.secret(), o.request, ctx.rank(), o.targets.get(o.index).rank(), ctx.urlBytes()));
            }
            Handshake.Step step;
            try {
                step = drive(k, o.exchange);
            } catch (java.io.EOFException e) {
                close(k);
                o.instance.setupFailed("the peer at " + o.target() + " closed the connection during the handshake: "
                        + "it refused us (another job's key, the wrong rank, another Ferry version, or TLS on one side only?)");
                return;
            }
            if (step == Handshake.Step.MORE) {
                return;
            }
            k.cancel();
            if (step == Handshake.Step.REFUSED) {
                TcpContext.closeChannel(o.channel);
                o.instance.setupFailed("handshake with " + o.target() + " refused: " + o.exchange.handshake.rejection());
            } else if (o.request) {
                TcpContext.closeChannel(o.channel); // delivered: the peer connects back
            } else {
                o.instance.established(o.channel, o.exchange.tls);
            }
        } catch (IOException e) {
            close(k);
            String why = e.getMessage();
            if (o.exchange != null && !(e instanceof javax.net.ssl.SSLException)) {
                why += " during the handshake (another job's key, another Ferry version, or TLS on one side only?)";
            }
            o.instance.setupFailed("connection set-up with " + o.target() + " failed: " + why);
        }
    }

    /**
     * Drives one connection's handshakes as far as its socket allows: MORE with the key watching
     * for what comes next, or where it ended. The end of the stream before the end is an
     * {@link java.io.EOFException}.
     */
    private static Handshake.Step drive(SelectionKey k, Exchange x) throws IOException {
        if (x.tls != null && !x.tlsDone) {
            TlsChannel.Need need = x.tls.handshake();
            if (need != TlsChannel.Need.NOTHING) {
                k.interestOps(need == TlsChannel.Need.READ ? SelectionKey.OP_READ : SelectionKey.OP_WRITE);
                return Handshake.Step.MORE;
            }
            x.tlsDone = true;
        }
        while (true) {
            ByteBuffer out = x.handshake.out();
            if (out != null && x.unwritten(out)) {
                x.write(out); // through TLS, encrypted bytes still waiting go first
                if (x.unwritten(out)) {
                    k.interestOps(SelectionKey.OP_WRITE);
                    return Handshake.Step.MORE;
                }
            }
            ByteBuffer in = x.handshake.in();
            if (in != null && in.hasRemaining()) {
                if (x.read(in) < 0) {
                    throw new java.io.EOFException("closed during the handshake");
                }
                if (in.hasRemaining()) {
                    k.interestOps(SelectionKey.OP_READ);
                    return Handshake.Step.MORE;
                }
            }
            Handshake.Step step = x.handshake.advance();
            if (step != Handshake.Step.MORE) {
                return step;
            }
        }
    }

    // ---- incoming ---------------------------------------------------------------------------

    private void accept(ServerSocketChannel listener) throws IOException {
        SocketChannel ch;
        while ((ch = listener.accept()) != null) {
            String remote = String.valueOf(ch.getRemoteAddress());
            try {
                ctx.configure(ch);
                Exchange x = new Exchange(ch, ctx.tls(ch, false), new Handshake.Acceptor(ctx.secret(), ctx.rank()));
                ch.register(selector, SelectionKey.OP_READ, new Incoming(System.nanoTime() + HANDSHAKE_TIMEOUT_NANOS, x, remote));
            } catch (IOException e) {
                incomingWarnings.warn("tcp: cannot set up a connection from {0}: {1}", remote, e.getMessage());
                ch.close();
            }
        }
    }

    private void read(SelectionKey k, ByteBuffer sink) {
        Incoming p = (Incoming) k.attachment();
        SocketChannel ch = (SocketChannel) k.channel();
        try {
            if (p.exchange() == null) { // lingering: discard until the peer's FIN
                sink.clear();
                if (ch.read(sink) < 0) {
                    close(k);
                }
                return;
            }
            Handshake.Step step = drive(k, p.exchange());
            if (step == Handshake.Step.MORE) {
                return;
            }
            if (step == Handshake.Step.REFUSED) {
                incomingWarnings.warn("tcp: refused a connection from {0}: {1}", p.remote(), p.exchange().handshake.rejection());
                close(k);
                return;
            }
            k.cancel();
            Handshake.Hello hello = ((Handshake.Acceptor) p.exchange().handshake).hello();
            if (hello.request()) {
                TcpContext.closeChannel(ch);
                ctx.requested(hello.senderUrl());
            } else {
                ctx.accepted(new TcpContext.Link(ch, p.exchange().tls), hello.senderUrl());
            }
        } catch (java.io.EOFException e) {
            // the connecting side gave up or ended (a rank leaving while a connection it no longer
            // needs comes up): its own side reports what that means; nothing to warn about here
            LOG.log(System.Logger.Level.DEBUG, "tcp: connection from {0} closed during its handshake", p.remote());
            close(k);
        } catch (javax.net.ssl.SSLException e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            incomingWarnings.warn("tcp: TLS with {0} failed: {1}", p.remote(), why.contains("FERRY_TCP_TLS") ? why : why + " (FERRY_TCP_TLS is on here)");
            close(k);
        } catch (IOException e) { // reset or broken pipe: the other side went, as above
            LOG.log(System.Logger.Level.DEBUG, "tcp: connection from {0} failed during its handshake: {1}", p.remote(), e.getMessage());
            close(k);
        }
    }

    private static void close(SelectionKey k) {
        k.cancel();
        try {
            k.channel().close();
        } catch (IOException ignored) {
            // already gone
        }
    }
}
