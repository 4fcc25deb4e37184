package dev.ferry.core.request;

import dev.ferry.spi.IdleStrategy;

/**
 * What requests and messages call back into: the engine that makes progress for them and keeps
 * the books of their credits. The engine implements it; this room never names the engine.
 */
public interface RequestHost {
    /** Whether waiting callers make progress themselves (no progress thread). */
    boolean callerProgress();

    /** One progress pass in caller mode; true when anything happened. */
    boolean progress();

    /** How a waiter idles between passes. */
    IdleStrategy idleStrategy();

    /** What the engine holds now, for a timed-out wait's message. */
    String stateReport();

    /** A kept message holds {@code credit} until it is received or dropped. */
    void held(int credit);

    /** An immediate message was received or dropped: its credits go back to its sender. */
    void consumed(Message m);

    /** The layer above receives rendezvous message {@code m} into {@code r}. */
    void receiveRendezvous(Message m, RecvRequest r);
}
