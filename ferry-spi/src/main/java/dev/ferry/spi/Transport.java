package dev.ferry.spi;

/**
 * What a driver can reach (seed 001: one local and one remote transport; the local one overrides
 * the remote one for peers on the same node).
 */
public enum Transport {
    /** Only other contexts of the same process. */
    SELF,
    /** Processes on the same node (shared memory and the like). */
    LOCAL,
    /** Processes on any node (a network). */
    REMOTE
}
