package dev.ferry.core.gate;

import dev.ferry.core.rail.EngineStats;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.RequestHost;

/**
 * What the gates call back into: the engine (it implements this; this room never names it).
 */
public interface GateOwner extends RequestHost {
    /** This process's rank. */
    int rank();

    System.Logger logger();

    EngineStats stats();

    /** The engine is closing: a peer that leaves now harms nothing that was not pending. */
    boolean closing();

    /** Hands a message to the layer above; what it leaves is dropped. */
    void deliver(Message view);

    /** Progress passes so far (wrapping). */
    int passes();

    /** Gate {@code g} failed: the layer above hears of it. */
    void gateFailed(Gate g);
}
