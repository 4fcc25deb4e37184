package dev.ferry.portals;

/**
 * The library's barriers ({@link Portals#barrier()}) and its fini meeting ({@link Portals#fini()}),
 * coordinated by rank 0, kept apart: a rank's fini never counts toward a barrier. A barrier that a
 * rank can no longer enter, because it is in fini, fails at every rank waiting in it (naming that
 * rank), so that they can end too instead of waiting for each other forever; a dead rank holds
 * up neither. Used by the library's one thread at a time; the outcome fields are read by waiters.
 *
 * <p>Wire: {@code BARRIER} carries the epoch of the barrier entered, or {@link #FINI}; rank 0
 * answers {@code RELEASE} with that epoch, or with minus the epoch when the barrier failed (the
 * rank in fini in the offset field).
 *
 * <pre>{@code
 * barriers.enterBarrier(epoch);                 // then wait for barrierDone(epoch)
 * String why = barriers.barrierFailure(epoch);  // null: passed
 * }</pre>
 */
final class Barriers {
    /** The fini meeting's epoch on the wire: never a barrier's. */
    static final long FINI = Long.MAX_VALUE;

    /** Sends a BARRIER or RELEASE to a rank. */
    interface Wire {
        void send(int to, byte type, long epoch, long detail);
    }

    private final int rank;
    private final int size;
    private final boolean[] dead;
    private final Wire wire;
    // rank 0, the coordinator
    private long open;
    private final boolean[] inBarrier;
    private final boolean[] inFini;
    /** When each rank in fini entered it (1, 2, ...): a failed barrier names the first, even if it has died since. */
    private final long[] finiOrder;
    private long finiCount;
    // every rank: the outcomes
    private volatile long released;
    private volatile long failedEpoch;
    private volatile int failedBy = -1;
    private volatile boolean finiReleased;

    Barriers(int rank, int size, boolean[] dead, Wire wire) {
        this.rank = rank;
        this.size = size;
        this.dead = dead;
        this.wire = wire;
        this.inBarrier = new boolean[size];
        this.inFini = new boolean[size];
        this.finiOrder = new long[size];
    }

    void enterBarrier(long epoch) {
        if (rank == 0) {
            arrived(0, epoch);
        } else {
            wire.send(0, PtlWire.BARRIER, epoch, 0);
        }
    }

    void enterFini() {
        enterBarrier(FINI);
    }

    /** At rank 0: rank {@code src} entered barrier {@code epoch}, or fini. */
    void arrived(int src, long epoch) {
        if (src < 0 || src >= size || epoch <= 0) {
            return; // not from a rank of this library: nothing to count
        }
        if (epoch == FINI) {
            if (!inFini[src]) {
                finiOrder[src] = ++finiCount;
            }
            inFini[src] = true;
        } else {
            inBarrier[src] = true;
            open = epoch;
        }
        check();
    }

    /** Rank 0 answered: barrier {@code epoch} passed (or failed: negative, {@code detail} the rank in fini), or fini. */
    void released(long epoch, long detail) {
        if (epoch == FINI) {
            finiReleased = true;
        } else if (epoch < 0) {
            failedBy = (int) detail;
            failedEpoch = -epoch;
        } else if (epoch > released) {
            released = epoch;
        }
    }

    /** A rank died: at rank 0, it no longer holds up a barrier or fini. */
    void peerFailed() {
        if (rank == 0) {
            check();
        }
    }

    private void check() {
        if (open != 0) {
            boolean all = true;
            boolean blocked = false; // a live rank in fini will never enter: the barrier fails
            int first = -1;          // the rank that entered fini first, named (it may have died since)
            for (int r = 0; r < size; r++) {
                if (!inBarrier[r] && !dead[r]) {
                    all = false;
                    blocked |= inFini[r];
                }
                if (!inBarrier[r] && inFini[r] && (first < 0 || finiOrder[r] < finiOrder[first])) {
                    first = r;
                }
            }
            if (all || blocked) {
                long answer = all ? open : -open;
                for (int r = 0; r < size; r++) {
                    if (inBarrier[r]) {
                        inBarrier[r] = false;
                        answer(r, answer, first);
                    }
                }
                open = 0;
            }
        }
        boolean any = false;
        for (int r = 0; r < size; r++) {
            if (!inFini[r] && !dead[r]) {
                return;
            }
            any |= inFini[r];
        }
        if (any) {
            for (int r = 0; r < size; r++) {
                if (inFini[r]) {
                    inFini[r] = false;
                    answer(r, FINI, 0);
                }
            }
        }
    }

    private void answer(int r, long epoch, long detail) {
        if (r == 0) {
            released(epoch, detail);
        } else if (!dead[r]) {
            wire.send(r, PtlWire.RELEASE, epoch, detail);
        }
    }

    /** Barrier {@code epoch} has ended, passed or failed. */
    boolean barrierDone(long epoch) {
        return released >= epoch || failedEpoch == epoch;
    }

    /** Why barrier {@code epoch} failed, or null. */
    String barrierFailure(long epoch) {
        return failedEpoch == epoch ? "rank " + failedBy + " called fini() instead: it will never enter this barrier" : null;
    }

    boolean finiDone() {
        return finiReleased;
    }
}
