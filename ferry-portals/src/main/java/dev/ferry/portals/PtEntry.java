package dev.ferry.portals;

import java.util.ArrayList;
import java.util.List;

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
    final List<ListEntry> priority = new ArrayList<>();
    final List<ListEntry> overflow = new ArrayList<>();
    final List<Unexpected> unexpected = new ArrayList<>();

    PtEntry(int index) {
        this.index = index;
    }

    List<ListEntry> list(ListKind k) {
        return k == ListKind.PRIORITY_LIST ? priority : overflow;
    }
}
