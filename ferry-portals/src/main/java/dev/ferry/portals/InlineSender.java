package dev.ferry.portals;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.engine.SendRequest;
import dev.ferry.spi.PrefixLayout;

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

    /** Sends {@code n} bytes of {@code out.buf} to engine rank {@code peer}; the buffer comes back once sent. */
    void send(int peer, Outgoing out, long n) {
        engine.send(out.req.to(peer, 0L, out.sent.length(n)));
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
