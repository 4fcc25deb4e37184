package dev.ferry.core.agent;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * One packet ring of a channel ({@link ChannelLayout}): records of any length from one producer
 * to one consumer, in memory both map. The producer claims room for a record, fills its payload
 * where it lies and commits it; the consumer reads it where it lies and releases it. Neither
 * side allocates, takes a lock or makes a system call.
 *
 * <pre>{@code
 * ByteRing out = ByteRing.at(channel, ChannelLayout.outRing(slots, slotBytes), ringBytes);
 * long at = out.claim(64);                        // -1: no room yet
 * if (at >= 0) {
 *     MemorySegment.copy(bytes, 0, channel, ValueLayout.JAVA_BYTE, at, 64);
 *     out.commit(peer, ChannelLayout.PACKET, 0, 64);
 * }
 * long r = in.next();                             // a record's start, or -1
 * if (r >= 0) { use(in.payload(r), in.length(r)); in.release(r); }
 * }</pre>
 */
public final class ByteRing {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final MemorySegment memory;
    private final long base, data;
    private final long capacity, mask;
    /** The producer's claim: where its record starts, and the position after any padding. */
    private long claimAt = -1, claimPos;
    /** Where the last record the producer published with messages still to match ends (not one {@link #commitMatched}). */
    private long unmatchedEnd;
    /** The consumer's cached position of the record it returned last. */
    private long readPos;

    private ByteRing(MemorySegment memory, long base, int capacity) {
        if (Integer.bitCount(capacity) != 1 || capacity < 4096) {
            throw new IllegalArgumentException("a packet ring holds a power of two of at least 4096 bytes, not " + capacity);
        }
        this.memory = memory;
        this.base = base;
        this.data = base + ChannelLayout.RING_DATA;
        this.capacity = capacity;
        this.mask = capacity - 1;
        if (data + capacity > memory.byteSize()) {
            throw new IllegalArgumentException("a packet ring of " + capacity + " bytes at " + base + " passes the channel's end (" + memory.byteSize() + ")");
        }
    }

    /** The ring that starts at {@code base} of {@code memory}, with {@code capacity} bytes of data. */
    public static ByteRing at(MemorySegment memory, long base, int capacity) {
        return new ByteRing(memory, base, capacity);
    }

    /** The memory the ring lies in: payload offsets are offsets in it. */
    public MemorySegment memory() {
        return memory;
    }

    /** Bytes of the ring's data. */
    public long capacity() {
        return capacity;
    }

    /** The largest payload a record can have (half the ring: a record plus padding always fits an empty ring). */
    public long maxPayload() {
        return capacity / 2 - ChannelLayout.REC_HEADER;
    }

    // ---- producer -----------------------------------------------------------------------------

    /**
     * Claims room for a record of up to {@code maxPayload} bytes: where its payload starts in
     * {@link #memory()}, or -1 when the consumer has not yet made room. One claim at a time; a
     * new claim replaces an uncommitted one: producers that share a ring (the agent's links and
     * relays) claim only when it is not {@link #claimed}.
     */
    public long claim(long maxPayload) {
        if (maxPayload < 0 || maxPayload > maxPayload()) {
            throw new IllegalArgumentException("a record of " + maxPayload + " bytes (at most " + maxPayload() + ")");
        }
        long pos = (long) LONG.get(memory, base + ChannelLayout.PRODUCED);
        long consumed = (long) LONG.getAcquire(memory, base + ChannelLayout.CONSUMED);
        long need = ChannelLayout.recordBytes(maxPayload);
        long off = pos & mask, pad = capacity - off < need ? capacity - off : 0;
        if (capacity - (pos - consumed) < pad + need) {
            return -1;
        }
        if (pad >= ChannelLayout.REC_HEADER) {
            long at = data + off;
            INT.set(memory, at + ChannelLayout.REC_LENGTH, (int) (pad - ChannelLayout.REC_HEADER));
            INT.set(memory, at + ChannelLayout.REC_KIND, ChannelLayout.PAD);
        }
        claimPos = pos + pad;
        claimAt = data + (claimPos & mask);
        return claimAt + ChannelLayout.REC_HEADER;
    }

    /** Publishes the claimed record with {@code length} bytes of payload (at most those claimed). */
    public void commit(int peer, int kind, long more, long length) {
        commit(-1, peer, kind, more, length);
    }

    /** Whether a claim waits to be committed or abandoned (producer's side). */
    public boolean claimed() {
        return claimAt >= 0;
    }

