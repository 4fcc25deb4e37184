package dev.ferry.portals;

import java.lang.foreign.MemorySegment;

/**
 * ptl_event_t: one full event from an event queue. Which fields are meaningful depends on
 * {@link #type}, as the specification's table says (an ACK has no {@code start}, a SEND has no
 * {@code mlength}, ...).
 *
 * <pre>{@code
 * Event e = eqWait(eq).event();
 * if (e.type == EVENT_PUT && e.niFailType == NI_OK) {
 *     MemorySegment data = e.start.asSlice(0, e.mlength);
 * }
 * }</pre>
 */
public final class Event {
    /** Target: where the data landed (or was read from), starting at the operation's offset. */
    public MemorySegment start;
    /** The user pointer of the entry (target) or of the operation (initiator). */
    public Object userPtr;
    public long hdrData;
    public long matchBits;
    /** The length the initiator asked for. */
    public long rlength;
    /** The length actually moved (after truncation). */
    public long mlength;
    public long remoteOffset;
    public int uid;
    public ProcessId initiator;
    public EventKind type;
    public ListKind ptlList;
    public int ptIndex;
    public NiFail niFailType = NiFail.NI_OK;
    public Op atomicOperation;
    public Datatype atomicType;

    @Override
    public String toString() {
        return type + " " + niFailType + " pt " + ptIndex + " mlength " + mlength + " rlength " + rlength + " offset " + remoteOffset
                + " bits " + Long.toHexString(matchBits) + " hdr " + Long.toHexString(hdrData) + " from " + initiator
                + (ptlList == null ? "" : " " + ptlList) + (atomicOperation == null ? "" : " " + atomicOperation + "/" + atomicType);
    }
}
