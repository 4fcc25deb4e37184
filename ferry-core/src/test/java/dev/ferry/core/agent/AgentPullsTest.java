package dev.ferry.core.agent;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The agents' pull between two ranks, both played by this process (an agent reaches a rank's
 * memory with process_vm_readv / writev, which work on its own pid too): the bytes go from an
 * exposure into a pull slot, and nothing moves that the slots do not allow.
 */
class AgentPullsTest {
    private static MemorySegment request(Arena a, int pullSlot, int pullGen, int exposure, int exposureGen, long length) {
        MemorySegment r = a.allocate(ChannelLayout.PULL_REQUEST_BYTES, 8);
        r.set(ValueLayout.JAVA_INT, ChannelLayout.REQ_PULL_SLOT, pullSlot);
        r.set(ValueLayout.JAVA_INT, ChannelLayout.REQ_PULL_GENERATION, pullGen);
        r.set(ValueLayout.JAVA_INT, ChannelLayout.REQ_EXPOSURE, exposure);
        r.set(ValueLayout.JAVA_INT, ChannelLayout.REQ_EXPOSURE_GENERATION, exposureGen);
        r.set(ValueLayout.JAVA_LONG, ChannelLayout.REQ_LENGTH, length);
        return r;
    }

    /** Runs a serve to its end the way a link does: each chunk made, then arrived at the puller. */
    private static void run(AgentPulls.Serve s, PlayedRank to, Arena a) {
        MemorySegment chunk = a.allocate(ChannelLayout.REC_HEADER + ChannelLayout.PULL_DATA_HEADER + AgentPulls.CHUNK, 8);
        for (int i = 0; i < 1000; i++) {
            int n = AgentPulls.fill(s, chunk);
            AgentPulls.arrived(to, s.from.rank(), chunk.get(ValueLayout.JAVA_LONG, ChannelLayout.REC_MORE),
                    chunk.asSlice(ChannelLayout.REC_HEADER, n - ChannelLayout.REC_HEADER));
            if (AgentPulls.sent(s)) {
                return;
            }
        }
        fail("the serve did not end within 1000 chunks");
    }

