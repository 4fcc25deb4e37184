package dev.ferry.core.engine;

import dev.ferry.core.request.Message;
import dev.ferry.core.request.MessageHandler;
import dev.ferry.spi.IdleStrategy;
import dev.ferry.spi.Status;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The simplest layer above the engine: keeps every incoming message, in arrival order, until
 * someone takes it. For tests, benchmarks and examples; the library matches instead.
 *
 * <pre>{@code
 * Inbox inbox = new Inbox();
 * Engine e = Engine.init(inbox);
 * inbox.attach(e);
 * Message m = inbox.take(Duration.ofSeconds(10));
 * m.receive(buffer, request);
 * }</pre>
 */
public final class Inbox implements MessageHandler {
    private final ConcurrentLinkedQueue<Message> queue = new ConcurrentLinkedQueue<>();
    private volatile String failure;
    private Engine engine;

    /** The engine to make progress on while waiting (caller mode). */
    public Inbox attach(Engine e) {
        this.engine = e;
        return this;
    }

    @Override
    public void onMessage(Message m) {
        queue.add(m.keep());
    }

    @Override
    public void onPeerFailed(int rank, Status status, String why) {
        failure = "rank " + rank + " failed (" + status + "): " + why;
    }

    /** The next message, or null when none is there now. */
    public Message poll() {
        Message m = queue.poll();
        if (m == null && engine != null && engine.callerProgress()) {
            engine.progress();
            m = queue.poll();
        }
        return m;
    }

    /** Waits up to {@code timeout} for the next message; throws when none came. */
    public Message take(Duration timeout) {
        return take(m -> true, timeout);
    }

    /** The first waiting message {@code wanted} accepts, or null; others stay, in order. */
    public Message poll(java.util.function.Predicate<Message> wanted) {
        if (engine != null && engine.callerProgress()) {
            engine.progress();
        }
        for (java.util.Iterator<Message> it = queue.iterator(); it.hasNext(); ) {
            Message m = it.next();
            if (wanted.test(m)) {
                it.remove();
                return m;
            }
        }
        return null;
    }

    /** How a caller waits whose messages the progress thread delivers: it looks again at least every 50 us. */
    private static final IdleStrategy HANDED = IdleStrategy.DEFAULT.withMaxNap(50_000).withSleep(IdleStrategy.park(50_000));

    /** Waits up to {@code timeout} for a message {@code wanted} accepts (e.g. from one source); others stay. */
    public Message take(java.util.function.Predicate<Message> wanted, Duration timeout) {
        long start = System.nanoTime();
        long end = start + timeout.toNanos();
        for (int round = 0; ; round++) {
            Message m = poll(wanted);
            if (m != null) {
                return m;
            }
            if (System.nanoTime() - end > 0) {
                throw new IllegalStateException("no message within " + timeout.toMillis() + " ms"
                        + (failure == null ? "" : "; last peer failure: " + failure) + (engine == null ? "" : "\n" + engine.stateReport()));
            }
            long now = System.nanoTime();
            if (engine == null || !engine.callerProgress()) {
                HANDED.idle(now - start, end - now);
            } else {
                engine.idleStrategy().idle(now - start, end - now);
            }
        }
    }

    /** The last peer failure reported, or null. */
    public String failure() {
        return failure;
    }

    /** Messages waiting. */
    public int size() {
        return queue.size();
    }
}
