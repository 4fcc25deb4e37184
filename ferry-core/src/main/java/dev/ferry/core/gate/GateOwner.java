package dev.ferry.core.gate;

import dev.ferry.core.protocol.Delivery;
import dev.ferry.core.rail.EngineStats;
import dev.ferry.core.request.RequestHost;

/**
 * What the gates call back into: the engine (it implements this; this room never names it).
 */
public interface GateOwner extends RequestHost, Delivery {
    /** This process's rank. */
    int rank();

    System.Logger logger();

    EngineStats stats();

    /** The engine is closing: a peer that leaves now harms nothing that was not pending. */
    boolean closing();

    /** Progress passes so far (wrapping). */
    int passes();

    /** Gate {@code g} failed: the layer above hears of it. */
    void gateFailed(Gate g);
}
