package dev.ferry.driver.shm;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.IdleStrategy;
import dev.ferry.spi.Status;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The connection half of a shm instance: finding the peer's context file, creating or attaching
 * the channel (its rings and rendezvous slots) with a deadline, watching that the peer process
 * lives, and the connection's end (disconnected here, by the peer, broken, or the context closed).
 * {@link ShmInstance} adds the packets sent, pulled and received over the channel.
 */
abstract sealed class ShmConnection implements DriverInstance permits ShmInstance {
    ShmConnection(ShmContext ctx) {
        this.ctx = ctx;
        this.errno = Native.errnoCapture(ctx.arena);
    }

    static final System.Logger LOG = dev.ferry.spi.LazyLogger.of(ShmInstance.class);

    static final Pattern CONTEXT_NAME = Pattern.compile("ferry-([A-Za-z0-9_.]+)-(r\\d+-p\\d+-c\\d+)\\.ctx");

    static final long LIVENESS_NANOS = 5_000_000L;

    static final long CONNECT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(20);

    static final int NEW = 0, CONNECTING = 1, CONNECTED = 2, DISCONNECTED = 3, BROKEN = 4, CLOSED = 5;

    final ShmContext ctx;

    volatile int state = NEW;

    Path peerFile;

    /** The connection request could not be published yet (the peer's slots were full). */
    boolean requestPending;

    MemorySegment peerCtx;

    long peerPid;

    long peerStart;

    volatile Path chanFile;

    boolean creator;

    Arena chanArena;

    /** The channel's mapping while its creator finishes it (non-creating side), else null. */
    private Arena pendingArena;
    private MemorySegment pendingMap;

    Channel ch;

    Rendezvous rv;

    SplitPull split;

    long deadline;

    final MemorySegment errno;

    long nextLiveness;

    volatile boolean peerDied;

    volatile boolean goneReported;

    int emptyPolls;

    ExposureSlots exposures;

    /** This connection receives through a ring of its own, counted by the context until it ends. */
    private boolean ringTaken;

    /** The sender id of our shared queue this connection's peer writes, or 0 when it receives through a ring. */
    volatile int queueId;

    /** The peer's context said it receives from everyone through rings: as creator, we may send before it attached. */
    private boolean peerRingsAlways;

    // ---- connection -------------------------------------------------------------------------

    /**
     * Maps a range of the peer's shared arena named by a {@link ShmLayout share key}: a slice of
     * the peer's arena file, mapped once per context. Null before connecting, for a key of the
     * wrong size, or one that names no arena or lies outside it.
     */
    @Override
    public MemorySegment mapShared(byte[] key) {
        Path p = peerFile;
        if (p == null || key == null || key.length != ShmLayout.SHARE_KEY_BYTES) {
            return null;
        }
        MemorySegment k = MemorySegment.ofArray(key);
        long number = k.get(ValueLayout.JAVA_LONG_UNALIGNED, ShmLayout.SHARE_ARENA);
        long offset = k.get(ValueLayout.JAVA_LONG_UNALIGNED, ShmLayout.SHARE_OFFSET);
        long length = k.get(ValueLayout.JAVA_LONG_UNALIGNED, ShmLayout.SHARE_LENGTH);
        MemorySegment arena = ctx.peerArena(p, number);
        if (arena == null || offset < 0 || length <= 0 || offset > arena.byteSize() - length) {
            return null;
        }
        return arena.asSlice(offset, length);
    }

    /**
     * Whether this instance is becoming the connection to the context in that file: its peer's
     * request is the answer to our own. A connected instance serves no new request: after an idle
     * close the peer may connect anew while our old connection has not yet ended here.
     */
    boolean servesPeer(String peerFileName) {
        Path p = peerFile;
        return p != null && state == CONNECTING && p.getFileName().toString().equals(peerFileName);
    }

