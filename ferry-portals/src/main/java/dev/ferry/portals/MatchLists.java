package dev.ferry.portals;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.match.Eligibility;
import dev.ferry.core.match.MatchEntry;

import java.lang.foreign.MemorySegment;

import static dev.ferry.portals.Portals.*;

/**
 * The lists of the portal table entries (library side): appending and unlinking match list
 * entries and list entries, matching an incoming header against a list, the unexpected headers of
 * messages that landed in the overflow list (taken by new priority entries, reported or deleted by
 * searches), and the link, unlink and free events that go with them. The lists and the headers
 * sit in the matching queues of {@code dev.ferry.core.match}, which the application API's
 * receives use too; what a pattern of source and bits cannot say (an entry too short for
 * NO_TRUNCATE, an operation it does not permit, a physical id's node) is checked as the queues
 * walk their candidates. Runs in the library's one thread of control.
 *
 * <pre>{@code
 * ListEntry e = lists.match(pt.priority, ni, initiator, bits, rlength, offset);
 * }</pre>
 */
final class MatchLists {
    private final Engine engine;
    private final Directory directory;
    /** The incoming header being matched (one thread of control: reused, so matching allocates nothing). */
    private final ArrivalCheck arrival = new ArrivalCheck();
    /** The entry whose pattern walks the unexpected headers. */
    private final HeaderCheck header = new HeaderCheck();

    MatchLists(Engine engine, Directory directory) {
        this.engine = engine;
        this.directory = directory;
    }


    Handle append(Ni ni, int ptIndex, ListEntry e) {
        PtEntry p = e.pt;
        if (ni.entries >= ni.limits.maxEntries) {
            throw new PtlException(ReturnCode.NO_SPACE, "max_entries " + ni.limits.maxEntries + " list entries are appended");
        }
        MatchList list = p.list(e.list);
        if (list.size() >= ni.limits.maxListSize) {
            throw new PtlException(ReturnCode.LIST_TOO_LONG, "the " + e.list + " of portal table entry " + ptIndex + " holds max_list_size " + ni.limits.maxListSize + " entries");
        }
        if (e.list == ListKind.PRIORITY_LIST && p.unexpected.size() != 0) {
            // seed: a new priority entry first takes the unexpected headers it matches
            if (takeUnexpected(p, e)) {
                // used up at once (use-once): never linked, and unlinked as a use-once entry is
                // after its match, with its AUTO_UNLINK (as the reference implementation does)
                e.autoUnlinked = true;
                if (p.eq != null && !e.has(ME_EVENT_UNLINK_DISABLE)) {
                    p.eq.post(targetEvent(EventKind.EVENT_AUTO_UNLINK, p, e, NiFail.NI_OK));
                }
                return e.handle;
            }
        }
        e.registration = e.region.validate(engine);
        e.linked = true;
        list.add(e);
        ni.entries++;
        if (e.list == ListKind.PRIORITY_LIST) {
            directory.republish(ni, p);
        }
        if (p.eq != null && !e.has(ME_EVENT_LINK_DISABLE)) {
            Event ev = targetEvent(EventKind.EVENT_LINK, p, e, NiFail.NI_OK);
            p.eq.post(ev);
        }
        return e.handle;
    }

    /** Takes the matching unexpected headers for a new priority entry; true when it was used up. */
    private boolean takeUnexpected(PtEntry p, ListEntry e) {
        header.probe = e;
        MatchEntry<ListEntry> pat = e.pattern;
        for (MatchEntry<Unexpected> h = p.unexpected.find(0, pat.source(), pat.bits(), pat.ignoreBits(), header); h != null; ) {
            MatchEntry<Unexpected> next = p.unexpected.findAfter(h, pat.source(), pat.bits(), pat.ignoreBits(), header);
            Unexpected u = h.item();
            p.unexpected.remove(h);
            e.ni.unexpectedHeaders--;
            EventKind k = overflowKind(u);
            if (p.eq != null && !e.has(ME_EVENT_OVER_DISABLE) && !e.has(ME_EVENT_COMM_DISABLE) && !e.has(ME_EVENT_SUCCESS_DISABLE)) {
                Event ev = eventFromHeader(k, p, u, e.userPtr);
                p.eq.post(ev);
            }
            if (e.ct != null && e.has(ME_EVENT_CT_OVERFLOW)) {
                e.ct.add(e.has(ME_EVENT_CT_BYTES) ? u.mlength() : 1, 0);
            }
            released(u.entry());
            if (e.has(ME_USE_ONCE)) {
                return true;
            }
            h = next;
        }
        return false;
    }

