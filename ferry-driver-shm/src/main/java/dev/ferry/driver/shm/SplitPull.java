package dev.ferry.driver.shm;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicLong;

import static dev.ferry.driver.shm.ShmLayout.RTS_ENTRY_BYTES;
import static dev.ferry.driver.shm.ShmLayout.RTS_SEGMENTS;

/**
 * A large exposed packet copied by both sides at once, each on its own core: the puller reads
 * chunks with process_vm_readv while the exposer, which would otherwise only wait for the pull to
 * end, writes other chunks into the puller's memory with process_vm_writev. Both claim chunks from
 * one word of the {@linkplain ShmLayout split record}, so an exposer that is busy elsewhere simply
 * leaves every chunk to the puller. One copy of one core moves about 5.5 GB/s here, two about
 * 11 (docs/performance.md).
 *
 * <p>The puller's pull is whole when its own chunks are in and the exposer has reported as many
 * as it claimed; the exposer's send is done when the puller has nothing left to claim (its own
 * chunks it wrote before it looked). The record's words carry the exposure's generation, so
 * nothing of an earlier pull counts for the current one; the exposer exposes the slot again only
 * once the puller has marked the pull whole in the exposure table, so the record stays the
 * current pull's until the puller is done with it.
 */
final class SplitPull {
    private static final long TAG_MASK = 0xffff_ffffL;
    private static final long COUNT_MASK = ShmLayout.SPLIT_FAILED - 1;

    private final Channel ch;
    private final MemorySegment map;
    private final long peerPid;
    private final MemorySegment errno;
    private final MemorySegment localIov;
    private final MemorySegment remoteIov;
    private final DataCursor cursor = new DataCursor();
    /** Chunks this side wrote as the exposer (the context's count, for tests and diagnosis). */
    private final AtomicLong written;

    SplitPull(Channel ch, long peerPid, Arena arena, AtomicLong written) {
        this.ch = ch;
        this.written = written;
        this.map = ch.map;
        this.peerPid = peerPid;
        this.errno = Native.errnoCapture(arena);
        this.localIov = arena.allocate(Native.IOVEC_BYTES * Native.IOV_MAX, 8);
        this.remoteIov = arena.allocate(Native.IOVEC_BYTES * ShmLayout.PULL_INLINE_SEGMENTS, 8);
    }

    static long chunks(long bytes) {
        long chunk = ShmLayout.splitChunk(bytes);
        return (bytes + chunk - 1) / chunk;
    }

    /** A generation as the record's words carry it: 32 bits, never 0 (a word never written holds 0). */
    static long tag(long generation) {
        return Long.remainderUnsigned(generation, TAG_MASK) + 1;
    }

    /**
     * Whether a pull of {@code bytes} described by {@code pullData} into {@code into} can be
     * split: at least two chunks, the exposer's bytes by address (READV) with the segments inline,
     * and our side one contiguous range of native memory.
     */
    static boolean splittable(MemorySegment pullData, DataLayout into, long bytes) {
        return bytes >= 2 * ShmLayout.SPLIT_CHUNK_MIN
                && pullData.get(ValueLayout.JAVA_INT, ShmLayout.RTS_MODE) == ShmLayout.MODE_READV
                && pullData.get(ValueLayout.JAVA_INT, ShmLayout.RTS_INDIRECT) == 0
                && into.segmentCount() == 1 && into.segmentBase(0).isNative() && into.segmentLength(0) >= bytes;
    }

    /** Claims the next chunk of the pull the record at {@code claimAt} describes; -1 when none is left. */
    private long claim(long claimAt, long tag, long chunks) {
        while (true) {
            long w = (long) Channel.LONG.getVolatile(map, claimAt);
            if (w >>> 32 != tag || (w & TAG_MASK) >= chunks) {
                return -1;
            }
            if (Channel.LONG.compareAndSet(map, claimAt, w, w + 1)) {
                return w & TAG_MASK;
            }
        }
    }

    // ---- puller -----------------------------------------------------------------------------

    /**
     * Offers the exposer of {@code slot} a share of the pull of {@code generation}: {@code bytes}
     * to {@code address} in our memory. {@link #share} then copies what is left to us.
     */
    void offer(int slot, long generation, long address, long bytes) {
        long p = ch.inSplit(slot);
        map.set(ValueLayout.JAVA_LONG, p + ShmLayout.SPLIT_ADDRESS, address);
        map.set(ValueLayout.JAVA_LONG, p + ShmLayout.SPLIT_LENGTH, bytes);
        Channel.LONG.setRelease(map, p + ShmLayout.SPLIT_CLAIM, tag(generation) << 32);
        ch.signalPeer();
    }

    /**
     * Copies every chunk of the offered pull it can claim, with the exposer's addresses in
     * {@code pullData}, then says it has no more. Returns the chunks it copied, or -errno (EFAULT
     * for pull data that does not hold).
     */
    long share(int slot, long generation, MemorySegment pullData, long address, long bytes) {
        long p = ch.inSplit(slot);
        long tag = tag(generation);
        long chunk = ShmLayout.splitChunk(bytes);
        long chunks = chunks(bytes);
        long mine = 0;
        for (long c; (c = claim(p + ShmLayout.SPLIT_CLAIM, tag, chunks)) >= 0; mine++) {
            long from = c * chunk;
            long r = read(pullData, address + from, from, Math.min(chunk, bytes - from));
            if (r < 0) {
                // the pull fails: the exposer takes no further chunk into memory our caller gets back
                while (claim(p + ShmLayout.SPLIT_CLAIM, tag, chunks) >= 0) {
                    continue; // claimed, never copied
                }
                return r;
            }
        }
        Channel.LONG.setRelease(map, p + ShmLayout.SPLIT_PULLER_DONE, tag << 32 | mine);
        ch.signalPeer();
        return mine;
    }

