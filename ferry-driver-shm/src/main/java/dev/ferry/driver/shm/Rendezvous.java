package dev.ferry.driver.shm;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

import static dev.ferry.driver.shm.ShmLayout.RTS_ENTRY_BYTES;
import static dev.ferry.driver.shm.ShmLayout.RTS_SEGMENTS;

/**
 * The large-packet paths of one instance. The sender describes the packet in an RTS slot (the
 * rendezvous data: how to reach the bytes); the receiver pulls them itself (target-initiated,
 * seed 001) with one copy, then reports it done. Three ways:
 * <ul>
 *   <li>READV: process_vm_readv from the sender's memory, addresses in the descriptor (inline up
 *       to {@link ShmLayout#RTS_INLINE_SEGMENTS} segments, else indirect: the receiver first
 *       reads the descriptor array from the sender, seed 001's indirect format);</li>
 *   <li>ARENA: memcpy from the sender's shared arena, which the receiver maps;</li>
 *   <li>BOUNCE: where the kernel refuses process_vm_readv (EPERM, ENOSYS) or the memory has no
 *       address (heap arrays), the sender streams the bytes through the ring's bounce area and
 *       the receiver copies them out: a pipelined double copy.</li>
 * </ul>
 */
final class Rendezvous {
    private final ShmContext ctx;
    private final Channel ch;
    private final long peerPid;
    private final Path peerFile;
    private final MemorySegment errno;
    private final MemorySegment localIov;
    private final MemorySegment remoteIov;
    private final DataCursor cursor = new DataCursor();
    /** The peer's arenas this instance has pulled from, by number (the context's mappings). */
    private MemorySegment[] peerArenas = new MemorySegment[4];
    /** Arena numbers past this are asked of the context each time (a process makes a few arenas, not thousands). */
    private static final int MAX_CACHED_ARENAS = 1024;

    /**
     * Bytes copied into (or out of) the bounce area between two publications of the count: small
     * enough that both ends copy at once, each on its own core, large enough that the counts'
     * cache line moves rarely.
     */
    static final long BOUNCE_CHUNK = 256 * 1024;

    // sender: packets streaming through the bounce area, oldest first
    private final java.util.ArrayDeque<dev.ferry.spi.Packet> bouncing = new java.util.ArrayDeque<>();
    private final DataCursor bounceCursor = new DataCursor();
    private boolean bounceStarted;
    private long bounceProduced;

    // receiver: the large packet being pulled, if any
    int pullMode;
    long pullNumber;
    long pullLength;
    long pullDone;
    private long bounceConsumed;

    Rendezvous(ShmContext ctx, Channel ch, long peerPid, Path peerFile, Arena arena) {
        this.ctx = ctx;
        this.ch = ch;
        this.peerPid = peerPid;
        this.peerFile = peerFile;
        this.errno = Native.errnoCapture(arena);
        this.localIov = arena.allocate(Native.IOVEC_BYTES * Native.IOV_MAX, 8);
        this.remoteIov = arena.allocate(Native.IOVEC_BYTES * Native.IOV_MAX, 8);
    }

    // ---- sender -----------------------------------------------------------------------------

    /**
     * Writes the descriptor of a large packet into the outbound slot at the tail; returns the
     * mode chosen. {@code keepAlive} receives memory that must live until the packet is done.
     */
    int describe(DataLayout layout, long number, MemorySegment slot, Object[] keepAlive) {
        return describe(layout, number, slot, keepAlive, ShmLayout.RTS_INLINE_SEGMENTS);
    }

