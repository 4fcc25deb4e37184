package dev.ferry.driver.tcp;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;

/**
 * One tcp connection. Sending: a packet of up to {@link #COPY_LIMIT} bytes is copied into the
 * staging buffer behind its frame header (so it completes at once, and several go out in one
 * write); a larger one goes out by a gathering write of its header and its own segments, with no
 * copy beyond the socket's. Receiving: bytes are read into the inbound buffer, the frame header is
 * checked before anything else is done, and the payload is copied into the posted memory; a large
 * payload is read straight into the posted memory. Nothing is ever allocated by a frame's
 * announced length.
 */
final class TcpInstance extends TcpConnection {

    static final int COPY_LIMIT = 16 * 1024;
    static final int BUFFER_BYTES = 256 * 1024;
    static final int QUEUE = 64;
    /** Payload still missing from which reading straight into the posted memory beats staging. */
    static final int DIRECT_READ_MIN = 32 * 1024;

    private static final long IDLE = 0, QUEUED = 1, SENT = 2, FAILED = 3;

    /** Set by the context's probe-any when the selector saw this connection readable. */
    boolean readyHint;
    /** Set while bytes wait for room in the socket (the last flush stopped short): a wait-any then watches for room too. */
    private volatile boolean writeBlocked;
    /** Set by a wait-any's selector when it saw the connection writable. */
    boolean writableHint;

    // sending
    private final ByteBuffer staging = ByteBuffer.allocateDirect(BUFFER_BYTES);
    private final MemorySegment stagingSeg = MemorySegment.ofBuffer(staging);
    /** What {@link #sendBufGet} hands out: the staging buffer's start, behind a frame header (made once: no garbage). */
    private final MemorySegment sendBuffer = stagingSeg.asSlice(WireFormat.FRAME_HEADER, COPY_LIMIT);
    /** The packet holding {@link #sendBuffer} between sendBufGet and sendBufPost, or null. */
    private Packet claimed;
    private int stagingStart;
    private int stagingEnd;
    private final Packet[] queue = new Packet[QUEUE];
    private int queueHead;
    private int queueCount;
    private ByteBuffer[] gather;
    private int gatherFirst;
    /**
     * The parts of the large packet being written that lie on the Java heap, by gather index (null:
     * a buffer entry). They go out a piece at a time through {@link #heapStage}: handed to NIO
     * whole, a heap buffer is copied whole into a temporary direct one on every write call, which
     * takes only what the socket has room for (quadratic in the packet's size).
     */
    private MemorySegment[] heapParts;
    /** Bytes of the current heap part copied to {@link #heapStage} so far. */
    private long heapDone;
    /** Native memory a heap part's piece is copied to and written from; made on the first heap part. */
    private ByteBuffer heapStage;
    private MemorySegment heapStageSeg;
    private final DataCursor sendCursor = new DataCursor();

    // receiving
    private final ByteBuffer inbound = ByteBuffer.allocateDirect(BUFFER_BYTES);
    private final MemorySegment inboundSeg = MemorySegment.ofBuffer(inbound);
    private int inStart;
    private int inEnd;
    private volatile boolean buffered;
    private final FrameHeader header = new FrameHeader(TcpContext.MAX_PACKET_SIZE);
    private boolean inPayload;
    private long remaining;
    private long frameLength;
    private Packet posted;
    private final DataCursor recvCursor = new DataCursor();

    TcpInstance(TcpContext ctx) {
        super(ctx);
    }

    boolean hasBufferedData() {
        return buffered;
    }

    @Override
    void tlsEstablished() {
        buffered = tlsBuffered();
    }

    /** Whether the TLS engine holds bytes not read yet (none without TLS). */
    private boolean tlsBuffered() {
        return tls != null && tls.hasBuffered();
    }

