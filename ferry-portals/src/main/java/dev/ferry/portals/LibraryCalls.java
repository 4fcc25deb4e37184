package dev.ferry.portals;

import java.util.function.BooleanSupplier;

/**
 * What every family of a {@link PortalsLibrary}'s calls shares: the library while it is open,
 * the handles a call is given, and the one wait every blocking call uses. The families are
 * superclasses of PortalsLibrary, one file each ({@link EventCalls}, {@link MovementCalls}), so
 * that each reads as one part of the Portals 4 API; applications see them all on PortalsLibrary.
 */
abstract sealed class LibraryCalls permits EventCalls {
    /** The library while open; null once closed (every call then answers NO_INIT). */
    volatile Library lib;
    /** Resolves and checks the handles a call is given. */
    final Handles handles = new Handles(this);
    /** Checks and starts (or prepares, for later or a trigger) the data-movement operations. */
    final Operations ops = new Operations(handles);

    LibraryCalls(Library lib) {
        this.lib = lib;
    }

    Library lib() {
        Library l = lib;
        if (l == null) {
            throw new PtlException(ReturnCode.NO_INIT, "the Portals library is finalized (fini / close)");
        }
        return l;
    }

    /**
     * Waits until {@code done} holds, making progress meanwhile (caller mode), up to {@code timeoutMs}
     * (TIME_FOREVER: no limit); false when the time ran out.
     */
    final boolean waitFor(Library l, BooleanSupplier done, long timeoutMs) {
        if (l.dispatch.poll(done)) {
            return true; // no clock read when nothing needs waiting for
        }
        long start = System.nanoTime();
        long deadline = timeoutMs < 0 ? Long.MAX_VALUE : start + timeoutMs * 1_000_000L;
        long idleSince = start;
        long now = start;
        for (int round = 1; ; round++) {
            if (l.dispatch.poll(done)) {
                return true;
            }
            if (dev.ferry.spi.IdleStrategy.DEFAULT.clockDue(round, now - idleSince)) {
                now = System.nanoTime();
                if (timeoutMs >= 0 && now - deadline >= 0) {
                    return false;
                }
            }
            if (l.dispatch.worked) {
                idleSince = now; // serving peers: stay responsive
            }
            l.engine.idleStrategy().idle(now - idleSince, timeoutMs < 0 ? Long.MAX_VALUE : deadline - now);
        }
    }
}
