package dev.ferry.core.protocol;

import dev.ferry.core.request.Message;

/**
 * Where a protocol hands the messages it parsed: the layer above, through the engine (which
 * implements it). A protocol keeps it at hand, so a message reaches the handler in one call.
 */
public interface Delivery {
    /** Hands a message to the layer above; what it leaves is dropped. */
    void deliver(Message view);
}