    /** Whether bytes wait to be written: staged, queued, being gathered, or encrypted and not yet taken by the socket. */
    private boolean unsent() {
        return queueCount > 0 || stagingStart < stagingEnd || gather != null || tls != null && tls.pending();
    }

    /** For probe-any's scan: the selector marked this ready, or bytes are buffered; the mark is taken. */
    boolean takeReady() {
        if (readyHint || hasBufferedData()) {
            readyHint = false;
            return true;
        }
        return false;
    }

    @Override
    public Status disconnect() {
        ctx.retire(this); // whatever the answer, the instance is done: the context forgets it
        int s = state;
        if (s >= DISCONNECTED) {
            return terminalStatus();
        }
        if (s != CONNECTED) {
            synchronized (this) {
                if (state == CONNECTED) {
                    return disconnect(); // came up just now: end it in order
                }
                state = DISCONNECTED;
            }
            ctx.forget(this);
            failQueued();
            return Status.DONE;
        }
        // everything posted goes out first, then BYE; bounded, so a peer that stopped reading cannot hang us
        long end = System.nanoTime() + ctx.connectTimeoutNanos();
        while (unsent() && state == CONNECTED) {
            flush();
            if (System.nanoTime() - end > 0) {
                fail(Status.BROKEN, "pending sends not written within the connect timeout during disconnect");
                return Status.BROKEN;
            }
            Thread.onSpinWait();
        }
        if (state != CONNECTED) {
            return terminalStatus();
        }
        stagingStart = stagingEnd = 0;
        FrameHeader.encode(stagingSeg, 0, WireFormat.KIND_BYE, 0);
        stagingEnd = WireFormat.FRAME_HEADER;
        while (unsent() && state == CONNECTED) { // the BYE alone now (the queue was emptied above)
            flush();
            if (System.nanoTime() - end > 0) {
                fail(Status.BROKEN, "BYE not written within the connect timeout");
                return Status.BROKEN;
            }
        }
        if (state != CONNECTED) {
            return terminalStatus();
        }
        state = DISCONNECTED;
        if (key != null) {
            key.cancel();
        }
        try {
            channel.shutdownOutput();
            ctx.linger(channel); // drained until the peer closes: a close now could reset our BYE away
        } catch (IOException e) {
            TcpContext.closeChannel(channel);
        }
        return Status.DONE;
    }

    @Override
    void failQueued() {
        while (queueCount > 0) {
            queue[queueHead].driverState = FAILED;
            queue[queueHead] = null;
            queueHead = (queueHead + 1) % QUEUE;
            queueCount--;
        }
        gather = null;
        heapParts = null;
    }

    // ---- sending ----------------------------------------------------------------------------

    /**
     * Hands out the start of the staging buffer, so that the caller writes its packet where it
     * leaves from (no copy), when nothing else waits to be written: a frame staged or queued
     * earlier goes first, and the socket is full meanwhile (NOT_YET).
     */
    @Override
    public Status sendBufGet(Packet packet) {
        int s = state;
        if (s >= DISCONNECTED) {
            return terminalStatus();
        }
        if (claimed != null) {
            return Status.INVALID; // one buffer out at a time
        }
        if (s != CONNECTED) {
            return Status.NOT_YET;
        }
        if (stagingStart < stagingEnd || queueCount > 0 || gather != null) {
            flush();
            if (stagingStart < stagingEnd || queueCount > 0 || gather != null) {
                return Status.NOT_YET;
            }
        }
        stagingStart = stagingEnd = 0;
        claimed = packet;
        packet.driverBuffer(sendBuffer, 0);
        return Status.DONE;
    }

    @Override
    public Status sendBufPost(Packet packet) {
        if (packet != claimed || packet.form() != Packet.Form.BUFFER || packet.buffer() != sendBuffer || packet.length() > COPY_LIMIT) {
            return Status.INVALID;
        }
        claimed = null;
        if (state != CONNECTED) {
            return state >= DISCONNECTED ? terminalStatus() : Status.BROKEN;
        }
        FrameHeader.encode(stagingSeg, 0, WireFormat.KIND_DATA, packet.length());
        stagingStart = 0;
        stagingEnd = WireFormat.FRAME_HEADER + (int) packet.length();
        packet.driverState = SENT; // in our buffer: the caller is done with it
        flush();
        return Status.DONE;
    }

