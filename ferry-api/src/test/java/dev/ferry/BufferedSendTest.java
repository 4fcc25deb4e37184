package dev.ferry;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.*;

/** Buffered sends (MPI_Bsend and its attached buffer), with caller and thread progress. */
class BufferedSendTest {
    static final Duration BOUND = Duration.ofSeconds(60);

    private static FerryConfig config(boolean thread) {
        return new FerryConfig().progressThread(thread);
    }

    private static int[] filled(int n, int seed) {
        int[] a = new int[n];
        Arrays.setAll(a, i -> seed * 1_000_003 + i);
        return a;
    }

    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void twoRanksThatBsendLargeMessagesToEachOtherAndThenReceiveDoNotDeadlock(boolean thread) {
        int n = 100_000; // 400 KB: far past the eager limit, so a standard send would wait for the receive
        Ferry.runInProcess(2, BOUND, config(thread), f -> {
            Comm w = f.world();
            int peer = 1 - w.rank();
            f.attachBuffer(new byte[n * 4 + Ferry.BSEND_OVERHEAD]);
            w.bsend(filled(n, w.rank()), 0, n, Datatype.INT, peer, 5);
            int[] got = new int[n];
            w.recv(got, 0, n, Datatype.INT, peer, 5);
            assertArrayEquals(filled(n, peer), got);
            assertInstanceOf(byte[].class, f.detachBuffer());
        });
    }

    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void aRankBsendsToItselfAndThenReceives(boolean thread) {
        int n = 200_000;
        Ferry.runInProcess(1, BOUND, config(thread), f -> {
            Comm w = f.world();
            f.attachBuffer(ByteBuffer.allocateDirect(n + Ferry.BSEND_OVERHEAD));
            byte[] out = new byte[n];
            Arrays.fill(out, (byte) 7);
            w.bsend(out, 0, n, 0, 1);
            Arrays.fill(out, (byte) 9); // the message was copied: changing the array changes nothing
            byte[] in = new byte[n];
            w.recv(in, 0, n, 0, 1);
            byte[] sevens = new byte[n];
            Arrays.fill(sevens, (byte) 7);
            assertArrayEquals(sevens, in);
            f.detachBuffer();
        });
    }

    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void aBsendLargerThanTheFreeSpaceFailsWithBufferAndSaysHowMuch(boolean thread) {
        Ferry.runInProcess(2, BOUND, config(thread), f -> {
            Comm w = f.world();
            if (w.rank() == 0) {
                FerryException none = assertThrows(FerryException.class, () -> w.bsend(new int[4], 0, 4, 1, 0));
                assertEquals(ErrorClass.BUFFER, none.errorClass());
                assertTrue(none.getMessage().contains("no buffer is attached"), none.getMessage());

                f.attachBuffer(new byte[1000 + Ferry.BSEND_OVERHEAD - 1]);
                FerryException big = assertThrows(FerryException.class, () -> w.bsend(new int[250], 0, 250, 1, 0));
                assertEquals(ErrorClass.BUFFER, big.errorClass());
                assertTrue(big.getMessage().contains("a message of 1000 bytes needs " + (1000 + Ferry.BSEND_OVERHEAD)), big.getMessage());

                // one that fits, held in flight (far past eager), then a second one that no longer fits
                int n = 200;
                f.detachBuffer();
                f.attachBuffer(new byte[100_000 * 4 + Ferry.BSEND_OVERHEAD]);
                w.bsend(filled(100_000, 3), 0, 100_000, 1, 1);
                FerryException full = assertThrows(FerryException.class, () -> w.bsend(new int[n], 0, n, 1, 2));
                assertEquals(ErrorClass.BUFFER, full.errorClass());
                assertTrue(full.getMessage().contains("1 buffered sends in flight"), full.getMessage());
                w.send(new int[0], 0, 0, 1, 3); // now the peer receives the large one
                f.detachBuffer();
                FerryException twice = assertThrows(FerryException.class, () -> {
                    f.attachBuffer(new byte[8]);
                    f.attachBuffer(new byte[8]);
                });
                assertEquals(ErrorClass.BUFFER, twice.errorClass());
            } else {
                w.recv(new int[0], 0, 0, 0, 3);
                int[] got = new int[100_000];
                w.recv(got, 0, got.length, 0, 1);
                assertArrayEquals(filled(100_000, 3), got);
            }
        });
    }

    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void detachWaitsUntilTheMessagesInFlightHaveGone(boolean thread) {
        int n = 50_000, messages = 3;
        Ferry.runInProcess(2, BOUND, config(thread), f -> {
            Comm w = f.world();
            if (w.rank() == 0) {
                try (Arena arena = Arena.ofShared()) {
                    MemorySegment buffer = arena.allocate(messages * (n * 8L + Ferry.BSEND_OVERHEAD));
                    f.attachBuffer(buffer);
                    for (int m = 0; m < messages; m++) {
                        w.bsend(filled(2 * n, m), 0, 2 * n, Datatype.INT, 1, m);
                    }
                    assertEquals(messages * (n * 8L + Ferry.BSEND_OVERHEAD), f.bsends.reserved(), "all three in flight");
                    w.send(new int[0], 0, 0, 1, 99); // the peer starts receiving only now
                    assertSame(buffer, f.detachBuffer());
                    // were detach to return early, the peer would read this garbage out of the buffer
                    buffer.fill((byte) 0x55);
                    assertNull(f.detachBuffer(), "nothing attached any more");
                }
                w.barrier();
            } else {
                w.recv(new int[0], 0, 0, 0, 99);
                for (int m = messages - 1; m >= 0; m--) { // in reverse: each waits for the one before
                    int[] got = new int[2 * n];
                    w.recv(got, 0, got.length, Datatype.INT, 0, m);
                    assertArrayEquals(filled(2 * n, m), got, "message " + m);
                }
                w.barrier();
            }
        });
    }

    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void spaceIsReusedAndDerivedTypesArePackedIntoIt(boolean thread) {
        Datatype column = Datatype.vector(4, 1, 4, Datatype.INT);
        Ferry.runInProcess(2, BOUND, config(thread), f -> {
            Comm w = f.world();
            int rounds = 200;
            if (w.rank() == 0) {
                f.attachBuffer(new byte[4 * (16 + Ferry.BSEND_OVERHEAD)]); // room for four in flight
                int[] matrix = new int[16];
                for (int r = 0; r < rounds; r++) {
                    int round = r;
                    Arrays.setAll(matrix, i -> i + 1000 * round);
                    Request q = w.ibsend(matrix, 1, 1, column, 1, 4);
                    assertTrue(q.isDone(), "an ibsend completes once copied");
                    if (r % 4 == 3) { // the peer answers every fourth: then all four have gone
                        w.recv(new int[0], 0, 0, 1, 5);
                    }
                }
                f.detachBuffer();
            } else {
                for (int r = 0; r < rounds; r++) {
                    int[] got = new int[4];
                    w.recv(got, 0, 4, Datatype.INT, 0, 4);
                    int base = 1000 * r + 1;
                    assertArrayEquals(new int[] {base, base + 4, base + 8, base + 12}, got, "round " + r);
                    if (r % 4 == 3) {
                        w.send(new int[0], 0, 0, 0, 5);
                    }
                }
            }
        });
    }

    @ParameterizedTest(name = "progress thread {0}")
    @ValueSource(booleans = {false, true})
    void closeWaitsForBufferedSendsStillInFlight(boolean thread) {
        int n = 100_000;
        Ferry.runInProcess(2, BOUND, config(thread), f -> {
            Comm w = f.world();
            if (w.rank() == 0) {
                f.attachBuffer(MemorySegment.ofArray(new long[n / 2 + Ferry.BSEND_OVERHEAD]));
                w.bsend(filled(n, 8), 0, n, 1, 0);
                // no detach: close completes the send first
            } else {
                int[] got = new int[n];
                w.recv(got, 0, n, 0, 0);
                assertArrayEquals(filled(n, 8), got);
            }
        });
    }
}
