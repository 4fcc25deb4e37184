package dev.ferry.portals;

import dev.ferry.core.match.MatchEntry;

/**
 * A match list entry (ME, matching interface) or list entry (LE, non-matching interface) on a
 * portal table entry's priority or overflow list (library side).
 *
 * <pre>{@code
 * ListEntry e = ListEntry.of(ni, pt, me, ListKind.PRIORITY_LIST, userPtr, region, ct);
 * }</pre>
 */
final class ListEntry {
    final Ni ni;
    final PtEntry pt;
    final boolean matching;
    final Region region;
    final Counter ct;
    final int uid;
    final int options;
    final ProcessId matchId;
    final long matchBits;
    final long ignoreBits;
    final long minFree;
    final Object userPtr;
    final ListKind list;
    final Handle handle;
    /** Its pattern in its list's matching queues: source, match bits and ignore bits. */
    final MatchEntry<ListEntry> pattern = new MatchEntry<>(this);
    Object registration;
    /** MANAGE_LOCAL: where the next message goes. */
    long localOffset;
    boolean linked;
    boolean autoUnlinked;
    /** Operations that matched and are still moving data into or out of it. */
    int inFlight;
    /** Unexpected headers whose data sits in it (overflow list). */
    int unexpectedRefs;
    /** Its slot in the entry directory while published for direct access ({@link Directory}), else -1. */
    int slot = -1;
    /** The engine's share key of its memory once asked for; {@link #NO_KEY} when it has none. */
    byte[] shareKey;
    static final byte[] NO_KEY = new byte[0];

    ListEntry(Ni ni, PtEntry pt, boolean matching, Region region, Counter ct, int uid, int options, ProcessId matchId,
              long matchBits, long ignoreBits, long minFree, Object userPtr, ListKind list) {
        this.ni = ni;
        this.pt = pt;
        this.matching = matching;
        this.region = region;
        this.ct = ct;
        this.uid = uid;
        this.options = options;
        this.matchId = matchId;
        this.matchBits = matchBits;
        this.ignoreBits = ignoreBits;
        this.minFree = minFree;
        this.userPtr = userPtr;
        this.list = list;
        this.handle = matching ? new MeHandle(this) : new LeHandle(this);
        int source = !matching ? MatchEntry.ANY : ni.logical ? matchId.rank : matchId.phys.pid; // RANK_ANY and PID_ANY are ANY
        pattern.setBits(0, source == Portals.RANK_ANY ? MatchEntry.ANY : source, matching ? matchBits : 0, matching ? ignoreBits : -1L);
    }

    /** The source an incoming header from {@code who} matches with: its logical rank, or its pid (the engine rank). */
    static int sourceOf(Ni ni, ProcessId who) {
        return ni.logical ? who.rank : who.phys.pid;
    }

    boolean has(int option) {
        return (options & option) != 0;
    }

    @Override
    public String toString() {
        return "#" + System.identityHashCode(this) + " on pt " + pt.index + " " + list + (matching ? " bits " + Long.toHexString(matchBits) : "");
    }
}
