package dev.ferry.portals;

import dev.ferry.core.match.UnexpectedMessages;

/**
 * A portal table entry (library side): its options, event queue, the priority and overflow
 * lists, and the unexpected headers of messages that landed in the overflow list.
 *
 * <pre>{@code
 * PtEntry pt = ni.pt[index];
 * pt.priority.add(entry);
 * }</pre>
 */
final class PtEntry {
    final int index;
    boolean allocated;
    boolean enabled;
    int options;
    EventQueue eq;
    final MatchList priority = new MatchList();
    final MatchList overflow = new MatchList();
    /** In arrival order, binned by (source, bits) as the API's unexpected messages are. */
    final UnexpectedMessages<Unexpected> unexpected = new UnexpectedMessages<>();

    PtEntry(int index) {
        this.index = index;
    }

    MatchList list(ListKind k) {
        return k == ListKind.PRIORITY_LIST ? priority : overflow;
    }
}
