package dev.ferry.driver.tcp;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.IdleStrategy;
import dev.ferry.spi.Status;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The connection half of a tcp instance: its life from connectAsync (the set-up thread dials or
 * the peer's connection is awaited, with a deadline) through CONNECTED to its end (disconnected
 * here, closed by the peer, broken, or the context closed), and the socket calls that check that
 * it is still up. {@link TcpInstance} adds the frames sent and received on it.
 */
abstract sealed class TcpConnection implements DriverInstance permits TcpInstance {
    TcpConnection(TcpContext ctx) {
        this.ctx = ctx;
    }

    /** This connection as the instance it is (the only kind: the class is sealed), for the context's tables. */
    private TcpInstance self() {
        return (TcpInstance) this;
    }

    /** Fails every send still queued: the connection ended. */
    abstract void failQueued();

    static final System.Logger LOG = dev.ferry.spi.LazyLogger.of(TcpInstance.class);

    static final int NEW = 0, CONNECTING = 1, HANDSHAKING = 2, AWAITING = 3, CONNECTED = 4;

    /** Terminal states, from here on: */
    static final int DISCONNECTED = 5, PEER_CLOSED = 6, BROKEN = 7, CLOSED = 8;

    final TcpContext ctx;

    volatile int state = NEW;

    volatile String failure = "";

    List<TcpAddress> targets;

    /** The peer context's encoded URL, once connectAsync was called. */
    volatile byte[] remoteUrl;

    long deadline;
    /** While awaiting the peer's connection: when to ask it again (a dead peer refuses, and the set-up fails then). */
    private long askAgain;
    static final long ASK_AGAIN_NANOS = 1_000_000_000L;

    volatile SocketChannel channel;

    SelectionKey key;

    /** TLS over this connection, or null: its bytes go as they are. */
    TlsChannel tls;

    /** Once up: what the TLS engine already holds counts as buffered (the selector will not report it). */
    abstract void tlsEstablished();

    /** Reads through TLS when on, else from the channel: bytes read, 0 when none is there yet, -1 at the end. */
    int read(java.nio.ByteBuffer dst) throws IOException {
        return tls != null ? tls.read(dst) : channel.read(dst);
    }

    /** Writes through TLS when on, else to the channel, as much as the socket takes now: the bytes of {@code src} taken. */
    long write(java.nio.ByteBuffer src) throws IOException {
        return tls != null ? tls.write(src) : channel.write(src);
    }

    /** A gathering {@link #write(java.nio.ByteBuffer)}. */
    long write(java.nio.ByteBuffer[] srcs, int offset, int length) throws IOException {
        return tls != null ? tls.write(srcs, offset, length) : channel.write(srcs, offset, length);
    }

    /** Direct calls on the socket's descriptor for small reads and writes, or null: the channel's own. */
    SocketCalls calls;

    /**
     * Set around each direct call. A context that closes from another thread sets the state, then
     * waits for this to clear before it closes the channel: a direct call never reaches a
     * descriptor number the kernel may have given to something else since.
     */
    @SuppressWarnings("unused")
    volatile boolean inCall;

    static final java.lang.invoke.VarHandle IN_CALL;

