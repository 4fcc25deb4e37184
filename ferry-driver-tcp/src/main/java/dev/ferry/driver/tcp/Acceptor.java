package dev.ferry.driver.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * A context's acceptor thread: accepts connections, reads and checks their handshakes, replies to
 * the valid ones and hands them to the context; closes at once, with one warning, any connection
 * that sends garbage, a wrong job key or the wrong rank, or stays silent past
 * {@link #HANDSHAKE_TIMEOUT_NANOS}. It also drains connections this side disconnected until their
 * peer closes, so that closing never resets a connection whose last frame is still in flight.
 * Its own selector keeps all of this off the application's threads.
 */
final class Acceptor implements Runnable {
    private static final System.Logger LOG = System.getLogger(Acceptor.class.getName());
    static final long HANDSHAKE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);
    static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final TcpContext ctx;
    private final ServerSocketChannel listener;
    private final Selector selector;
    private final ConcurrentLinkedQueue<SocketChannel> toLinger = new ConcurrentLinkedQueue<>();
    private volatile boolean stopping;

    /** State of a connection whose handshake is being read, or of one lingering after our BYE. */
    private static final class Pending {
        final long deadline;
        final Handshake.Decoder decoder; // null when lingering
        final String remote;

        Pending(long deadline, Handshake.Decoder decoder, String remote) {
            this.deadline = deadline;
            this.decoder = decoder;
            this.remote = remote;
        }
    }

    Acceptor(TcpContext ctx, ServerSocketChannel listener) throws IOException {
        this.ctx = ctx;
        this.listener = listener;
        this.selector = Selector.open();
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
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
                selector.select(1000);
                SocketChannel l;
                while ((l = toLinger.poll()) != null) {
                    l.register(selector, SelectionKey.OP_READ, new Pending(System.nanoTime() + LINGER_NANOS, null, "lingering"));
                }
                Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey k = it.next();
                    it.remove();
                    if (!k.isValid()) {
                        continue;
                    }
                    if (k.isAcceptable()) {
                        accept();
                    } else if (k.isReadable()) {
                        read(k, sink);
                    }
                }
                long now = System.nanoTime();
                for (SelectionKey k : selector.keys()) {
                    if (k.attachment() instanceof Pending p && now - p.deadline > 0) {
                        if (p.decoder != null) {
                            LOG.log(System.Logger.Level.WARNING, "tcp: closed a connection from {0}: no complete handshake within {1} s",
                                    p.remote, TimeUnit.NANOSECONDS.toSeconds(HANDSHAKE_TIMEOUT_NANOS));
                        }
                        close(k);
                    }
                }
            }
        } catch (IOException | ClosedSelectorException e) {
            if (!stopping) {
                LOG.log(System.Logger.Level.ERROR, "tcp: acceptor of " + ctx + " stopped: " + e, e);
            }
        } finally {
            for (SelectionKey k : selector.keys()) {
                if (k.channel() != listener) {
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

    private void accept() throws IOException {
        SocketChannel ch;
        while ((ch = listener.accept()) != null) {
            String remote = String.valueOf(ch.getRemoteAddress());
            try {
                ctx.configure(ch);
                ch.register(selector, SelectionKey.OP_READ,
                        new Pending(System.nanoTime() + HANDSHAKE_TIMEOUT_NANOS, new Handshake.Decoder(ctx.jobKey(), ctx.rank()), remote));
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "tcp: cannot set up a connection from {0}: {1}", remote, e.getMessage());
                ch.close();
            }
        }
    }

    private void read(SelectionKey k, ByteBuffer sink) {
        Pending p = (Pending) k.attachment();
        SocketChannel ch = (SocketChannel) k.channel();
        try {
            if (p.decoder == null) { // lingering: discard until the peer's FIN
                sink.clear();
                if (ch.read(sink) < 0) {
                    close(k);
                }
                return;
            }
            // Read the fixed part, then the key and URL it announces, as far as bytes are there.
            while (!p.decoder.advance()) {
                int n = ch.read(p.decoder.buffer());
                if (n < 0) {
                    LOG.log(System.Logger.Level.WARNING, "tcp: connection from {0} closed during its handshake", p.remote);
                    close(k);
                    return;
                }
                if (n == 0) {
                    return; // the rest comes with a later readiness
                }
            }
            if (p.decoder.rejection() != null) {
                LOG.log(System.Logger.Level.WARNING, "tcp: refused a connection from {0}: {1}", p.remote, p.decoder.rejection());
                close(k);
                return;
            }
            k.cancel();
            ByteBuffer reply = Handshake.reply();
            long deadline = System.nanoTime() + HANDSHAKE_TIMEOUT_NANOS;
            while (reply.hasRemaining()) { // 8 bytes into an empty socket buffer: one write in practice
                ch.write(reply);
                if (reply.hasRemaining() && System.nanoTime() - deadline > 0) {
                    throw new IOException("handshake reply not written in time");
                }
            }
            ctx.accepted(ch, p.decoder.hello().senderUrl());
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "tcp: connection from {0} failed during its handshake: {1}", p.remote, e.getMessage());
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