    @Override
    public Status sendPost(Packet packet) {
        DataLayout layout = packet.layout();
        if (layout == null) {
            return Status.INVALID;
        }
        if (packet.form() == Packet.Form.IOVEC && packet.iov().count() > TcpContext.MAX_IOVEC) {
            return Status.INVALID;
        }
        long size = layout.size();
        if (size > TcpContext.MAX_PACKET_SIZE) {
            return Status.INVALID;
        }
        int s = state;
        if (s >= DISCONNECTED) {
            return terminalStatus();
        }
        if (s == NEW) {
            return Status.INVALID;
        }
        if (claimed != null) {
            return Status.NOT_YET; // the staging buffer's start is being written by the holder of the buffer
        }
        if (queueCount == QUEUE) {
            if (s == CONNECTED) {
                flush();
            }
            if (queueCount == QUEUE) {
                return Status.NOT_YET;
            }
        }
        // Copied and done at once only on a live connection: before it is up, a packet stays
        // queued (and its poll NOT_YET), so whoever waits for it keeps the instance moving.
        if (s == CONNECTED && queueCount == 0 && gather == null && size <= COPY_LIMIT && stage(layout, size)) {
            packet.driverState = SENT; // in our buffer: the caller's memory is free again
        } else {
            packet.driverState = QUEUED;
            queue[(queueHead + queueCount) % QUEUE] = packet;
            queueCount++;
        }
        if (s == CONNECTED) {
            flush();
        }
        return Status.DONE;
    }

    /** Appends a frame with the layout's bytes to the staging buffer; false when it does not fit now. */
    private boolean stage(DataLayout layout, long size) {
        int need = WireFormat.FRAME_HEADER + (int) size;
        if (BUFFER_BYTES - stagingEnd < need) {
            if (stagingStart > 0) { // move the unwritten bytes to the front
                MemorySegment.copy(stagingSeg, stagingStart, stagingSeg, 0, stagingEnd - stagingStart);
                stagingEnd -= stagingStart;
                stagingStart = 0;
            }
            if (BUFFER_BYTES - stagingEnd < need) {
                return false;
            }
        }
        FrameHeader.encode(stagingSeg, stagingEnd, WireFormat.KIND_DATA, size);
        sendCursor.reset(layout).copyTo(stagingSeg, stagingEnd + WireFormat.FRAME_HEADER, size);
        stagingEnd += need;
        return true;
    }

    /** Writes what the socket takes now: staged bytes, then queued packets in order. */
    private void flush() {
        boolean full = writeOut();
        if (full != writeBlocked) {
            writeBlocked = full; // written only when it changes: a flush of the hot path reads it alone
        }
    }

    /** Writes what is queued until the socket is full (answers true) or nothing is left (false). */
    private boolean writeOut() {
        try {
            while (true) {
                if (gather != null) {
                    if (!writeGather()) {
                        return true;
                    }
                    continue;
                }
                if (stagingStart < stagingEnd) {
                    if (calls != null) {
                        stagingStart += direct(false, stagingSeg.address() + stagingStart, stagingEnd - stagingStart);
                    } else {
                        staging.limit(stagingEnd).position(stagingStart);
                        write(staging);
                        stagingStart = staging.position();
                    }
                    if (stagingStart < stagingEnd) {
                        return true; // socket full
                    }
                    stagingStart = stagingEnd = 0;
                }
                if (queueCount == 0) {
                    return tls != null && !tls.flush();
                }
                Packet head = queue[queueHead];
                DataLayout layout = head.layout();
                long size = layout.size();
                if (size <= COPY_LIMIT) {
                    if (!stage(layout, size)) {
                        continue; // staging full: it is written out first
                    }
                    popHead(SENT);
                    continue;
                }
                startLarge(layout, size);
            }
        } catch (IOException e) {
            fail(Status.BROKEN, "write failed: " + e.getMessage());
            return false;
        }
    }

