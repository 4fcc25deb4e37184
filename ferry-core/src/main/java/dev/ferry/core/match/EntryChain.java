package dev.ferry.core.match;

/**
 * A doubly linked chain of {@link MatchEntry}s in queue order, through one of the two pairs of
 * links an entry has (a bin's, or a list's), so that one entry can sit in a bin and a list at once
 * and leave both in O(1).
 */
final class EntryChain<T> {
    private final boolean binLinks;
    MatchEntry<T> head;
    private MatchEntry<T> tail;
    int size;

    EntryChain(boolean binLinks) {
        this.binLinks = binLinks;
    }

    void add(MatchEntry<T> e) {
        if (binLinks) {
            e.bin = this;
            e.binPrev = tail;
            e.binNext = null;
            if (tail == null) {
                head = e;
            } else {
                tail.binNext = e;
            }
        } else {
            e.list = this;
            e.listPrev = tail;
            e.listNext = null;
            if (tail == null) {
                head = e;
            } else {
                tail.listNext = e;
            }
        }
        tail = e;
        size++;
    }

    void remove(MatchEntry<T> e) {
        MatchEntry<T> prev, next;
        if (binLinks) {
            prev = e.binPrev;
            next = e.binNext;
            if (prev == null) {
                head = next;
            } else {
                prev.binNext = next;
            }
            if (next == null) {
                tail = prev;
            } else {
                next.binPrev = prev;
            }
            e.bin = null;
            e.binPrev = e.binNext = null;
        } else {
            prev = e.listPrev;
            next = e.listNext;
            if (prev == null) {
                head = next;
            } else {
                prev.listNext = next;
            }
            if (next == null) {
                tail = prev;
            } else {
                next.listPrev = prev;
            }
            e.list = null;
            e.listPrev = e.listNext = null;
        }
        size--;
    }

    MatchEntry<T> next(MatchEntry<T> e) {
        return binLinks ? e.binNext : e.listNext;
    }
}
