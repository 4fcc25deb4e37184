package dev.ferry.core.wire;

/**
 * A clear-to-send the target owes the source: where the rendezvous data goes, rail by rail.
 * Reused (the gate keeps the ones sent), so a stream of large messages allocates no plans.
 */
public final class Cts {
    public long sourceId;
    public long targetId;
    public long accepted;
    private int chunks;
    public final int[] rail = new int[WireHeader.MAX_CTS_CHUNKS];
    public final long[] offset = new long[WireHeader.MAX_CTS_CHUNKS];
    public final long[] length = new long[WireHeader.MAX_CTS_CHUNKS];

    /** Starts a plan with no chunks yet. */
    public Cts set(long sourceId, long targetId, long accepted) {
        this.sourceId = sourceId;
        this.targetId = targetId;
        this.accepted = accepted;
        this.chunks = 0;
        return this;
    }

    public void addChunk(int rail, long offset, long length) {
        this.rail[chunks] = rail;
        this.offset[chunks] = offset;
        this.length[chunks] = length;
        chunks++;
    }

    public int chunks() {
        return chunks;
    }
}
