package dev.ferry.conformance;

import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static dev.ferry.conformance.Transfers.allocate;
import static dev.ferry.conformance.Transfers.await;
import static dev.ferry.conformance.Transfers.checkPattern;
import static dev.ferry.conformance.Transfers.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The conformance kit's tests of data: order, every size up to the maximum, layouts (arrays,
 * iovecs, strided, generic), oversized packets, buffer-based paths. Part of
 * {@link DriverConformanceTest}.
 */
abstract class DataConformance extends ConnectionConformance {
    // ---- data --------------------------------------------------------------------------------

    @Test
    void deliversInOrder() {
        DriverInstance inst = connectEcho();
        int window = 16;
        Packet[] sends = new Packet[window];
        MemorySegment[] bufs = new MemorySegment[window];
        for (int i = 0; i < window; i++) {
            sends[i] = new Packet();
            bufs[i] = allocate(16);
        }
        MemorySegment in = allocate(16);
        Packet rp = new Packet();
        int next = 0;
        for (int round = 0; round < 64; round++) {
            for (int i = 0; i < window; i++) {
                bufs[i].set(ValueLayout.JAVA_LONG_UNALIGNED, 0, round * window + i);
                Packet p = sends[i].reset().useIov(IoVec.of(bufs[i]));
                assertEquals(Status.DONE, await(() -> inst.sendPost(p), "post"));
            }
            for (int i = 0; i < window; i++) {
                Packet p = sends[i];
                assertEquals(Status.DONE, await(() -> inst.sendPoll(p), "poll"));
            }
            for (int i = 0; i < window; i++) {
                assertEquals(16, Transfers.recvAny(inst, caps, in, rp));
                assertEquals(next++, in.get(ValueLayout.JAVA_LONG_UNALIGNED, 0), "packet order");
            }
        }
    }

    @Test
    void deliversEverySizeUpToTheMaximum() {
        DriverInstance inst = connectEcho();
        long max = Math.min(caps.maxPacketSize(), MAX_TESTED_PACKET);
        List<Long> sizes = new ArrayList<>(List.of(0L, 1L, 2L, 3L, 7L, 8L, 9L));
        for (long s = 16; s < max; s <<= 1) {
            sizes.add(s);
            if (s <= (1 << 20)) {
                sizes.add(s - 1);
                sizes.add(s + 1);
            }
        }
        sizes.add(max);
        MemorySegment out = allocate(max);
        MemorySegment in = allocate(max);
        Packet sp = new Packet();
        Packet rp = new Packet();
        for (long size : sizes) {
            if (size > max) {
                continue;
            }
            MemorySegment o = out.asSlice(0, size);
            fill(o, size);
            long n = sendAndEcho(inst, sp, rp, o, in);
            assertEquals(size, n, "echoed length");
            assertEquals(-1, checkPattern(in.asSlice(0, size), size), "content of a " + size + "-byte packet");
        }
    }

    /**
     * Heap memory carries packets both ways (the application API sends from and receives into
     * int[], long[]... in place): no ByteBuffer can view an int[], and one over a byte[] costs NIO
     * a copy of all it holds per write.
     */
    @Test
    void packetsFromAnIntArrayIntoALongArray() {
        DriverInstance inst = connectEcho();
        // up to several socket buffers' worth, and a size no piece size divides: a driver that
        // writes heap memory a piece at a time sends every piece, the last one short
        long max = Math.min(caps.maxPacketSize(), 4 << 20) & ~7L;
        for (long size : new long[] {8, 4096, Math.min(max, 1_000_008), max}) {
            MemorySegment o = MemorySegment.ofArray(new int[(int) (size / 4)]);
            MemorySegment in = MemorySegment.ofArray(new long[(int) (size / 8)]);
            fill(o, size);
            assertEquals(size, sendAndEcho(inst, new Packet(), new Packet(), o, in), "echoed length");
            assertEquals(-1, checkPattern(in, size), "content of a " + size + "-byte packet from an int[] into a long[]");
            MemorySegment bytes = MemorySegment.ofArray(new byte[(int) size]);
            fill(bytes, size);
            in.fill((byte) 0);
            assertEquals(size, sendAndEcho(inst, new Packet(), new Packet(), bytes, in), "echoed length");
            assertEquals(-1, checkPattern(in, size), "content of a " + size + "-byte packet from a byte[]");
        }
    }

    @Test
    void oversizedPacketIsInvalid() {
        DriverInstance inst = connectEcho();
        long over = caps.maxPacketSize() + 1;
        Packet p = new Packet();
        if (caps.supportsData()) {
            p.useData(new RepeatingLayout(allocate(4096), over));
        } else {
            assertTrue(over <= MAX_TESTED_PACKET + 1, "driver declares a maximum the kit cannot allocate for");
            p.useIov(IoVec.of(allocate(over)));
        }
        assertEquals(Status.INVALID, inst.sendPost(p), "a packet one byte over the maximum");
        // non-fatal: the connection still works
        MemorySegment m = allocate(8);
        fill(m, 1);
        assertEquals(8, sendAndEcho(inst, new Packet(), new Packet(), m, allocate(8)));
    }

