package dev.ferry.core.engine;

/** A clear-to-send the target owes the source: where the rendezvous data goes, rail by rail. */
final class Cts {
    final long sourceId;
    final long targetId;
    final long accepted;
    final int[] rail;
    final long[] offset;
    final long[] length;

    Cts(long sourceId, long targetId, long accepted, int[] rail, long[] offset, long[] length) {
        this.sourceId = sourceId;
        this.targetId = targetId;
        this.accepted = accepted;
        this.rail = rail;
        this.offset = offset;
        this.length = length;
    }

    int chunks() {
        return rail.length;
    }
}