    /**
     * Whether the pull of {@code slot}'s generation ({@code tag}) is whole, of which we copied
     * {@code mine} chunks: 1 yes, 0 not yet (the exposer still writes), -errno when its write failed.
     */
    long whole(int slot, long tag, long bytes, long mine) {
        long p = ch.inSplit(slot);
        long w = (long) Channel.LONG.getAcquire(map, p + ShmLayout.SPLIT_EXPOSER_DONE);
        long t = w >>> 32;
        if (t == tag) {
            if ((w & ShmLayout.SPLIT_FAILED) != 0) {
                return -Math.max(1, map.get(ValueLayout.JAVA_INT, p + ShmLayout.SPLIT_ERRNO));
            }
            return (w & COUNT_MASK) + mine == chunks(bytes) ? 1 : 0;
        }
        return mine == chunks(bytes) ? 1 : 0; // it took no chunk, or has not finished its first
    }

    private long read(MemorySegment pullData, long local, long from, long bytes) {
        int count = pullData.get(ValueLayout.JAVA_INT, ShmLayout.RTS_COUNT);
        if (count < 0 || count > ShmLayout.PULL_INLINE_SEGMENTS) {
            return -Native.EFAULT;
        }
        int k = 0;
        long skip = from;
        long need = bytes;
        for (int e = 0; e < count && need > 0; e++) {
            long at = RTS_SEGMENTS + e * RTS_ENTRY_BYTES;
            long length = pullData.get(ValueLayout.JAVA_LONG, at + 16);
            if (skip >= length) {
                skip -= length;
                continue;
            }
            long n = Math.min(length - skip, need);
            IoVectors.set(remoteIov, k++, pullData.get(ValueLayout.JAVA_LONG, at) + skip, n);
            need -= n;
            skip = 0;
        }
        if (need > 0) {
            return -Native.EFAULT; // the exposer's segments hold fewer bytes than the pull
        }
        IoVectors.set(localIov, 0, local, bytes);
        return IoVectors.transfer(false, errno, peerPid, localIov, 1, remoteIov, k, bytes);
    }

    // ---- exposer ----------------------------------------------------------------------------

    /**
     * Takes a share of the pull of our exposure {@code slot} ({@code generation}, bytes in
     * {@code layout}) if the puller offered one and {@code share} allows: copies chunks until none
     * is left. Returns 1 when
     * the pull is whole on our side (the puller has nothing left to claim), 0 when it is not or
     * was not offered, -errno when a write failed (reported to the puller too).
     */
    long help(int slot, long generation, DataLayout layout, boolean share) {
        long p = ch.outSplit(slot);
        long tag = tag(generation);
        long claimAt = p + ShmLayout.SPLIT_CLAIM;
        if ((long) Channel.LONG.getAcquire(map, claimAt) >>> 32 != tag) {
            return 0; // no share offered for this pull (yet)
        }
        long address = map.get(ValueLayout.JAVA_LONG, p + ShmLayout.SPLIT_ADDRESS);
        long bytes = map.get(ValueLayout.JAVA_LONG, p + ShmLayout.SPLIT_LENGTH);
        long chunk = ShmLayout.splitChunk(bytes);
        long chunks = chunks(bytes);
        long done = map.get(ValueLayout.JAVA_LONG, p + ShmLayout.SPLIT_EXPOSER_DONE); // ours alone to write
        long count = done >>> 32 == tag ? done & COUNT_MASK : 0;
        boolean wrote = false;
        for (long c; share && (c = claim(claimAt, tag, chunks)) >= 0; ) {
            long from = c * chunk;
            long r = bytes > layout.size() ? -Native.EFAULT : write(layout, from, address + from, Math.min(chunk, bytes - from));
            if (r < 0) {
                map.set(ValueLayout.JAVA_INT, p + ShmLayout.SPLIT_ERRNO, (int) -r);
                Channel.LONG.setRelease(map, p + ShmLayout.SPLIT_EXPOSER_DONE, tag << 32 | ShmLayout.SPLIT_FAILED | count);
                ch.signalPeer();
                return r;
            }
            Channel.LONG.setRelease(map, p + ShmLayout.SPLIT_EXPOSER_DONE, tag << 32 | ++count);
            written.incrementAndGet();
            wrote = true;
        }
        if (wrote) {
            ch.signalPeer(); // a puller may wait for our chunks
        }
        return (long) Channel.LONG.getAcquire(map, p + ShmLayout.SPLIT_PULLER_DONE) >>> 32 == tag ? 1 : 0;
    }

    private long write(DataLayout layout, long from, long remote, long bytes) {
        cursor.reset(layout).advance(from);
        long left = bytes;
        while (left > 0) {
            int k = 0;
            long batch = 0;
            while (k < Native.IOV_MAX && batch < left) {
                long n = Math.min(cursor.chunkLength(), left - batch);
                IoVectors.set(localIov, k++, cursor.chunkBase().address() + cursor.chunkOffset(), n);
                cursor.advance(n);
                batch += n;
            }
            IoVectors.set(remoteIov, 0, remote + (bytes - left), batch);
            long r = IoVectors.transfer(true, errno, peerPid, localIov, k, remoteIov, 1, batch);
            if (r < 0) {
                return r;
            }
            left -= batch;
        }
        return bytes;
    }
}
