package dev.ferry.portals;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.engine.SendRequest;
import dev.ferry.spi.DataLayout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The library's inline messages (a header, and an operand and data that fit the eager limit):
 * buffers with their send requests, reused once the engine is done with them, so a steady stream
 * of small operations allocates no buffers.
 *
 * <pre>{@code
 * InlineSender.Outgoing out = sender.take();
 * PtlWire.request(out.buf, ...);
 * sender.send(peer, out, PtlWire.HEADER);
 * }</pre>
 */
final class InlineSender {
    private final Engine engine;
    private final long capacity;
    private final ArrayDeque<Outgoing> free = new ArrayDeque<>();
    private final List<Outgoing> inflight = new ArrayList<>();

    InlineSender(Engine engine, long capacity) {
        this.engine = engine;
        this.capacity = capacity;
    }

    /**
     * An inline message being sent: a send request and its buffer, reused; also the layout of the
     * buffer's first {@code length} bytes, which is what is sent (a slice would be an allocation
     * per message).
     */
    static final class Outgoing implements DataLayout {
        final SendRequest req = new SendRequest();
        final MemorySegment buf;
        private long length;

        Outgoing(long capacity) {
            buf = Arena.ofAuto().allocate(capacity, 8);
        }

        @Override
        public long size() {
            return length;
        }

        @Override
        public long segmentCount() {
            return 1;
        }

        @Override
        public MemorySegment segmentBase(long i) {
            return buf;
        }

        @Override
        public long segmentOffset(long i) {
            return 0;
        }

        @Override
        public long segmentLength(long i) {
            return length;
        }
    }

    /** A buffer of the inline capacity, to fill from offset 0. */
    Outgoing take() {
        Outgoing o = free.poll();
        return o != null ? o : new Outgoing(capacity);
    }

    /** Sends {@code n} bytes of {@code out.buf} to engine rank {@code peer}; the buffer comes back once sent. */
    void send(int peer, Outgoing out, long n) {
        if (n < 0 || n > out.buf.byteSize()) {
            throw new IllegalArgumentException("an inline message of " + n + " bytes in a buffer of " + out.buf.byteSize());
        }
        out.length = n;
        engine.send(out.req.to(peer, 0L, out));
        if (out.req.isDone()) {
            free.push(out);
        } else {
            inflight.add(out);
        }
    }

    /** Takes back the buffers whose sends completed; true when any did. */
    boolean progress() {
        boolean work = false;
        for (int i = inflight.size() - 1; i >= 0; i--) {
            Outgoing out = inflight.get(i);
            if (out.req.isDone()) {
                inflight.set(i, inflight.get(inflight.size() - 1));
                inflight.remove(inflight.size() - 1);
                free.push(out);
                work = true;
            }
        }
        return work;
    }

    boolean quiet() {
        return inflight.isEmpty();
    }
}