    @Override
    public Status connectAsync(DriverUrl remote) {
        if (state >= DISCONNECTED) {
            return terminal();
        }
        if (state != NEW || remote == null) {
            return Status.INVALID;
        }
        String text;
        try {
            text = new String(remote.first(), StandardCharsets.US_ASCII);
        } catch (IllegalArgumentException e) {
            return Status.INVALID;
        }
        var m = CONTEXT_NAME.matcher(text.startsWith(ShmContext.URL_PREFIX) ? text.substring(ShmContext.URL_PREFIX.length()) : "");
        if (!m.matches()) {
            return Status.INVALID;
        }
        if (!m.group(1).equals(ctx.job)) {
            LOG.log(System.Logger.Level.WARNING, "shm: {0} belongs to job {1}, not to this job {2}", text, m.group(1), ctx.job);
            return Status.INVALID;
        }
        int cmp = Arrays.compareUnsigned(ctx.urlBytes(), remote.encoded());
        if (cmp == 0) {
            return Status.INVALID; // a context does not connect to itself
        }
        peerFile = ShmFiles.DIR.resolve(text.substring(ShmContext.URL_PREFIX.length()));
        try {
            peerCtx = ShmFiles.open(peerFile, ctx.arena);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "shm: cannot map {0}: {1}", peerFile, e.getMessage());
            return fail("cannot map the peer's segment");
        }
        if (peerCtx == null) {
            return fail("no such context " + peerFile + " (gone, or on another node)");
        }
        String bad = ShmFiles.check(peerCtx, ShmLayout.KIND_CONTEXT, peerFile);
        if (bad == null && !ShmFiles.isReady(peerCtx)) {
            bad = peerFile + " was never finished by its creator";
        }
        if (bad != null) {
            LOG.log(System.Logger.Level.WARNING, "shm: cannot connect: {0}", bad);
            return Status.INVALID;
        }
        peerPid = peerCtx.get(ValueLayout.JAVA_LONG, ShmLayout.OWNER_PID_OFFSET);
        peerStart = peerCtx.get(ValueLayout.JAVA_LONG, ShmLayout.OWNER_START_OFFSET);
        if (!ShmFiles.processAlive(peerPid, peerStart)) {
            return fail("the process " + peerPid + " of " + peerFile + " is gone");
        }
        creator = cmp < 0;
        peerRingsAlways = peerCtx.get(ValueLayout.JAVA_INT, ShmLayout.RINGS_ALWAYS_OFFSET) == 1;
        requestPending = !ctx.postRequest(peerCtx);
        String low = creator ? ctx.key : m.group(2);
        String high = creator ? m.group(2) : ctx.key;
        // the n-th connection of the two contexts on each side meet in the n-th channel: a
        // reconnect never maps a channel whose previous users are still leaving it
        int generation = ctx.nextChannel(m.group(2));
        chanFile = ShmFiles.DIR.resolve("ferry-" + ctx.job + "-" + low + "-" + high + "-g" + generation + ".chan");
        deadline = System.nanoTime() + CONNECT_TIMEOUT_NANOS;
        state = CONNECTING;
        if (creator) {
            chanArena = Arena.ofShared();
            try {
                MemorySegment map = ShmFiles.createFresh(chanFile, ShmLayout.CHANNEL_BYTES, chanArena);
                ShmFiles.writeHeader(map, ShmLayout.KIND_CHANNEL, ctx.pid, ctx.start);
                ch = new Channel(chanFile, map, 0, peerCtx, errno);
                rv = new Rendezvous(ctx, ch, peerPid, peerFile, chanArena);
                split = new SplitPull(ch, peerPid, chanArena, ctx.splitChunksWritten);
                exposures = new ExposureSlots(ch);
                ch.setWeReadPeer(rv.probe(peerCtx.get(ValueLayout.JAVA_LONG, ShmLayout.CONTEXT_ADDRESS_OFFSET)));
                chooseReceiving();
                ShmFiles.markReady(map);
            } catch (IOException e) {
                return fail("cannot set up " + chanFile + ": " + e.getMessage());
            }
        } else {
            tryAttach();
        }
        return state == BROKEN ? Status.BROKEN : Status.DONE;
    }

    /**
     * The non-creating side: maps the channel once its creator has sized it, and attaches once the
     * creator has finished it. The mapping is made once and kept while the creator works: closing
     * a shared arena stops every thread of the process for a handshake, which a poll per pass
     * made the largest cost of a job's start on a loaded machine.
     */
    void tryAttach() {
        if (pendingMap == null) {
            try (java.nio.channels.FileChannel fc = ShmFiles.openOwn(chanFile, true)) {
                if (fc == null || fc.size() < ShmLayout.CHANNEL_BYTES) {
                    return; // not there yet
                }
                Arena a = Arena.ofShared();
                try {
                    pendingMap = fc.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, fc.size(), a);
                } catch (IOException | RuntimeException e) {
                    a.close();
                    throw e;
                }
                pendingArena = a;
            } catch (IOException e) {
                fail("cannot map " + chanFile + ": " + e.getMessage());
                return;
            }
        }
        if (!ShmFiles.isReady(pendingMap)) {
            return;
        }
        MemorySegment map = pendingMap;
        Arena a = pendingArena;
        pendingMap = null;
        pendingArena = null;
        String bad = ShmFiles.check(map, ShmLayout.KIND_CHANNEL, chanFile);
        if (bad != null) {
            a.close();
            LOG.log(System.Logger.Level.WARNING, "shm: cannot connect: {0}", bad);
            fail(bad);
            return;
        }
        chanArena = a;
        ch = new Channel(chanFile, map, 1, peerCtx, errno);
        rv = new Rendezvous(ctx, ch, peerPid, peerFile, chanArena);
        split = new SplitPull(ch, peerPid, chanArena, ctx.splitChunksWritten);
        exposures = new ExposureSlots(ch);
        ch.setWeReadPeer(rv.probe(peerCtx.get(ValueLayout.JAVA_LONG, ShmLayout.CONTEXT_ADDRESS_OFFSET)));
        try {
            chooseReceiving();
            chooseSending();
        } catch (IOException e) {
            fail("cannot set up the shared queue: " + e.getMessage());
            return;
        }
        map.set(ValueLayout.JAVA_LONG, ShmLayout.OWNER2_START_OFFSET, ctx.start);
        Channel.LONG.setVolatile(map, ShmLayout.OWNER2_PID_OFFSET, ctx.pid);
        state = CONNECTED;
        ch.signalPeer();
    }

    /**
     * How we receive from this peer, said in our side of the channel before we announce ourselves:
     * a ring of our own while the context has rings left ({@code FERRY_SHM_RINGS}), else our shared
     * queue under a sender id of the peer's.
     */
    private void chooseReceiving() throws IOException {
        if (ctx.receiving.takeRing()) {
            ringTaken = true;
            ch.receiveThroughRing();
            return;
        }
        SharedQueue own = ctx.receiving.ownQueue(ctx.file());
        int id = ctx.receiving.enlist((ShmInstance) this);
        if (id == 0) {
            throw new IOException("the shared queue has no sender id left");
        }
        queueId = id;
        ch.receiveThroughQueue(own, id, ctx.receiving::signalPeers);
    }

    /** How we send to this peer: as it chose (read once it announced itself). Its queue is mapped for this connection. */
    private void chooseSending() throws IOException {
        if (ch.peerReceiveMode() != ShmLayout.RECEIVE_QUEUE) {
            return;
        }
        Path f = ReceiveResources.queueFile(peerFile);
        MemorySegment m = ShmFiles.open(f, chanArena);
        String bad = m == null ? f + " does not exist" : ShmFiles.check(m, ShmLayout.KIND_QUEUE, f);
        if (bad != null) {
            throw new IOException(bad);
        }
        ch.sendThroughQueue(new SharedQueue(f, m), ch.peerSenderId(), ctx.pid);
    }

    /** Moves set-up forward without blocking; fails it past the deadline or when the peer is gone. */
    void progressConnect() {
        if (state != CONNECTING) {
            return;
        }
        if (requestPending) {
            requestPending = !ctx.postRequest(peerCtx);
        }
        if (creator) {
            if ((long) Channel.LONG.getVolatile(ch.map, ShmLayout.OWNER2_PID_OFFSET) != 0) {
                try {
                    chooseSending();
                } catch (IOException e) {
                    fail("cannot map the peer's shared queue: " + e.getMessage());
                    return;
                }
                state = CONNECTED;
                return;
            }
        } else {
            tryAttach();
            if (state != CONNECTING) {
                return;
            }
        }
        checkPeerAlive();
        if (peerDied) {
            fail("the peer process " + peerPid + " died during set-up");
        } else if (System.nanoTime() - deadline > 0) {
            fail("connection not established within " + TimeUnit.NANOSECONDS.toSeconds(CONNECT_TIMEOUT_NANOS) + " s");
        }
    }

    @Override
    public Status connectWait() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment timeout = ShmContext.timespec(a, 1_000_000L);
            MemorySegment errno = Native.errnoCapture(a);
            // spins briefly, then sleeps in the context's futex wait (1 ms at most), which the peer's attach ends
            IdleStrategy wait = IdleStrategy.DEFAULT.withSleep(n -> ctx.sleep(() -> state != CONNECTING, errno, timeout), 20_000L);
            return wait.until(this::connectState);
        }
    }

    /** What connectWait answers now: NOT_YET while the connection is being made (moved on here). */
    private Status connectState() {
        int s = state;
        if (s == CONNECTED) {
            return Status.DONE;
        }
        if (s == NEW) {
            return Status.INVALID;
        }
        if (s >= DISCONNECTED) {
            return terminal();
        }
        progressConnect();
        return state == CONNECTING ? Status.NOT_YET : connectState();
    }

    @Override
    public Status disconnect() {
        ctx.retire((ShmInstance) this); // whatever the answer, the instance is done: the context forgets it
        int s = state;
        if (s >= DISCONNECTED) {
            return terminal();
        }
        state = DISCONNECTED;
        leave(ShmLayout.SIDE_DISCONNECTED);
        return Status.DONE;
    }

    void contextClosed() {
        int s = state;
        state = CLOSED;
        if (s <= CONNECTED) {
            leave(ShmLayout.SIDE_CLOSED); // no disconnect: to the peer, this side died
        }
    }

    /** Marks this side gone; the last side out (or the one outliving a dead peer) removes the file. */
    void leave(int how) {
        if (ch == null) {
            dropPending();
            return;
        }
        ch.abandon();
        giveBack();
        ch.setMyState(how);
        boolean peerAttached = !creator || (long) Channel.LONG.getVolatile(ch.map, ShmLayout.OWNER2_PID_OFFSET) != 0;
        if (!peerAttached || ch.peerState() != ShmLayout.SIDE_OPEN || !ShmFiles.processAlive(peerPid, peerStart)) {
            ShmFiles.delete(chanFile);
        }
        try {
            chanArena.close();
        } catch (IllegalStateException e) {
            // another thread of ours is inside a call on it; the mapping goes with the context
        }
    }

    /** Gives the context back the ring or the queue sender id this connection took. */
    private void giveBack() {
        if (ringTaken) {
            ringTaken = false;
            ctx.receiving.giveRing();
        }
        int id = queueId;
        if (id != 0) {
            ctx.receiving.delist(id);
        }
    }

    /** Unmaps a channel mapped while its creator was still at work, when the connection ends before it attached. */
    private void dropPending() {
        Arena a = pendingArena;
        pendingArena = null;
        pendingMap = null;
        if (a != null) {
            try {
                a.close();
            } catch (IllegalStateException e) {
                // another thread of ours is inside a call on it; the mapping goes with the context
            }
        }
    }

    /** {@link #fail} for a copy that answered {@code -errno}: ESRCH says the peer process is gone. */
    Status failErrno(long negErrno, String what) {
        int e = (int) -negErrno;
        return fail(e == Native.ESRCH ? "the peer process is gone" : what + " failed with errno " + e);
    }

    Status fail(String why) {
        if (state < DISCONNECTED) {
            state = BROKEN;
            LOG.log(System.Logger.Level.INFO, "shm: connection to {0} broken: {1}", peerFile, why);
            if (ch != null) {
                leave(ShmLayout.SIDE_CLOSED);
            } else if (creator && chanFile != null) {
                ShmFiles.delete(chanFile);
            } else {
                dropPending();
            }
        }
        return Status.BROKEN;
    }

    Status terminal() {
        return state == BROKEN ? Status.BROKEN : Status.CLOSED;
    }

    /** Looks at most every few milliseconds whether the peer's process still exists. Any thread. */
    void checkPeerAlive() {
        long now = System.nanoTime();
        if (peerPid != 0 && now - nextLiveness >= 0) {
            nextLiveness = now + LIVENESS_NANOS;
            if (!Native.alive(errno, peerPid)) {
                peerDied = true;
            }
        }
    }

    /** Null when the connection can carry traffic now, else what to answer. */
    Status ready(boolean sending) {
        int s = state;
        if (s == CONNECTING) {
            progressConnect();
            s = state;
            if (s == CONNECTING && !(creator && sending && peerRingsAlways)) {
                return Status.NOT_YET;
            }
        }
        if (s == CONNECTED || s == CONNECTING) {
            return null;
        }
        return s == NEW ? Status.INVALID : terminal();
    }

    /** What a side with nothing more to read answers: the peer's departure, or not yet. */
    Status drained() {
        int ps = ch.peerState();
        if (ps == ShmLayout.SIDE_DISCONNECTED) {
            if (ch.hasIncoming() || ch.unconsumed()) {
                // the peer's last packets and its departure came between our look at the ring and
                // at its state (it publishes them in that order): they are read first
                return Status.NOT_YET;
            }
            goneReported = true;
            state = DISCONNECTED;
            leave(ShmLayout.SIDE_DISCONNECTED);
            return Status.CLOSED;
        }
        // Liveness only every 1024 empty polls: reading the clock on each would slow a busy
        // poller's noticing of the next packet (and steal cycles from a sibling hyperthread).
        if ((++emptyPolls & 1023) == 0) {
            checkPeerAlive();
        }
        if (ps == ShmLayout.SIDE_CLOSED || peerDied) {
            goneReported = true;
            return fail(ps == ShmLayout.SIDE_CLOSED ? "the peer closed without disconnecting" : "the peer process " + peerPid + " is gone");
        }
        return Status.NOT_YET;
    }

    /** For probe-any: data waiting, or a departure not reported yet. */
    boolean hasIncoming() {
        if (state != CONNECTED || ch == null) {
            return false;
        }
        return ch.hasIncoming() || (queueId != 0 && ctx.receiving.headStale()) || (!goneReported && (peerDied || ch.peerState() != ShmLayout.SIDE_OPEN));
    }

    /** At the JVM's end, before close: the channel's file (of no use once this process is gone). */
    void removeChannelFile() {
        Path f = chanFile;
        if (f != null) {
            ShmFiles.delete(f);
        }
    }
}
