package dev.ferry.portals;

import java.lang.foreign.MemorySegment;

/**
 * ptl_me_t: a match list entry on a matching interface: a list entry plus who may match it
 * ({@code matchId}), the bits to match ({@code matchBits}, except {@code ignoreBits}), and for
 * locally managed offsets the free space under which it unlinks ({@code minFree}).
 *
 * <pre>{@code
 * Me me = new Me();
 * me.start = recvBuf; me.length = recvBuf.byteSize();
 * me.matchId = ProcessId.ofRank(RANK_ANY); me.matchBits = tag; me.ignoreBits = 0;
 * me.options = ME_OP_PUT | ME_USE_ONCE; me.uid = UID_ANY; me.ctHandle = CT_NONE;
 * MeHandle h = meAppend(ni, pt, me, PRIORITY_LIST, null);
 * }</pre>
 */
public final class Me {
    public MemorySegment start;
    public long length;
    public CtHandle ctHandle = CtHandle.NONE;
    public int uid = Portals.UID_ANY;
    public int options;
    public ProcessId matchId = ProcessId.ofRank(Portals.RANK_ANY);
    public long matchBits;
    public long ignoreBits;
    public long minFree;
    /** The elements when {@code options} has {@code IOVEC}. */
    public Iovec[] iovecs;
}