    /**
     * As {@link #describe(DataLayout, long, MemorySegment, Object[])}, into a descriptor that holds
     * {@code inline} segments (more go indirect; an arena layout of more is read by address).
     */
    int describe(DataLayout layout, long number, MemorySegment slot, Object[] keepAlive, int inline) {
        long n = layout.segmentCount();
        boolean allNative = true;
        boolean allArena = n <= inline;
        for (long i = 0; i < n && (allNative || allArena); i++) {
            MemorySegment base = layout.segmentBase(i);
            if (!base.isNative()) {
                allNative = false;
                allArena = false;
            } else if (allArena && ctx.arenaOf(base.address() + layout.segmentOffset(i), layout.segmentLength(i)) == null) {
                allArena = false;
            }
        }
        int mode = allArena && n > 0 ? ShmLayout.MODE_ARENA
                : allNative && ch.peerReadsUs() ? ShmLayout.MODE_READV : ShmLayout.MODE_BOUNCE;
        slot.set(ValueLayout.JAVA_INT, ShmLayout.RTS_MODE, mode);
        slot.set(ValueLayout.JAVA_LONG, ShmLayout.RTS_PID, ctx.pid);
        slot.set(ValueLayout.JAVA_LONG, ShmLayout.RTS_NUMBER, number);
        slot.set(ValueLayout.JAVA_INT, ShmLayout.RTS_INDIRECT, 0);
        if (mode == ShmLayout.MODE_BOUNCE) {
            slot.set(ValueLayout.JAVA_INT, ShmLayout.RTS_COUNT, 0);
            return mode;
        }
        slot.set(ValueLayout.JAVA_INT, ShmLayout.RTS_COUNT, (int) n);
        MemorySegment entries = slot;
        long at = RTS_SEGMENTS;
        if (n > inline) { // indirect: the array lives in our memory, the slot points at it
            MemorySegment array = Arena.ofAuto().allocate(n * RTS_ENTRY_BYTES, 8);
            keepAlive[0] = array;
            slot.set(ValueLayout.JAVA_INT, ShmLayout.RTS_INDIRECT, 1);
            slot.set(ValueLayout.JAVA_LONG, RTS_SEGMENTS, array.address());
            slot.set(ValueLayout.JAVA_LONG, RTS_SEGMENTS + 8, 0);
            slot.set(ValueLayout.JAVA_LONG, RTS_SEGMENTS + 16, array.byteSize());
            entries = array;
            at = 0;
        }
        for (long i = 0; i < n; i++, at += RTS_ENTRY_BYTES) {
            MemorySegment base = layout.segmentBase(i);
            long address = base.address() + layout.segmentOffset(i);
            long length = layout.segmentLength(i);
            if (mode == ShmLayout.MODE_ARENA) {
                long[] where = ctx.arenaOf(address, length);
                entries.set(ValueLayout.JAVA_LONG, at, where[0]);
                entries.set(ValueLayout.JAVA_LONG, at + 8, where[1]);
            } else {
                entries.set(ValueLayout.JAVA_LONG, at, address);
                entries.set(ValueLayout.JAVA_LONG, at + 8, 0);
            }
            entries.set(ValueLayout.JAVA_LONG, at + 16, length);
        }
        return mode;
    }

    void startBounce(dev.ferry.spi.Packet p) {
        bouncing.add(p);
    }

    /** Streams as much of the oldest bouncing packet as the bounce area takes now. */
    void pushBounce() {
        dev.ferry.spi.Packet p = bouncing.peek();
        if (p == null) {
            return;
        }
        if (!bounceStarted) {
            bounceCursor.reset(p.layout());
            bounceStarted = true;
        }
        long area = ch.outBounce();
        boolean moved = false;
        while (bounceCursor.hasRemaining()) {
            long window = ch.outBounceBytes;
            long room = window - (bounceProduced - ch.bounceConsumedByPeer());
            if (room <= 0) {
                break;
            }
            long at = bounceProduced % window;
            long n = Math.min(Math.min(Math.min(room, bounceCursor.remaining()), window - at), BOUNCE_CHUNK);
            bounceCursor.copyTo(ch.map, area + at, n);
            bounceProduced += n;
            ch.publishBounceProduced(bounceProduced); // chunk by chunk: the receiver copies out while we copy in
            if (!moved) {
                ch.signalPeer();
                moved = true;
            }
        }
        if (!bounceCursor.hasRemaining()) {
            bouncing.poll();
            bounceStarted = false;
        }
    }

    boolean bouncingAnything() {
        return !bouncing.isEmpty();
    }

    // ---- receiver ---------------------------------------------------------------------------

    /** Starts pulling the large packet described by the inbound head slot into {@code into}. */
    void begin(MemorySegment slot, long length) {
        pullMode = slot.get(ValueLayout.JAVA_INT, ShmLayout.RTS_MODE);
        pullNumber = slot.get(ValueLayout.JAVA_LONG, ShmLayout.RTS_NUMBER);
        pullLength = length;
        pullDone = 0;
    }