    @Test
    void anExposureIsPulledWholeIntoThePullSlotAndBothAreAnsweredDone() {
        try (Arena a = Arena.ofConfined()) {
            PlayedRank sender = new PlayedRank(0, a), receiver = new PlayedRank(1, a);
            long n = 3 * AgentPulls.CHUNK + 17; // several chunks and a short one
            MemorySegment src = a.allocate(n), dst = a.allocate(n);
            for (long i = 0; i < n; i++) {
                src.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + 7));
            }
            int e = sender.exposures.take(), eg = sender.exposures.post(e, src.address(), n, 1);
            int p = receiver.pulls.take(), pg = receiver.pulls.post(p, dst.address(), n, 0);
            AgentPulls.Serve s = AgentPulls.requested(sender, 1, request(a, p, pg, e, eg, n));
            run(s, receiver, a);
            assertEquals(-1, src.mismatch(dst), "every byte pulled");
            assertEquals(ChannelLayout.DONE, PullSlots.state(sender.exposures.word(e)));
            assertEquals(ChannelLayout.DONE, PullSlots.state(receiver.pulls.word(p)));
            assertEquals(1, sender.answered);
            assertEquals(1, receiver.answered);
        }
    }

    @Test
    void aRequestForAnExposureOfferedToAnotherRankOrLongerThanItIsRefusedAndReadsNothing() {
        try (Arena a = Arena.ofConfined()) {
            PlayedRank sender = new PlayedRank(0, a);
            MemorySegment src = a.allocate(4096);
            int e = sender.exposures.take(), eg = sender.exposures.post(e, src.address(), 4096, 1);
            AgentException other = assertThrows(AgentException.class, () -> AgentPulls.requested(sender, 2, request(a, 0, 1, e, eg, 4096)));
            assertEquals(AgentError.NOT_REGISTERED, other.error(), "rank 2 was not offered it");
            AgentException longer = assertThrows(AgentException.class, () -> AgentPulls.requested(sender, 1, request(a, 0, 1, e, eg, 4097)));
            assertEquals(AgentError.OUT_OF_BOUNDS, longer.error());
            AgentException old = assertThrows(AgentException.class, () -> AgentPulls.requested(sender, 1, request(a, 0, 1, e, eg - 1, 16)));
            assertEquals(AgentError.NOT_REGISTERED, old.error(), "an older use of the slot");
            assertThrows(AgentException.class, () -> AgentPulls.requested(sender, 1, request(a, 0, 1, ChannelLayout.PULL_SLOTS, eg, 16)));
            assertEquals(ChannelLayout.POSTED, PullSlots.state(sender.exposures.word(e)), "the exposure stays offered");
            assertEquals(0, sender.answered);
        }
    }

    @Test
    void dataBeyondThePullSlotOrFromAnotherRankIsRefusedAndWritesNothing() {
        try (Arena a = Arena.ofConfined()) {
            PlayedRank receiver = new PlayedRank(1, a);
            MemorySegment dst = a.allocate(8192);
            dst.fill((byte) 0x11);
            int p = receiver.pulls.take(), pg = receiver.pulls.post(p, dst.address(), 4096, 0); // the slot: the first half
            MemorySegment payload = a.allocate(ChannelLayout.PULL_DATA_HEADER + 4096, 8);
            payload.asSlice(ChannelLayout.PULL_DATA_HEADER).fill((byte) 0x22);
            payload.set(ValueLayout.JAVA_INT, ChannelLayout.DATA_PULL_SLOT, p);
            payload.set(ValueLayout.JAVA_INT, ChannelLayout.DATA_PULL_GENERATION, pg);
            payload.set(ValueLayout.JAVA_LONG, ChannelLayout.DATA_OFFSET, 2048); // 4096 bytes from 2048: past the slot
            AgentPulls.arrived(receiver, 0, 0, payload);
            assertEquals(ChannelLayout.FAILED, PullSlots.state(receiver.pulls.word(p)));
            for (long i = 0; i < dst.byteSize(); i++) {
                assertEquals(0x11, dst.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " untouched");
            }
            // the slot posted again: data from a rank it is not pulling from changes nothing
            receiver.pulls.free(p);
            int q = receiver.pulls.take(), qg = receiver.pulls.post(q, dst.address(), 4096, 0);
            payload.set(ValueLayout.JAVA_INT, ChannelLayout.DATA_PULL_SLOT, q);
            payload.set(ValueLayout.JAVA_INT, ChannelLayout.DATA_PULL_GENERATION, qg);
            payload.set(ValueLayout.JAVA_LONG, ChannelLayout.DATA_OFFSET, 0);
            AgentPulls.arrived(receiver, 5, 0, payload);
            assertEquals(ChannelLayout.FAILED, PullSlots.state(receiver.pulls.word(q)));
            assertEquals(-1, dst.asSlice(0, 4096).mismatch(a.allocate(4096).fill((byte) 0x11)), "nothing written");
            // data for the slot's older use is dropped, the new use untouched
            receiver.pulls.free(q);
            int r = receiver.pulls.take(), rg = receiver.pulls.post(r, dst.address(), 4096, 0);
            payload.set(ValueLayout.JAVA_INT, ChannelLayout.DATA_PULL_SLOT, r);
            payload.set(ValueLayout.JAVA_INT, ChannelLayout.DATA_PULL_GENERATION, rg - 1);
            AgentPulls.arrived(receiver, 0, 0, payload);
            assertTrue(receiver.pulls.posted(r, rg));
            assertEquals(0x11, dst.get(ValueLayout.JAVA_BYTE, 0));
        }
    }

    @Test
    void anExposureWithdrawnMidwaySendsAFailureThatFailsThePull() {
        try (Arena a = Arena.ofConfined()) {
            PlayedRank sender = new PlayedRank(0, a), receiver = new PlayedRank(1, a);
            long n = 2L * AgentPulls.CHUNK;
            MemorySegment src = a.allocate(n), dst = a.allocate(n);
            int e = sender.exposures.take(), eg = sender.exposures.post(e, src.address(), n, 1);
            int p = receiver.pulls.take(), pg = receiver.pulls.post(p, dst.address(), n, 0);
            AgentPulls.Serve s = AgentPulls.requested(sender, 1, request(a, p, pg, e, eg, n));
            MemorySegment chunk = a.allocate(ChannelLayout.REC_HEADER + ChannelLayout.PULL_DATA_HEADER + AgentPulls.CHUNK, 8);
            int len = AgentPulls.fill(s, chunk);
            AgentPulls.arrived(receiver, 0, chunk.get(ValueLayout.JAVA_LONG, ChannelLayout.REC_MORE), chunk.asSlice(ChannelLayout.REC_HEADER, len - ChannelLayout.REC_HEADER));
            assertFalse(AgentPulls.sent(s));
            sender.exposures.free(e); // the sender's send failed: it gave the slot back
            len = AgentPulls.fill(s, chunk);
            assertEquals(-1, chunk.get(ValueLayout.JAVA_LONG, ChannelLayout.REC_MORE), "a failure record");
            AgentPulls.arrived(receiver, 0, -1, chunk.asSlice(ChannelLayout.REC_HEADER, len - ChannelLayout.REC_HEADER));
            assertTrue(AgentPulls.sent(s), "the serve is over");
            assertEquals(ChannelLayout.FAILED, PullSlots.state(receiver.pulls.word(p)));
        }
    }

    /**
     * A rank gone: every pull posted from it is answered FAILED, the one the agent claimed for a
     * receive of any source too; a pull from another rank and a receive still armed are untouched,
     * and a request for the failed pull that leaves only then is dropped as answered.
     */
    @Test
    void aRankGoneFailsThePullsPostedFromItAlone() {
        try (Arena a = Arena.ofConfined()) {
            PlayedRank receiver = new PlayedRank(1, a);
            MemorySegment dst = a.allocate(4096);
            int p = receiver.pulls.take(), pg = receiver.pulls.post(p, dst.address(), 100, 3);
            int other = receiver.pulls.take(), og = receiver.pulls.post(other, dst.address(), 100, 4);
            int any = receiver.pulls.take(), ag = receiver.pulls.arm(any, dst.address(), 4096, ChannelLayout.ANY_PEER, 7, 0);
            assertTrue(receiver.pulls.claim(any, ag, 3, 7, 200, false), "claimed for rank 3's message");
            int armed = receiver.pulls.take(), armedGen = receiver.pulls.arm(armed, dst.address(), 4096, ChannelLayout.ANY_PEER, 8, 0);

            assertEquals(2, receiver.pulls.failPostedFrom(3));
            assertEquals(PullSlots.word(pg, ChannelLayout.FAILED), receiver.pulls.word(p));
            assertEquals(PullSlots.word(ag, ChannelLayout.FAILED), receiver.pulls.word(any));
            assertEquals(PullSlots.word(og, ChannelLayout.POSTED), receiver.pulls.word(other), "a pull from rank 4 goes on");
            assertEquals(PullSlots.word(armedGen, ChannelLayout.ARMED), receiver.pulls.word(armed), "an armed receive stays armed");
            assertEquals(0, receiver.pulls.failPostedFrom(3), "answered once");
            assertFalse(AgentPulls.own(receiver, 3, request(a, p, pg, 0, 1, 100)), "the request of a pull answered already is not sent");
        }
    }

    /** {@code n} bytes of a file in {@code dir}, mapped here shared: memory the agent can map too. */
    private static MemorySegment sharedFile(java.nio.file.Path file, long n, Arena a) throws Exception {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.allocate(1), n - 1);
            return ch.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, n, a);
        }
    }

    /**
     * Between mapped memory at both ends a link writes each chunk straight from the exposure (the
     * record holds only headers) and reads it straight into the pull slot: the bytes arrive whole,
     * both slots are answered DONE, and both ranks count them.
     */
    @Test
    void mappedMemoryGoesStraightBetweenTheLinkAndBothRanks(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        try (Arena a = Arena.ofShared()) {
            PlayedRank sender = new PlayedRank(0, a), receiver = new PlayedRank(1, a);
            long n = 2 * AgentPulls.CHUNK + 5;
            MemorySegment src = sharedFile(dir.resolve("src"), n, a), dst = sharedFile(dir.resolve("dst"), n, a);
            for (long i = 0; i < n; i++) {
                src.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 17 + 3));
            }
            assertTrue(sender.memory.map(src.address(), n) && receiver.memory.map(dst.address(), n));
            int e = sender.exposures.take(), eg = sender.exposures.post(e, src.address(), n, 1);
            int p = receiver.pulls.take(), pg = receiver.pulls.post(p, dst.address(), n, 0);
            AgentPulls.Serve s = AgentPulls.requested(sender, 1, request(a, p, pg, e, eg, n));
            assertNotNull(s.data, "served from the agent's mapping");
            MemorySegment record = a.allocate(ChannelLayout.REC_HEADER + ChannelLayout.PULL_DATA_HEADER, 8);
            AgentPulls.Landing cache = new AgentPulls.Landing();
            for (int chunks = 0; ; chunks++) {
                assertTrue(chunks < 10, "the serve ends");
                assertEquals(ChannelLayout.REC_HEADER + ChannelLayout.PULL_DATA_HEADER, AgentPulls.fillMapped(s, record), "headers alone");
                long more = record.get(ValueLayout.JAVA_LONG, ChannelLayout.REC_MORE);
                MemorySegment head = record.asSlice(ChannelLayout.REC_HEADER, ChannelLayout.PULL_DATA_HEADER);
                java.nio.ByteBuffer into = AgentPulls.landing(receiver, 0, more, head, s.data.remaining(), cache);
                assertNotNull(into, "landed in the receiver's mapping");
                into.put(s.data); // what the link's write and read do, through the socket
                AgentPulls.landed(receiver, more, head, s.chunk);
                if (AgentPulls.sent(s)) {
                    break;
                }
            }
            assertEquals(-1, src.mismatch(dst), "every byte pulled");
            assertEquals(ChannelLayout.DONE, PullSlots.state(sender.exposures.word(e)));
            assertEquals(ChannelLayout.DONE, PullSlots.state(receiver.pulls.word(p)));
            assertEquals(n, sender.memory.linkedBytes());
            assertEquals(n, receiver.memory.linkedBytes());
        }
    }

    /** Data whose header the pull slot does not allow is not landed straight: it takes the checked path, which refuses it. */
    @Test
    void dataThePullSlotDoesNotAllowIsNotLandedStraight(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        try (Arena a = Arena.ofShared()) {
            PlayedRank receiver = new PlayedRank(1, a);
            MemorySegment dst = sharedFile(dir.resolve("dst"), 8192, a), plain = a.allocate(8192);
            assertTrue(receiver.memory.map(dst.address(), 8192));
            int p = receiver.pulls.take(), pg = receiver.pulls.post(p, dst.address(), 8192, 0);
            int q = receiver.pulls.take(), qg = receiver.pulls.post(q, plain.address(), 8192, 0);
            AgentPulls.Landing cache = new AgentPulls.Landing();
            assertNotNull(AgentPulls.landing(receiver, 0, 4096, head(a, p, pg, 0), 4096, cache), "the first half, from rank 0");
            assertNull(AgentPulls.landing(receiver, 2, 4096, head(a, p, pg, 0), 4096, cache), "from a rank it does not pull from");
            assertNull(AgentPulls.landing(receiver, 0, 0, head(a, p, pg, 4096), 4097, cache), "past the slot");
            assertNull(AgentPulls.landing(receiver, 0, 0, head(a, p, pg, 0), 4096, cache), "said last, but short of the end");
            assertNull(AgentPulls.landing(receiver, 0, -1, head(a, p, pg, 0), 0, cache), "a failure record");
            assertNull(AgentPulls.landing(receiver, 0, 0, head(a, p, pg - 1, 0), 8192, cache), "an older use of the slot");
            assertNull(AgentPulls.landing(receiver, 0, 0, head(a, q, qg, 0), 8192, cache), "a slot in memory the agent did not map");
            receiver.left = true;
            assertNull(AgentPulls.landing(receiver, 0, 0, head(a, p, pg, 0), 8192, cache), "a rank that left");
            assertEquals(0, receiver.answered);
        }
    }

    private static MemorySegment head(Arena a, int slot, int generation, long offset) {
        MemorySegment h = a.allocate(ChannelLayout.PULL_DATA_HEADER, 8);
        h.set(ValueLayout.JAVA_INT, ChannelLayout.DATA_PULL_SLOT, slot);
        h.set(ValueLayout.JAVA_INT, ChannelLayout.DATA_PULL_GENERATION, generation);
        h.set(ValueLayout.JAVA_LONG, ChannelLayout.DATA_OFFSET, offset);
        return h;
    }
}
