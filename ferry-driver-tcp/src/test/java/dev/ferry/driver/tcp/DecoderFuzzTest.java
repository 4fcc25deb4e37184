package dev.ferry.driver.tcp;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random and mutated bytes into the frame-header and handshake decoders: they must accept only
 * well-formed input, reject the rest with a reason, never throw, and never let an announced length
 * past its bound. Seeded, so a failure repeats.
 */
class DecoderFuzzTest {
    private static final long MAX = 1L << 20;
    private static final JobSecret SECRET = new JobSecret("secret".getBytes(StandardCharsets.UTF_8));

    @Test
    void frameHeadersAcceptOnlyWellFormedInput() {
        FrameHeader h = new FrameHeader(MAX);
        MemorySegment m = Arena.ofAuto().allocate(WireFormat.FRAME_HEADER);
        SplittableRandom r = new SplittableRandom(42);
        int accepted = 0;
        for (int i = 0; i < 200_000; i++) {
            if (i % 2 == 0) {
                for (int b = 0; b < WireFormat.FRAME_HEADER; b++) {
                    m.set(java.lang.foreign.ValueLayout.JAVA_BYTE, b, (byte) r.nextInt());
                }
            } else { // a valid header with one to three random bytes changed
                FrameHeader.encode(m, 0, r.nextBoolean() ? WireFormat.KIND_DATA : WireFormat.KIND_BYE, r.nextLong(MAX + 1));
                for (int k = r.nextInt(1, 4); k > 0; k--) {
                    m.set(java.lang.foreign.ValueLayout.JAVA_BYTE, r.nextInt(WireFormat.FRAME_HEADER), (byte) r.nextInt());
                }
            }
            String bad = h.decode(m, 0);
            if (bad == null) {
                accepted++;
                assertTrue(h.length >= 0 && h.length <= MAX, "accepted length " + h.length);
                assertTrue(h.kind == WireFormat.KIND_DATA || (h.kind == WireFormat.KIND_BYE && h.length == 0));
                assertEquals(WireFormat.FRAME_MAGIC, m.get(FrameHeader.INT, 0));
            }
        }
        assertTrue(accepted > 0 && accepted < 200_000, "accepted " + accepted);
    }

    @Test
    void exactBoundsOfTheLength() {
        FrameHeader h = new FrameHeader(MAX);
        MemorySegment m = Arena.ofAuto().allocate(WireFormat.FRAME_HEADER);
        FrameHeader.encode(m, 0, WireFormat.KIND_DATA, MAX);
        assertNull(h.decode(m, 0));
        FrameHeader.encode(m, 0, WireFormat.KIND_DATA, MAX + 1);
        assertEquals(FrameHeader.OVERSIZED, h.decode(m, 0));
        FrameHeader.encode(m, 0, WireFormat.KIND_DATA, -1);
        assertEquals(FrameHeader.NEGATIVE, h.decode(m, 0));
        FrameHeader.encode(m, 0, WireFormat.KIND_BYE, 1);
        assertEquals(FrameHeader.BAD_BYE, h.decode(m, 0));
        FrameHeader.encode(m, 0, 3, 0);
        assertEquals(FrameHeader.BAD_KIND, h.decode(m, 0));
    }

    /**
     * Feeds {@code bytes} in random pieces to an accepting side until it refuses, wants to answer
     * (its challenge: the hello was valid), or runs out of input.
     */
    private static Handshake.Acceptor feed(byte[] bytes, SplittableRandom r) {
        Handshake.Acceptor d = new Handshake.Acceptor(SECRET, 1);
        int pos = 0;
        while (d.out() == null && d.in() != null) {
            ByteBuffer b = d.in();
            if (!b.hasRemaining()) {
                if (d.advance() == Handshake.Step.REFUSED) {
                    return d;
                }
                continue;
            }
            if (pos == bytes.length) {
                return d;
            }
            int n = Math.min(b.remaining(), Math.min(bytes.length - pos, r.nextInt(1, 64)));
            b.put(bytes, pos, n);
            pos += n;
        }
        return d;
    }

    @Test
    void hellosAcceptOnlyTheRightRankAndAWellFormedUrlAndBoundTheirAllocation() {
        SplittableRandom r = new SplittableRandom(7);
        byte[] url = "S127.0.0.1:1/0".getBytes(StandardCharsets.US_ASCII);
        byte[] goodBytes = bytes(Handshake.hello(false, 0, 1, url, SECRET.nonce()));
        Handshake.Acceptor ok = feed(goodBytes, r);
        assertNotNull(ok.hello(), String.valueOf(ok.rejection()));
        assertEquals(0, ok.hello().senderRank());
        assertNotNull(ok.out(), "a valid hello is answered with a challenge");

        assertTrue(feed(bytes(Handshake.hello(false, 0, 2, url, SECRET.nonce())), r).rejection().startsWith("meant for rank 2"));
        // the right rank, but a URL the engine could not decode (once: an exception in the rank's progress)
        String garbled = feed(bytes(Handshake.hello(false, 0, 1, "junk".getBytes(StandardCharsets.US_ASCII), SECRET.nonce())), r).rejection();
        assertTrue(garbled != null && garbled.startsWith("malformed sender URL"), garbled);
        assertTrue(feed(bytes(Handshake.hello(false, 0, 1, "S127.0.0.1:1/5".getBytes(StandardCharsets.US_ASCII), SECRET.nonce())), r)
                .rejection().contains("names rank 5"));

        int accepted = 0;
        for (int i = 0; i < 100_000; i++) {
            byte[] in;
            if (i % 2 == 0) {
                in = new byte[r.nextInt(0, 200)];
                r.nextBytes(in);
            } else {
                in = goodBytes.clone();
                for (int k = r.nextInt(1, 4); k > 0; k--) {
                    in[r.nextInt(in.length)] = (byte) r.nextInt();
                }
            }
            Handshake.Acceptor d = feed(in, r);
            // never more than the fixed part plus the bounded URL
            assertTrue(d.in() == null || d.in().capacity() <= WireFormat.HS_FIXED + WireFormat.MAX_URL, () -> "buffer of " + d.in().capacity());
            if (d.hello() != null) {
                accepted++;
                assertEquals(1, d.hello().receiverRank());
                for (byte[] part : dev.ferry.spi.DriverUrl.decode(d.hello().senderUrl()).parts()) { // never throws
                    assertEquals(d.hello().senderRank(), TcpAddress.parse(part).rank());
                }
            }
        }
        assertTrue(accepted < 100_000);
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }
}