    /** The event of an unexpected header taken from the overflow list: the kind of operation it was, overflowed. */
    private static EventKind overflowKind(Unexpected u) {
        return switch (u.kind()) {
            case EVENT_GET -> EventKind.EVENT_GET_OVERFLOW;
            case EVENT_ATOMIC -> EventKind.EVENT_ATOMIC_OVERFLOW;
            case EVENT_FETCH_ATOMIC -> EventKind.EVENT_FETCH_ATOMIC_OVERFLOW;
            default -> EventKind.EVENT_PUT_OVERFLOW;
        };
    }

    private Event eventFromHeader(EventKind k, PtEntry p, Unexpected u, Object userPtr) {
        Event ev = new Event();
        ev.type = k;
        ev.ptIndex = p.index;
        ev.userPtr = userPtr;
        ev.hdrData = u.hdrData();
        ev.matchBits = u.matchBits();
        ev.rlength = u.rlength();
        ev.mlength = u.mlength();
        ev.remoteOffset = u.offset();
        ev.uid = u.uid();
        ev.initiator = u.initiator();
        ev.ptlList = ListKind.OVERFLOW_LIST;
        ev.atomicOperation = u.op();
        ev.atomicType = u.datatype();
        ev.start = u.offset() < 0 ? MemorySegment.NULL : u.entry().region.contiguous(u.offset(), u.mlength());
        return ev;
    }

    /** An unexpected header's data no longer needs its overflow entry. */
    private void released(ListEntry overflowEntry) {
        if (--overflowEntry.unexpectedRefs == 0 && overflowEntry.autoUnlinked) {
            autoFree(overflowEntry);
        }
    }

    void autoFree(ListEntry e) {
        if (e.pt.eq != null && !e.has(ME_EVENT_UNLINK_DISABLE)) {
            e.pt.eq.post(targetEvent(EventKind.EVENT_AUTO_FREE, e.pt, e, NiFail.NI_OK));
        }
    }

    /** Keeps the header of a message that landed in an overflow entry, behind those before it. */
    static void keep(PtEntry p, Ni ni, Unexpected u) {
        p.unexpected.add(new MatchEntry<>(u).setBits(0, ListEntry.sourceOf(ni, u.initiator()), u.matchBits(), 0));
    }

    /** Whether {@code e}, whose pattern accepts the header's source and bits, may take it: its node (physical ids) and operation. */
    private boolean mayTake(ListEntry e, Unexpected u) {
        if (e.matching && !e.ni.logical && !physicalIdMatches(e, u.initiator().phys.nid, u.initiator().phys.pid)) {
            return false;
        }
        return switch (u.kind()) {
            case EVENT_GET -> e.has(ME_OP_GET);
            case EVENT_FETCH_ATOMIC -> e.has(ME_OP_GET) && e.has(ME_OP_PUT);
            default -> e.has(ME_OP_PUT);
        };
    }

    private final class HeaderCheck implements Eligibility<Unexpected> {
        ListEntry probe;

        @Override
        public boolean eligible(Unexpected u) {
            return mayTake(probe, u);
        }
    }

    Void unlink(ListEntry e) {
        if (!e.linked) {
            // unlinked already, by the program or by the library (use-once consumed, manage-local
            // full): the handle is stale, as in the reference implementation
            throw Library.invalid("entry " + e + " is no longer linked (unlinked " + (e.autoUnlinked ? "automatically" : "already") + ")");
        }
        if (e.inFlight > 0) {
            throw new PtlException(ReturnCode.IN_USE, "entry " + e + " has " + e.inFlight + " operations moving data");
        }
        if (!directory.withdraw(e.ni, e)) {
            throw new PtlException(ReturnCode.IN_USE, "entry " + e + ": a same-node peer still works on its memory directly");
        }
        e.pt.list(e.list).remove(e);
        e.linked = false;
        e.ni.entries--;
        engine.memory().deregister(e.registration);
        e.registration = null;
        if (e.list == ListKind.PRIORITY_LIST) {
            directory.republish(e.ni, e.pt); // entries behind it may now lead the list
        }
        return null;
    }

