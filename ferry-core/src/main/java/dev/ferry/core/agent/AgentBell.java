package dev.ferry.core.agent;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * How the node's agent sleeps when it has nothing to do, and how it is woken: one selector holds
 * its links to other nodes' agents (their data wakes it) and a Unix socket beside the agent's own,
 * the bell, to which each rank keeps a connection. Before it sleeps the agent says so in every
 * rank's channel ({@link ChannelLayout#AGENT_SLEEPS}); a rank that then posts a command or a record
 * takes the word back and writes one byte to its bell connection ({@link Ringer}), which ends the
 * sleep. Both sides write their word and then read the other's (a full fence between), so either
 * the agent sees the rank's work before it sleeps, or the rank sees that it sleeps: no wake-up is
 * lost. A rank that connects or hangs up wakes it too (its bell connection's accept, or its end).
 * Idle, the agent costs nothing but a wake-up each {@link #MAX_SLEEP_NANOS}, which moves its beat,
 * and those its timers ask for (a link to close when idle).
 *
 * <pre>{@code
 * AgentBell bell = AgentBell.listen(socket);            // the agent
 * bell.sleep(100_000_000L);       // until a rank rings or connects, a link has data, or 100 ms
 * SocketChannel c = AgentBell.Ringer.dial(socket, bound); // a rank, once it sent its greeting
 * AgentBell.Ringer r = new AgentBell.Ringer(c, channel);    // once admitted
 * r.ring();                       // after posting work: wakes the agent if it sleeps
 * }</pre>
 */
final class AgentBell implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(AgentBell.class.getName());
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    /**
     * The longest sleep unless told otherwise: the agent's beat, by which a waiting rank sees it
     * live, moves at least this often.
     */
    static final long MAX_SLEEP_NANOS = 100_000_000L;

    private final Path path;
    private final Selector selector;
    private final ServerSocketChannel listener;
    private final List<SocketChannel> conns = new ArrayList<>();
    private final ByteBuffer drain = ByteBuffer.allocateDirect(64);

    private AgentBell(Path path, Selector selector, ServerSocketChannel listener) {
        this.path = path;
        this.selector = selector;
        this.listener = listener;
    }

    /** The bell of the agent listening at {@code socket}: a socket file beside it. */
    static Path path(Path socket) {
        return socket.resolveSibling(socket.getFileName() + ".bell");
    }

    /** Listens at the bell of the agent listening at {@code socket}, a file only this user may connect to (a dead agent's is taken over). */
    static AgentBell listen(Path socket) {
        Path p = path(socket);
        Selector s = null;
        ServerSocketChannel l = null;
        try {
            Files.deleteIfExists(p); // the agent's own socket is this path's guard: whoever listens there owns the bell
            s = Selector.open();
            l = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            l.bind(UnixDomainSocketAddress.of(p), 64);
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
            l.configureBlocking(false);
            l.register(s, SelectionKey.OP_ACCEPT, LISTENER);
            return new AgentBell(p, s, l);
        } catch (IOException | RuntimeException e) {
            closeQuietly(l);
            closeQuietly(s);
            throw new AgentException("the agent cannot listen at its bell " + p + ": " + e.getMessage());
        }
    }

    /**
     * The selector the links register with as they open (and the link listener as it is made):
     * their data, or a call, ends a sleep.
     */
    Selector selector() {
        return selector;
    }

    /**
     * Says in a rank's channel whether the agent sleeps. Before a sleep the agent says so in every
     * channel, then (after a full fence) looks once more for work, and sleeps only if there is
     * none; after it, it takes the word back (a rank that rang took it back already).
     */
    static void sleeps(MemorySegment channel, boolean sleeps) {
        if (sleeps) {
            INT.setVolatile(channel, ChannelLayout.AGENT_SLEEPS, 1);
        } else {
            INT.setRelease(channel, ChannelLayout.AGENT_SLEEPS, 0);
        }
    }

    /**
     * Sleeps until a rank rings, connects or hangs up, a watched link has data, {@link #wakeup}, or
     * {@code maxNanos} (rounded up to a millisecond); then reads what the bell connections
     * brought. A link closed since the last sleep leaves the selector here, its file descriptor
     * with it (the JDK shut its output at the close already). Whether a bell connection came or ended (the agent then
     * looks for new ranks and for ranks that hung up at once).
     */
    boolean sleep(long maxNanos) {
        long millis = Math.max(1, (Math.max(0, maxNanos) + 999_999L) / 1_000_000L);
        changed = false;
        try {
            selector.select(onKey, millis); // a link's key needs nothing: the pass that follows reads it
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "agent: its sleep failed: {0}", e.toString());
        }
        return changed;
    }

    /** Whether a bell connection came or ended in this sleep. */
    private boolean changed;
    /** What a sleep does with a key that is ready (made once: a sleep allocates nothing). */
    private final java.util.function.Consumer<SelectionKey> onKey = k -> {
        if (k.attachment() == LISTENER) {
            changed |= accept();
        } else if (k.attachment() == CONNECTION) {
            changed |= !drain((SocketChannel) k.channel());
        }
    };
    /** The attachments of the bell's own keys. */
    private static final Object LISTENER = "bell listener", CONNECTION = "bell connection";

    private boolean accept() {
        boolean any = false;
        try {
            for (SocketChannel c; (c = listener.accept()) != null; ) {
                c.configureBlocking(false);
                c.register(selector, SelectionKey.OP_READ, CONNECTION);
                conns.add(c);
                any = true;
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "agent: accepting at its bell failed: {0}", e.toString());
        }
        return any;
    }

    /** Reads what {@code c} brought; false when it ended (and is closed). */
    private boolean drain(SocketChannel c) {
        try {
            for (int n; (n = c.read(drain.clear())) != 0; ) {
                if (n < 0) {
                    conns.remove(c);
                    c.close();
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            conns.remove(c);
            closeQuietly(c);
            return false;
        }
    }

    /** Ends a sleep now, or the next one at once (from any thread). */
    void wakeup() {
        selector.wakeup();
    }

    @Override
    public void close() {
        for (SocketChannel c : conns) {
            closeQuietly(c);
        }
        conns.clear();
        closeQuietly(listener);
        closeQuietly(selector);
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "agent: cannot remove its bell {0}: {1}", path, e.toString());
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // closing anyway
            }
        }
    }

    /**
     * A rank's side of the bell: after it posted a command or a record, {@link #ring} wakes the
     * agent if the agent said it sleeps. Costs a fence and a read of shared memory when the agent
     * is awake, a write of one byte when it sleeps. From any thread of the rank.
     */
    static final class Ringer implements AutoCloseable {
        private final SocketChannel bell;
        private final MemorySegment channel;
        private final ByteBuffer one = ByteBuffer.allocateDirect(1);

        /** Rings on {@code bell} (from {@link #dial}) the agent whose channel to this rank is {@code channel}. */
        Ringer(SocketChannel bell, MemorySegment channel) {
            this.bell = bell;
            this.channel = channel;
        }

        /**
         * Connects to the bell of the agent listening at {@code socket}: after the rank's greeting,
         * so that the connection wakes a sleeping agent to read it. An agent binds its bell just
         * after its socket: a rank that came between tries again, for at most {@code bound}.
         */
        static SocketChannel dial(Path socket, java.time.Duration bound) {
            Path p = path(socket);
            long start = System.nanoTime();
            for (; ; ) {
                try {
                    SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(p));
                    c.configureBlocking(false);
                    return c;
                } catch (IOException e) {
                    long waited = System.nanoTime() - start;
                    if (waited > bound.toNanos()) {
                        throw new AgentException("cannot connect to the agent's bell " + p + " within " + bound + ": " + e.getMessage());
                    }
                    dev.ferry.spi.IdleStrategy.DEFAULT.idle(waited, bound.toNanos() - waited);
                }
            }
        }

        /** Wakes the agent if it sleeps: call after the work is posted (the fence orders the post before the look). */
        void ring() {
            VarHandle.fullFence();
            if ((int) INT.getVolatile(channel, ChannelLayout.AGENT_SLEEPS) != 0 && INT.compareAndSet(channel, ChannelLayout.AGENT_SLEEPS, 1, 0)) {
                write();
            }
        }

        private synchronized void write() {
            try {
                bell.write(one.clear()); // a byte in a socket the agent drains: it never fills
            } catch (IOException e) {
                // the agent is gone: the rank's liveness check says so
            }
        }

        @Override
        public void close() {
            try {
                bell.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