    /**
     * Pulls (more of) the current large packet into {@code into}; bytes beyond its capacity are
     * dropped. Returns 1 when complete, 0 when more is to come (bounce), -errno on failure.
     */
    long pull(MemorySegment slot, DataLayout into) {
        long keep = Math.min(pullLength, into.size());
        switch (pullMode) {
            case ShmLayout.MODE_READV -> {
                long r = readv(slot, into, keep);
                return r < 0 ? r : 1;
            }
            case ShmLayout.MODE_ARENA -> {
                long r = fromArena(slot, into, keep);
                return r < 0 ? r : 1;
            }
            case ShmLayout.MODE_BOUNCE -> {
                return fromBounce(into, keep);
            }
            default -> {
                return -Native.EFAULT;
            }
        }
    }

    /**
     * Pulls the first {@code into.size()} bytes an exposure's pull data describes (READV or ARENA),
     * at once. Returns the bytes pulled, or -errno (EFAULT for pull data that does not hold).
     */
    long pullExposed(MemorySegment data, DataLayout into) {
        int count = data.get(ValueLayout.JAVA_INT, ShmLayout.RTS_COUNT);
        boolean indirect = data.get(ValueLayout.JAVA_INT, ShmLayout.RTS_INDIRECT) == 1;
        if (count < 0 || (indirect ? 1 : count) > ShmLayout.PULL_INLINE_SEGMENTS) {
            return -Native.EFAULT;
        }
        return switch (data.get(ValueLayout.JAVA_INT, ShmLayout.RTS_MODE)) {
            case ShmLayout.MODE_READV -> readv(data, into, into.size());
            case ShmLayout.MODE_ARENA -> indirect ? -Native.EFAULT : fromArena(data, into, into.size());
            default -> -Native.EFAULT;
        };
    }

    private long readv(MemorySegment slot, DataLayout into, long keep) {
        if (!offHeap(into)) {
            // process_vm_readv writes to addresses: heap memory (an int[]) has none. Read into
            // native memory, then copy: the slow path of an uncommon case, not a fault
            try (Arena a = Arena.ofConfined()) {
                MemorySegment tmp = a.allocate(Math.max(1, keep), 64);
                long r = readvNative(slot, DataLayout.contiguous(tmp.asSlice(0, keep)), keep);
                if (r > 0) {
                    cursor.reset(into).copyFrom(tmp, 0, r);
                }
                return r;
            }
        }
        return readvNative(slot, into, keep);
    }

    /** Whether every segment of {@code layout} is native memory (has an address). */
    private static boolean offHeap(DataLayout layout) {
        for (long i = 0; i < layout.segmentCount(); i++) {
            if (layout.segmentLength(i) > 0 && !layout.segmentBase(i).isNative()) {
                return false;
            }
        }
        return true;
    }

    private long readvNative(MemorySegment slot, DataLayout into, long keep) {
        int count = slot.get(ValueLayout.JAVA_INT, ShmLayout.RTS_COUNT);
        MemorySegment entries = slot;
        long first = RTS_SEGMENTS;
        if (slot.get(ValueLayout.JAVA_INT, ShmLayout.RTS_INDIRECT) == 1) {
            // indirect format: fetch the sender's descriptor array first
            long address = slot.get(ValueLayout.JAVA_LONG, RTS_SEGMENTS);
            long bytes = slot.get(ValueLayout.JAVA_LONG, RTS_SEGMENTS + 16);
            if (bytes != (long) count * RTS_ENTRY_BYTES) {
                return -Native.EFAULT;
            }
            entries = Arena.ofAuto().allocate(bytes, 8);
            long got = readOne(entries.address(), address, bytes);
            if (got < 0) {
                return got;
            }
            first = 0;
        }
        cursor.reset(into);
        long remaining = keep;
        int e = 0;
        long entryOffset = 0;
        while (remaining > 0) {
            // one batch: pairs of equal chunks, ours and the sender's, up to IOV_MAX
            int k = 0;
            long batch = 0;
            while (k < Native.IOV_MAX && batch < remaining) {
                while (e < count && entryLength(entries, first, e) == entryOffset) {
                    e++;
                    entryOffset = 0;
                }
                if (e >= count) {
                    break;
                }
                long chunk = Math.min(Math.min(cursor.chunkLength(), entryLength(entries, first, e) - entryOffset), remaining - batch);
                IoVectors.set(localIov, k, cursor.chunkBase().address() + cursor.chunkOffset(), chunk);
                IoVectors.set(remoteIov, k, entries.get(ValueLayout.JAVA_LONG, first + e * RTS_ENTRY_BYTES) + entryOffset, chunk);
                cursor.advance(chunk);
                entryOffset += chunk;
                batch += chunk;
                k++;
            }
            if (k == 0) {
                return -Native.EFAULT; // the descriptor holds fewer bytes than the packet's length
            }
            long r = IoVectors.transfer(false, errno, peerPid, localIov, k, remoteIov, k, batch);
            if (r < 0) {
                return r;
            }
            remaining -= batch;
        }
        return keep;
    }

