package dev.ferry.core.rail;

import dev.ferry.spi.Status;

import java.lang.foreign.MemorySegment;

/**
 * What a rail calls back into: the gate whose packets it carries (the gate implements it; this
 * room never names the gate).
 */
public interface RailOwner {
    /** The peer's rank. */
    int rank();

    /** A packet of {@code len} bytes arrived on {@code rail} at {@code p}: parse it, entry by entry. */
    void parse(Rail rail, MemorySegment p, long len);

    /** The driver answered {@code s}: the peer is gone or misbehaved, and every request involving it fails. */
    void fail(Status s, String why);
}
