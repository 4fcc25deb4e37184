package dev.ferry.driver.shm;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Packet;
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
 * One shm connection. The side whose URL sorts lower creates the channel file; the other attaches
 * to it. Small packets travel in ring slots (written in place by buffer-based sends, read in place
 * by buffer-based receives); large ones by {@link Rendezvous}. A peer that disconnects is CLOSED
 * once its packets are drained; one that closes without disconnecting, or whose process is gone
 * (checked every {@link #LIVENESS_NANOS} while waiting), is BROKEN.
 */
final class ShmInstance implements DriverInstance {
    private static final System.Logger LOG = System.getLogger(ShmInstance.class.getName());
    private static final Pattern CONTEXT_NAME = Pattern.compile("ferry-([A-Za-z0-9_.]+)-(r\\d+-p\\d+-c\\d+)\\.ctx");
    static final long LIVENESS_NANOS = 5_000_000L;
    static final long CONNECT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(20);

    private static final int NEW = 0, CONNECTING = 1, CONNECTED = 2, DISCONNECTED = 3, BROKEN = 4, CLOSED = 5;
    private static final long IDLE = 0, SENT = -1, FAILED = -2, PULLED = -3;
    /** An exposed packet's state: EXPOSED - its exposure slot. */
    private static final long EXPOSED = -16;
    /**
     * A split pull's state, below every other: SPLIT | exposure slot &lt;&lt; 56 | generation
     * &lt;&lt; 15 | chunks we copied (a packet of at most 1 GiB has at most 2^14 chunks; a slot
     * does not see 2^41 generations).
     */
    private static final long SPLIT = Long.MIN_VALUE;
    private static final long SPLIT_END = SPLIT + (1L << 62);
    private static final long SPLIT_MINE = (1L << 15) - 1;
    private static final long SPLIT_GENERATION = (1L << 41) - 1;

    private final ShmContext ctx;
    private volatile int state = NEW;
    private Path peerFile;
    /** The connection request could not be published yet (the peer's slots were full). */
    private boolean requestPending;
    private MemorySegment peerCtx;
    private long peerPid;
    private long peerStart;
    private volatile Path chanFile;
    private boolean creator;
    private Arena chanArena;
    private Channel ch;
    private Rendezvous rv;
    private SplitPull split;
    private long deadline;
    private final MemorySegment errno;
    private long nextLiveness;
    private volatile boolean peerDied;
    private volatile boolean goneReported;
    private int emptyPolls;

    private long claimed = -1;
    private Packet claimedPacket;
    private long rtsIssued;
    private boolean bufHeld;
    private Packet posted;
    private boolean pulling;
    private final DataCursor sendCursor = new DataCursor();
    private ExposureSlots exposures;
    private final Object[] keepOne = new Object[1];
    private final DataCursor recvCursor = new DataCursor();

    ShmInstance(ShmContext ctx) {
        this.ctx = ctx;
        this.errno = Native.errnoCapture(ctx.arena);
    }

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

    /** Whether this instance is, or is becoming, the connection to the context in that file. */
    boolean servesPeer(String peerFileName) {
        Path p = peerFile;
        return p != null && state < DISCONNECTED && p.getFileName().toString().equals(peerFileName);
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
        requestPending = !ctx.postRequest(peerCtx);
        String low = creator ? ctx.key : m.group(2);
        String high = creator ? m.group(2) : ctx.key;
        chanFile = ShmFiles.DIR.resolve("ferry-" + ctx.job + "-" + low + "-" + high + ".chan");
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
                ShmFiles.markReady(map);
            } catch (IOException e) {
                return fail("cannot create " + chanFile + ": " + e.getMessage());
            }
        } else {
            tryAttach();
        }
        return state == BROKEN ? Status.BROKEN : Status.DONE;
    }

    /** The non-creating side: maps the channel once its creator has finished it, and says so. */
    private void tryAttach() {
        MemorySegment map;
        Arena a = Arena.ofShared();
        try {
            map = ShmFiles.open(chanFile, a);
        } catch (IOException e) {
            a.close();
            fail("cannot map " + chanFile + ": " + e.getMessage());
            return;
        }
        if (map == null || map.byteSize() < ShmLayout.CHANNEL_BYTES || !ShmFiles.isReady(map)) {
            a.close();
            return; // not there yet
        }
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
        map.set(ValueLayout.JAVA_LONG, ShmLayout.OWNER2_START_OFFSET, ctx.start);
        Channel.LONG.setVolatile(map, ShmLayout.OWNER2_PID_OFFSET, ctx.pid);
        state = CONNECTED;
        ch.signalPeer();
    }

    /** Moves set-up forward without blocking; fails it past the deadline or when the peer is gone. */
    private void progressConnect() {
        if (state != CONNECTING) {
            return;
        }
        if (requestPending) {
            requestPending = !ctx.postRequest(peerCtx);
        }
        if (creator) {
            if ((long) Channel.LONG.getVolatile(ch.map, ShmLayout.OWNER2_PID_OFFSET) != 0) {
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
            for (int round = 0; ; round++) {
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
                if (state == CONNECTING && round > 200) {
                    ctx.sleep(() -> state != CONNECTING, Native.errnoCapture(a), timeout);
                }
            }
        }
    }

    @Override
    public Status disconnect() {
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
    private void leave(int how) {
        if (ch == null) {
            return;
        }
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

    /** {@link #fail} for a copy that answered {@code -errno}: ESRCH says the peer process is gone. */
    private Status failErrno(long negErrno, String what) {
        int e = (int) -negErrno;
        return fail(e == Native.ESRCH ? "the peer process is gone" : what + " failed with errno " + e);
    }

    private Status fail(String why) {
        if (state < DISCONNECTED) {
            state = BROKEN;
            LOG.log(System.Logger.Level.INFO, "shm: connection to {0} broken: {1}", peerFile, why);
            if (ch != null) {
                leave(ShmLayout.SIDE_CLOSED);
            } else if (creator && chanFile != null) {
                ShmFiles.delete(chanFile);
            }
        }
        return Status.BROKEN;
    }

    private Status terminal() {
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
    private Status ready(boolean sending) {
        int s = state;
        if (s == CONNECTING) {
            progressConnect();
            s = state;
            if (s == CONNECTING && !(creator && sending)) {
                return Status.NOT_YET;
            }
        }
        if (s == CONNECTED || s == CONNECTING) {
            return null;
        }
        return s == NEW ? Status.INVALID : terminal();
    }

    /** What a side with nothing more to read answers: the peer's departure, or not yet. */
    private Status drained() {
        int ps = ch.peerState();
        if (ps == ShmLayout.SIDE_DISCONNECTED) {
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
        return ch.hasIncoming() || (!goneReported && (peerDied || ch.peerState() != ShmLayout.SIDE_OPEN));
    }

    // ---- sending ----------------------------------------------------------------------------

    @Override
    public Status sendBufGet(Packet packet) {
        Status s = ready(true);
        if (s != null) {
            return s;
        }
        if (claimed >= 0) {
            return Status.INVALID; // one buffer out at a time
        }
        if (!ch.hasRoom()) {
            return Status.NOT_YET;
        }
        claimed = ch.tail;
        claimedPacket = packet;
        packet.driverBuffer(ch.outSlot(claimed), 0);
        return Status.DONE;
    }

    @Override
    public Status sendBufPost(Packet packet) {
        if (claimed < 0 || packet != claimedPacket || packet.form() != Packet.Form.BUFFER || packet.length() > ShmLayout.SLOT_DATA) {
            return Status.INVALID;
        }
        claimed = -1;
        claimedPacket = null;
        Status s = ready(true);
        if (s != null) {
            return s;
        }
        ch.publish(ShmLayout.ENTRY_INLINE, packet.length());
        packet.driverState = SENT;
        return Status.DONE;
    }

    @Override
    public Status sendPost(Packet packet) {
        DataLayout layout = packet.layout();
        if (layout == null || (packet.form() == Packet.Form.IOVEC && packet.iov().count() > ShmContext.MAX_IOVEC)) {
            return Status.INVALID;
        }
        long size = layout.size();
        if (size > ShmContext.MAX_PACKET_SIZE) {
            return Status.INVALID;
        }
        Status s = ready(true);
        if (s != null) {
            return s;
        }
        if (claimed >= 0 || !ch.hasRoom()) {
            return Status.NOT_YET;
        }
        if (size <= ShmLayout.SLOT_DATA) {
            sendCursor.reset(layout).copyTo(ch.outSlot(ch.tail), 0, size);
            ch.publish(ShmLayout.ENTRY_INLINE, size);
            packet.driverState = SENT;
            return Status.DONE;
        }
        long number = ++rtsIssued;
        Object[] keep = new Object[1];
        int mode = rv.describe(layout, number, ch.outSlot(ch.tail), keep);
        ctx.sentByMode.incrementAndGet(mode);
        packet.driverData = keep[0];
        packet.driverState = number;
        ch.publish(ShmLayout.ENTRY_RTS, size);
        if (mode == ShmLayout.MODE_BOUNCE) {
            rv.startBounce(packet);
            rv.pushBounce();
        }
        return Status.DONE;
    }

    @Override
    public Status sendPoll(Packet packet) {
        long st = packet.driverState;
        if (st == SENT) {
            return Status.DONE;
        }
        if (st == IDLE) {
            return Status.INVALID;
        }
        if (st == FAILED) {
            return terminal();
        }
        if (state >= DISCONNECTED) {
            packet.driverState = FAILED;
            return terminal();
        }
        if (rv.bouncingAnything()) {
            rv.pushBounce();
        }
        if (st <= EXPOSED) {
            int slot = (int) (EXPOSED - st);
            boolean marked = exposures.marked(slot);
            long whole = marked ? 1 : split.help(slot, exposures.generation(slot), packet.layout(), ctx.splitPull); // the peer's setting may differ from ours
            if (whole == 1) {
                exposures.sent(slot, marked);
                packet.driverState = SENT;
                packet.driverData = null;
                return Status.DONE;
            }
            if (whole < 0) {
                packet.driverState = FAILED;
                return failErrno(whole, "writing our share of a large packet");
            }
        } else if (ch.outDone() >= st) {
            packet.driverState = SENT;
            packet.driverData = null;
            return Status.DONE;
        }
        if ((++emptyPolls & 1023) == 0) {
            checkPeerAlive();
        }
        if (peerDied || ch.peerState() != ShmLayout.SIDE_OPEN) {
            packet.driverState = FAILED;
            return fail("the peer left before pulling a large packet");
        }
        return Status.NOT_YET;
    }

    @Override
    public Status sendExpose(Packet packet, MemorySegment pullData) {
        DataLayout layout = packet.layout();
        if (layout == null || pullData.byteSize() < ShmLayout.PULL_DATA_BYTES || layout.size() > ShmContext.MAX_PACKET_SIZE) {
            return Status.INVALID;
        }
        int st = state;
        if (st != CONNECTED) {
            return st == CONNECTING ? Status.NOT_YET : st == NEW ? Status.INVALID : terminal();
        }
        int slot = exposures.next();
        if (slot < 0) {
            return Status.NOT_YET;
        }
        long generation = exposures.generation(slot) + 1;
        int mode = rv.describe(layout, generation, pullData, keepOne, ShmLayout.PULL_INLINE_SEGMENTS);
        if (mode == ShmLayout.MODE_BOUNCE) {
            return Status.INVALID; // the bytes have no address the peer can read: send them
        }
        pullData.set(ValueLayout.JAVA_INT, ShmLayout.PULL_SLOT, slot);
        exposures.take(slot, generation);
        ctx.sentByMode.incrementAndGet(mode);
        packet.driverData = keepOne[0]; // an indirect segment array lives as long as the exposure
        keepOne[0] = null;
        packet.driverState = EXPOSED - slot;
        return Status.DONE;
    }

    @Override
    public Status pullPost(Packet packet, MemorySegment pullData) {
        DataLayout into = packet.layout();
        if (into == null || pullData.byteSize() < ShmLayout.PULL_DATA_BYTES) {
            return Status.INVALID;
        }
        int st = state;
        if (st != CONNECTED) {
            return st == NEW || st == CONNECTING ? Status.INVALID : terminal();
        }
        int slot = pullData.get(ValueLayout.JAVA_INT, ShmLayout.PULL_SLOT);
        long generation = pullData.get(ValueLayout.JAVA_LONG, ShmLayout.RTS_NUMBER);
        if (slot < 0 || slot >= ShmLayout.EXPOSURES || pullData.get(ValueLayout.JAVA_LONG, ShmLayout.RTS_PID) != peerPid) {
            return Status.INVALID;
        }
        long bytes = into.size();
        if (ctx.splitPull && ch.peerReadsUs() && SplitPull.splittable(pullData, into, bytes)) {
            long address = into.segmentBase(0).address() + into.segmentOffset(0);
            split.offer(slot, generation, address, bytes);
            long mine = split.share(slot, generation, pullData, address, bytes);
            if (mine < 0) {
                packet.driverState = FAILED;
                return failErrno(mine, "pulling an exposed packet");
            }
            packet.length(bytes);
            packet.driverState = SPLIT | (long) slot << 56 | (generation & SPLIT_GENERATION) << 15 | mine;
            return Status.DONE; // whole once the peer's chunks are in too: pullPoll
        }
        long r = bytes == 0 ? 0 : rv.pullExposed(pullData, into);
        if (r < 0) {
            packet.driverState = FAILED;
            return failErrno(r, "pulling an exposed packet");
        }
        ch.markPulled(slot, generation);
        packet.length(into.size());
        packet.driverState = PULLED;
        return Status.DONE;
    }

    @Override
    public Status pullPoll(Packet packet) {
        long st = packet.driverState;
        if (st < SPLIT_END) {
            return splitPoll(packet, st);
        }
        return st == PULLED ? Status.DONE : st == FAILED ? terminal() : Status.INVALID;
    }

    private Status splitPoll(Packet packet, long st) {
        int slot = (int) (st >>> 56) & (ShmLayout.EXPOSURES - 1);
        long generation = (st >>> 15) & SPLIT_GENERATION;
        long tag = SplitPull.tag(generation);
        long mine = st & SPLIT_MINE;
        long r = split.whole(slot, tag, packet.length(), mine);
        if (r == 0) {
            if ((++emptyPolls & 1023) == 0) {
                checkPeerAlive();
            }
            if (!peerDied && ch.peerState() == ShmLayout.SIDE_OPEN && state == CONNECTED) {
                return Status.NOT_YET;
            }
            r = split.whole(slot, tag, packet.length(), mine); // its last chunk may have come before it left
            if (r == 0) {
                packet.driverState = FAILED;
                return state == CONNECTED ? fail("the peer left before writing its share of a large packet") : terminal();
            }
        }
        if (r < 0) {
            packet.driverState = FAILED;
            return fail("the peer's share of a large packet failed with errno " + -r);
        }
        ch.markPulled(slot, generation); // the exposer may expose the slot again
        packet.driverState = PULLED;
        return Status.DONE;
    }

    @Override
    public Status sendPrefetch(Packet packet) {
        DataLayout layout = packet.layout();
        if (layout == null) {
            return Status.INVALID;
        }
        touch(layout, false); // pages the receiver will read are faulted in now, not while it waits
        packet.sendPrefetch = Boolean.TRUE;
        return Status.DONE;
    }

    @Override
    public Status sendUnfetch(Packet packet) {
        packet.sendPrefetch = null;
        return Status.DONE;
    }

    @Override
    public Status recvPrefetch(Packet packet) {
        DataLayout layout = packet.layout();
        if (layout == null) {
            return Status.INVALID;
        }
        touch(layout, true); // the destination is writable before the data comes
        packet.recvPrefetch = Boolean.TRUE;
        return Status.DONE;
    }

    @Override
    public Status recvUnfetch(Packet packet) {
        packet.recvPrefetch = null;
        return Status.DONE;
    }

    /** Faults in every page of a layout; for writing, rewrites a byte with itself. */
    private static void touch(DataLayout layout, boolean write) {
        for (long i = 0; i < layout.segmentCount(); i++) {
            MemorySegment base = layout.segmentBase(i);
            long end = layout.segmentOffset(i) + layout.segmentLength(i);
            for (long o = layout.segmentOffset(i); o < end; o += 4096) {
                byte b = base.get(ValueLayout.JAVA_BYTE, o);
                if (write) {
                    base.set(ValueLayout.JAVA_BYTE, o, b);
                }
            }
        }
    }

    // ---- receiving --------------------------------------------------------------------------

    @Override
    public Status recvPost(Packet packet) {
        int s = state;
        if (s == DISCONNECTED || s == CLOSED) {
            return Status.CLOSED;
        }
        if (s == NEW || packet.layout() == null || posted != null || bufHeld) {
            return Status.INVALID;
        }
        if (packet.form() == Packet.Form.IOVEC && packet.iov().count() > ShmContext.MAX_IOVEC) {
            return Status.INVALID;
        }
        packet.rdvData(null); // the sender's RTS carries what the receiver needs
        packet.length(0);
        posted = packet;
        return Status.DONE;
    }

    @Override
    public Status recvPoll(Packet packet) {
        if (posted != null) {
            return packet == posted ? completePosted() : Status.INVALID;
        }
        if (packet.form() != Packet.Form.NONE || bufHeld) {
            return Status.INVALID;
        }
        Status s = ready(false);
        if (s != null) {
            return s;
        }
        if (!ch.hasIncoming()) {
            return drained();
        }
        if (ch.inKind() != ShmLayout.ENTRY_INLINE) {
            return Status.INVALID; // a large packet: post a receive for it
        }
        packet.driverBuffer(ch.inSlot(), ch.inLength());
        bufHeld = true;
        return Status.DONE;
    }

    @Override
    public Status recvBufRelease(Packet packet) {
        if (!bufHeld || packet.form() != Packet.Form.BUFFER) {
            return Status.INVALID;
        }
        bufHeld = false;
        ch.consume();
        packet.reset();
        return Status.DONE;
    }

    private Status completePosted() {
        Status s = ready(false);
        if (s != null) {
            return s;
        }
        if (rv.bouncingAnything()) {
            rv.pushBounce(); // our own large sends progress while we receive
        }
        if (!pulling) {
            if (!ch.hasIncoming()) {
                return drained();
            }
            long len = ch.inLength();
            if (ch.inKind() == ShmLayout.ENTRY_INLINE) {
                long n = Math.min(len, posted.size());
                recvCursor.reset(posted.layout()).copyFrom(ch.inSlot(), 0, n);
                ch.consume();
                return finish(len);
            }
            rv.begin(ch.inSlot(), len);
            pulling = true;
        }
        long r = rv.pull(ch.inSlot(), posted.layout());
        if (r == 0) { // the sender streams it through the bounce area: more is to come
            if ((++emptyPolls & 1023) == 0) { // not the clock on every look, as for an empty ring
                checkPeerAlive();
            }
            return peerDied ? fail("the peer died while streaming a large packet") : Status.NOT_YET;
        }
        pulling = false;
        if (r < 0) {
            return failErrno(r, "pulling a large packet");
        }
        long len = rv.pullLength;
        ch.markDone(rv.pullNumber);
        ch.consume();
        return finish(len);
    }

    private Status finish(long length) {
        Packet done = posted;
        posted = null;
        done.length(length);
        return length > done.size() ? Status.INVALID : Status.DONE;
    }

    @Override
    public Status recvWait(Packet packet) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = Native.errnoCapture(a);
            MemorySegment timeout = ShmContext.timespec(a, ShmContext.SLEEP_NANOS);
            for (int round = 0; ; round++) {
                Status s = recvPoll(packet);
                if (s != Status.NOT_YET) {
                    return s;
                }
                if (round < ShmContext.SPIN_ROUNDS) {
                    Thread.onSpinWait();
                } else {
                    ctx.sleep(this::hasIncoming, err, timeout);
                }
            }
        }
    }

    @Override
    public Status recvCancel(Packet packet) {
        if (posted == null || posted != packet) {
            return Status.INVALID;
        }
        if (pulling) {
            return Status.NOT_YET; // its bytes are moving: it completes, poll it
        }
        posted = null;
        return Status.DONE;
    }

    @Override
    public String toString() {
        return "shm instance -> " + (peerFile != null ? peerFile.getFileName() : "unconnected");
    }

    /** At the JVM's end, before close: the channel's file (of no use once this process is gone). */
    void removeChannelFile() {
        Path f = chanFile;
        if (f != null) {
            ShmFiles.delete(f);
        }
    }
}