    /** Drops the claimed record unpublished (the agent took it itself). */
    public void abandon() {
        claimAt = -1;
    }

    /** Publishes the claimed record, naming its origin (the agent, as it delivers into an IN ring). */
    public void commit(int origin, int peer, int kind, long more, long length) {
        unmatchedEnd = publish(origin, peer, kind, more, length);
    }

    /**
     * {@link #commit} for a record that holds no message left to match (what is left of packets
     * whose messages the agent matched itself: their credits): the consumer's parsing it first
     * is no condition for matching more ({@link #matchedAhead}).
     */
    public void commitMatched(int origin, int peer, int kind, long more, long length) {
        publish(origin, peer, kind, more, length);
    }

    /**
     * Whether the consumer has released every record published with messages to match
     * (producer's side): a message that comes now may be matched without passing one ahead of it.
     */
    public boolean matchedAhead() {
        return (long) LONG.getAcquire(memory, base + ChannelLayout.CONSUMED) >= unmatchedEnd;
    }

    private long publish(int origin, int peer, int kind, long more, long length) {
        long at = claimAt;
        if (at < 0) {
            throw new IllegalStateException("commit without a claim");
        }
        INT.set(memory, at + ChannelLayout.REC_LENGTH, (int) length);
        INT.set(memory, at + ChannelLayout.REC_PEER, peer);
        INT.set(memory, at + ChannelLayout.REC_KIND, kind);
        INT.set(memory, at + ChannelLayout.REC_ORIGIN, origin);
        LONG.set(memory, at + ChannelLayout.REC_MORE, more);
        claimAt = -1;
        long end = claimPos + ChannelLayout.recordBytes(length);
        LONG.setRelease(memory, base + ChannelLayout.PRODUCED, end);
        return end;
    }

    /** Bytes free for the producer now. */
    public long free() {
        return capacity - ((long) LONG.get(memory, base + ChannelLayout.PRODUCED) - (long) LONG.getAcquire(memory, base + ChannelLayout.CONSUMED));
    }

    // ---- consumer -----------------------------------------------------------------------------

    /** The start of the next record in {@link #memory()}, or -1 when none has come; padding is passed over. */
    public long next() {
        long pos = (long) LONG.get(memory, base + ChannelLayout.CONSUMED);
        while (true) {
            long produced = (long) LONG.getAcquire(memory, base + ChannelLayout.PRODUCED);
            if (produced == pos) {
                return -1;
            }
            long off = pos & mask, left = capacity - off;
            if (left < ChannelLayout.REC_HEADER || (int) INT.get(memory, data + off + ChannelLayout.REC_KIND) == ChannelLayout.PAD) {
                pos += left;
                LONG.setRelease(memory, base + ChannelLayout.CONSUMED, pos);
                continue;
            }
            readPos = pos;
            return data + off;
        }
    }

    /** Releases the record {@link #next} returned: its room is the producer's again. */
    public void release(long record) {
        LONG.setRelease(memory, base + ChannelLayout.CONSUMED, readPos + ChannelLayout.recordBytes(length(record)));
    }

    /** Whether no record waits (also from a thread other than the consumer's, to decide whether to sleep). */
    public boolean isEmpty() {
        return (long) LONG.getAcquire(memory, base + ChannelLayout.PRODUCED) == (long) LONG.getAcquire(memory, base + ChannelLayout.CONSUMED);
    }

    /** Bytes produced so far: it moves whenever a record is committed. */
    public long produced() {
        return (long) LONG.getAcquire(memory, base + ChannelLayout.PRODUCED);
    }

    public int length(long record) {
        return (int) INT.get(memory, record + ChannelLayout.REC_LENGTH);
    }

    public int peer(long record) {
        return (int) INT.get(memory, record + ChannelLayout.REC_PEER);
    }

    public int kind(long record) {
        return (int) INT.get(memory, record + ChannelLayout.REC_KIND);
    }

    public int origin(long record) {
        return (int) INT.get(memory, record + ChannelLayout.REC_ORIGIN);
    }

    public long more(long record) {
        return (long) LONG.get(memory, record + ChannelLayout.REC_MORE);
    }

    /** Where a record's payload starts. */
    public static long payload(long record) {
        return record + ChannelLayout.REC_HEADER;
    }

    /** Sets a record's origin (the agent, before it passes an OUT record on). */
    public void origin(long record, int rank) {
        INT.set(memory, record + ChannelLayout.REC_ORIGIN, rank);
    }
}
