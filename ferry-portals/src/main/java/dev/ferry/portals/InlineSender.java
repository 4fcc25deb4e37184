package dev.ferry.portals;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.request.SendRequest;
import dev.ferry.spi.PrefixLayout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The library's inline messages (a header, and an operand and data that fit the eager limit):
 * buffers with their send requests, reused once the engine is done with them, so a steady stream
 * of small operations allocates no buffers. Answers that are a header alone (acks, failures,
 * requests without data) take a header-sized buffer: a target answering a flood of puts from a
 * peer that does not yet read holds 64 bytes per answer, not the inline capacity. What waits to
 * leave is bounded: past
 * {@link #MAX_INFLIGHT_BYTES} of buffers not yet sent (a target that takes nothing, its engine
 * credits spent), the initiator waits for room ({@link #crowded}) instead of queueing without end.
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
    /** Bytes of inline buffers that may wait to leave before initiators wait (at least {@link #MIN_INFLIGHT} buffers). */
    static final long MAX_INFLIGHT_BYTES = 16L << 20;
    static final int MIN_INFLIGHT = 64;

    private final ArrayDeque<Outgoing> free = new ArrayDeque<>();
    private final ArrayDeque<Outgoing> freeHeaders = new ArrayDeque<>();
    private final List<Outgoing> inflight = new ArrayList<>();
    private final int maxInflight;
    /** inflight's size, for initiators that look from another thread (thread mode). */
    private volatile int inflightCount;
    private int inflightPeak;

    InlineSender(Engine engine, long capacity) {
        this.engine = engine;
        this.capacity = capacity;
        this.maxInflight = (int) Math.max(MIN_INFLIGHT, MAX_INFLIGHT_BYTES / capacity);
    }

    /** Whether new operations should wait until some of what waits to leave has left. */
    boolean crowded() {
        return inflightCount >= maxInflight;
    }

    int maxInflight() {
        return maxInflight;
    }

    /** The most buffers that ever waited to leave at once. */
    int inflightPeak() {
        return inflightPeak;
    }

    /** An inline message being sent: a send request and its buffer, reused; what is sent is the buffer's first bytes. */
    static final class Outgoing {
        final SendRequest req = new SendRequest();
        final MemorySegment buf;
        final PrefixLayout sent;

        Outgoing(long capacity) {
            buf = Arena.ofAuto().allocate(capacity, 8);
            sent = new PrefixLayout(buf);
        }
    }

    /** A buffer of the inline capacity, to fill from offset 0. */
    Outgoing take() {
        Outgoing o = free.poll();
        return o != null ? o : new Outgoing(capacity);
    }

    /** A buffer for a header alone ({@link PtlWire#HEADER} bytes). */
    Outgoing takeHeader() {
        Outgoing o = freeHeaders.poll();
        return o != null ? o : new Outgoing(PtlWire.HEADER);
    }

    private void giveBack(Outgoing out) {
        (out.buf.byteSize() == capacity ? free : freeHeaders).push(out);
    }

    /** Sends {@code n} bytes of {@code out.buf} to engine rank {@code peer}; the buffer comes back once sent. */
    void send(int peer, Outgoing out, long n) {
        engine.send(out.req.to(peer, PtlWire.LIBRARY, out.sent.length(n)).handledOnArrival());
        if (out.req.isDone()) {
            giveBack(out);
        } else {
            inflight.add(out);
            inflightCount = inflight.size();
            inflightPeak = Math.max(inflightPeak, inflightCount);
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
                giveBack(out);
                work = true;
            }
        }
        if (work) {
            inflightCount = inflight.size();
        }
        return work;
    }

    boolean quiet() {
        return inflight.isEmpty();
    }
}
