package dev.ferry.driver.shm;

import dev.ferry.spi.DataLayout;
import dev.ferry.spi.IoVec;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicLong;

import static dev.ferry.driver.shm.ShmLayout.SPLIT_CHUNK_MAX;
import static dev.ferry.driver.shm.ShmLayout.SPLIT_CHUNK_MIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The split pull's claims, reports and tags, step by step: both sides in this process, over one
 * channel's memory (process_vm_readv and process_vm_writev aimed at our own pid).
 */
class SplitPullTest {
    private final Arena arena = Arena.ofAuto();
    private final MemorySegment map = arena.allocate(ShmLayout.CHANNEL_BYTES, 4096);
    private final MemorySegment errno = Native.errnoCapture(arena);
    private final long pid = ProcessHandle.current().pid();
    private final AtomicLong exposerChunks = new AtomicLong();
    /** Side A exposes, side B pulls. */
    private final SplitPull exposer = side(0);
    private final SplitPull puller = side(1);

    private SplitPull side(int side) {
        MemorySegment peerContext = arena.allocate(ShmLayout.CONTEXT_BYTES, 8); // nobody sleeps: no futex wake
        return new SplitPull(new Channel(null, map, side, peerContext, errno), pid, arena, exposerChunks);
    }

    private static MemorySegment pattern(long bytes, int seed) {
        MemorySegment m = Arena.ofAuto().allocate(bytes, 64);
        for (long i = 0; i < bytes; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + seed + (i >> 12)));
        }
        return m;
    }

    /** Pull data (READV) naming the segments of {@code parts} in our memory, as sendExpose writes it. */
    private MemorySegment pullData(long generation, int slot, MemorySegment... parts) {
        MemorySegment d = arena.allocate(ShmLayout.PULL_DATA_BYTES, 8);
        d.set(ValueLayout.JAVA_INT, ShmLayout.RTS_MODE, ShmLayout.MODE_READV);
        d.set(ValueLayout.JAVA_INT, ShmLayout.RTS_COUNT, parts.length);
        d.set(ValueLayout.JAVA_LONG, ShmLayout.RTS_PID, pid);
        d.set(ValueLayout.JAVA_LONG, ShmLayout.RTS_NUMBER, generation);
        d.set(ValueLayout.JAVA_INT, ShmLayout.RTS_INDIRECT, 0);
        d.set(ValueLayout.JAVA_INT, ShmLayout.PULL_SLOT, slot);
        for (int i = 0; i < parts.length; i++) {
            long at = ShmLayout.RTS_SEGMENTS + i * ShmLayout.RTS_ENTRY_BYTES;
            d.set(ValueLayout.JAVA_LONG, at, parts[i].address());
            d.set(ValueLayout.JAVA_LONG, at + 16, parts[i].byteSize());
        }
        return d;
    }

    private static void assertRange(MemorySegment expected, MemorySegment actual, long from, long to) {
        long at = MemorySegment.mismatch(expected, from, to, actual, from, to);
        assertEquals(-1, at, "first differing byte after " + from);
    }

    @Test
    void theExposerWritesEveryChunkLeftWhenItComesFirst() {
        long bytes = 9 * SPLIT_CHUNK_MAX + 100; // ten chunks, the last short
        MemorySegment src = pattern(bytes, 1);
        MemorySegment dst = arena.allocate(bytes, 64);
        // the exposer's bytes in three segments whose seams fall inside chunks
        DataLayout layout = IoVec.of(src.asSlice(0, 70_000), src.asSlice(70_000, 200_000), src.asSlice(270_000));
        puller.offer(3, 7, dst.address(), bytes);
        assertEquals(0, exposer.help(3, 7, layout, true), "the puller has not said it is done");
        assertEquals(10, exposerChunks.get());
        assertEquals(0, puller.share(3, 7, pullData(7, 3, src), dst.address(), bytes), "nothing left to the puller");
        assertEquals(1, puller.whole(3, SplitPull.tag(7), bytes, 0));
        assertEquals(1, exposer.help(3, 7, layout, true), "the exposer sees the pull whole");
        assertRange(src, dst, 0, bytes);
    }

    @Test
    void eachSideCopiesOnlyTheChunksItClaimed() {
        long bytes = 8 * SPLIT_CHUNK_MAX;
        MemorySegment src = pattern(bytes, 2);
        MemorySegment dst = arena.allocate(bytes, 64);
        puller.offer(0, 41, dst.address(), bytes);
        long claim = map.get(ValueLayout.JAVA_LONG, ShmLayout.ring(0) + ShmLayout.split(0));
        assertEquals(SplitPull.tag(41) << 32, claim, "the claim word: the tag, then chunk 0");
        map.set(ValueLayout.JAVA_LONG, ShmLayout.ring(0) + ShmLayout.split(0), claim + 3); // as if the puller were copying chunks 0-2
        assertEquals(0, exposer.help(0, 41, DataLayout.contiguous(src), true));
        assertEquals(5, exposerChunks.get(), "chunks 3-7");
        assertEquals(0, puller.whole(0, SplitPull.tag(41), bytes, 2), "one of the puller's own chunks is missing");
        assertEquals(1, puller.whole(0, SplitPull.tag(41), bytes, 3));
        assertRange(src, dst, 3 * SPLIT_CHUNK_MAX, bytes);
        assertEquals(-1, MemorySegment.mismatch(dst, 0, 3 * SPLIT_CHUNK_MAX, arena.allocate(3 * SPLIT_CHUNK_MAX), 0, 3 * SPLIT_CHUNK_MAX),
                "the exposer wrote nothing it had not claimed");
    }

    @Test
    void thePullerCopiesEverythingAcrossTheExposersTwoSegmentsWhenAlone() {
        long bytes = 9 * SPLIT_CHUNK_MAX + 12_345;
        MemorySegment src = pattern(bytes, 3);
        MemorySegment dst = arena.allocate(bytes, 64);
        MemorySegment d = pullData(9, 5, src.asSlice(0, SPLIT_CHUNK_MAX + 7), src.asSlice(SPLIT_CHUNK_MAX + 7));
        puller.offer(5, 9, dst.address(), bytes);
        assertEquals(10, puller.share(5, 9, d, dst.address(), bytes));
        assertEquals(1, puller.whole(5, SplitPull.tag(9), bytes, 10), "the exposer took nothing");
        assertEquals(1, exposer.help(5, 9, DataLayout.contiguous(src), true), "the exposer's send is done");
        assertEquals(0, exposerChunks.get());
        assertRange(src, dst, 0, bytes);
    }

    @Test
    void anOfferOfAnotherGenerationIsNotTaken() {
        long bytes = 2 * SPLIT_CHUNK_MIN;
        MemorySegment src = pattern(bytes, 4);
        MemorySegment dst = arena.allocate(bytes, 64);
        puller.offer(1, 12, dst.address(), bytes);
        assertEquals(0, exposer.help(1, 13, DataLayout.contiguous(src), true), "an exposure of generation 13 is not the one offered");
        assertEquals(0, exposer.help(1, 12, DataLayout.contiguous(src), false), "sharing off: nothing taken");
        assertEquals(0, exposerChunks.get());
        assertEquals(-1, dst.mismatch(arena.allocate(bytes)), "nothing written");
    }

    @Test
    void aChunkTheExposerClaimedButHasNotReportedKeepsThePullOpen() {
        long bytes = 8 * SPLIT_CHUNK_MAX;
        assertEquals(8, SplitPull.chunks(bytes));
        MemorySegment dst = arena.allocate(bytes, 64);
        long p = ShmLayout.ring(0) + ShmLayout.split(2);
        long tag = SplitPull.tag(5);
        puller.offer(2, 5, dst.address(), bytes);
        map.set(ValueLayout.JAVA_LONG, p + ShmLayout.SPLIT_CLAIM, (tag << 32) + 8); // all claimed, the puller took 7
        assertEquals(0, puller.whole(2, tag, bytes, 7), "the exposer's one chunk is not reported yet");
        map.set(ValueLayout.JAVA_LONG, p + ShmLayout.SPLIT_EXPOSER_DONE, SplitPull.tag(4) << 32 | 9); // an older pull's report
        assertEquals(0, puller.whole(2, tag, bytes, 7), "an older pull's report does not count");
        map.set(ValueLayout.JAVA_LONG, p + ShmLayout.SPLIT_EXPOSER_DONE, tag << 32 | 1);
        assertEquals(1, puller.whole(2, tag, bytes, 7));
        assertEquals(1, puller.whole(2, SplitPull.tag(6), bytes, 8), "a later pull the puller copied alone");
    }

    @Test
    void aPullThatFailsLeavesTheExposerNothingToWrite() {
        long bytes = 8 * SPLIT_CHUNK_MAX;
        MemorySegment src = pattern(bytes, 6);
        MemorySegment dst = arena.allocate(bytes, 64);
        MemorySegment shortData = pullData(3, 6, src.asSlice(0, 2 * SPLIT_CHUNK_MAX)); // names two chunks of eight
        puller.offer(6, 3, dst.address(), bytes);
        assertEquals(-Native.EFAULT, puller.share(6, 3, shortData, dst.address(), bytes));
        assertEquals(0, exposer.help(6, 3, DataLayout.contiguous(src), true), "no chunk left to claim, and no report of the puller's");
        assertEquals(0, exposerChunks.get());
        assertEquals(-1, MemorySegment.mismatch(dst, 2 * SPLIT_CHUNK_MAX, bytes, arena.allocate(bytes), 2 * SPLIT_CHUNK_MAX, bytes),
                "nothing written past what the puller read");
    }

    @Test
    void chunksAreAQuarterInWholePagesWithinTheBounds() {
        assertEquals(SPLIT_CHUNK_MIN, ShmLayout.splitChunk(2 * SPLIT_CHUNK_MIN));
        assertEquals(SPLIT_CHUNK_MIN, ShmLayout.splitChunk(64 * 1024));
        assertEquals(20 * 1024, ShmLayout.splitChunk(80 * 1024));
        assertEquals(20 * 1024, ShmLayout.splitChunk(80 * 1024 - 100), "rounded up to a page");
        assertEquals(4, SplitPull.chunks(80 * 1024 - 100));
        assertEquals(SPLIT_CHUNK_MAX, ShmLayout.splitChunk(1 << 20));
        assertEquals(4, SplitPull.chunks(1 << 20));
        assertEquals(SPLIT_CHUNK_MAX, ShmLayout.splitChunk(1L << 30));
    }

    @Test
    void tagsAreNeverZeroAndDifferForConsecutiveGenerations() {
        long[] generations = {0, 1, 0xffff_fffeL, 0xffff_ffffL, 0x1_0000_0000L, (1L << 41) - 1};
        for (long g : generations) {
            long t = SplitPull.tag(g);
            assertTrue(t >= 1 && t <= 0xffff_ffffL, "tag of " + g + ": " + t);
            assertTrue(t != SplitPull.tag(g + 1), "generations " + g + " and " + (g + 1));
        }
    }

    @Test
    void aFailedWriteOfTheExposerFailsThePull() {
        long bytes = 3 * SPLIT_CHUNK_MAX;
        MemorySegment src = pattern(2 * SPLIT_CHUNK_MAX, 5); // fewer bytes than the puller asks for
        MemorySegment dst = arena.allocate(bytes, 64);
        puller.offer(4, 77, dst.address(), bytes);
        long r = exposer.help(4, 77, DataLayout.contiguous(src), true);
        assertEquals(-Native.EFAULT, r);
        assertEquals(-Native.EFAULT, puller.whole(4, SplitPull.tag(77), bytes, 2), "the puller learns of it, with the errno");
        assertTrue(exposerChunks.get() == 0);
        assertFalse(SplitPull.splittable(pullData(1, 0, src), DataLayout.contiguous(dst.asSlice(0, 2 * SPLIT_CHUNK_MIN - 1)), 2 * SPLIT_CHUNK_MIN - 1),
                "less than two chunks is not split");
        assertTrue(SplitPull.splittable(pullData(1, 0, src), DataLayout.contiguous(dst), bytes));
        assertFalse(SplitPull.splittable(pullData(1, 0, src), DataLayout.contiguous(MemorySegment.ofArray(new byte[(int) bytes])), bytes),
                "heap memory has no address to write to");
    }
}