    static {
        try {
            IN_CALL = java.lang.invoke.MethodHandles.lookup().findVarHandle(TcpInstance.class, "inCall", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Whether this instance is becoming the connection to the context with that URL: the peer's
     * request is the answer to our own. A connected instance serves no new request: after an idle
     * close the peer may connect anew while our old connection has not yet ended here.
     */
    boolean servesPeer(byte[] url) {
        byte[] r = remoteUrl;
        return r != null && state < CONNECTED && Arrays.equals(r, url);
    }

    /** Whether small reads and writes go straight to the descriptor ({@link SocketCalls}). */
    boolean usesDirectCalls() {
        return calls != null;
    }

    // ---- connection -------------------------------------------------------------------------

    @Override
    public Status connectAsync(DriverUrl remote) {
        if (state >= DISCONNECTED) {
            return terminalStatus();
        }
        if (state != NEW || remote == null) {
            return Status.INVALID;
        }
        List<TcpAddress> parsed = new ArrayList<>();
        try {
            for (byte[] part : remote.parts()) {
                parsed.add(TcpAddress.parse(part));
            }
        } catch (IllegalArgumentException e) {
            return Status.INVALID;
        }
        byte[] remoteUrl = remote.encoded();
        int cmp = Arrays.compareUnsigned(ctx.urlBytes(), remoteUrl);
        if (cmp == 0) {
            return Status.INVALID; // a context does not connect to itself; the self driver does that
        }
        targets = parsed;
        this.remoteUrl = remoteUrl;
        deadline = System.nanoTime() + ctx.connectTimeoutNanos();
        askAgain = System.nanoTime() + ASK_AGAIN_NANOS;
        if (cmp < 0) {
            state = CONNECTING;
            ctx.connect(new SetupThread.Outgoing(self(), parsed, deadline, false));
        } else {
            state = AWAITING;
            if (!ctx.await(self(), remoteUrl)) {
                // The peer connects, but it may not know it should (connections are made on first
                // use): ask it to, with a request it reports through acceptProbe.
                askPeer();
            }
        }
        return state == BROKEN ? Status.BROKEN : Status.DONE;
    }

    /**
     * The connection is up (from the set-up thread, or from {@code connectAsync} when the peer's
     * connection had already arrived). Watched by the context's selector from now on.
     */
    void established(SocketChannel ch, TlsChannel tls) {
        synchronized (this) {
            if (state >= DISCONNECTED) {
                TcpContext.closeChannel(ch); // given up meanwhile
                return;
            }
            channel = ch;
            this.tls = tls;
            calls = ctx.directCalls() && tls == null ? SocketCalls.of(ch) : null; // TLS reads and writes through its engine
            tlsEstablished();
            if (ctx.directCalls() && calls == null) {
                LOG.log(System.Logger.Level.DEBUG, "tcp: no descriptor found for {0}: its reads and writes go through the channel", ch);
            }
            try {
                key = ch.register(ctx.selector(), SelectionKey.OP_READ, this);
            } catch (IOException | java.nio.channels.ClosedSelectorException e) {
                TcpContext.closeChannel(ch);
                failure = "cannot watch the connection: " + e;
                state = BROKEN;
                return;
            }
            state = CONNECTED;
        }
        ctx.selector().wakeup(); // a wait-any in progress starts watching it now
        unpark();
    }

    /** Set-up failed (from the set-up thread, or past the deadline). */
    void setupFailed(String reason) {
        synchronized (this) {
            if (state >= CONNECTED) {
                return;
            }
            failure = reason;
            state = BROKEN;
        }
        ctx.forget(self());
        LOG.log(System.Logger.Level.INFO, "tcp: connection to {0} failed: {1}", targets, reason);
        unpark();
    }

    volatile Thread connectWaiter;

    void unpark() {
        Thread t = connectWaiter;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Before the connection is up: fails it once the deadline has passed. */
    void checkDeadline() {
        long now = System.nanoTime();
        if (state < CONNECTED && state != NEW && now - deadline > 0) {
            setupFailed("connection not established within " + ctx.connectTimeoutNanos() / 1_000_000 + " ms");
        } else if (state == AWAITING && now - askAgain > 0) {
            // The peer may have died since it was asked to connect (connections are reopened after an
            // idle close at any time): asking again every second finds out, as the ask is refused.
            askAgain = now + ASK_AGAIN_NANOS;
            askPeer();
        }
    }

    /** Asks the peer to connect to us (a request it reports through acceptProbe); a refusal fails the set-up. */
    private void askPeer() {
        ctx.connect(new SetupThread.Outgoing(self(), targets, deadline, true));
    }

    @Override
    public Status connectWait() {
        connectWaiter = Thread.currentThread();
        try {
            return CONNECT_WAIT.until(this::connectState);
        } finally {
            connectWaiter = null;
        }
    }

    /** A connect wait spins briefly, then parks for a millisecond at a time: established() or setupFailed() unparks it. */
    private static final IdleStrategy CONNECT_WAIT = IdleStrategy.DEFAULT.withSleep(IdleStrategy.park(1_000_000L), 20_000L);

    /** What connectWait answers now: NOT_YET while the connection is being made (failed once past its deadline). */
    private Status connectState() {
        int s = state;
        if (s == CONNECTED) {
            return Status.DONE;
        }
        if (s == NEW) {
            return Status.INVALID;
        }
        if (s >= DISCONNECTED) {
            return terminalStatus();
        }
        checkDeadline();
        return Status.NOT_YET;
    }

    void contextClosed() {
        SocketChannel ch;
        synchronized (this) {
            ch = state < DISCONNECTED || state == PEER_CLOSED ? channel : null;
            state = CLOSED;
        }
        if (ch != null) {
            awaitNoCall();
            TcpContext.closeChannel(ch); // no BYE: to the peer, this side died
        }
        unpark();
    }

    /** The connection ended while up (called on the instance's own calls, never by other threads). */
    void fail(Status why, String reason) {
        synchronized (this) {
            if (state >= DISCONNECTED) {
                return;
            }
            failure = reason;
            state = why == Status.CLOSED ? PEER_CLOSED : BROKEN;
        }
        LOG.log(why == Status.BROKEN ? System.Logger.Level.INFO : System.Logger.Level.DEBUG,
                "tcp: connection to {0} ended: {1}", remoteName(), reason);
        if (channel != null) {
            TcpContext.closeChannel(channel);
        }
        failQueued();
    }

    /** What a call on an instance in a terminal state answers. */
    Status terminalStatus() {
        return switch (state) {
            case BROKEN -> Status.BROKEN;
            default -> Status.CLOSED; // disconnected here, closed by the peer, or context closed
        };
    }

    String failure() {
        return failure;
    }

    /**
     * A direct recv or send, unless the connection is no longer up: then 0, as for nothing there
     * yet or a full socket (the caller finds out next).
     */
    int direct(boolean receive, long address, long len) throws IOException {
        IN_CALL.setVolatile(this, true); // before reading the state: see inCall
        try {
            if (state != CONNECTED) {
                return 0;
            }
            return receive ? calls.recv(address, len) : calls.send(address, len);
        } finally {
            IN_CALL.setRelease(this, false);
        }
    }

    /** Until no direct call is in progress (one that saw the connection up); called after the state left CONNECTED. */
    void awaitNoCall() {
        for (int i = 0; (boolean) IN_CALL.getVolatile(this); i++) {
            if (i < 1000) {
                Thread.onSpinWait();
            } else {
                Thread.yield(); // the caller was descheduled mid-call: a non-blocking call ends soon
            }
        }
    }

    String remoteName() {
        try {
            return channel != null ? String.valueOf(channel.getRemoteAddress()) : "peer";
        } catch (IOException e) {
            return "peer";
        }
    }
}