    @Test
    void iovecsOf1To64Segments() {
        DriverInstance inst = connectEcho();
        Packet sp = new Packet();
        Packet rp = new Packet();
        if (!caps.supportsIovec()) {
            MemorySegment a = allocate(8);
            assertEquals(Status.INVALID, inst.sendPost(sp.useIov(IoVec.of(a, a))), "a 2-segment iovec without iovec support");
        }
        int maxSegs = caps.supportsIovec() ? Math.min(64, caps.maxIovecSegments()) : 1;
        for (int n = 1; n <= maxSegs; n++) {
            IoVec out = new IoVec(n);
            long total = 0;
            for (int i = 0; i < n; i++) {
                MemorySegment seg = allocate(1 + (i * 37L + n) % 300);
                out.add(seg);
                total += seg.byteSize();
            }
            MemorySegment expected = allocate(total);
            fill(expected, n);
            new DataCursor().reset(out).copyFrom(expected, 0, total);
            assertEquals(Status.DONE, Transfers.send(inst, sp.reset().useIov(out)), n + "-segment iovec send");
            // receive into a differently cut iovec
            int m = caps.supportsIovec() ? Math.max(1, Math.min(maxSegs, 65 - n)) : 1;
            IoVec in = new IoVec(m);
            long left = total;
            for (int i = 0; i < m; i++) {
                long len = i == m - 1 ? left : Math.min(left, total / m);
                in.add(allocate(len));
                left -= len;
            }
            assertEquals(Status.DONE, Transfers.recvPosted(inst, rp, in), m + "-segment iovec receive");
            assertEquals(total, rp.length());
            MemorySegment got = allocate(total);
            new DataCursor().reset(in).copyTo(got, 0, total);
            assertEquals(-1, checkPattern(got, n), "content through a " + n + "-segment iovec");
        }
    }

    @Test
    void stridedAndGenericLayouts() {
        DriverInstance inst = connectEcho();
        Packet p = new Packet();
        if (!caps.supportsData()) {
            MemorySegment m = allocate(64);
            assertEquals(Status.NOT_IMPLEMENTED, inst.sendPost(p.useData(DataLayout.strided(m, 0, 4, 8, 16))));
            assertEquals(Status.NOT_IMPLEMENTED, inst.recvPost(new Packet().useData(DataLayout.strided(m, 0, 4, 8, 16))));
            return;
        }
        long[][] shapes = {{100, 12, 20}, {3, 1, 7}, {1000, 1000, 1500}, {1, 0, 0}};
        for (long[] s : shapes) {
            long blocks = s[0], block = s[1], stride = s[2];
            long total = blocks * block;
            if (total > Math.min(caps.maxPacketSize(), MAX_TESTED_PACKET)) {
                continue;
            }
            MemorySegment src = allocate(Math.max(1, (blocks - 1) * stride + block));
            DataLayout out = DataLayout.strided(src, 0, blocks, block, stride);
            MemorySegment expected = allocate(total);
            fill(expected, blocks);
            new DataCursor().reset(out).copyFrom(expected, 0, total);
            assertEquals(Status.DONE, Transfers.send(inst, p.reset().useData(out)), "strided send " + blocks + "x" + block);
            // receive into another shape of the same size: a generic layout walking backwards through blocks
            MemorySegment dst = allocate(Math.max(1, (total + 6) / 7 * 7 * 2));
            DataLayout in = total == 0 ? DataLayout.strided(dst, 0, 0, 0, 0) : new ReversedBlocks(dst, total, 7);
            Packet rp = new Packet();
            assertEquals(Status.DONE, Transfers.recvPosted(inst, rp, in), "generic-layout receive");
            assertEquals(total, rp.length());
            MemorySegment got = allocate(total);
            new DataCursor().reset(in).copyTo(got, 0, total);
            assertEquals(-1, checkPattern(got, blocks), "content through strided " + blocks + "x" + block + "/" + stride);
        }
    }

    @Test
    void bufferBasedPaths() {
        DriverInstance inst = connectEcho();
        Packet p = new Packet();
        if (!caps.supportsBufSend()) {
            assertEquals(Status.NOT_IMPLEMENTED, inst.sendBufGet(p));
        }
        if (!caps.supportsBufRecv()) {
            assertEquals(Status.NOT_IMPLEMENTED, inst.recvBufRelease(p));
        }
        if (!caps.supportsBufSend()) {
            return;
        }
        MemorySegment in = allocate(caps.maxBufferSize());
        for (long size : new long[] {0, 1, 8, 100, caps.maxBufferSize()}) {
            p.reset();
            assertEquals(Status.DONE, await(() -> inst.sendBufGet(p), "sendBufGet"));
            assertSame(Packet.Form.BUFFER, p.form());
            assertTrue(p.buffer().byteSize() >= caps.maxBufferSize(), "driver buffer of " + p.buffer().byteSize() + " bytes");
            fill(p.buffer().asSlice(0, size), size + 3);
            p.length(size);
            assertEquals(Status.DONE, inst.sendBufPost(p));
            assertEquals(Status.DONE, await(() -> inst.sendPoll(p), "buffer send poll"));
            assertEquals(size, Transfers.recvAny(inst, caps, in, new Packet()), "echo of a buffer send");
            assertEquals(-1, checkPattern(in.asSlice(0, size), size + 3));
        }
    }
}
