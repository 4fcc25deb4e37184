package dev.ferry.core.protocol;

import dev.ferry.core.rail.EngineStats;
import dev.ferry.core.rail.Rail;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.Origin;
import dev.ferry.core.request.SendRequest;
import dev.ferry.spi.Status;

import java.lang.foreign.MemorySegment;

/**
 * The gate as its protocols see it: the peer, its rails, the credits, the queue of messages
 * waiting to leave, and its failure (the gate implements it; this room never names the gate).
 * Owned by the thread that makes progress.
 */
public interface Link extends Origin {
    /** The gate's rails, rail 0 first (it carries the engine packets). */
    Rail[] rails();

    /** The reused message a protocol fills and hands to {@linkplain #delivery the delivery} while parsing. */
    Message view();

    /** The engine's counters. */
    EngineStats stats();

    /** The engine, which requests started here belong to. */
    dev.ferry.core.request.RequestHost host();

    /** The largest message sent immediate on this gate. */
    long eagerLimit();

    /** The bytes this side may still send immediately (the peer's credits). */
    long credits();

    /** Spends {@code cost} of the credits. */
    void spend(long cost);

    /** Nothing waits to leave before a message sent now. */
    boolean nothingWaits();

    /** Whether {@code rail} may take a packet of its own now. */
    boolean railClear(Rail rail);

    /** Queues {@code s} to leave in order, packed by {@code p}; false (and {@code s} failed) when the gate failed. */
    boolean enqueue(SendRequest s, Protocol p);

    /** Sends what waits on {@code rail}, as far as the driver takes it now. */
    void push(Rail rail);

    /** Writes the packet header of {@code count} entries, with the credits owed. */
    void closePacket(MemorySegment p, int count);

    /** A packet is being parsed: answers wait for its end, to leave together. */
    boolean parsing();

    /** The credits owed are worth a packet of their own. */
    boolean owesReturn();

    /** Where parsed messages go: the layer above, through the engine. */
    Delivery delivery();

    /** Progress passes so far (wrapping): a send can tell whether one ran since an earlier one. */
    int passes();

    /** The peer sent something malformed on {@code rail}: the gate fails. */
    void malformed(Rail rail, String what);

    /** The peer is gone or misbehaved: every request involving it fails with {@code s}. */
    void fail(Status s, String why);

    /** Why the gate failed (null while it has not). */
    Status failStatus();

    /** What made the gate fail ("" or null while it has not). */
    String failure();
}
