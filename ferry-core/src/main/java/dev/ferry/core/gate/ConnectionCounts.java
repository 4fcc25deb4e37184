package dev.ferry.core.gate;

/**
 * A rank's connections to its peers (itself aside), counted over all drivers: open now, and
 * opened, closed while idle (FERRY_IDLE_CLOSE, or asked by the peer) and evicted by the cap
 * (FERRY_MAX_CONNECTIONS) since the engine started. A snapshot that may be a moment old.
 *
 * <pre>{@code
 * ConnectionCounts c = engine.connections();
 * System.out.println(c.open() + " open, " + c.opened() + " opened");
 * }</pre>
 */
public record ConnectionCounts(long open, long opened, long closedIdle, long evicted) {
    @Override
    public String toString() {
        return "open " + open + " opened " + opened + " closed-idle " + closedIdle + " evicted " + evicted;
    }
}