    private static long entryLength(MemorySegment entries, long first, int e) {
        return entries.get(ValueLayout.JAVA_LONG, first + e * RTS_ENTRY_BYTES + 16);
    }

    /** Reads {@code bytes} from the peer's {@code remote} address into our {@code local} address. */
    private long readOne(long local, long remote, long bytes) {
        IoVectors.set(localIov, 0, local, bytes);
        IoVectors.set(remoteIov, 0, remote, bytes);
        long r = Native.readv(errno, peerPid, localIov, 1, remoteIov, 1);
        return r == bytes ? r : r < 0 ? r : -Native.EFAULT;
    }

    private long fromArena(MemorySegment slot, DataLayout into, long keep) {
        int count = slot.get(ValueLayout.JAVA_INT, ShmLayout.RTS_COUNT);
        cursor.reset(into);
        long remaining = keep;
        for (int i = 0; i < count && remaining > 0; i++) {
            long at = RTS_SEGMENTS + i * RTS_ENTRY_BYTES;
            long number = slot.get(ValueLayout.JAVA_LONG, at);
            long offset = slot.get(ValueLayout.JAVA_LONG, at + 8);
            long length = Math.min(slot.get(ValueLayout.JAVA_LONG, at + 16), remaining);
            MemorySegment arena = peerArena(number);
            if (arena == null || offset < 0 || offset + length > arena.byteSize()) {
                return -Native.EFAULT;
            }
            cursor.copyFrom(arena, offset, length); // the one memcpy
            remaining -= length;
        }
        return remaining == 0 ? keep : -Native.EFAULT; // the descriptor held fewer bytes than asked
    }

    /**
     * The peer's arena {@code number}, mapped: from this instance's own table after the first
     * time (the context maps each arena once and owns the mapping; asking it means building the
     * file's path, a map look-up and a lock, a microsecond on every pull).
     */
    private MemorySegment peerArena(long number) {
        MemorySegment[] known = peerArenas;
        if (number >= 0 && number < known.length && known[(int) number] != null) {
            return known[(int) number];
        }
        MemorySegment m = ctx.peerArena(peerFile, number); // null for a bad number
        if (m != null && number < MAX_CACHED_ARENAS) {
            if (number >= known.length) {
                known = peerArenas = java.util.Arrays.copyOf(known, (int) Math.max(number + 1, 2L * known.length));
            }
            known[(int) number] = m;
        }
        return m;
    }

    /** Copies what the sender has streamed so far; 1 when the whole packet is through, else 0. */
    private long fromBounce(DataLayout into, long keep) {
        if (pullDone == 0) {
            cursor.reset(into);
        }
        long area = ch.inBounce();
        while (pullDone < pullLength) {
            long available = ch.bounceProducedByPeer() - bounceConsumed;
            if (available <= 0) {
                break;
            }
            long window = ch.inBounceBytes;
            long at = bounceConsumed % window;
            long n = Math.min(Math.min(Math.min(available, pullLength - pullDone), window - at), BOUNCE_CHUNK);
            long stored = Math.max(0, Math.min(n, keep - pullDone));
            if (stored > 0) {
                cursor.copyFrom(ch.map, area + at, stored);
            }
            pullDone += n;
            bounceConsumed += n;
            ch.publishBounceConsumed(bounceConsumed); // chunk by chunk: the sender refills while we copy out
        }
        return pullDone == pullLength ? 1 : 0;
    }

    /** Whether the peer's memory can be read (probed once at connection). */
    boolean probe(long peerAddress) {
        if (!ctx.singleCopy) {
            return false;
        }
        MemorySegment eight = Arena.ofAuto().allocate(8, 8);
        long r = readOne(eight.address(), peerAddress + ShmLayout.MAGIC_OFFSET, 8);
        return r == 8 && eight.get(ValueLayout.JAVA_LONG, 0) == ShmLayout.MAGIC;
    }
}
