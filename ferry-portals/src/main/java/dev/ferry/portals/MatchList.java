package dev.ferry.portals;

import dev.ferry.core.match.Eligibility;
import dev.ferry.core.match.MatchEntry;
import dev.ferry.core.match.PostedReceives;

import java.util.Iterator;
import java.util.LinkedHashSet;

/**
 * One priority or overflow list of a portal table entry: its entries in append order, and the
 * matching queues the application API's receives use too ({@link PostedReceives}), which find
 * the first entry that accepts an incoming header in O(1) expected when entries name a source
 * and ignore no bits, however many are appended. Runs in the library's one thread of control.
 *
 * <pre>{@code
 * pt.priority.add(entry);
 * ListEntry e = pt.priority.find(source, bits, arrivalCheck);   // null: try the overflow list
 * }</pre>
 */
final class MatchList implements Iterable<ListEntry> {
    private final LinkedHashSet<ListEntry> order = new LinkedHashSet<>();
    private final PostedReceives<ListEntry> queues = new PostedReceives<>();

    void add(ListEntry e) {
        queues.add(e.pattern);
        order.add(e);
    }

    void remove(ListEntry e) {
        queues.remove(e.pattern);
        order.remove(e);
    }

    /** The first entry, in append order, whose pattern accepts ({@code source}, {@code bits}) and that {@code eligible} lets take it; or null. */
    ListEntry find(int source, long bits, Eligibility<ListEntry> eligible) {
        MatchEntry<ListEntry> m = queues.find(0, source, bits, eligible);
        return m == null ? null : m.item();
    }

    /** Takes every entry out. */
    void clear() {
        for (ListEntry e : order) {
            queues.remove(e.pattern);
        }
        order.clear();
    }

    int size() {
        return order.size();
    }

    boolean isEmpty() {
        return order.isEmpty();
    }

    /** The entries in append order. */
    @Override
    public Iterator<ListEntry> iterator() {
        return order.iterator();
    }
}