    Void search(ListEntry probe, SearchOp op, Object userPtr) {
        PtEntry p = probe.pt;
        boolean found = false;
        header.probe = probe;
        MatchEntry<ListEntry> pat = probe.pattern;
        for (MatchEntry<Unexpected> h = p.unexpected.find(0, pat.source(), pat.bits(), pat.ignoreBits(), header); h != null; ) {
            MatchEntry<Unexpected> next = p.unexpected.findAfter(h, pat.source(), pat.bits(), pat.ignoreBits(), header);
            Unexpected u = h.item();
            found = true;
            if (p.eq != null) {
                // a search that deletes reports what it found, as an append would (PUT_OVERFLOW ...)
                p.eq.post(eventFromHeader(op == SearchOp.SEARCH_ONLY ? EventKind.EVENT_SEARCH : overflowKind(u), p, u, userPtr));
            }
            if (probe.ct != null && probe.has(ME_EVENT_CT_COMM)) {
                probe.ct.add(probe.has(ME_EVENT_CT_BYTES) ? u.mlength() : 1, 0);
            }
            if (op == SearchOp.SEARCH_ONLY) {
                break;
            }
            p.unexpected.remove(h);
            probe.ni.unexpectedHeaders--;
            released(u.entry());
            h = next;
        }
        if (!found && p.eq != null) {
            Event ev = new Event();
            ev.type = EventKind.EVENT_SEARCH;
            ev.ptIndex = p.index;
            ev.userPtr = userPtr;
            ev.niFailType = NiFail.NI_NO_MATCH;
            p.eq.post(ev);
        }
        return null;
    }

    /** A physical interface's match id against a sender's (a logical rank is the pattern's source). */
    private static boolean physicalIdMatches(ListEntry e, int nid, int pid) {
        ProcessId m = e.matchId;
        return (m.phys.nid == NID_ANY || m.phys.nid == nid) && (m.phys.pid == PID_ANY || m.phys.pid == pid);
    }

    /** The first entry of {@code list} that takes a message from {@code who} with {@code bits} of {@code rlength} bytes at {@code roff}; or null. */
    ListEntry match(MatchList list, Ni ni, ProcessId who, long bits, long rlength, long roff) {
        if (list.isEmpty()) {
            return null;
        }
        arrival.nid = who.phys.nid; // not the id itself: kept in a field, it would no longer be scalar-replaced
        arrival.pid = who.phys.pid;
        arrival.rlength = rlength;
        arrival.roff = roff;
        return list.find(ListEntry.sourceOf(ni, who), bits, arrival);
    }

    /** What an entry whose pattern accepts the header's source and bits must also meet: its node (physical ids) and NO_TRUNCATE. */
    private final class ArrivalCheck implements Eligibility<ListEntry> {
        int nid;
        int pid;
        long rlength;
        long roff;

        @Override
        public boolean eligible(ListEntry e) {
            if (e.matching && !e.ni.logical && !physicalIdMatches(e, nid, pid)) {
                return false;
            }
            if (e.has(ME_NO_TRUNCATE)) {
                long offset = e.has(ME_MANAGE_LOCAL) ? e.localOffset : roff;
                return offset >= 0 && rlength <= e.region.length() - offset; // unsigned: a negative offset is beyond any entry
            }
            return true;
        }
    }

    static Event targetEvent(EventKind k, PtEntry pt, ListEntry e, NiFail fail) {
        Event ev = new Event();
        ev.type = k;
        ev.ptIndex = pt.index;
        ev.userPtr = e.userPtr;
        ev.niFailType = fail;
        ev.ptlList = e.list;
        return ev;
    }
}