    /**
     * Sets what a wait-any's selector watches on this connection: room in the socket too while
     * bytes wait for it, so that a dozing sender wakes when the peer reads. Called only by the
     * thread in the wait-any, before and after its select.
     */
    void watchRoom(boolean room) {
        if (state != CONNECTED) {
            return;
        }
        SelectionKey k = key; // set before the state became CONNECTED
        int want = room ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ;
        try {
            if (k != null && k.interestOps() != want) {
                k.interestOps(want);
            }
        } catch (java.nio.channels.CancelledKeyException e) {
            // closed meanwhile: nothing to watch
        }
    }

    /** Whether bytes wait for room in the socket. */
    boolean writeBlocked() {
        return writeBlocked;
    }

    private void popHead(long outcome) {
        queue[queueHead].driverState = outcome;
        queue[queueHead] = null;
        queueHead = (queueHead + 1) % QUEUE;
        queueCount--;
    }

    /** Whether a ByteBuffer can view {@code m}: off-heap memory or a byte[] (not an int[], long[]...). */
    private static boolean asBuffer(MemorySegment m) {
        return m.isNative() || m.heapBase().map(b -> b instanceof byte[]).orElse(false);
    }

    /**
     * Header in the (empty) staging buffer, then the packet's own segments: gathering writes of the
     * native ones, and the heap ones a piece at a time through a native stage.
     */
    private void startLarge(DataLayout layout, long size) {
        stagingStart = 0;
        FrameHeader.encode(stagingSeg, 0, WireFormat.KIND_DATA, size);
        stagingEnd = WireFormat.FRAME_HEADER;
        staging.limit(stagingEnd).position(0);
        int n = (int) layout.segmentCount();
        ByteBuffer[] g = new ByteBuffer[n + 1];
        MemorySegment[] heap = null;
        g[0] = staging;
        for (int i = 0; i < n; i++) {
            MemorySegment part = layout.segmentBase(i).asSlice(layout.segmentOffset(i), layout.segmentLength(i));
            if (part.isNative()) {
                g[i + 1] = part.asByteBuffer();
            } else {
                if (heap == null) {
                    heap = new MemorySegment[n + 1];
                }
                heap[i + 1] = part;
                g[i + 1] = EMPTY;
            }
        }
        if (heap != null && heapStage == null) {
            heapStage = ByteBuffer.allocateDirect(BUFFER_BYTES);
            heapStageSeg = MemorySegment.ofBuffer(heapStage);
        }
        if (heapStage != null) {
            heapStage.limit(0);
        }
        heapParts = heap;
        heapDone = 0;
        gather = g;
        gatherFirst = 0;
    }

