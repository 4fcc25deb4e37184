package dev.ferry.core.request;

import dev.ferry.spi.Status;

/**
 * The layer above the engine: every incoming message is handed here, one at a time and in order
 * per source (seed 003's lib_parse entry point). Called from whatever thread makes progress (the
 * caller's, or the progress thread with {@code FERRY_PROGRESS=thread}). A handler must not wait
 * for other requests; it may send.
 *
 * <pre>{@code
 * MessageHandler h = m -> {
 *     RecvRequest r = posted.poll();
 *     if (r != null) m.receive(r.buffer(), r);   // expected: straight to its place
 *     else unexpected.add(m.keep());            // unexpected: kept until someone asks
 * };
 * }</pre>
 */
@FunctionalInterface
public interface MessageHandler {
    /**
     * A message arrived (immediate: its bytes are here; rendezvous: announced, its bytes still at
     * the source). Within this call the handler receives it ({@link Message#receive}), keeps it
     * for later ({@link Message#keep}), or lets it go, which drops it.
     */
    void onMessage(Message m);

    /** A peer failed: every pending request involving it has failed with {@code status}. */
    default void onPeerFailed(int rank, Status status, String why) {
    }

    /**
     * Called on every progress pass, after the incoming messages were handled: the layer above
     * checks the completions it waits for (requests it started). Answers whether anything happened.
     */
    default boolean onProgress() {
        return false;
    }
}
