package dev.ferry.portals;

/**
 * The header of a message that landed in an overflow list entry, kept until an entry appended
 * to the priority list matches it (an _OVERFLOW event) or a search deletes it.
 *
 * <pre>{@code
 * MatchLists.keep(pt, ni, new Unexpected(EventKind.EVENT_PUT, initiator, uid, bits, rlength, mlength, offset, hdr, null, null, entry));
 * }</pre>
 */
record Unexpected(EventKind kind, ProcessId initiator, int uid, long matchBits, long rlength, long mlength, long offset,
                  long hdrData, Op op, Datatype datatype, ListEntry entry) {
}
