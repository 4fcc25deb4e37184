package dev.ferry.core.request;

/**
 * Told that a receive the engine handed to a driver to match ({@code Engine.offload}) was matched
 * there, and its message placed: the layer above takes it out of its own matching and finishes
 * it as if it had matched it. Called in the engine's thread of control.
 *
 * <pre>{@code
 * RecvRequest r = new RecvRequest();
 * if (engine.offload(r, source, buffer, bits, ignore, done -> tagOf(done.header()))) { ... }
 * }</pre>
 */
@FunctionalInterface
public interface Matched {
    void matched(RecvRequest r);
}
