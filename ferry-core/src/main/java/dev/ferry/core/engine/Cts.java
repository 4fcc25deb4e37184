package dev.ferry.core.engine;

/**
 * A clear-to-send the target owes the source: where the rendezvous data goes, rail by rail.
 * Reused (the gate keeps the ones sent), so a stream of large messages allocates no plans.
 */
final class Cts {
    long sourceId;
    long targetId;
    long accepted;
    private int chunks;
    final int[] rail = new int[WireHeader.MAX_CTS_CHUNKS];
    final long[] offset = new long[WireHeader.MAX_CTS_CHUNKS];
    final long[] length = new long[WireHeader.MAX_CTS_CHUNKS];

    /** Starts a plan with no chunks yet. */
    Cts set(long sourceId, long targetId, long accepted) {
        this.sourceId = sourceId;
        this.targetId = targetId;
        this.accepted = accepted;
        this.chunks = 0;
        return this;
    }

    void addChunk(int rail, long offset, long length) {
        this.rail[chunks] = rail;
        this.offset[chunks] = offset;
        this.length[chunks] = length;
        chunks++;
    }

    int chunks() {
        return chunks;
    }
}