    private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0);

    /** Continues the large packet's writes; true when it is fully written. */
    private boolean writeGather() throws IOException {
        while (gatherFirst < gather.length) {
            MemorySegment h = heapParts == null ? null : heapParts[gatherFirst];
            if (h == null) { // a run of buffers, up to the next heap part: one gathering write
                int end = gatherFirst + 1;
                while (end < gather.length && end - gatherFirst < 1024 && (heapParts == null || heapParts[end] == null)) {
                    end++;
                }
                queue[queueHead].moved += write(gather, gatherFirst, end - gatherFirst);
                while (gatherFirst < end && !gather[gatherFirst].hasRemaining()) {
                    gatherFirst++;
                }
                if (gatherFirst < end) {
                    return false; // socket full
                }
                continue;
            }
            if (!heapStage.hasRemaining()) {
                if (heapDone == h.byteSize()) {
                    gatherFirst++;
                    heapDone = 0;
                    continue;
                }
                int piece = (int) Math.min(BUFFER_BYTES, h.byteSize() - heapDone);
                MemorySegment.copy(h, heapDone, heapStageSeg, 0, piece);
                heapStage.clear().limit(piece);
                heapDone += piece;
            }
            queue[queueHead].moved += write(heapStage);
            if (heapStage.hasRemaining()) {
                return false; // socket full
            }
        }
        gather = null;
        heapParts = null;
        stagingStart = stagingEnd = 0;
        popHead(SENT);
        return true;
    }

    @Override
    public Status sendPoll(Packet packet) {
        long st = packet.driverState;
        if (st == SENT) {
            return Status.DONE;
        }
        if (st == FAILED) {
            return state >= DISCONNECTED ? terminalStatus() : Status.BROKEN;
        }
        if (st != QUEUED) {
            return Status.INVALID;
        }
        if (state < CONNECTED) {
            checkDeadline();
        } else if (state == CONNECTED) {
            flush();
        }
        st = packet.driverState;
        if (st == SENT) {
            return Status.DONE;
        }
        if (st == FAILED || state >= DISCONNECTED) {
            return terminalStatus();
        }
        return Status.NOT_YET;
    }

    // ---- receiving --------------------------------------------------------------------------

    @Override
    public Status recvPost(Packet packet) {
        int s = state;
        if (s == DISCONNECTED || s == CLOSED) {
            return Status.CLOSED;
        }
        if (s == NEW || packet.layout() == null || posted != null) {
            return Status.INVALID;
        }
        if (packet.form() == Packet.Form.IOVEC && packet.iov().count() > TcpContext.MAX_IOVEC) {
            return Status.INVALID;
        }
        packet.rdvData(null); // a byte stream needs no rendezvous data
        packet.length(0);
        posted = packet;
        return Status.DONE;
    }

    @Override
    public Status recvPoll(Packet packet) {
        if (posted == null) {
            if (state == DISCONNECTED || state == CLOSED) {
                return Status.CLOSED;
            }
            return packet.form() == Packet.Form.NONE ? Status.NOT_IMPLEMENTED : Status.INVALID;
        }
        if (packet != posted) {
            return Status.INVALID;
        }
        int s = state;
        if (s < CONNECTED) {
            checkDeadline();
            return state < CONNECTED ? Status.NOT_YET : state == CONNECTED ? progressRecv() : terminalStatus();
        }
        if (s != CONNECTED) {
            return terminalStatus();
        }
        flush(); // sends progress too: a peer may wait for them before it answers
        return state == CONNECTED ? progressRecv() : terminalStatus();
    }

    private Status progressRecv() {
        try {
            while (true) {
                if (!inPayload) {
                    if (inEnd - inStart < WireFormat.FRAME_HEADER) {
                        int n = fill();
                        if (n < 0) {
                            return ended(inEnd > inStart ? "the peer closed the connection in the middle of a frame header"
                                    : "the peer closed the connection without BYE");
                        }
                        if (inEnd - inStart < WireFormat.FRAME_HEADER) {
                            return Status.NOT_YET;
                        }
                    }
                    String bad = header.decode(inboundSeg, inStart);
                    if (bad != null) {
                        LOG.log(System.Logger.Level.WARNING, "tcp: malformed frame from {0}: {1}; connection broken", remoteName(), bad);
                        fail(Status.BROKEN, "malformed frame: " + bad);
                        return Status.BROKEN;
                    }
                    inStart += WireFormat.FRAME_HEADER;
                    if (header.kind == WireFormat.KIND_BYE) {
                        buffered = inStart < inEnd || tlsBuffered();
                        fail(Status.CLOSED, "the peer disconnected");
                        return Status.CLOSED;
                    }
                    frameLength = header.length;
                    remaining = frameLength;
                    inPayload = true;
                    recvCursor.reset(posted.layout());
                }
                // payload: first what is buffered, then straight from the socket when much is missing
                int have = (int) Math.min(inEnd - inStart, remaining);
                if (have > 0) {
                    long keep = Math.min(have, recvCursor.remaining());
                    recvCursor.copyFrom(inboundSeg, inStart, keep); // bytes past the posted memory are dropped (truncation)
                    inStart += have;
                    remaining -= have;
                    posted.moved += have;
                }
                if (remaining == 0) {
                    return complete();
                }
                if (remaining >= DIRECT_READ_MIN && recvCursor.remaining() >= remaining && asBuffer(recvCursor.chunkBase())) {
                    // into a heap array a read goes through a temporary native buffer as large as asked for: a socket's worth at a time
                    long want = Math.min(Math.min(recvCursor.chunkLength(), remaining), recvCursor.chunkBase().isNative() ? Long.MAX_VALUE : BUFFER_BYTES);
                    ByteBuffer direct = recvCursor.chunkBase().asSlice(recvCursor.chunkOffset(), want).asByteBuffer();
                    int n = read(direct);
                    if (n < 0) {
                        return ended("the peer closed the connection in the middle of a " + frameLength + "-byte frame");
                    }
                    if (n == 0) {
                        buffered = tlsBuffered();
                        return Status.NOT_YET;
                    }
                    recvCursor.advance(n);
                    posted.moved += n;
                    remaining -= n;
                    if (remaining == 0) {
                        return complete();
                    }
                    continue;
                }
                int n = fill();
                if (n < 0) {
                    return ended("the peer closed the connection in the middle of a " + frameLength + "-byte frame");
                }
                if (n == 0) {
                    buffered = inStart < inEnd || tlsBuffered();
                    return Status.NOT_YET;
                }
            }
        } catch (IOException e) {
            fail(Status.BROKEN, "read failed: " + e.getMessage());
            return Status.BROKEN;
        }
    }

    private Status complete() {
        inPayload = false;
        buffered = inStart < inEnd || tlsBuffered();
        Packet done = posted;
        posted = null;
        done.length(frameLength);
        return frameLength > done.size() ? Status.INVALID : Status.DONE;
    }

    private Status ended(String why) {
        fail(Status.BROKEN, why);
        return Status.BROKEN;
    }

    /** Reads what the socket has into the inbound buffer; the count, or -1 at end of stream. */
    private int fill() throws IOException {
        if (inStart == inEnd) {
            inStart = inEnd = 0;
        } else if (inEnd == BUFFER_BYTES || BUFFER_BYTES - inEnd < WireFormat.FRAME_HEADER) {
            MemorySegment.copy(inboundSeg, inStart, inboundSeg, 0, inEnd - inStart);
            inEnd -= inStart;
            inStart = 0;
        }
        int n;
        if (calls != null) {
            n = direct(true, inboundSeg.address() + inEnd, BUFFER_BYTES - inEnd);
        } else {
            inbound.limit(BUFFER_BYTES).position(inEnd);
            n = read(inbound);
        }
        if (n > 0) {
            inEnd += n;
        }
        buffered = inStart < inEnd || tlsBuffered();
        return n;
    }

    @Override
    public Status recvCancel(Packet packet) {
        if (posted == null || posted != packet) {
            return Status.INVALID;
        }
        if (inPayload) {
            return Status.NOT_YET; // its data is arriving: it completes, poll it
        }
        posted = null;
        return Status.DONE;
    }

    @Override
    public String toString() {
        return "tcp instance -> " + (targets != null ? targets : "unconnected") + " (state " + state + ", staged " + (stagingEnd - stagingStart)
                + " B, queued " + queueCount + (gather != null ? ", gathering" : "") + ", inbound " + (inEnd - inStart) + " B"
                + (inPayload ? ", in a frame, " + remaining + " B to come" : "") + (tls != null ? ", " + tls : "") + ")";
    }
}
