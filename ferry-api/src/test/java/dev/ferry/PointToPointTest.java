package dev.ferry;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.*;

/** MPI's point-to-point semantics on ranks as threads of one JVM (the self driver joins them). */
class PointToPointTest {
    static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void everyRankKnowsItsRankAndSize() {
        int[] seen = new int[4];
        Ferry.runInProcess(4, BOUND, f -> {
            assertEquals(4, f.world().size());
            assertEquals(f.rank(), f.world().rank());
            assertEquals(1, f.self().size());
            assertEquals(0, f.self().rank());
            assertEquals(ThreadLevel.MULTIPLE, f.threadLevel());
            seen[f.rank()] = 1;
        });
        assertArrayEquals(new int[] {1, 1, 1, 1}, seen);
    }

    @Test
    void blockingCallsOnOneBufferUseTheSliceTheirArgumentsName() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            int[] a = {1, 2, 3, 4, 5, 6};
            if (w.rank() == 0) {
                w.send(a, 0, 2, 1, 7);
                w.send(a, 2, 2, 1, 7); // the same array, another offset
                w.send(a, 2, 3, 1, 7); // the same offset, another count
                w.send(a, 1, 1, Datatype.INT2, 1, 7); // the same offset and count, another datatype
            } else {
                int[] in = new int[4];
                w.recv(in, 0, 2, 0, 7);
                assertArrayEquals(new int[] {1, 2, 0, 0}, in);
                w.recv(in, 1, 2, 0, 7);
                assertArrayEquals(new int[] {1, 3, 4, 0}, in);
                w.recv(in, 1, 3, 0, 7);
                assertArrayEquals(new int[] {1, 3, 4, 5}, in);
                Status s = w.recv(in, 0, 4, 0, 7);
                assertEquals(2, s.count());
                assertArrayEquals(new int[] {2, 3, 4, 5}, in);
                FerryException e = assertThrows(FerryException.class, () -> w.recv(in, 2, 3, 0, 7)); // checked again, not cached
                assertEquals(ErrorClass.COUNT, e.errorClass());
            }
        });
    }

    /** The long-count forms (MPI-4's _c bindings) send what the int ones do, and refuse counts past the buffer or past 2^63 bytes. */
    @Test
    void longCountFormsMoveTheSameMessagesAndCheckTheirArguments() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment m = arena.allocate(4096, 8);
                if (w.rank() == 0) {
                    for (int i = 0; i < 512; i++) {
                        m.setAtIndex(ValueLayout.JAVA_LONG, i, i * 3L);
                    }
                    w.send(m, 8L, 100L, Datatype.LONG, 1, 1);
                    w.isend(new long[] {7, 8, 9}, 1L, 2L, Datatype.LONG, 1, 2).await();
                    w.ssend(m, 0L, 4096L, Datatype.BYTE, 1, 3);
                    assertEquals(ErrorClass.COUNT, assertThrows(FerryException.class, () -> w.send(m, 8L, 512L, Datatype.LONG, 1, 4)).errorClass());
                    assertEquals(ErrorClass.COUNT, assertThrows(FerryException.class, () -> w.send(m, 0L, 1L << 61, Datatype.LONG, 1, 4)).errorClass());
                    assertEquals(ErrorClass.COUNT, assertThrows(FerryException.class, () -> w.send(m, 0L, Long.MAX_VALUE, Datatype.LONG, 1, 4)).errorClass());
                    assertEquals(ErrorClass.COUNT, assertThrows(FerryException.class, () -> w.isend(new long[4], Long.MAX_VALUE / 2, 1L, Datatype.LONG, 1, 4)).errorClass());
                    w.send(m, 0L, 0L, Datatype.LONG, 1, 4); // nothing sent before: this is the next message on tag 4
                } else {
                    MemorySegment in = arena.allocate(4096, 8);
                    Status s = w.recv(in, 0L, 512L, Datatype.LONG, 0, 1);
                    assertEquals(100L, s.countLong());
                    assertEquals(100, s.count());
                    for (int i = 0; i < 100; i++) {
                        assertEquals((i + 1) * 3L, in.getAtIndex(ValueLayout.JAVA_LONG, i));
                    }
                    long[] two = new long[4];
                    assertEquals(2L, w.irecv(two, 2L, 2L, Datatype.LONG, 0, 2).await().countLong());
                    assertArrayEquals(new long[] {0, 0, 8, 9}, two);
                    Message msg = w.mprobe(0, 3);
                    assertEquals(1024L, msg.countLong(Datatype.INT));
                    assertEquals(4096L, msg.recv(in, 0L, 4096L, Datatype.BYTE).countLong());
                    assertEquals(0L, w.recv(in, 0L, 1L, Datatype.LONG, 0, 4).countLong());
                    assertEquals(Ferry.UNDEFINED, Status.ok(0, 0, 4097, 8).countLong());
                }
            }
        });
    }

    @Test
    void tagsAndWildcardsMatchTheEarliestMessageInOrder() {
        Ferry.runInProcess(3, BOUND, f -> {
            Comm w = f.world();
            if (w.rank() == 0) {
                for (int tag : new int[] {1, 2, 3, 2}) {
                    w.send(new int[] {tag * 10}, 0, 1, 1, tag);
                }
            } else if (w.rank() == 2) {
                w.send(new int[] {99}, 0, 1, 1, 2);
            } else {
                int[] v = new int[1];
                Status s = w.recv(v, 0, 1, 0, 3); // a later tag first: the others wait unexpected
                assertEquals(30, v[0]);
                assertEquals(3, s.tag());
                s = w.recv(v, 0, 1, 0, Ferry.ANY_TAG);
                assertEquals(10, v[0]);
                assertEquals(1, s.tag());
                s = w.recv(v, 0, 1, 0, 2);
                assertEquals(20, v[0]);
                s = w.recv(v, 0, 1, 2, 2);
                assertEquals(99, v[0]);
                assertEquals(2, s.source());
                s = w.recv(v, 0, 1, Ferry.ANY_SOURCE, Ferry.ANY_TAG);
                assertEquals(20, v[0]);
                assertEquals(0, s.source());
                assertEquals(2, s.tag());
                assertEquals(1, s.count());
            }
        });
    }

    /** A blocking receive in a loop allocates no status: an alike one is the same object, a different one is new. */
    @Test
    void aBlockingReceiveAnswersTheSameStatusWhenItIsAlike() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            int[] v = new int[2];
            if (w.rank() == 0) {
                w.send(v, 0, 2, 1, 4);
                w.send(v, 0, 2, 1, 4);
                w.send(v, 0, 1, 1, 4);
                w.send(v, 0, 1, 1, 5);
            } else {
                Status a = w.recv(v, 0, 2, 0, 4);
                Status b = w.recv(v, 0, 2, 0, 4);
                Status c = w.recv(v, 0, 2, 0, 4);
                Status d = w.recv(v, 0, 2, 0, Ferry.ANY_TAG);
                assertSame(a, b);
                assertEquals(2, b.count());
                assertNotSame(b, c);
                assertEquals(1, c.count());
                assertNotSame(c, d);
                assertEquals(5, d.tag());
                assertEquals(4, a.tag()); // the first is unchanged by the later ones
                assertEquals(2, a.count());
            }
        });
    }

    /**
     * Messages that arrive before their receives, of lengths that rise and fall (the kept copies
     * are refilled by later ones), each land with their own bytes and their sender's status, when
     * the receives take the senders in turn (a reused receive answers each sender its own status).
     */
    @Test
    void unexpectedMessagesKeepTheirBytesAndStatusesWhateverCameBefore() {
        int[] lengths = {2, 2, 300, 1, 0, 1000, 5, 40_000, 7, 7};
        Ferry.runInProcess(3, BOUND, f -> {
            Comm w = f.world();
            for (int round = 0; round < 3; round++) {
                Request[] sends = new Request[w.rank() > 0 ? lengths.length : 0];
                for (int i = 0; i < sends.length; i++) {
                    long[] data = new long[lengths[i]];
                    for (int k = 0; k < data.length; k++) {
                        data[k] = w.rank() * 1_000_000_007L + round * 1_000_003L + i * 10_007L + k;
                    }
                    sends[i] = w.isend(data, 0, data.length, 0, 6); // the large one waits for its receive
                }
                w.barrier(); // every message (or a large one's announcement) is there before rank 0 posts a receive
                if (w.rank() == 0) {
                    long[] into = new long[40_001];
                    Status[] last = new Status[3];
                    for (int i = 0; i < lengths.length; i++) {
                        for (int src = 1; src <= 2; src++) {
                            Arrays.fill(into, -1);
                            Status s = w.recv(into, 0, into.length, src, 6);
                            assertEquals(src, s.source(), "message " + i + " of round " + round);
                            assertEquals(lengths[i], s.count(), "message " + i + " from " + src);
                            for (int k = 0; k < lengths[i]; k++) {
                                assertEquals(src * 1_000_000_007L + round * 1_000_003L + i * 10_007L + k, into[k], "element " + k + " of message " + i + " from " + src);
                            }
                            assertEquals(-1, into[lengths[i]], "nothing past message " + i + " from " + src);
                            if (last[src] != null && last[src].count() == s.count()) {
                                assertSame(last[src], s, "an alike status from the same sender is the same one");
                            }
                            last[src] = s;
                        }
                    }
                }
                Request.waitAll(sends);
            }
        });
    }

    @Test
    void messagesOfOneSenderAreReceivedInOrderWhateverTheirSize() {
        int n = 40;
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            if (w.rank() == 0) {
                Request[] rs = new Request[n];
                for (int i = 0; i < n; i++) {
                    long[] data = new long[i % 3 == 0 ? 40_000 : 2]; // rendezvous and immediate, interleaved
                    Arrays.fill(data, i);
                    rs[i] = w.isend(data, 0, data.length, 1, 5);
                }
                Request.waitAll(rs);
            } else {
                long[] into = new long[40_000];
                for (int i = 0; i < n; i++) {
                    Status s = w.recv(into, 0, into.length, Ferry.ANY_SOURCE, 5);
                    assertEquals(i % 3 == 0 ? 40_000 : 2, s.count(), "message " + i);
                    assertEquals(i, into[0], "message " + i + " arrived out of order");
                    assertEquals(i, into[s.count() - 1]);
                }
            }
        });
    }

    @Test
    void aCommunicatorsMessagesNeverMatchAnothersReceives() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            try (Comm d = w.dup()) {
                assertEquals(Comparison.CONGRUENT, w.compare(d));
                if (w.rank() == 0) {
                    d.send(new int[] {1}, 0, 1, 1, 0);
                    w.send(new int[] {2}, 0, 1, 1, 0);
                } else {
                    int[] v = new int[1];
                    w.recv(v, 0, 1, Ferry.ANY_SOURCE, Ferry.ANY_TAG);
                    assertEquals(2, v[0], "the world's receive took the duplicate's message");
                    d.recv(v, 0, 1, 0, 0);
                    assertEquals(1, v[0]);
                }
            }
        });
    }

    @Test
    void aTruncatedReceiveTellsTheRealLengthAndWritesNothingPastTheBuffer() {
        for (int sent : new int[] {10, 100_000}) { // immediate, rendezvous
            Ferry.runInProcess(2, BOUND, f -> {
                Comm w = f.world();
                if (w.rank() == 0) {
                    int[] data = new int[sent];
                    Arrays.fill(data, 7);
                    w.send(data, 0, sent, 1, 4);
                } else {
                    int[] into = new int[8];
                    Arrays.fill(into, -1);
                    FerryException e = assertThrows(FerryException.class, () -> w.recv(into, 2, 4, Datatype.INT, 0, 4));
                    assertEquals(ErrorClass.TRUNCATE, e.errorClass());
                    assertEquals(sent, e.status().count(), "the status tells what was sent");
                    assertEquals(16, e.status().receivedBytes());
                    assertArrayEquals(new int[] {-1, -1, 7, 7, 7, 7, -1, -1}, into);
                    assertTrue(e.getMessage().contains("from rank 0"), e.getMessage());
                }
            });
        }
    }

    @Test
    void aSynchronousSendCompletesOnlyOnceAReceiveMatchedIt() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            if (w.rank() == 0) {
                Request s = w.issend(new byte[] {1, 2, 3}, 0, 3, 1, 8);
                for (int i = 0; i < 2000; i++) {
                    assertFalse(s.test(), "the synchronous send completed before rank 1 received");
                }
                w.send(new byte[0], 0, 0, 1, 9); // now rank 1 may receive
                assertNull(s.await().error());
                w.ssend(new byte[] {4}, 0, 1, 1, 10); // a blocking one, received at once
            } else {
                w.recv(new byte[0], 0, 0, 0, 9);
                byte[] b = new byte[3];
                w.recv(b, 0, 3, 0, 8);
                assertArrayEquals(new byte[] {1, 2, 3}, b);
                w.recv(b, 0, 1, 0, 10);
                assertEquals(4, b[0]);
            }
        });
    }

    @Test
    void probesSeeMessagesWithoutReceivingThemAndMatchedProbesTakeThem() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            if (w.rank() == 0) {
                assertNull(w.iprobe(1, 3), "nothing was sent yet");
                w.send(new byte[0], 0, 0, 1, 1);
                w.send(new double[] {1.5, 2.5, 3.5}, 0, 3, 1, 2);
                w.send(new double[] {4.5}, 0, 1, 1, 2);
            } else {
                w.recv(new byte[0], 0, 0, 0, 1);
                Status p = w.probe(Ferry.ANY_SOURCE, 2);
                assertEquals(0, p.source());
                assertEquals(3, p.count(Datatype.DOUBLE));
                Message m = w.mprobe(0, 2);
                assertEquals(3, m.count(Datatype.DOUBLE));
                Message second = w.mprobe(0, 2); // the first is taken: a matched probe finds the next
                assertEquals(1, second.count(Datatype.DOUBLE));
                double[] d = new double[3];
                m.recv(d, 0, 3, Datatype.DOUBLE);
                assertArrayEquals(new double[] {1.5, 2.5, 3.5}, d);
                assertThrows(FerryException.class, () -> m.recv(d, 0, 3, Datatype.DOUBLE));
                second.recv(d, 0, 1, Datatype.DOUBLE);
                assertEquals(4.5, d[0]);
                assertNull(w.improbe(Ferry.ANY_SOURCE, Ferry.ANY_TAG));
            }
        });
    }

    @Test
    void aPostedReceiveCanBeCancelledAndProcNullCompletesAtOnce() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            Request r = w.irecv(new int[1], 0, 1, Ferry.ANY_SOURCE, 77);
            assertTrue(r.cancel());
            assertTrue(r.isDone());
            assertTrue(r.status().isCancelled());
            assertFalse(r.cancel());
            Status s = w.recv(new int[1], 0, 1, Ferry.PROC_NULL, 3);
            assertEquals(Ferry.PROC_NULL, s.source());
            assertEquals(0, s.count());
            w.send(new int[1], 0, 1, Ferry.PROC_NULL, 3);
            assertNull(w.iprobe(Ferry.ANY_SOURCE, 77), "the cancelled receive left nothing behind");
        });
    }

    @Test
    void everyKindOfBufferCarriesItsElements() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            if (w.rank() == 0) {
                w.send(new short[] {1, -2}, 0, 2, 1, 0);
                w.send(new char[] {'x', 'y'}, 0, 2, 1, 1);
                w.send(new long[] {Long.MIN_VALUE}, 0, 1, 1, 2);
                w.send(new float[] {0, 1.25f}, 1, 1, 1, 3);
                ByteBuffer bb = ByteBuffer.allocateDirect(16);
                bb.put(4, (byte) 42);
                w.send(bb, 4, 1, 1, 4);
                try (Arena a = Arena.ofConfined()) {
                    MemorySegment m = a.allocate(64);
                    m.set(ValueLayout.JAVA_INT, 8, 1234);
                    w.send(m, 8, 1, Datatype.INT, 1, 5);
                }
            } else {
                short[] s = new short[2];
                w.recv(s, 0, 2, 0, 0);
                assertArrayEquals(new short[] {1, -2}, s);
                char[] c = new char[3];
                w.recv(c, 1, 2, 0, 1);
                assertArrayEquals(new char[] {0, 'x', 'y'}, c);
                long[] l = new long[1];
                w.recv(l, 0, 1, 0, 2);
                assertEquals(Long.MIN_VALUE, l[0]);
                float[] fl = new float[1];
                w.recv(fl, 0, 1, 0, 3);
                assertEquals(1.25f, fl[0]);
                ByteBuffer bb = ByteBuffer.allocateDirect(8);
                w.recv(bb, 7, 1, 0, 4);
                assertEquals(42, bb.get(7));
                try (Arena a = Arena.ofConfined()) {
                    MemorySegment m = a.allocate(4);
                    w.recv(m, 0, 1, Datatype.INT, 0, 5);
                    assertEquals(1234, m.get(ValueLayout.JAVA_INT, 0));
                }
            }
        });
    }

    @Test
    void derivedDatatypesGatherAndScatterWithoutTouchingTheGaps() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            Datatype column = Datatype.vector(4, 1, 4, Datatype.INT);
            Datatype diagonalish = Datatype.indexed(new int[] {1, 2}, new int[] {0, 5}, Datatype.INT);
            Datatype pair = Datatype.struct(new int[] {1, 1}, new long[] {0, 8}, new Datatype[] {Datatype.INT, Datatype.DOUBLE});
            assertEquals(16, column.size());
            assertEquals(52, column.extent());
            assertEquals(12, pair.size());
            if (w.rank() == 0) {
                int[] m = range(16);
                w.send(m, 1, 1, column, 1, 0);                        // column 1: 1, 5, 9, 13
                w.send(m, 0, 1, diagonalish, 1, 1);                   // 0, 5, 6
                w.send(m, 0, 2, Datatype.contiguous(2, Datatype.INT), 1, 2); // 0..3
                MemorySegment s = MemorySegment.ofArray(new byte[32]);
                s.set(ValueLayout.JAVA_INT_UNALIGNED, 0, 17);
                s.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 8, 2.5);
                s.set(ValueLayout.JAVA_INT_UNALIGNED, 16, 18);
                s.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 24, 3.5);
                w.send(s, 0, 2, pair, 1, 3);
            } else {
                int[] into = new int[16];
                Arrays.fill(into, -1);
                Status st = w.recv(into, 2, 1, column, 0, 0);         // into column 2
                assertEquals(1, st.count());
                assertArrayEquals(new int[] {-1, -1, 1, -1, -1, -1, 5, -1, -1, -1, 9, -1, -1, -1, 13, -1}, into);
                int[] flat = new int[3];
                w.recv(flat, 0, 3, Datatype.INT, 0, 1);               // a type's data arrives as a stream of ints
                assertArrayEquals(new int[] {0, 5, 6}, flat);
                int[] four = new int[4];
                w.recv(four, 0, 4, 0, 2);
                assertArrayEquals(new int[] {0, 1, 2, 3}, four);
                byte[] raw = new byte[32];
                Arrays.fill(raw, (byte) -1);
                w.recv(raw, 0, 2, pair, 0, 3);
                MemorySegment s = MemorySegment.ofArray(raw);
                assertEquals(17, s.get(ValueLayout.JAVA_INT_UNALIGNED, 0));
                assertEquals(-1, s.get(ValueLayout.JAVA_INT_UNALIGNED, 4), "the gap stays");
                assertEquals(2.5, s.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 8));
                assertEquals(18, s.get(ValueLayout.JAVA_INT_UNALIGNED, 16));
                assertEquals(3.5, s.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 24));
            }
        });
    }

    private static int[] range(int n) {
        return java.util.stream.IntStream.range(0, n).toArray();
    }

    @Test
    void sendrecvAndSendrecvReplaceTurnARing() {
        Ferry.runInProcess(4, BOUND, f -> {
            Comm w = f.world();
            int right = (w.rank() + 1) % 4, left = (w.rank() + 3) % 4;
            int[] token = {w.rank()};
            w.sendrecvReplace(token, 0, 1, Datatype.INT, right, 0, left, 0);
            assertEquals(left, token[0]);
            w.sendrecvReplace(token, 0L, 1L, Datatype.INT, right, 0, left, 0); // the long form: one step further round
            assertEquals((w.rank() + 2) % 4, token[0]);
            long[] got = new long[1];
            Status s = w.sendrecv(new long[] {w.rank() * 100L}, 0, 1, Datatype.LONG, left, 1, got, 0, 1, Datatype.LONG, right, 1);
            assertEquals(right * 100L, got[0]);
            assertEquals(right, s.source());
        });
    }

    @Test
    void requestsCompleteThroughEveryKindOfWait() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            int other = 1 - w.rank();
            int[][] in = new int[4][1];
            Request[] rs = new Request[4];
            for (int i = 0; i < 4; i++) {
                rs[i] = w.irecv(in[i], 0, 1, other, i);
            }
            Request never = w.irecv(new int[1], 0, 1, other, 99);
            assertEquals(-1, Request.testAny(never), "nothing is ever sent on tag 99");
            assertTrue(never.cancel());
            for (int i = 0; i < 4; i++) {
                w.send(new int[] {i + 100}, 0, 1, other, i);
            }
            int any = Request.waitAny(rs);
            assertTrue(any >= 0 && any < 4);
            int[] some = Request.waitSome(rs);
            assertTrue(some.length >= 1);
            Status[] all = Request.waitAll(rs);
            for (int i = 0; i < 4; i++) {
                assertEquals(i, all[i].tag());
                assertEquals(i + 100, in[i][0]);
            }
            assertTrue(Request.testAll(rs));
            int[] fut = new int[1];
            var future = w.irecv(fut, 0, 1, other, 5).toFuture();
            w.send(new int[] {555}, 0, 1, other, 5);
            assertEquals(5, future.get(60, java.util.concurrent.TimeUnit.SECONDS).tag());
            assertEquals(555, fut[0]);
            if (w.rank() == 0) { // rank 1 sends on tag 6 only when told: nothing can come before the bound
                Request late = w.irecv(new int[1], 0, 1, other, 6);
                assertFalse(late.await(Duration.ofMillis(20)), "no message on tag 6: the bounded wait ends");
                w.send(new int[1], 0, 1, other, 7);
                late.await();
            } else {
                w.recv(new int[1], 0, 1, other, 7);
                w.send(new int[] {6}, 0, 1, other, 6);
            }
        });
    }

    @Test
    void badArgumentsAreRefusedNamingTheArgument() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm w = f.world();
            assertError(ErrorClass.RANK, "dest", () -> w.send(new int[1], 0, 1, 2, 0));
            assertError(ErrorClass.RANK, "source", () -> w.irecv(new int[1], 0, 1, -7, 0));
            assertError(ErrorClass.TAG, "tag", () -> w.send(new int[1], 0, 1, 1, -4));
            assertError(ErrorClass.TAG, "tag", () -> w.irecv(new int[1], 0, 1, 1, -4));
            assertError(ErrorClass.COUNT, "count", () -> w.send(new int[2], 0, 3, 1, 0));
            assertError(ErrorClass.COUNT, "count", () -> w.send(new int[2], 0, -1, 1, 0));
            assertError(ErrorClass.BUFFER, "offset", () -> w.send(new int[2], -1, 1, 1, 0));
            assertError(ErrorClass.BUFFER, "String", () -> w.send("hello", 0, 1, Datatype.BYTE, 1, 0));
            assertError(ErrorClass.TYPE, "datatype", () -> w.send(new int[2], 0, 1, Datatype.DOUBLE, 1, 0));
            assertError(ErrorClass.BUFFER, "read-only", () -> w.irecv(ByteBuffer.allocate(4).asReadOnlyBuffer(), 0, 4, 1, 0));
            assertError(ErrorClass.COMM, "world", () -> w.free());
            Comm d = w.dup();
            d.free();
            assertError(ErrorClass.COMM, "freed", () -> d.send(new int[1], 0, 1, 1, 0));
            w.send(new int[] {1}, 0, 1, 1 - w.rank(), 0); // nothing else was harmed
            w.recv(new int[1], 0, 1, 1 - w.rank(), 0);
        });
    }

    static void assertError(ErrorClass c, String named, org.junit.jupiter.api.function.Executable e) {
        FerryException x = assertThrows(FerryException.class, e);
        assertEquals(c, x.errorClass(), x.getMessage());
        assertTrue(x.getMessage().contains(named), "the message names " + named + ": " + x.getMessage());
    }
}
